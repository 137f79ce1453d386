"""DR-5 / SC-2: a connection is lost before any caller hears that the browser is gone, without a browser.

A killed browser is found either by the reader (end of stream) or by the next command's
write (a broken pipe), whichever comes first. Either way the connection is marked lost
before the failed call returns, so a pool never lists a browser whose tab already
reported it gone.
"""

from __future__ import annotations

import pytest
import trio

from cdpagent.cdp.connection import Connection
from cdpagent.cdp.meter import CdpMeter
from cdpagent.errors import ConnectionClosed


class _BrokenPipe:
    """A transport whose browser is gone but whose reader has not noticed yet."""

    async def send(self, message: bytes) -> None:
        raise ConnectionClosed("the pipe to the browser broke: [Errno 32] Broken pipe")

    async def receive(self) -> bytes:
        await trio.sleep_forever()
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        pass


@pytest.mark.parametrize("how", ["send", "send_batch", "send, traced"])
async def test_dr5_a_write_that_finds_the_browser_gone_loses_the_connection_first(how: str) -> None:
    connection = Connection(_BrokenPipe())
    if how.endswith("traced"):
        connection.meter = CdpMeter()  # a traced call takes its own path
    told: list[bool] = []
    connection.closed_callbacks.append(lambda: told.append(connection.closed.is_set()))
    session = connection.browser_session
    async with trio.open_nursery() as nursery:
        nursery.start_soon(connection.run)
        with trio.fail_after(5), pytest.raises(ConnectionClosed):
            if how != "send_batch":
                await session.send("Browser.getVersion")
            else:
                await session.send_batch([("Browser.getVersion", {}), ("Target.getTargets", {})])
        assert connection.closed.is_set() and told == [True]
        assert "Broken pipe" in connection.close_reason
        with pytest.raises(ConnectionClosed):  # no command is accepted any more
            await session.send("Browser.getVersion")
        nursery.cancel_scope.cancel()
