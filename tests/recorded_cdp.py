"""Whole CDP connections recorded against Chromium and replayed without it (a mock backend, as httpcore's).

:mod:`fake_target` replays one tab's session under a ``Tab`` built by hand. This module
replays whole connections under the transport, so everything above the transport is the
real code: :func:`cdpagent.connect`, ``Browser`` and its tabs opening and closing, the
tab's decisions, ``Thread``, the agent, the MCP surface. A test written against the
endpoint of :func:`endpoint` runs unchanged in both modes:

- **record** (``CDPAGENT_RECORD=1``): the endpoint is the session browser's; every
  message each connection sends and receives is kept, in order, and written to
  ``tests/traces/connections/MODULE/TEST.json`` when the test passes (``.json.gz`` past
  :data:`LARGE` bytes);
- **replay** (the default): no browser. The rules the replay enforces:

  1. Every command sent must be in the recording: the same session, method and
     parameters. It takes the first recorded command not yet taken that has all three;
     when there is none, the test fails naming the nearest recorded one.
  2. A recorded reply or event is delivered once every command recorded before it has
     been sent (so a loop that polls until an event comes polls as often as it did);
     a reply carries the id its command was sent with. Work the test does not wait for
     (the setup of tabs that were open when it connected) may end unsent with the test:
     what the test checks is in its own assertions.
  3. The checkout's folder and pytest's temporary folder are written as placeholders, so
     file URLs replay in any clone; the random names the code gives the page (the Page
     Agent API's binding, entry point and key, the quiet event) are made the same in
     both modes, so the parameters that carry them compare equal. What else differs from
     run to run (the port of a loopback server) the test names with :meth:`Recorded.vary`.

Re-record when the cores change the commands they send (rule 1 names the first
difference): ``CDPAGENT_RECORD=1 .venv/bin/pytest tests/test_agent_loop.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio

from cdpagent import ConnectionClosed
from cdpagent.cdp import transport as transport_module
from cdpagent.cdp import world
from cdpagent.lowlevel import Transport
from cdpagent.runtime import pageapi

ROOT = Path(__file__).resolve().parent.parent
CONNECTIONS = Path(__file__).resolve().parent / "traces" / "connections"
#: Set to record instead of replaying (the tests that use :func:`endpoint` then need Chromium).
RECORD = "CDPAGENT_RECORD"
#: The endpoint a test connects to; :func:`endpoint` routes it to a recording or to Chromium.
REPLAY_URL = "ws://127.0.0.1:9/devtools/browser/recorded"
#: Strings of the commands sent longer than this (the page scripts the cores install) are kept as
#: their length and digest: compared as strictly, a fraction of the size.
LONG = 1000
#: A recording larger than this (a burst of 1,000 posts, tools with 200 KB descriptions) is gzipped.
LARGE = 500_000
_ROOT_MARK = "@ROOT@"
_TMP_MARK = "@TMP@"

_decode = msgspec.json.Decoder()
_encode = msgspec.json.Encoder()


def _digested(value: Any) -> Any:
    """``value`` with every string longer than :data:`LONG` replaced by its length and digest."""
    if isinstance(value, str):
        if len(value) <= LONG:
            return value
        return f"<{len(value)} chars, sha256 {hashlib.sha256(value.encode()).hexdigest()[:16]}>"
    if isinstance(value, dict):
        return {k: _digested(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_digested(v) for v in value]
    return value


def _command_key(message: dict[str, Any]) -> tuple[str | None, str, str]:
    params = message.get("params")
    return (message.get("sessionId"), message["method"], "" if params is None else _canonical(params))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class RecordingTransport:
    """A real transport whose messages are kept, in order, as one connection of a recording."""

    def __init__(self, inner: Transport, log: list[dict[str, Any]]) -> None:
        self._inner = inner
        self._log = log
        self._sent: dict[int, int] = {}  # the id of a command -> its index in the log

    async def send(self, message: bytes) -> None:
        decoded = _decode.decode(message)
        self._sent[decoded["id"]] = len(self._log)
        out = {k: _digested(decoded[k]) for k in ("sessionId", "method", "params") if k in decoded}
        self._log.append({"send": out})
        await self._inner.send(message)

    async def receive(self) -> bytes | bytearray:
        message = await self._inner.receive()
        decoded = _decode.decode(message)
        if "id" in decoded:
            index = self._sent.pop(decoded.pop("id"), None)
            if index is None:
                return message  # a reply to nothing we sent: the connection core drops it too
            self._log.append({"reply": index, **decoded})
        else:
            self._log.append({"event": decoded})
        return message

    async def aclose(self) -> None:
        await self._inner.aclose()


class ReplayTransport:
    """A transport that answers from one recorded connection (the rules are in the module doc)."""

    def __init__(self, log: list[dict[str, Any]], name: str, swaps: list[tuple[str, str]]) -> None:
        self._log = log
        self._name = name
        self._swaps = swaps  # (recorded, this run's) values of what the test said varies
        self._waiting: dict[tuple[str | None, str, str], deque[int]] = {}
        for index, entry in enumerate(log):
            if "send" in entry:
                self._waiting.setdefault(_command_key(entry["send"]), deque()).append(index)
        self._ids: dict[int, int] = {}  # recorded command index -> the id it was sent with
        self._first_unsent = 0  # every command before this index has been sent
        self._next = 0  # the next incoming message to deliver
        self._changed = trio.Event()
        self._closed = False
        self.failure: str | None = None

    def _sent_through(self) -> int:
        while self._first_unsent < len(self._log):
            entry = self._log[self._first_unsent]
            if "send" in entry and self._first_unsent not in self._ids:
                break
            self._first_unsent += 1
        return self._first_unsent

    async def send(self, message: bytes) -> None:
        if self._closed:
            raise ConnectionClosed("the replayed connection is closed")
        text = message.decode()
        for recorded, now in self._swaps:
            text = text.replace(now, recorded)
        decoded = _digested(_decode.decode(text))
        queue = self._waiting.get(_command_key(decoded))
        if not queue:
            self.failure = self._not_recorded(decoded)
            self._closed = True
            self._changed.set()
            raise AssertionError(self.failure)
        self._ids[queue.popleft()] = decoded["id"]
        self._changed.set()
        await trio.lowlevel.checkpoint()

    def _not_recorded(self, sent: dict[str, Any]) -> str:
        same = [
            e["send"]
            for i, e in enumerate(self._log)
            if "send" in e
            and i not in self._ids
            and (e["send"].get("sessionId"), e["send"]["method"]) == (sent.get("sessionId"), sent["method"])
        ]
        said = f"{self._name}: the code sent {sent['method']} {_canonical(sent.get('params'))[:600]}"
        if not same:
            return (
                f"{said}; the recording has no {sent['method']} left on that session (re-record: {RECORD}=1)"
            )
        return f"{said}; the recording has {_canonical(same[0].get('params'))[:600]} (re-record: {RECORD}=1)"

    async def receive(self) -> bytes | bytearray:
        while True:
            if self._closed:
                raise ConnectionClosed(self.failure or "the replayed connection is closed")
            while self._next < len(self._log) and "send" in self._log[self._next]:
                self._next += 1
            if self._next >= len(self._log):
                self._changed = trio.Event()
                await self._changed.wait()  # the recording is over: nothing more arrives
                continue
            if self._next <= self._sent_through():
                entry = self._log[self._next]
                self._next += 1
                if "event" in entry:
                    return self._swapped(_encode.encode(entry["event"]))
                reply = {k: v for k, v in entry.items() if k != "reply"}
                return self._swapped(_encode.encode({"id": self._ids[entry["reply"]], **reply}))
            self._changed = trio.Event()
            await self._changed.wait()

    def _swapped(self, message: bytes) -> bytes:
        if not self._swaps:
            return message
        text = message.decode()
        for recorded, now in self._swaps:
            text = text.replace(recorded, now)
        return text.encode()

    async def aclose(self) -> None:
        self._closed = True
        self._changed.set()


@dataclass
class Recorded:
    """The connections of one test, recorded or replayed."""

    path: Path
    recording: bool
    tmp: str
    connections: list[list[dict[str, Any]]] = field(default_factory=list)
    replays: list[ReplayTransport] = field(default_factory=list)
    url: str = REPLAY_URL
    #: What the test said varies from run to run, by name, as it was when recorded.
    varying: dict[str, str] = field(default_factory=dict)
    swaps: list[tuple[str, str]] = field(default_factory=list)

    def vary(self, name: str, value: str) -> None:
        """Say that ``value`` (this run's, say ``127.0.0.1:PORT``) varies from run to run.

        A recording keeps it under ``name``; a replay compares and answers as if the recorded
        value had been this one. Call it before the value first reaches the browser.
        """
        if self.recording:
            self.varying[name] = value
        else:
            self.swaps.append((self.varying[name], value))

    def finish(self, passed: bool) -> None:
        """Write the recording of a passed test; fail a passed replay whose code broke rule 1 (where
        the code caught the failure) or opened fewer connections than were recorded."""
        if not passed:
            return
        if self.recording:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connections = ",\n".join(
                "[\n" + ",\n".join(json.dumps(e, ensure_ascii=False, sort_keys=True) for e in c) + "\n]"
                for c in self.connections
            )
            varying = json.dumps(self.varying, ensure_ascii=False, sort_keys=True)
            text = '{"varying": ' + varying + ', "connections": [\n' + connections + "\n]}\n"
            data = _placeholders(text, self.tmp).encode()
            large = self.path.with_suffix(".json.gz")
            self.path.unlink(missing_ok=True)
            large.unlink(missing_ok=True)
            if len(data) > LARGE:
                large.write_bytes(gzip.compress(data, mtime=0))
            else:
                self.path.write_bytes(data)
            return
        failures = [r.failure for r in self.replays if r.failure]
        assert not failures, failures[0]
        assert len(self.replays) == len(self.connections), "the test opened fewer connections than recorded"


def _placeholders(text: str, tmp: str) -> str:
    return text.replace(tmp, _TMP_MARK).replace(str(ROOT), _ROOT_MARK)


def _places(text: str, tmp: str) -> str:
    return text.replace(_TMP_MARK, tmp).replace(_ROOT_MARK, str(ROOT))


def recording_path(node: pytest.Item) -> Path:
    """Where the connections of test ``node`` are kept."""
    module = Path(str(node.path)).stem
    name = node.name.replace("/", "_").replace("[", "-").replace("]", "").replace(" ", "_")
    return CONNECTIONS / module / f"{name}.json"


class _Tokens:
    """``secrets`` for the Page Agent API: the same names in every run of a test (rule 3)."""

    def __init__(self) -> None:
        self._count = itertools.count(1)

    def token_hex(self, nbytes: int = 32) -> str:
        return f"{next(self._count):0{2 * nbytes}x}"


@contextmanager
def endpoint(
    node: pytest.Item, monkeypatch: pytest.MonkeyPatch, tmp: Path, chrome_endpoint: str | None
) -> Iterator[Recorded]:
    """Route :data:`REPLAY_URL` for test ``node`` to its recording, or to Chromium's ``chrome_endpoint``.

    Call :meth:`Recorded.finish` with the test's outcome before leaving.
    """
    recorded = Recorded(recording_path(node), recording=chrome_endpoint is not None, tmp=str(tmp))
    if not recorded.recording:
        large = recorded.path.with_suffix(".json.gz")
        if large.is_file():
            text = gzip.decompress(large.read_bytes()).decode()
        elif recorded.path.is_file():
            text = recorded.path.read_text(encoding="utf-8")
        else:
            pytest.fail(
                f"no recording {recorded.path.relative_to(ROOT)}: run {RECORD}=1 pytest {node.nodeid}"
            )
        saved = json.loads(_places(text, recorded.tmp))
        recorded.connections, recorded.varying = saved["connections"], saved.get("varying", {})
    monkeypatch.setattr(pageapi, "secrets", _Tokens())
    monkeypatch.setattr(world, "QUIET_EVENT", "cdpagent-quiet-recorded")
    # The install commands are built once per process: built again with the fixed name, and
    # again after the test, so that no other test sees it.
    world.install_commands.cache_clear()
    opened = itertools.count()
    real_open = transport_module.WebSocketTransport.open

    async def open_transport(url: str, nursery: trio.Nursery | None = None) -> Any:
        if url != REPLAY_URL:
            return await real_open(url, nursery)
        index = next(opened)
        if recorded.recording:
            assert chrome_endpoint is not None
            log: list[dict[str, Any]] = []
            recorded.connections.append(log)
            return RecordingTransport(await real_open(chrome_endpoint, nursery), log)
        assert index < len(recorded.connections), f"the test opened connection {index + 1}; recorded: {index}"
        name = f"{node.name} connection {index + 1}"
        replay = ReplayTransport(recorded.connections[index], name, recorded.swaps)
        recorded.replays.append(replay)
        return replay

    monkeypatch.setattr(transport_module.WebSocketTransport, "open", open_transport)
    try:
        yield recorded
    finally:
        world.install_commands.cache_clear()
