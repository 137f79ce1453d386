"""DR-5: calls with a deadline fail with CallTimeout at the deadline and leave nothing behind.

The deadlines are the connection's own (:class:`cdpagent.lowlevel.Connection`): the test plays
the browser on an in-memory transport and answers each command when it chooses, late or never,
on a clock that jumps to the next deadline (``autojump_clock``).
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

import pytest
import trio
import trio.testing

from cdpagent import CallTimeout, ConnectionClosed
from cdpagent.lowlevel import Connection, Session

SESSION = "S1"


class Peer:
    """The browser's end of an in-memory transport (and the transport itself, for the connection)."""

    def __init__(self) -> None:
        self._to_code, self._code_reads = trio.open_memory_channel[bytes](math.inf)
        self._from_code, self._commands = trio.open_memory_channel[bytes](math.inf)

    # -- the transport the connection reads and writes ---------------------------------------

    async def send(self, message: bytes) -> None:
        await self._from_code.send(bytes(message))

    async def receive(self) -> bytes:
        try:
            return await self._code_reads.receive()
        except trio.EndOfChannel:
            raise ConnectionClosed("the peer closed") from None

    async def aclose(self) -> None:
        await self._to_code.aclose()

    # -- the browser's side ----------------------------------------------------------------------

    async def command(self) -> dict[str, Any]:
        """The next command the code sent."""
        message: dict[str, Any] = json.loads(await self._commands.receive())
        return message

    def answer(self, command: dict[str, Any], value: Any) -> None:
        """Reply to ``command`` with a ``Runtime.evaluate`` result of ``value``."""
        result = {"result": {"value": value}}
        reply = {"id": command["id"], "sessionId": command["sessionId"], "result": result}
        self._to_code.send_nowait(json.dumps(reply).encode())

    def attach(self, session_id: str) -> None:
        """Announce a page session, as the browser does for a tab it attached."""
        info = {"targetId": "T1", "type": "page", "title": "", "url": "about:blank", "attached": True}
        event = {"sessionId": session_id, "targetInfo": info, "waitingForDebugger": False}
        self._to_code.send_nowait(json.dumps({"method": "Target.attachedToTarget", "params": event}).encode())


@asynccontextmanager
async def connected() -> AsyncIterator[tuple[Connection, Session, Peer]]:
    """A connection over a :class:`Peer` with one attached page session."""
    peer = Peer()
    connection = Connection(peer)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(connection.run)
        peer.attach(SESSION)
        await trio.testing.wait_all_tasks_blocked()
        yield connection, connection.session(SESSION), peer
        nursery.cancel_scope.cancel()


async def test_dr5_deadline_expires_a_pending_call_and_drops_its_late_reply(
    autojump_clock: trio.testing.MockClock,
) -> None:
    async with connected() as (connection, session, peer):
        started = trio.current_time()
        with trio.fail_after(10), pytest.raises(CallTimeout):
            await session.send("Runtime.evaluate", {"expression": "late"}, deadline=started + 0.1)
        assert connection.core.pending_on(SESSION) == 0
        dropped = connection.core.dropped
        late = await peer.command()
        assert late["params"] == {"expression": "late"}
        peer.answer(late, 1)  # the browser answers after the deadline
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(session.send, "Runtime.evaluate", {"expression": "next"}))
            peer.answer(await peer.command(), 2)  # its reply comes after the late one
        assert connection.core.dropped == dropped + 1


async def test_dr5_earlier_deadline_wakes_the_watcher(autojump_clock: trio.testing.MockClock) -> None:
    """A call with a later deadline is pending; a new, earlier one still expires on time."""
    async with connected() as (_, session, peer):
        never = {"expression": "never"}
        now = trio.current_time()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(partial(session.send, "Runtime.evaluate", never, deadline=now + 60))
            await peer.command()  # never answered
            nursery.start_soon(partial(session.send, "Runtime.evaluate", {"expression": "1"}))
            peer.answer(await peer.command(), 1)
            with trio.fail_after(5), pytest.raises(CallTimeout):
                await session.send("Runtime.evaluate", never, deadline=now + 0.1)
            nursery.cancel_scope.cancel()


async def test_dr5_a_deadline_after_a_finished_earlier_one_still_expires(
    autojump_clock: trio.testing.MockClock,
) -> None:
    """The watcher sleeps until the earliest deadline it was told of; when that call has
    finished by then, the next deadline must still fire."""
    async with connected() as (_, session, peer):
        never = {"expression": "never"}
        now = trio.current_time()
        async with trio.open_nursery() as nursery:
            quick = partial(session.send, "Runtime.evaluate", {"expression": "1"}, deadline=now + 0.2)
            nursery.start_soon(quick)
            peer.answer(await peer.command(), 1)
        with trio.fail_after(5), pytest.raises(CallTimeout):
            await session.send("Runtime.evaluate", never, deadline=now + 0.5)
        with trio.fail_after(5), pytest.raises(CallTimeout):
            await session.send("Runtime.evaluate", never, deadline=trio.current_time() + 0.1)
