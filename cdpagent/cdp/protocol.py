"""The CDP protocol core: message codec, call ids, pending calls, session routing.

This module contains no IO at all (the h11 / wsproto style). A
:class:`ProtocolCore` turns commands into bytes with :meth:`ProtocolCore.command`
and turns each message received from the browser into a list of protocol
events with :meth:`ProtocolCore.receive`. The Trio layer in
:mod:`cdpagent.cdp.connection` only moves those bytes and wakes the waiting tasks.

Rules it enforces:

* every command gets a fresh positive id; a reply resolves exactly the call that
  holds that id, and is dropped when no call does (unknown, or already
  cancelled with :meth:`ProtocolCore.cancel`);
* sessions exist from a ``Target.attachedToTarget`` event (of the browser's
  session, or of an attached session's auto-attach) until the matching
  ``Target.detachedFromTarget`` event; when a session detaches every call pending
  on it fails with :class:`~cdpagent.errors.SessionClosed`, and later messages
  for it are dropped; the sessions attached through it (a tab's frames drawn by
  another process) end with it, should the browser not detach them itself, and
  every session that ends is reported with a :class:`SessionEnded` so the layer
  above drops what it keeps for it;
* ``Inspector.targetCrashed`` fails every call pending on that session with
  :class:`~cdpagent.errors.TargetCrashed`, and new commands fail the same way
  until the target is reloaded;
* once :meth:`ProtocolCore.connection_lost` is called, every pending call fails
  with :class:`~cdpagent.errors.ConnectionClosed` and no new command is accepted.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..errors import CDPAgentError, ConnectionClosed, ProtocolError, SessionClosed, TargetCrashed
from .surrogates import replace_lone_surrogates

__all__ = [
    "CallFailed",
    "Event",
    "ProtocolCore",
    "Reply",
    "SessionEnded",
]


class _ErrorBody(msgspec.Struct):
    code: int = 0
    message: str = ""
    data: str | None = None


class _Incoming(msgspec.Struct):
    """Envelope of every message from the browser; payloads stay undecoded."""

    id: int | None = None
    method: str | None = None
    params: msgspec.Raw = msgspec.Raw(b"")
    result: msgspec.Raw = msgspec.Raw(b"")
    error: _ErrorBody | None = None
    sessionId: str | None = None


class _Outgoing(msgspec.Struct, omit_defaults=True):
    id: int
    method: str
    params: Any = None
    sessionId: str | None = None


class _SessionRef(msgspec.Struct):
    sessionId: str


class Reply(msgspec.Struct, frozen=True):
    """A successful answer to call ``id``; ``result`` is the raw JSON object."""

    id: int
    result: msgspec.Raw


class CallFailed(msgspec.Struct, frozen=True):
    """Call ``id`` failed: an error answer, its session went away, or the connection did."""

    id: int
    error: CDPAgentError


class Event(msgspec.Struct, frozen=True):
    """A CDP event for ``session_id`` (``None`` for the browser session)."""

    session_id: str | None
    method: str
    params: msgspec.Raw


class SessionEnded(msgspec.Struct, frozen=True):
    """Session ``session_id`` is gone: detached, or its parent session was."""

    session_id: str


ProtocolEvent = Reply | CallFailed | Event | SessionEnded

_EMPTY = msgspec.Raw(b"{}")


class _Pending(msgspec.Struct):
    method: str
    session_id: str | None


class ProtocolCore:
    """Pure CDP connection state; see the module docstring for its rules."""

    def __init__(self) -> None:
        self._next_id = 1
        self._pending: dict[int, _Pending] = {}
        # Attached sessions, each with the session its attach event came on.
        self._sessions: dict[str, str | None] = {}
        self._crashed: set[str] = set()
        self._closed: ConnectionClosed | None = None
        self._encoder = msgspec.json.Encoder()
        self._decoder = msgspec.json.Decoder(_Incoming)
        self._session_ref = msgspec.json.Decoder(_SessionRef)
        #: Messages dropped because their call or session was unknown (for tests and stats).
        self.dropped = 0

    @property
    def pending_count(self) -> int:
        """How many calls await an answer."""
        return len(self._pending)

    @property
    def attached(self) -> frozenset[str]:
        """The sessions attached now (for tests and stats)."""
        return frozenset(self._sessions)

    def pending_on(self, session_id: str | None) -> int:
        """How many calls await an answer on ``session_id``."""
        return sum(1 for p in self._pending.values() if p.session_id == session_id)

    def command(
        self, method: str, params: Any = None, session_id: str | None = None
    ) -> tuple[int, bytes]:
        """Allocate an id for ``method`` and return it with the bytes to send.

        ``params`` is any msgspec-encodable value (a dict or a Struct), or
        ``None`` for no params. Raises :class:`ConnectionClosed` after the
        connection was lost, :class:`TargetCrashed` for a crashed target and
        :class:`SessionClosed` for a session that is not (or no longer) attached.
        """
        if self._closed is not None:
            raise self._closed
        if session_id is not None:
            if session_id in self._crashed:
                raise TargetCrashed(f"{method}: the target has crashed")
            if session_id not in self._sessions:
                raise SessionClosed(f"{method}: session {session_id} is not attached")
        call_id = self._next_id
        self._next_id += 1
        data = self._encoder.encode(
            _Outgoing(call_id, method, params if params is not None else {}, session_id)
        )
        self._pending[call_id] = _Pending(method, session_id)
        return call_id, data

    def cancel(self, call_id: int) -> None:
        """Forget call ``call_id``: its reply, if one comes, will be dropped."""
        self._pending.pop(call_id, None)

    def receive(self, data: bytes | bytearray | memoryview) -> list[ProtocolEvent]:
        """Feed one complete message from the browser; return what it means.

        A lone UTF-16 surrogate in a string (a page's console message, a value) is
        replaced by U+FFFD rather than failing the message. Raises
        :class:`msgspec.DecodeError` when ``data`` is not a CDP message.
        """
        try:
            msg = self._decoder.decode(data)
        except msgspec.DecodeError:
            original = bytes(data)
            repaired = replace_lone_surrogates(original)
            if repaired == original:
                raise
            msg = self._decoder.decode(repaired)
        if msg.id is not None:
            return self._reply(msg)
        if msg.method is None:
            self.dropped += 1
            return []
        session_id = msg.sessionId
        if session_id is not None and session_id not in self._sessions:
            self.dropped += 1
            return []
        params = msg.params if msg.params else _EMPTY
        out: list[ProtocolEvent] = []
        ended: list[str] = []
        method = msg.method
        # Flat sessions attach from the browser's session and, for a page's frames
        # drawn by another process, from the page's own session (its auto-attach).
        if method == "Target.attachedToTarget":
            self._sessions[self._session_ref.decode(params).sessionId] = session_id
        elif method == "Target.detachedFromTarget":
            ended = self._end_session(self._session_ref.decode(params).sessionId)
            for gone in ended:
                out.extend(self._fail_session(gone, SessionClosed, "the target was closed or detached"))
        elif method == "Inspector.targetCrashed" and session_id is not None:
            self._crashed.add(session_id)
            out.extend(self._fail_session(session_id, TargetCrashed, "the target crashed"))
        elif method == "Inspector.targetReloadedAfterCrash" and session_id is not None:
            self._crashed.discard(session_id)
        out.append(Event(session_id, method, params))
        out.extend(SessionEnded(gone) for gone in ended)
        return out

    def connection_lost(self, reason: str = "the connection to the browser closed") -> list[CallFailed]:
        """Mark the connection closed and fail every pending call."""
        if self._closed is None:
            self._closed = ConnectionClosed(reason)
        failed = [
            CallFailed(call_id, ConnectionClosed(f"{p.method}: {reason}"))
            for call_id, p in self._pending.items()
        ]
        self._pending.clear()
        self._sessions.clear()
        return failed

    def _reply(self, msg: _Incoming) -> list[ProtocolEvent]:
        assert msg.id is not None
        pending = self._pending.pop(msg.id, None)
        if pending is None:
            self.dropped += 1
            return []
        if msg.error is not None:
            err = msg.error
            return [CallFailed(msg.id, ProtocolError(pending.method, err.code, err.message, err.data))]
        return [Reply(msg.id, msg.result if msg.result else _EMPTY)]

    def _end_session(self, session_id: str) -> list[str]:
        """Forget ``session_id`` and the sessions attached through it; the ids that were attached."""
        ended = [session_id] if session_id in self._sessions else []
        for gone in ended:  # grows while it is walked: children, then theirs
            ended.extend(child for child, parent in self._sessions.items() if parent == gone)
        for gone in ended:
            self._sessions.pop(gone, None)
            self._crashed.discard(gone)
        return ended

    def _fail_session(
        self, session_id: str, kind: type[SessionClosed], why: str
    ) -> list[CallFailed]:
        ids = [i for i, p in self._pending.items() if p.session_id == session_id]
        return [CallFailed(i, kind(f"{self._pending.pop(i).method}: {why}")) for i in ids]
