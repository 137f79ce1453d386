"""``cdpagent eval browsergym:miniwob``: BrowserGym's tasks, set up and scored by it, played through cdpagent.

Each lane of a run (``parallel`` of them) is one BrowserGym worker process
(:mod:`cdpagent.eval.suite_worker`: Playwright launches the system Chromium with
a DevTools port on 127.0.0.1) and one cdpagent connection to that same browser. An
episode asks the worker for the task's own ``setup(page)`` (the goal, the page's
target id), gives that tab to a fresh agent thread, and runs the agent (a model or a
``--policy``) on the goal. Before each model request the worker runs the task's own
``validate``: once BrowserGym says the episode is done, the agent stops. The reward
and success are BrowserGym's final ``validate``, never cdpagent's or the model's.

A worker that fails, hangs past its bound or is cut off by the episode's
``timeout_s`` is killed and started again for the next episode; the episode is an
error row. BrowserGym (``browsergym-miniwob``, ``miniwob``) runs in the interpreter
:func:`worker_python` finds, which may be a virtualenv of its own
(``scripts/setup.sh suites``; docs/eval.md says why).
"""

from __future__ import annotations

import fnmatch
import functools
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import trio

from ..agent import Agent, AgentResult
from ..agent.roles import generic_role
from ..browser.launch import connect
from ..browser.tabs import Browser, Tab
from ..cdp.launcher import find_browser
from ..console.terminal import accept_all
from ..errors import CDPAgentError, TaskFileError
from ..runtime.threads import Thread
from . import codes
from .episode import MeteredModel, ModelSettings, _error, episode_outputs, metered
from .progress import Progress
from .records import EpisodeError, EpisodeRecord, Transcript
from .runner import Play, _version, model_settings, run_episodes
from .scoring import Ending
from .tasks import Task

__all__ = [
    "PREFIX",
    "list_tasks",
    "run_suite",
    "suite_tasks",
    "worker_python",
]

PREFIX: Final = "browsergym:"
SUITES: Final = ("miniwob",)
WORKER: Final = Path(__file__).resolve().parent / "suite_worker.py"
START_TIMEOUT_S: Final = 60.0
"""Launching the worker's browser."""
CALL_TIMEOUT_S: Final = 30.0
"""One ``setup``, ``validate`` or ``teardown`` of BrowserGym's."""
DEFAULT_MAX_STEPS: Final = 30
DEFAULT_TIMEOUT_S: Final = 120.0
INSTALL_HINT: Final = (
    "BrowserGym is not installed: run `scripts/setup.sh suites` (a virtualenv of its own, .venv-suites), "
    "or `pip install 'cdpagent[suites]'` where nothing needs a newer Playwright; or point "
    "CDPAGENT_SUITES_PYTHON at a Python that has browsergym-miniwob and miniwob"
)
DONE: Final = "BrowserGym says the episode is done."


class _WorkerFailed(Exception):
    """The worker answered ``ok: false``, died, or did not answer in time."""


def _has_browsergym(python: str) -> bool:
    try:
        done = subprocess.run(
            [python, "-c", "import browsergym.miniwob, miniwob"], capture_output=True, timeout=60
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@functools.cache
def worker_python() -> str:
    """The interpreter the workers run in: ``$CDPAGENT_SUITES_PYTHON``, else ``.venv-suites`` of the
    current folder or of the source tree, else this one. Raises :class:`TaskFileError` (with how
    to install it) when that interpreter cannot import BrowserGym's MiniWoB++ tasks."""
    given = os.environ.get("CDPAGENT_SUITES_PYTHON")
    candidates = [given] if given else [
        str(base / ".venv-suites" / "bin" / "python") for base in (Path.cwd(), Path(__file__).parents[2])
    ] + [sys.executable]  # fmt: skip
    for python in dict.fromkeys(candidates):
        if Path(python).exists() and _has_browsergym(python):
            return python
    which = f" (CDPAGENT_SUITES_PYTHON={given} cannot import it)" if given else ""
    raise TaskFileError(INSTALL_HINT + which)


class _Worker:
    """The trio side of one worker process: one JSON request, one JSON reply."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self._buffer = b""
        self.broken = False

    @classmethod
    async def start(cls, python: str, log: Path | None) -> _Worker:
        stderr: Any = subprocess.DEVNULL
        if log is not None:
            log.parent.mkdir(parents=True, exist_ok=True)
            stderr = log.open("ab")
        try:
            process = await trio.lowlevel.open_process(
                [python, str(WORKER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
            )
        finally:
            if log is not None:
                stderr.close()
        return cls(process)

    async def call(self, op: str, timeout: float = CALL_TIMEOUT_S, **args: Any) -> dict[str, Any]:
        """Send ``op``; its reply. Raises :class:`_WorkerFailed`; a call that did not finish
        (an error, a timeout, a cancellation) leaves the worker ``broken``."""
        if self.broken:
            raise _WorkerFailed("the worker is broken")
        self.broken = True  # until the reply is read: a cancelled call leaves a reply in the pipe
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            with trio.fail_after(timeout):
                await self.process.stdin.send_all(json.dumps({"op": op, **args}).encode() + b"\n")
                while b"\n" not in self._buffer:
                    chunk = await self.process.stdout.receive_some(65536)
                    if not chunk:
                        raise _WorkerFailed(f"the BrowserGym worker exited during {op}")
                    self._buffer += chunk
        except trio.TooSlowError:
            raise _WorkerFailed(f"BrowserGym's {op} took longer than {timeout:g} s") from None
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            raise _WorkerFailed(f"the BrowserGym worker exited during {op}") from None
        line, _, self._buffer = self._buffer.partition(b"\n")
        reply: dict[str, Any] = json.loads(line)
        self.broken = False
        if not reply.pop("ok", False):
            raise _WorkerFailed(f"BrowserGym's {op} failed: {reply.get('error')}")
        return reply

    async def stop(self) -> None:
        with trio.CancelScope(shield=True):
            if self.process.returncode is None:
                self.process.kill()
            await self.process.wait()


async def list_tasks(spec: str, python: str | None = None) -> list[str]:
    """The BrowserGym task names of ``spec``: ``browsergym:SUITE`` (all of its tasks) or
    ``browsergym:SUITE:PATTERN,…`` (names or globs, with or without the ``SUITE.`` prefix).

    Raises :class:`TaskFileError` for an unknown suite, a pattern that matches nothing, or
    BrowserGym missing (:func:`worker_python`).
    """
    suite, _, patterns = spec.removeprefix(PREFIX).partition(":")
    if suite not in SUITES:
        raise TaskFileError(f"{spec}: unknown BrowserGym suite {suite!r} (known: {', '.join(SUITES)})")
    worker = await _Worker.start(python or worker_python(), None)
    try:
        names: list[str] = (await worker.call("list", START_TIMEOUT_S, suite=suite))["tasks"]
    except _WorkerFailed as error:
        raise TaskFileError(f"{spec}: {error}") from None
    finally:
        await worker.stop()
    if not patterns:
        return names
    chosen: list[str] = []
    for pattern in (p.strip() for p in patterns.split(",") if p.strip()):
        full = pattern if pattern.startswith(f"{suite}.") else f"{suite}.{pattern}"
        hits = fnmatch.filter(names, full)
        if not hits:
            raise TaskFileError(f"{spec}: no {suite} task matches {pattern!r}")
        chosen += [h for h in hits if h not in chosen]
    return chosen


def suite_tasks(
    names: Sequence[str], *, max_steps: int = DEFAULT_MAX_STEPS, timeout_s: float = DEFAULT_TIMEOUT_S
) -> list[Task]:
    """The tasks of a run: one per BrowserGym task name (the goal comes from BrowserGym's setup)."""
    return [
        Task(
            id=name,
            url=f"{PREFIX}{name}",
            goal="(BrowserGym's setup gives the goal)",
            reward="BrowserGym's validate",
            max_steps=max_steps,
            timeout_s=timeout_s,
        )
        for name in names
    ]


class _Lane:
    """One worker and cdpagent's connection to its browser; started again after a failure."""

    def __init__(self, number: int, python: str, executable: str, log: Path | None) -> None:
        self.number = number
        self.python = python
        self.executable = executable
        self.log = log
        self.worker: _Worker | None = None
        self.browser: Browser | None = None
        self._stack: AsyncExitStack | None = None

    async def ready(self) -> tuple[_Worker, Browser]:
        if self.worker is not None and self.worker.broken:
            await self.close()
        if self.worker is None or self.browser is None:
            stack = AsyncExitStack()
            try:
                worker = await _Worker.start(self.python, self.log)
                stack.push_async_callback(worker.stop)
                started = await worker.call("start", START_TIMEOUT_S, executable=self.executable)
                browser = await stack.enter_async_context(connect(started["endpoint"]))
            except BaseException:
                await stack.aclose()
                raise
            self._stack, self.worker, self.browser = stack, worker, browser
        return self.worker, self.browser

    async def close(self) -> None:
        stack, self._stack, self.worker, self.browser = self._stack, None, None, None
        if stack is not None:
            await stack.aclose()


async def _tab(browser: Browser, target: str) -> Tab:
    def found() -> bool:
        return any(t.target_id == target and t.ready for t in browser.tabs)

    await browser.wait_until(found, timeout=CALL_TIMEOUT_S)
    return next(t for t in browser.tabs if t.target_id == target)


async def _episode(
    lane: tuple[_Worker, Browser] | str, task: Task, seed: int, settings: ModelSettings
) -> tuple[EpisodeRecord, Transcript]:
    """One episode of ``task`` with BrowserGym's ``seed`` in a lane's worker and browser (or the
    reason the lane could not start); never raises but on cancellation. The caller tears down."""
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    started = time.monotonic()
    goal = ""
    result: AgentResult | None = None
    agent: Agent | None = None
    model: MeteredModel | None = None
    message = ""
    ending = Ending("timeout", EpisodeError(codes.EPISODE_TIMEOUT, f"no answer within {task.timeout_s:g} s"))
    with trio.move_on_after(task.timeout_s):
        try:
            try:
                if isinstance(lane, str):
                    raise _SetupFailed(lane)
                worker, browser = lane
                set_up = await worker.call("setup", task=task.id, seed=seed)
                goal = str(set_up["goal"])
                tab = await _tab(browser, str(set_up["target"]))
            except (_WorkerFailed, CDPAgentError, trio.TooSlowError) as error:
                raise _SetupFailed(str(error) or "BrowserGym's setup did not finish") from error
            thread: Thread[Tab] = Thread(browser)
            thread.adopt(tab)

            async def done() -> str | None:
                verdict = await worker.call("validate")
                return DONE if verdict["done"] else None

            model = metered(settings, task.id, goal, before=done)
            async with model:
                agent = Agent(
                    browser,
                    model,
                    generic_role(str(set_up["url"])),
                    thread=thread,
                    max_steps=task.max_steps,
                    confirm=accept_all,
                )
                agent.tab_id = tab.id
                result = await agent.run(goal)
            try:
                verdict = await worker.call("validate", answer=result.answer)
            except _WorkerFailed as error:
                ending = Ending("answered", reward_error=EpisodeError(codes.REWARD_FAILED, str(error)))
            else:
                message = str(verdict.get("message") or "")
                if result.stopped is not None and not verdict["done"]:
                    text = f"no answer after {task.max_steps} model requests"
                    ending = Ending("step_limit", EpisodeError(codes.STEP_LIMIT, text))
                else:
                    ending = Ending("answered", reward=verdict["reward"])
        except _SetupFailed as error:
            ending = Ending("setup_failed", EpisodeError(codes.TASK_SETUP_FAILED, str(error)))
        except Exception as error:
            ending = Ending("crashed", _error(error))
    check = f"BrowserGym validate (seed {seed})" + (f": {message}" if message else "")
    # A turn that did not end counts no tool calls here (as this runner always has).
    return episode_outputs(
        task, seed, goal, check, ending, started, stamp, settings.model, model, agent, result,
        count_unfinished=False,
    )


class _SetupFailed(Exception):
    pass


async def _teardown(lane: _Lane) -> None:
    """Close the episode's context; a worker that cannot is started afresh (the lane's own
    nursery is left here, in the task that entered it, outside any other cancel scope)."""
    if lane.worker is not None and not lane.worker.broken:
        try:
            with trio.CancelScope(shield=True):
                await lane.worker.call("teardown")
            return
        except _WorkerFailed:
            pass
    await lane.close()


@asynccontextmanager
async def _lanes(
    parallel: int, python: str, executable: str, logs: Path | None
) -> AsyncIterator[Callable[[Task, int, ModelSettings], Awaitable[tuple[EpisodeRecord, Transcript]]]]:
    """``parallel`` lanes, each running one episode at a time in its own task."""
    jobs_in, jobs = trio.open_memory_channel[tuple[Task, int, ModelSettings, Any]](parallel)

    async def serve(lane: _Lane) -> None:
        try:
            async for task, seed, settings, answer in jobs:
                try:
                    ready: tuple[_Worker, Browser] | str = await lane.ready()
                except (_WorkerFailed, CDPAgentError, OSError) as error:
                    ready = f"the BrowserGym worker did not start: {error}"
                played = await _episode(ready, task, seed, settings)
                await _teardown(lane)
                await answer.send(played)
        finally:
            await lane.close()

    async with trio.open_nursery() as nursery:
        for number in range(parallel):
            log = logs / f"browsergym-worker-{number}.log" if logs is not None else None
            nursery.start_soon(serve, _Lane(number, python, executable, log))

        async def play(task: Task, seed: int, settings: ModelSettings) -> tuple[EpisodeRecord, Transcript]:
            answer_in, answer = trio.open_memory_channel[tuple[EpisodeRecord, Transcript]](1)
            await jobs_in.send((task, seed, settings, answer_in))
            return await answer.receive()

        try:
            yield play
        finally:
            await jobs_in.aclose()


async def run_suite(
    spec: str,
    *,
    model: str = "",
    base_url: str | None = None,
    api_key: str | None = None,
    policy: str | None = None,
    seeds: int = 1,
    parallel: int = 1,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    model_timeout: float = 120.0,
    names: Sequence[str] | None = None,
    executable: str | None = None,
) -> list[EpisodeRecord]:
    """Run every task of ``spec`` (see :func:`list_tasks`) with seeds ``0 … seeds-1``, ``parallel``
    lanes at a time; return every record, in task order (``repeat`` is the seed).

    ``names`` skips the listing (the tasks :func:`list_tasks` gave). The agent asks
    ``model`` at ``base_url``, or lets ``policy`` play. ``out``, ``resume`` and
    ``progress`` are as for :func:`cdpagent.eval.run`. Raises :class:`TaskFileError`,
    :class:`ValueError` (bad counts, a policy that cannot be loaded),
    :class:`~cdpagent.agent.ModelError` ``MODEL_NOT_CONFIGURED`` and
    :class:`~cdpagent.eval.rundir.RunDirError` before any episode.
    """
    if seeds < 1 or parallel < 1:
        raise ValueError("seeds and parallel must be at least 1")
    python = worker_python()
    listed = names if names is not None else await list_tasks(spec, python)
    tasks = suite_tasks(listed, max_steps=max_steps, timeout_s=timeout_s)
    settings = await model_settings(
        model, base_url=base_url, api_key=api_key, timeout=model_timeout, max_retries=2, policy=policy
    )
    browser = executable or find_browser()
    meta = {
        "model": settings.model,
        "base_url": base_url,
        "repeat": seeds,
        "parallel": parallel,
        "tasks": [t.id for t in tasks],
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "suite": spec,
        "scored_by": "BrowserGym's validate",
        "cdpagent": _version(),
        "max_steps": max_steps,
        "timeout_s": timeout_s,
    }
    logs = Path(out) if out is not None else None

    async def episodes(run: Callable[[Play], Awaitable[None]]) -> None:
        async with _lanes(parallel, python, browser, logs) as play:
            await run(lambda task, seed: play(task, seed, settings))

    return await run_episodes(
        tasks, episodes, repeat=seeds, parallel=parallel, out=out, resume=resume, progress=progress, meta=meta
    )
