"""What a model may open, and what an agent's tab may go on showing: the MCP server's ``open_page`` and
navigation tools, and the agent's navigation tools when its role enables them.

Rules, checked on the URL asked for and again on the URL the tab holds after
loading and before every observe, act or page method call (a redirect, a link
or a script may have taken it elsewhere):

* ``about:`` pages are allowed (``about:blank``);
* ``file:`` URLs are allowed under the allowed directories only — by default
  the server's current directory and the bundled examples; the path is resolved
  (``..`` and symbolic links) before it is compared, so no spelling leaves a
  root. Anything else is ``FILE_NOT_ALLOWED``: a client cannot browse the
  machine's directories through the surface;
* ``http(s):`` URLs are allowed on loopback hosts and on the origins the server
  was given (``--allow-origin``); anything else, and every other scheme, is
  ``URL_NOT_ALLOWED``.

:class:`UrlPolicy` is pure; the surface raises its refusals as tool errors.
"""

from __future__ import annotations

import ipaddress
import os
from importlib.resources import files
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import msgspec

from ..cdp.failures import FILE_NOT_ALLOWED, URL_NOT_ALLOWED
from ..errors import TabRefused
from ..runtime.pageapi import origin_of

__all__ = ["UrlPolicy", "default_dirs", "is_loopback"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this machine only."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_dirs() -> tuple[str, ...]:
    """The current directory and the bundled examples' directory, resolved."""
    examples = Path(str(files("cdpagent.examples"))).resolve()
    return (str(Path.cwd().resolve()), str(examples))


class UrlPolicy(msgspec.Struct, frozen=True):
    """The origins and directories an agent's tabs may show (see the module's rules)."""

    allow_origins: tuple[str, ...] = ()
    allow_dirs: tuple[str, ...] = ()
    """Directories (resolved when checked); empty means :func:`default_dirs`."""

    def check(self, url: str) -> None:
        """Raise :class:`~cdpagent.errors.TabRefused` (``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED``)
        when ``url`` may not be shown."""
        refused = self.refusal(url)
        if refused is not None:
            raise TabRefused(*refused)

    def refusal(self, url: str) -> tuple[str, str] | None:
        """``(code, message)`` when ``url`` may not be shown, else ``None``. Never raises."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "about":
            return None
        if scheme == "file":
            return self._file_refusal(parts.netloc, parts.path)
        if scheme in ("http", "https") and (
            is_loopback(parts.hostname or "") or origin_of(url) in self.allow_origins
        ):
            return None
        extra = f" and {', '.join(self.allow_origins)}" if self.allow_origins else ""
        return (
            URL_NOT_ALLOWED,
            f"{_short(url)} is not allowed: tabs may show file: pages under the allowed directories, "
            f"loopback http(s) URLs{extra}",
        )

    def _file_refusal(self, host: str, path: str) -> tuple[str, str] | None:
        dirs = tuple(os.path.realpath(d) for d in self.allow_dirs) or default_dirs()
        if host not in ("", "localhost"):
            return FILE_NOT_ALLOWED, f"file: URLs of another host ({_short(host)}) are not allowed"
        try:
            real = Path(os.path.realpath(url2pathname(unquote(path))))
        except (OSError, ValueError):
            return FILE_NOT_ALLOWED, "the file: URL does not name a path"
        if any(real.is_relative_to(root) for root in dirs):
            return None
        return (
            FILE_NOT_ALLOWED,
            f"{_short(str(real))} is outside the allowed directories ({', '.join(dirs)}); "
            "--allow-dir (allow_dirs) adds one",
        )


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
