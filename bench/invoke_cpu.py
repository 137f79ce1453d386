"""Python's own cost of a call, without a browser: ``Tab.invoke`` beside the same command sent raw.

The real :class:`~cdpagent.cdp.connection.Connection`, :class:`~cdpagent.cdp.connection.Session`
and :class:`cdpagent.Tab` run over a loopback transport that answers every command of a
burst at once with the reply Chromium gives ``Tab.invoke("small")``; 4 tabs' worth of
callers with 64 calls in flight each. Prints this process's CPU time per call (median
of the rounds) for the raw command (``Session.send``, generic decoding) and for
``Tab.invoke``, so what invoke itself adds is measured apart from the browser and the
system calls. On a loaded machine CPU time still swings; instructions do not:

    .venv/bin/python bench/invoke_cpu.py [--calls N] [--rounds N]
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/invoke_cpu.py --only invoke --calls 4000 --rounds 1
    (run it with two --calls values; the difference of the "Collected" counts ÷ the
    difference of the calls is the instructions per call)
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import trio

import cdpagent
from cdpagent.lowlevel import Connection
from cdpagent.runtime import PageApi
from cdpagent.runtime.pageapi import INVOKE_FUNCTION

SESSION = "S" * 32
VALUE = {"ok": True, "n": 42, "items": [1, 2, 3], "name": "small"}
_TEXT = msgspec.json.encode(msgspec.json.encode({"ok": True, "value": VALUE}).decode())
REPLY = b'{"id":%d,"result":{"result":{"type":"string","value":' + _TEXT.replace(b"%", b"%%") + b"}}"
REPLY += b',"sessionId":"' + SESSION.encode() + b'"}'


class _Id(msgspec.Struct):
    id: int


_command_id = msgspec.json.Decoder(_Id)


class LoopbackTransport:
    """Answers every command sent since the last burst, all at once (as one read would)."""

    def __init__(self) -> None:
        self._sent: list[int] = []
        self._ready: list[bytes] = []
        self._wake = trio.Event()

    async def send(self, message: bytes) -> None:
        self._sent.append(_command_id.decode(message).id)
        self._wake.set()
        await trio.lowlevel.checkpoint_if_cancelled()

    async def receive(self) -> bytes:
        while not self._ready:
            if not self._sent:
                self._wake = trio.Event()
                await self._wake.wait()
            await trio.lowlevel.cancel_shielded_checkpoint()
            self._ready = [REPLY % call_id for call_id in reversed(self._sent)]
            self._sent = []
        return self._ready.pop()

    async def aclose(self) -> None:
        await trio.lowlevel.checkpoint()


class _Host:
    """The few parts of a browser a tab reads on the invoke path."""

    def __init__(self, api: PageApi) -> None:
        self.extensions = [api]
        self.tracer = None
        self.tabs: list[cdpagent.Tab] = []

    def tab(self, tab_id: str) -> None:
        return None


async def _workload(op: Callable[[], Awaitable[Any]], callers: int, calls: int) -> float:
    """CPU µs per call of ``calls`` calls of ``op`` by ``callers`` concurrent callers."""
    done = 0

    async def caller() -> None:
        nonlocal done
        while done < calls:
            done += 1
            await op()

    cpu = time.process_time()
    async with trio.open_nursery() as nursery:
        for _ in range(callers):
            nursery.start_soon(caller)
    return (time.process_time() - cpu) / calls * 1e6


async def measure(calls: int, rounds: int, only: str | None) -> dict[str, list[float]]:
    connection = Connection(LoopbackTransport())
    async with trio.open_nursery() as nursery:
        nursery.start_soon(connection.run)
        attached = {"method": "Target.attachedToTarget", "params": {"sessionId": SESSION, "targetInfo": {}}}
        connection.feed(msgspec.json.encode(attached))
        session = connection.session(SESSION)
        api = PageApi()
        tab = cdpagent.Tab(_Host(api), "tab1", "target1", session)  # type: ignore[arg-type]
        tab.documents.load_frame_tree({"frame": {"id": "F", "loaderId": "L", "url": "file:///bench.html"}})
        main = tab.documents.main
        assert main is not None
        tab.documents.mark_ready(main, "complete")
        context = {"id": 7, "uniqueId": "u", "name": "", "auxData": {"frameId": "F", "isDefault": True}}
        tab.documents.apply("Runtime.executionContextCreated", {"context": context})
        same = {
            "functionDeclaration": api.bind(INVOKE_FUNCTION),
            "arguments": [{"value": "small"}, {"value": "{}"}],
            "executionContextId": 7,
            "returnByValue": True,
            "awaitPromise": True,
        }
        ops: dict[str, Callable[[], Awaitable[Any]]] = {
            "raw": lambda: session.send("Runtime.callFunctionOn", same),
            "invoke": lambda: tab.invoke("small"),
        }
        assert await ops["invoke"]() == VALUE
        out: dict[str, list[float]] = {name: [] for name in ops if only in (None, name)}
        for _ in range(rounds):
            for name in out:
                out[name].append(await _workload(ops[name], 4 * 64, calls))
        nursery.cancel_scope.cancel()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=50_000, help="calls per round and client")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, the clients taking turns")
    parser.add_argument("--only", choices=("raw", "invoke"), help="run one client (for valgrind)")
    args = parser.parse_args()
    figures = trio.run(measure, args.calls, args.rounds, args.only)
    for name, values in figures.items():
        each = " ".join(f"{v:.2f}" for v in values)
        print(f"{name:7} {statistics.median(values):6.2f} µs CPU per call (rounds: {each})")
    if len(figures) == 2:
        raw, invoke = (statistics.median(v) for v in figures.values())
        print(f"invoke adds {invoke - raw:.2f} µs; raw ÷ invoke = {raw / invoke:.2f}")


if __name__ == "__main__":
    main()
