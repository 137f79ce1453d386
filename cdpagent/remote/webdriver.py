"""The WebDriver wire a Selenium Grid hub speaks, as far as cdpagent needs it (SC-1).

Three requests: ``GET /status`` (is this a grid, which slots exist, which are
busy, how long the nodes let a session idle), ``POST /session`` (a new session
whose capabilities carry ``se:cdp``, the browser-level CDP endpoint the hub
proxies) and ``DELETE /session/<id>``.

Rules this module enforces:

* A request body is JSON sent as ``application/json; charset=utf-8``; the grid
  refuses a plain ``application/json``.
* Every answer is classified into a value or one :class:`~cdpagent.errors.GridError`
  subclass naming the cause: an answer that is not a JSON object with
  ``value`` is :class:`GridNotAHub`; ``session not created`` after the queue
  timed out is :class:`GridNoFreeSlot`; any other refusal of a new session,
  and ``invalid argument``, is :class:`GridCapabilitiesRefused`.
* Deleting a session the grid no longer knows (``invalid session id``)
  succeeds: the session is gone, which is what was asked.

The parsing functions are pure (bytes in, values or errors out);
:func:`exchange` is the only function that does IO: one HTTP/1.1 request per
connection, through :mod:`cdpagent.cdp.http1` (h11), bounded in time and size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlsplit

import msgspec

from ..cdp.http1 import Answer, request
from ..errors import (
    GridCapabilitiesRefused,
    GridError,
    GridNoFreeSlot,
    GridNotAHub,
    GridUnreachable,
    HttpFailure,
)

__all__ = [
    "JSON_UTF8",
    "Answer",
    "GridSession",
    "HubStatus",
    "Slot",
    "exchange",
    "new_session_body",
    "offers",
    "read_deleted",
    "read_new_session",
    "read_status",
]

JSON_UTF8: Final = "application/json; charset=utf-8"

#: Largest answer read from a hub; a status page of a big grid is well below it.
MAX_ANSWER: Final = 8 * 1024 * 1024

# Capabilities a slot must agree on when the request names them; others
# (vendor options, timeouts) are the driver's to accept or refuse.
_MATCHED: Final = ("browserName", "browserVersion", "platformName")

_decode = msgspec.json.Decoder()


class Slot(msgspec.Struct, frozen=True):
    """One slot of a node: what it offers and the session running in it, if any."""

    stereotype: dict[str, Any]
    session_id: str | None


class HubStatus(msgspec.Struct, frozen=True):
    """What ``GET /status`` says: readiness, every slot, and the shortest node idle timeout (s)."""

    ready: bool
    message: str
    slots: list[Slot]
    session_timeout: float | None

    def free_slots(self, capabilities: Mapping[str, Any]) -> int:
        """How many idle slots offer ``capabilities``."""
        return sum(1 for s in self.slots if s.session_id is None and offers(s.stereotype, capabilities))

    def offering(self, capabilities: Mapping[str, Any]) -> int:
        """How many slots, busy or idle, offer ``capabilities``."""
        return sum(1 for s in self.slots if offers(s.stereotype, capabilities))

    def sessions(self) -> set[str]:
        """The ids of the sessions running on the grid."""
        return {s.session_id for s in self.slots if s.session_id is not None}


class GridSession(msgspec.Struct, frozen=True):
    """A session the grid created: its id, its CDP websocket url and its capabilities."""

    session_id: str
    cdp_url: str
    capabilities: dict[str, Any]


def offers(stereotype: Mapping[str, Any], capabilities: Mapping[str, Any]) -> bool:
    """Whether a slot with ``stereotype`` can take a request for ``capabilities``.

    Compares the capabilities every grid matches on (browser name, version,
    platform, case-insensitively); a capability the request leaves out matches anything.
    """
    for name in _MATCHED:
        wanted = capabilities.get(name)
        if wanted is None or wanted == "":
            continue
        have = stereotype.get(name)
        if have is not None and str(have).lower() != str(wanted).lower():
            return False
        if have is None and name == "browserName":
            return False
    return True


def new_session_body(capabilities: Mapping[str, Any]) -> bytes:
    """The body of ``POST /session`` asking for ``capabilities`` (W3C ``alwaysMatch``)."""
    return msgspec.json.encode({"capabilities": {"alwaysMatch": dict(capabilities), "firstMatch": [{}]}})


def _value(hub: str, what: str, answer: Answer) -> Any:
    """The ``value`` member of a JSON answer; raises :class:`GridNotAHub` for anything else."""
    kind = answer.content_type.split(";", 1)[0].strip().lower()
    if kind != "application/json":
        shown = kind or "no content type"
        raise GridNotAHub(hub, f"{what} answered {answer.status} with {shown}, not a Selenium Grid's JSON")
    try:
        document = _decode.decode(answer.body)
    except msgspec.DecodeError as exc:
        raise GridNotAHub(hub, f"{what} answered {answer.status} with malformed JSON: {exc}") from None
    if not isinstance(document, dict) or "value" not in document:
        raise GridNotAHub(hub, f"{what} answered JSON without a WebDriver 'value' member")
    return document["value"]


def _failure(value: Any) -> tuple[str, str] | None:
    """``(error, message)`` of a WebDriver error value, or ``None`` for a success value."""
    if isinstance(value, dict) and isinstance(value.get("error"), str):
        message = value.get("message")
        first_line = str(message).split("\n", 1)[0] if message is not None else ""
        return value["error"], first_line
    return None


def read_status(hub: str, answer: Answer) -> HubStatus:
    """Parse the answer to ``GET /status``.

    Raises :class:`GridNotAHub` when the answer is not a grid's status (a
    standalone WebDriver without ``nodes`` is not a grid either).
    """
    value = _value(hub, "GET /status", answer)
    if not isinstance(value, dict) or not isinstance(value.get("nodes"), list):
        raise GridNotAHub(hub, "GET /status has no 'nodes': this is not a Selenium Grid hub")
    slots: list[Slot] = []
    timeouts: list[float] = []
    for node in value["nodes"]:
        if not isinstance(node, dict) or node.get("availability", "UP") != "UP":
            continue
        if isinstance(node.get("sessionTimeout"), int | float):
            timeouts.append(node["sessionTimeout"] / 1000)
        for slot in node.get("slots") or ():
            session = slot.get("session")
            session_id = session.get("sessionId") if isinstance(session, dict) else None
            slots.append(Slot(dict(slot.get("stereotype") or {}), session_id))
    return HubStatus(
        ready=bool(value.get("ready")),
        message=str(value.get("message", "")),
        slots=slots,
        session_timeout=min(timeouts) if timeouts else None,
    )


def read_new_session(hub: str, answer: Answer) -> GridSession:
    """Parse the answer to ``POST /session``.

    Raises :class:`GridNoFreeSlot` when the request timed out in the grid's
    queue, :class:`GridCapabilitiesRefused` when the grid or the driver refused
    the capabilities or the session has no ``se:cdp`` endpoint,
    :class:`GridNotAHub` for a non-WebDriver answer and :class:`GridError` for
    any other WebDriver error.
    """
    value = _value(hub, "POST /session", answer)
    failure = _failure(value)
    if failure is not None:
        error, message = failure
        if error == "session not created" and "timed out" in message.lower():
            raise GridNoFreeSlot(hub, f"no slot became free for the session: {message}")
        if error in ("session not created", "invalid argument"):
            raise GridCapabilitiesRefused(hub, f"{error}: {message}")
        raise GridError(hub, f"POST /session failed with {error}: {message}")
    session_id = value.get("sessionId") if isinstance(value, dict) else None
    capabilities = value.get("capabilities") if isinstance(value, dict) else None
    if not isinstance(session_id, str) or not isinstance(capabilities, dict):
        raise GridNotAHub(hub, "POST /session answered without a sessionId and capabilities")
    cdp_url = capabilities.get("se:cdp")
    if not isinstance(cdp_url, str) or urlsplit(cdp_url).scheme not in ("ws", "wss"):
        raise GridCapabilitiesRefused(
            hub, f"session {session_id} has no se:cdp websocket (not a Chromium browser, or CDP is off)"
        )
    return GridSession(session_id, cdp_url, capabilities)


def read_deleted(hub: str, session_id: str, answer: Answer) -> None:
    """Check the answer to ``DELETE /session/<id>``; a session already gone counts as deleted.

    Raises :class:`GridNotAHub` for a non-WebDriver answer and :class:`GridError`
    when the grid reports another failure.
    """
    failure = _failure(_value(hub, f"DELETE /session/{session_id}", answer))
    if failure is not None and failure[0] != "invalid session id":
        raise GridError(hub, f"could not delete session {session_id}: {failure[0]}: {failure[1]}")


async def exchange(hub: str, method: str, path: str, body: bytes | None, *, timeout: float) -> Answer:
    """Send one request to ``hub`` (``http://host:port[/prefix]``) and read the whole answer.

    Raises :class:`GridUnreachable` when the hub cannot be reached or gives no
    complete answer within ``timeout`` seconds, :class:`GridNotAHub` when what
    answers does not speak HTTP, or sends more than :data:`MAX_ANSWER` bytes.
    """
    parts = urlsplit(hub)
    if parts.scheme != "http" or not parts.hostname:
        raise GridUnreachable(hub, "a hub url is http://host:port (optionally with a path prefix)")
    target = parts.path.rstrip("/") + path
    headers = [("Accept", "application/json")]
    if body is not None:
        headers.append(("Content-Type", JSON_UTF8))
    url = f"http://{parts.netloc}{target}"
    try:
        return await request(url, method, body, headers=headers, timeout=timeout, max_size=MAX_ANSWER)
    except HttpFailure as failure:
        if failure.kind in ("not_http", "too_large"):
            raise GridNotAHub(hub, failure.message) from None
        if failure.kind == "timeout":
            raise GridUnreachable(hub, f"{method} {target} got no answer within {timeout} s") from None
        if failure.kind == "closed":
            raise GridUnreachable(hub, "the hub closed the connection before answering") from None
        raise GridUnreachable(hub, f"cannot reach the hub ({failure.message})") from None
