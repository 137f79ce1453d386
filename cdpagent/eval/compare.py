"""``cdpagent eval compare RUN_A RUN_B``: the per-task difference of two runs (sans-IO).

For each task of either run: both success rates, their difference B − A with a
95 % interval (Newcombe's hybrid score method, built from the two Wilson
intervals: Newcombe 1998, method 10), and the differences of mean reward,
median steps and median tokens. A task in only one run has ``None`` for the other.

Either side may be a published baseline instead of a run (:func:`baseline_records`): a
JSON file of per-task success, as papers and leaderboards give it::

    {"name": "GPT-4o, BrowserGym MiniWoB++ (paper, table 3)", "episodes": 5,
     "tasks": {"miniwob.click-test": 1.0, "miniwob.enter-text": {"success_rate": 0.8, "episodes": 10}}}

``episodes`` (top level, or per task) is how many episodes each rate is over: the
interval needs it. A baseline has no steps or tokens; their differences are ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import msgspec

from .records import EpisodeRecord
from .stats import Group, summarise

__all__ = ["Baseline", "Comparison", "TaskDelta", "baseline_records", "compare", "format_comparison"]


class TaskDelta(msgspec.Struct, frozen=True):
    """One task's numbers in runs A and B, and B − A."""

    task: str
    a_success_rate: float | None
    b_success_rate: float | None
    a_scored: int
    b_scored: int
    success_delta: float | None
    success_delta_ci95: tuple[float, float] | None
    """Newcombe's interval of B − A; an interval that excludes 0 is a difference beyond chance."""
    mean_reward_delta: float | None
    steps_p50_delta: float | None
    tokens_p50_delta: float | None


class Comparison(msgspec.Struct, frozen=True):
    """``compare.json``: the runs compared, the overall difference and one :class:`TaskDelta` per task."""

    a: str
    b: str
    a_model: str
    b_model: str
    overall: TaskDelta
    tasks: list[TaskDelta]


class _Rate(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    success_rate: float
    episodes: int | None = None


class Baseline(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A published baseline: per-task success rates over ``episodes`` episodes each."""

    tasks: dict[str, float | _Rate]
    name: str = "baseline"
    episodes: int | None = None
    source: str | None = None
    """Where the numbers come from (a paper, a leaderboard)."""


def baseline_records(data: bytes, *, name: str = "<baseline>") -> list[EpisodeRecord]:
    """The records a baseline JSON stands for: per task, ``round(rate × episodes)`` successes and
    the rest failures (``model`` is the baseline's name, ``steps`` 0 and no tokens).

    Raises :class:`ValueError` naming the problem: not a baseline, a rate outside [0, 1],
    no ``episodes`` for a task, or a rate that is not a count over its episodes.
    """
    try:
        baseline = msgspec.json.decode(data, type=Baseline)
    except msgspec.DecodeError as error:
        raise ValueError(f"{name}: not a baseline JSON ({error})") from None
    if not baseline.tasks:
        raise ValueError(f"{name}: the baseline lists no tasks")
    records: list[EpisodeRecord] = []
    for task, given in baseline.tasks.items():
        if isinstance(given, _Rate):
            rate, episodes = given.success_rate, given.episodes or baseline.episodes
        else:
            rate, episodes = given, baseline.episodes
        if not 0 <= rate <= 1:
            raise ValueError(f"{name}: {task}: success rate {rate} is not in [0, 1]")
        if episodes is None or episodes < 1:
            raise ValueError(f"{name}: {task}: how many episodes? give `episodes` (top level or per task)")
        successes = round(rate * episodes)
        if abs(successes - rate * episodes) > 1e-6 * episodes:
            raise ValueError(f"{name}: {task}: {rate} is not a count of successes over {episodes} episodes")
        for n in range(episodes):
            won = n < successes
            records.append(
                EpisodeRecord(
                    task=task,
                    repeat=n,
                    outcome="solved" if won else "failed",
                    reward=1.0 if won else 0.0,
                    success=won,
                    task_error=False,
                    error=None,
                    steps=0,
                    tool_calls=0,
                    prompt_tokens=None,
                    completion_tokens=None,
                    time_s=0.0,
                    answer=None,
                    model=baseline.name,
                    started="",
                    transcript="",
                )
            )
    return records


def _minus(b: float | None, a: float | None) -> float | None:
    return None if a is None or b is None else b - a


def _tokens_p50(records: Sequence[EpisodeRecord]) -> float | None:
    totals = sorted(
        float((r.prompt_tokens or 0) + (r.completion_tokens or 0))
        for r in records
        if r.prompt_tokens is not None or r.completion_tokens is not None
    )
    if not totals:
        return None
    mid = (len(totals) - 1) / 2
    return (totals[math.floor(mid)] + totals[math.ceil(mid)]) / 2


def _delta(
    task: str,
    a: Group | None,
    b: Group | None,
    ra: Sequence[EpisodeRecord],
    rb: Sequence[EpisodeRecord],
    steps: bool = True,
) -> TaskDelta:
    pa = a.success_rate if a else None
    pb = b.success_rate if b else None
    ci = None
    if a is not None and b is not None and pa is not None and pb is not None:
        (la, ua), (lb, ub) = a.success_ci95, b.success_ci95
        d = pb - pa
        ci = (d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2))
    return TaskDelta(
        task=task,
        a_success_rate=pa,
        b_success_rate=pb,
        a_scored=a.scored if a else 0,
        b_scored=b.scored if b else 0,
        success_delta=_minus(pb, pa),
        success_delta_ci95=ci,
        mean_reward_delta=_minus(b.mean_reward if b else None, a.mean_reward if a else None),
        steps_p50_delta=_minus(b.steps.p50 if b else None, a.steps.p50 if a else None) if steps else None,
        tokens_p50_delta=_minus(_tokens_p50(rb), _tokens_p50(ra)),
    )


def compare(
    a: Sequence[EpisodeRecord],
    b: Sequence[EpisodeRecord],
    *,
    a_name: str = "A",
    b_name: str = "B",
    baseline: bool = False,
) -> Comparison:
    """The per-task difference B − A of two runs' records (tasks in A's order, then B's new ones).

    ``baseline``: one side is a published baseline (:func:`baseline_records`), which
    has no steps: the step differences are ``None``."""
    order = list(dict.fromkeys([r.task for r in a] + [r.task for r in b]))
    sa, sb = summarise(a), summarise(b)
    steps = not baseline
    tasks = [
        _delta(
            t,
            sa.tasks.get(t),
            sb.tasks.get(t),
            [r for r in a if r.task == t],
            [r for r in b if r.task == t],
            steps,
        )
        for t in order
    ]
    return Comparison(
        a_name, b_name, sa.model, sb.model, _delta("(all)", sa.overall, sb.overall, a, b, steps), tasks
    )


def _rate(value: float | None, n: int) -> str:
    return "–" if value is None else f"{value:4.0%} ({n})"


def _signed(value: float | None, percent: bool = False) -> str:
    if value is None:
        return "–"
    return f"{value:+.0%}" if percent else f"{value:+.2f}".rstrip("0").rstrip(".")


def format_comparison(c: Comparison) -> str:
    """The comparison as an aligned text table (what ``compare`` prints)."""
    header = (
        "task",
        "A success",
        "B success",
        "Δ success",
        "95% interval",
        "Δ reward",
        "Δ steps",
        "Δ tokens",
    )
    rows = [header]
    for d in [*c.tasks, c.overall]:
        ci = (
            "–"
            if d.success_delta_ci95 is None
            else (f"{d.success_delta_ci95[0]:+.0%}…{d.success_delta_ci95[1]:+.0%}")
        )
        rows.append(
            (
                d.task,
                _rate(d.a_success_rate, d.a_scored),
                _rate(d.b_success_rate, d.b_scored),
                _signed(d.success_delta, True),
                ci,
                _signed(d.mean_reward_delta),
                _signed(d.steps_p50_delta),
                _signed(d.tokens_p50_delta),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    lines = [f"A = {c.a} ({c.a_model})", f"B = {c.b} ({c.b_model})"]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    return "\n".join(lines) + "\n"
