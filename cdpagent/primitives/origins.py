"""Web origins in the one form the browser uses: pure (SPEC BR-6).

A storage state names origins as text, and the same origin can be written many
ways: ``http://0x7f000001:8000``, ``http://127.1:8000``, ``http://127.0.0.1:08000``
and ``http://127.0.0.1:8000`` are one origin to the browser. :func:`web_origin`
parses an origin the way the browser's URL parser does (the WHATWG URL standard:
scheme and host lower-cased, IPv4 in any of its numeric forms made dotted-decimal,
IPv6 compressed, the default port dropped, leading zeros of the port dropped) and
returns its one serialisation, so what is compared, intercepted and navigated to is
what the browser will see. An origin is only ``scheme://host[:port]``: text with a
path, a query, a fragment or credentials is refused rather than guessed at.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Final

__all__ = ["web_origin"]

_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_ORIGIN = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<authority>[^/?#]*)(?P<rest>.*)$", re.S)
_DOMAIN = re.compile(r"^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$")


def _ipv4_part(text: str) -> int | None:
    """One part of a numeric IPv4 host (decimal, ``0x`` hex or ``0`` octal), or None."""
    if text[:2] in ("0x", "0X"):
        digits, base = text[2:] or "0", 16
    elif len(text) > 1 and text.startswith("0"):
        digits, base = text[1:], 8
    else:
        digits, base = text, 10
    try:
        return int(digits, base) if re.fullmatch(r"[0-9a-fA-F]+", digits) else None
    except ValueError:
        return None


def _ipv4(host: str) -> str | None:
    """The dotted-decimal form of a numeric IPv4 host, None when ``host`` is a domain.

    Raises :class:`ValueError` for a host whose last label is numeric but which is no
    address (the browser refuses such a URL).
    """
    parts = host.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    if not re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]*", parts[-1]):
        return None
    numbers = [_ipv4_part(p) if p else None for p in parts]
    if len(parts) > 4 or any(n is None for n in numbers):
        raise ValueError(f"{host!r} is neither an IPv4 address nor a domain")
    values = [n for n in numbers if n is not None]
    if any(n > 255 for n in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise ValueError(f"{host!r} is out of the IPv4 range")
    address = values[-1]
    for i, n in enumerate(values[:-1]):
        address += n << (8 * (3 - i))
    return str(ipaddress.IPv4Address(address))


def _ipv6(inner: str) -> str:
    """``[…]`` of an IPv6 host, compressed the way the URL standard serialises it (hex pieces only)."""
    try:
        pieces = [int(p, 16) for p in ipaddress.IPv6Address(inner).exploded.split(":")]
    except ValueError:
        raise ValueError(f"[{inner}] is not an IPv6 address") from None
    best, best_len, i = -1, 1, 0
    while i < len(pieces):  # the first longest run of two or more zero pieces becomes "::"
        j = i
        while j < len(pieces) and pieces[j] == 0:
            j += 1
        if j - i > best_len:
            best, best_len = i, j - i
        i = max(j, i + 1)
    if best < 0:
        return "[" + ":".join(f"{p:x}" for p in pieces) + "]"
    head = ":".join(f"{p:x}" for p in pieces[:best])
    tail = ":".join(f"{p:x}" for p in pieces[best + best_len :])
    return f"[{head}::{tail}]"


def _host(text: str) -> str:
    if text.startswith("["):
        if not text.endswith("]"):
            raise ValueError(f"{text!r} is not a bracketed IPv6 address")
        return _ipv6(text[1:-1])
    if not text or "%" in text:
        raise ValueError(f"{text!r} is not a host")
    try:
        host = text.encode("idna").decode("ascii").lower() if not text.isascii() else text.lower()
    except UnicodeError:
        raise ValueError(f"{text!r} is not a host") from None
    dotted = _ipv4(host)
    if dotted is not None:
        return dotted
    if not _DOMAIN.match(host):
        raise ValueError(f"{text!r} is not a host")
    return host


def web_origin(text: str) -> str:
    """The browser's serialisation of the ``http:``/``https:`` origin ``text``: pure.

    ``scheme://host`` with ``:port`` unless it is the scheme's default. Raises
    :class:`ValueError` saying why when ``text`` is not such an origin: another scheme,
    credentials, a path other than ``/``, a query or a fragment, a host that is
    neither a domain nor an address, or a port that is not a number below 65536.
    """
    found = _ORIGIN.match(text.strip())
    if found is None:
        raise ValueError("not scheme://host[:port]")
    scheme = found["scheme"].lower()
    if scheme not in _DEFAULT_PORTS:
        raise ValueError(f"the scheme {scheme}: has no web origin (http: or https: only)")
    if found["rest"] not in ("", "/"):
        raise ValueError("an origin has no path, query or fragment")
    authority = found["authority"]
    if "@" in authority:
        raise ValueError("an origin has no credentials")
    host_text, port_text = authority, ""
    if authority.startswith("["):
        close = authority.find("]")
        host_text, port_text = authority[: close + 1], authority[close + 1 :]
        if port_text and not port_text.startswith(":"):
            raise ValueError(f"{authority!r} is not host[:port]")
        port_text = port_text[1:]
    elif ":" in authority:
        host_text, port_text = authority.rsplit(":", 1)
    host = _host(host_text)
    port = _DEFAULT_PORTS[scheme]
    if port_text:
        if not port_text.isascii() or not port_text.isdigit() or int(port_text) > 65535:
            raise ValueError(f"the port {port_text!r} is not a number below 65536")
        port = int(port_text)
    suffix = "" if port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{suffix}"
