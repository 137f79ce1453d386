"""A fake ``Target`` replaying a recorded CDP session (like httpcore's mock backend).

:func:`record` wraps a real tab's session while a coroutine runs and keeps, in
order, every command it sent with the browser's answer and every event it
received. :func:`replay_tab` builds a real :class:`cdpagent.Tab` (so the tab's own
decisions, :mod:`cdpagent.cdp.tabstate`, are the real ones) over a :class:`FakeSession`
that answers each command from the recording — checking that the cores send the
same commands in the same order — and delivers the recorded events at the points
they arrived. The cores (operations, the tab state machine, observe, budget,
render, receipts) then run in milliseconds without Chromium.

A recording starts with the tab's frame tree and a ``Runtime.disable`` /
``Runtime.enable`` pair, so the execution contexts that existed before it are
announced again inside it. ``tests/record_session.py`` writes ``tests/traces/sessions/*.json``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import msgspec
import trio

import cdpagent
from cdpagent.cdp.connection import Session
from cdpagent.runtime.pageapi import PageApi

SESSIONS = Path(__file__).resolve().parent / "traces" / "sessions"
Step = dict[str, Any]


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value)


async def record(tab: cdpagent.Tab, run: Callable[[], Awaitable[Any]]) -> dict[str, Any]:
    """Run ``run()`` on ``tab`` and return the recording of its CDP session (and its result)."""
    session = tab.session
    steps: list[Step] = []
    send, send_batch, send_typed, dispatch = (
        session.send,
        session.send_batch,
        session.send_typed,
        session._dispatch,
    )

    async def rec_send(method: str, params: Any = None, *, deadline: float | None = None) -> Any:
        steps.append({"send": method})
        result = await send(method, params, deadline=deadline)
        steps.append({"call": method, "result": _plain(result)})
        return result

    async def rec_batch(commands: Sequence[tuple[str, Any]]) -> list[Any]:
        steps.append({"send": [m for m, _ in commands]})
        results = await send_batch(commands)
        steps.append({"batch": [m for m, _ in commands], "results": _plain(results)})
        return results

    async def rec_typed(method: str, params: Any, decoder: Any, *, deadline: float | None = None) -> Any:
        steps.append({"send": method})
        result = await send_typed(method, params, decoder, deadline=deadline)
        steps.append({"call": method, "result": _plain(result)})
        return result

    def rec_dispatch(method: str, raw: msgspec.Raw) -> None:
        steps.append({"event": method, "params": msgspec.json.decode(raw)})
        dispatch(method, raw)

    tree = (await session.send("Page.getFrameTree"))["frameTree"]
    installed = sorted(tab.installed)
    session.send, session.send_batch, session.send_typed = rec_send, rec_batch, rec_typed  # type: ignore[method-assign]
    session._dispatch = rec_dispatch  # type: ignore[method-assign]
    try:
        await session.send("Runtime.disable")
        await session.send("Runtime.enable")
        result = await run()
        # A last round trip, so the events the run caused are in the recording.
        await session.send("Runtime.evaluate", {"expression": "1", "returnByValue": True})
    finally:
        del session.send, session.send_batch, session.send_typed, session._dispatch
    return {"frameTree": tree, "installed": installed, "steps": steps, "result": _plain(result)}


def save(name: str, recording: dict[str, Any]) -> Path:
    """Write ``recording`` as ``tests/traces/sessions/NAME.json``."""
    SESSIONS.mkdir(parents=True, exist_ok=True)
    path = SESSIONS / f"{name}.json"
    path.write_text(json.dumps(recording, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    return path


def load(name: str) -> dict[str, Any]:
    """The recording ``tests/traces/sessions/NAME.json``."""
    recording: dict[str, Any] = json.loads((SESSIONS / f"{name}.json").read_text(encoding="utf-8"))
    return recording


class FakeSession(Session):
    """A session that answers from a recording and fails (``AssertionError``) on any other command.

    Events are delivered where they arrived: those before a command was sent when it
    is sent, those during the call before its answer, and those after the answer in
    a task of ``nursery`` at the caller's next checkpoint (so a wait for an event that
    followed an answer is woken as it was).
    """

    def __init__(self, nursery: trio.Nursery, steps: list[Step]) -> None:
        super().__init__(SimpleNamespace(), "fake")  # type: ignore[arg-type]
        self.steps: deque[Step] = deque(steps)
        self.sent: list[str] = []
        #: The parameters of each command sent (``None`` for a batch), beside :attr:`sent`.
        self.params: list[Any] = []
        self._nursery = nursery

    def deliver(self) -> None:
        """Deliver the recorded events that come before the next command step."""
        while self.steps and "event" in self.steps[0]:
            step = self.steps.popleft()
            self._dispatch(step["event"], msgspec.Raw(msgspec.json.encode(step["params"])))

    async def _pump(self) -> None:
        self.deliver()

    async def _exchange(self, kind: str, what: Any) -> Step:
        self.deliver()
        assert self.steps, f"the cores sent {what} after the end of the recording"
        marker = self.steps.popleft()
        assert marker.get("send") == what, f"the cores sent {what}, the recording has {marker}"
        self.sent.append(str(what))
        await trio.lowlevel.checkpoint()
        self.deliver()
        step = self.steps.popleft()
        assert step.get(kind) == what, step
        self._nursery.start_soon(self._pump)
        return step

    async def send(self, method: str, params: Any = None, *, deadline: float | None = None) -> Any:
        self.params.append(params)
        return (await self._exchange("call", method))["result"]

    async def send_batch(self, commands: Sequence[tuple[str, Any]]) -> list[Any]:
        self.params.append(None)
        results: list[Any] = (await self._exchange("batch", [m for m, _ in commands]))["results"]
        return results

    async def send_typed(
        self, method: str, params: Any, decoder: Any, *, deadline: float | None = None
    ) -> Any:
        self.params.append(params)
        return decoder.decode(msgspec.json.encode((await self._exchange("call", method))["result"]))


class FakeBrowser:
    """The :class:`cdpagent.cdp.target.Host` of a replayed tab (no browser behind it)."""

    def __init__(self, nursery: trio.Nursery, extensions: Sequence[Any]) -> None:
        self.extensions = list(extensions)
        self.connection = SimpleNamespace(closed=trio.Event(), close_reason="")
        self._nursery = nursery
        self._tabs: list[cdpagent.Tab] = []
        self.tracer = None  # a recorded session is replayed untraced
        self.allow_dirs: tuple[str, ...] = ()
        self.downloads = None

    @property
    def tabs(self) -> list[cdpagent.Tab]:
        return [t for t in self._tabs if not t.closed]

    def tab(self, tab_id: str) -> cdpagent.Tab | None:
        return next((t for t in self.tabs if t.id == tab_id), None)

    def start_soon(self, async_fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        self._nursery.start_soon(async_fn, *args)

    async def send(self, method: str, params: Any = None) -> Any:
        raise AssertionError(f"a replayed tab has no browser to send {method}")


def with_steps(recording: dict[str, Any], steps: list[Step]) -> dict[str, Any]:
    """``recording`` cut after the recorder's ``Runtime.enable`` and continued by ``steps``.

    For the tab's own decisions: the events a test feeds (a crash, a dialog) and the
    commands the tab must answer them with (``{"send": m}``, ``{"call": m, "result": …}``),
    in CDP's own shapes, on a tab that is set up as the recorded one was.
    """
    head = recording["steps"]
    enabled = next(i for i, s in enumerate(head) if s.get("call") == "Runtime.enable")
    return {**recording, "steps": [*head[: enabled + 1], *steps]}


def call_step(method: str, result: Any = None) -> list[Step]:
    """The two steps of one command the cores must send, answered with ``result``."""
    return [{"send": method}, {"call": method, "result": {} if result is None else result}]


def replay_tab(nursery: trio.Nursery, recording: dict[str, Any]) -> tuple[cdpagent.Tab, FakeSession]:
    """A real ``Tab`` over a :class:`FakeSession` of ``recording``, ready as the recorded one was."""
    session = FakeSession(nursery, recording["steps"])
    browser = FakeBrowser(nursery, [PageApi()])
    tab = cdpagent.Tab(browser, "tab1", "fake-target", session)  # type: ignore[arg-type]
    tab.documents.load_frame_tree(recording["frameTree"])
    main = tab.documents.main
    assert main is not None
    tab.documents.mark_ready(main, "complete")
    tab.installed.update(recording["installed"])
    tab.ready = True
    browser._tabs.append(tab)
    # The recorder's own Runtime.disable / enable: deliver the contexts it announced.
    for method in ("Runtime.disable", "Runtime.enable"):
        while session.steps[0].get("send") != method:
            session.deliver()
        session.steps.popleft()
        session.deliver()
        assert session.steps.popleft().get("call") == method
    session.deliver()
    return tab, session
