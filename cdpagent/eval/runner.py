"""Running a suite: every task ``repeat`` times, ``parallel`` episodes at a time over a :class:`Pool`.

Episodes are started repetition by repetition (every task once, then again), so
an interrupted run has covered the suite as evenly as it could. With ``out`` each
finished episode is appended to ``results.jsonl`` at once; at the end (also after
an interruption) ``summary.json`` and ``report.html`` are written from every
record in the folder.
"""

from __future__ import annotations

import math
import os
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import msgspec
import trio

from ..errors import TaskFileError
from ..remote.pool import BrowserSource, Pool
from .episode import ModelSettings, run_episode
from .progress import Progress
from .records import EpisodeRecord, Transcript
from .report import render_report
from .rundir import REPORT, SUMMARY, RunDir
from .stats import Summary, summarise
from .tasks import Task

__all__ = ["Play", "finish_run", "model_settings", "run", "run_episodes"]


def _version() -> str:
    try:
        return version("cdpagent")
    except PackageNotFoundError:
        return "unknown"


def _order(tasks: Sequence[Task], records: Sequence[EpisodeRecord]) -> list[EpisodeRecord]:
    rank = {t.id: i for i, t in enumerate(tasks)}
    return sorted(records, key=lambda r: (rank.get(r.task, len(rank)), r.task, r.repeat))


async def run(
    tasks: Sequence[Task],
    *,
    model: str,
    base_url: str | None = None,
    api_key: str | None = None,
    repeat: int = 1,
    parallel: int = 1,
    sources: Sequence[BrowserSource | str] = ("launch",),
    pool: Pool | None = None,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    progress: Progress | None = None,
    model_timeout: float = 120.0,
    max_retries: int = 2,
    allow_origins: Sequence[str] = (),
    meta: dict[str, Any] | None = None,
    policy: str | None = None,
) -> list[EpisodeRecord]:
    """Run every task ``repeat`` times, ``parallel`` at a time; return every record, in task order.

    Browsers come from ``pool`` when given, else from a new :class:`Pool` over
    ``sources`` (``"launch"``, ``ws://…``, ``grid+http://…``) with room for
    ``parallel`` leases. With ``out`` the run folder is written as described in
    :mod:`cdpagent.eval.rundir`; ``resume`` keeps its records and runs only the
    missing episodes (the returned list holds both). Each episode asks ``model``
    at ``base_url`` (defaults as :class:`cdpagent.agent.Model`), or, with ``policy``
    (``module:callable``), lets that scripted policy play (:mod:`cdpagent.eval.policy`).

    Raises :class:`ValueError` for ``repeat`` or ``parallel`` below 1 or no tasks,
    :class:`~cdpagent.eval.TaskFileError` for a task that fails :meth:`Task.check` or a duplicate id,
    :class:`~cdpagent.eval.rundir.RunDirError` for an unusable ``out``, and
    :class:`~cdpagent.agent.ModelError` ``MODEL_NOT_CONFIGURED`` before any episode
    when the model cannot be configured, :class:`ValueError` for a ``policy`` that cannot
    be loaded. Episode failures are records, not exceptions.
    """
    if repeat < 1 or parallel < 1:
        raise ValueError("repeat and parallel must be at least 1")
    if not tasks:
        raise ValueError("no tasks to run")
    ids = [t.id for t in tasks]
    for task in tasks:
        task.check()
        if ids.count(task.id) > 1:
            raise TaskFileError(f"task id {task.id!r} is used twice")
    settings = await model_settings(
        model, base_url=base_url, api_key=api_key, timeout=model_timeout, max_retries=max_retries,
        policy=policy,
    )  # fmt: skip
    run_meta = {
        "model": model if policy is None else f"policy:{policy}",
        "base_url": base_url,
        "repeat": repeat,
        "parallel": parallel,
        "tasks": [t.id for t in tasks],
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "cdpagent": _version(),
        **(meta or {}),
    }

    async def episodes(play: Callable[[Play], Awaitable[None]]) -> None:
        if pool is not None:
            await play(lambda task, n: run_episode(task, n, pool=pool, settings=settings))
            return
        per = math.ceil(parallel / len(sources))
        async with Pool(sources, per_browser=per, allow_origins=allow_origins) as live:
            await play(lambda task, n: run_episode(task, n, pool=live, settings=settings))

    return await run_episodes(
        tasks, episodes, repeat=repeat, parallel=parallel, out=out, resume=resume, progress=progress,
        meta=run_meta,
    )  # fmt: skip


async def model_settings(
    model: str,
    *,
    base_url: str | None,
    api_key: str | None,
    timeout: float,
    max_retries: int,
    policy: str | None,
) -> ModelSettings:
    """The settings every episode of a run asks its model with, checked before any episode:
    raises :class:`~cdpagent.agent.ModelError` ``MODEL_NOT_CONFIGURED`` for a model that
    cannot be configured, :class:`ValueError` for a ``policy`` that cannot be loaded."""
    settings = ModelSettings(
        model=model if policy is None else f"policy:{policy}",
        base_url=base_url,
        api_key=api_key,
        timeout=timeout,
        max_retries=max_retries,
        policy=policy,
    )
    if policy is not None:
        from .policy import load_policy

        load_policy(policy)
        return settings
    from ..agent import Model

    await Model(model, base_url=base_url, api_key=api_key).aclose()
    return settings


Play = Callable[[Task, int], Awaitable[tuple[EpisodeRecord, Transcript]]]
"""Runs one episode (a task, its repetition) and returns its record and transcript; never raises."""


async def run_episodes(
    tasks: Sequence[Task],
    episodes: Callable[[Callable[[Play], Awaitable[None]]], Awaitable[None]],
    *,
    repeat: int,
    parallel: int,
    out: str | os.PathLike[str] | None,
    resume: bool,
    progress: Progress | None,
    meta: dict[str, Any],
) -> list[EpisodeRecord]:
    """The scheduling every suite shares: the run folder, ``--resume``, the progress line,
    ``parallel`` episodes at a time; returns every record in task order.

    ``episodes(play)`` sets up what the episodes run in (a pool of browsers, BrowserGym's
    workers), calls ``play`` with the function that runs one episode there, and tears it
    down. Raises :class:`~cdpagent.eval.rundir.RunDirError` for an unusable ``out``.
    """
    folder = RunDir(out) if out is not None else None
    kept = folder.open(meta, resume=resume) if folder is not None else []
    done = {r.key() for r in kept}
    pending = [(t, n) for n in range(repeat) for t in tasks if (t.id, n) not in done]
    records = list(kept)
    bar = progress if progress is not None else Progress(len(pending))
    limiter = trio.CapacityLimiter(parallel)

    async def all_episodes(episode: Play) -> None:
        async def one(task: Task, n: int) -> None:
            async with limiter:
                bar.begin()
                record, transcript = await episode(task, n)
                if folder is not None:
                    folder.append(record, transcript)
                records.append(record)
                bar.finish(record)

        async with trio.open_nursery() as ticking:
            if bar.tty:
                ticking.start_soon(_tick, bar)
            async with trio.open_nursery() as nursery:
                for task, n in pending:
                    nursery.start_soon(one, task, n)
            ticking.cancel_scope.cancel()

    try:
        if pending:
            bar.draw()
            await episodes(all_episodes)
    finally:
        bar.close()
        if folder is not None:
            finish_run(folder, tasks, records, meta)
    return _order(tasks, records)


async def _tick(bar: Progress) -> None:
    """Redraw a terminal's bar twice a second, so the ETA moves between episodes."""
    while True:
        await trio.sleep(0.5)
        bar.draw()


def finish_run(
    folder: RunDir, tasks: Sequence[Task], records: Sequence[EpisodeRecord], meta: dict[str, Any]
) -> Summary:
    """Write ``summary.json`` and ``report.html`` of ``records`` into ``folder``; returns the summary."""
    ordered = _order(tasks, records)
    summary = summarise(ordered, [t.id for t in tasks], meta)
    folder.write(SUMMARY, msgspec.json.format(msgspec.json.encode(summary)) + b"\n")
    transcripts: dict[tuple[str, int], Transcript] = folder.transcripts(
        [r for r in ordered if r.outcome not in ("solved", "unscored")]
    )
    page = render_report(summary, ordered, transcripts, title=f"cdpagent eval — {meta.get('model', '')}")
    folder.write(REPORT, page.encode())
    return summary
