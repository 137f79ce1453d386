"""The numbers of a run: Wilson intervals, percentiles, and the per-task and overall summary (sans-IO).

The success rate of a group of episodes is successes / scored episodes, where
*scored* leaves out task errors and unscored episodes (``reward: null``). Its
95 % interval is the **Wilson score interval** (Wilson 1927), which, unlike the
normal approximation, stays inside [0, 1] and is honest for the small counts of
a suite (0/5 gives [0, 0.43], not [0, 0]). Percentiles interpolate linearly
between order statistics (NumPy's default, ``method="linear"``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Final

import msgspec

from .records import EpisodeRecord

__all__ = ["Z95", "Distribution", "Group", "Summary", "distribution", "percentile", "summarise", "wilson"]

Z95: Final = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95 % interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials``; ``(0.0, 1.0)`` when ``trials`` is 0.

    Raises :class:`ValueError` when the counts are negative or ``successes > trials``.
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes}/{trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 and n the bound is exactly 0 or 1; rounding would leave 0.9999999999999999.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (0 … 100) of ``values`` by linear interpolation; ``None`` when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


class Distribution(msgspec.Struct, frozen=True):
    """Mean, p50, p90 and max of one measure over the episodes that have it (``None`` when none has)."""

    n: int
    mean: float | None
    p50: float | None
    p90: float | None
    max: float | None
    total: float | None


def distribution(values: Iterable[float | int | None]) -> Distribution:
    """The :class:`Distribution` of the non-``None`` ``values``."""
    present = [float(v) for v in values if v is not None]
    if not present:
        return Distribution(0, None, None, None, None, None)
    return Distribution(
        n=len(present),
        mean=sum(present) / len(present),
        p50=percentile(present, 50),
        p90=percentile(present, 90),
        max=max(present),
        total=sum(present),
    )


class Group(msgspec.Struct, frozen=True):
    """The summary of one task (or of the whole run)."""

    episodes: int
    scored: int
    """Episodes with a reward: not unscored, not a task error."""
    successes: int
    success_rate: float | None
    success_ci95: tuple[float, float]
    """Wilson 95 % interval of the success rate."""
    mean_reward: float | None
    """Over scored episodes (failures count 0)."""
    unscored: int
    task_errors: int
    outcomes: dict[str, int]
    errors: dict[str, int]
    """Episodes per error code."""
    steps: Distribution
    tool_calls: Distribution
    prompt_tokens: Distribution
    completion_tokens: Distribution
    time_s: Distribution


class Summary(msgspec.Struct, frozen=True):
    """``summary.json``: the run's settings, the overall :class:`Group` and one per task."""

    model: str
    interval: str
    overall: Group
    tasks: dict[str, Group]
    run: dict[str, Any]


def _group(records: Sequence[EpisodeRecord]) -> Group:
    scored = [r for r in records if r.success is not None]
    successes = sum(1 for r in scored if r.success)
    rewards = [r.reward for r in scored if r.reward is not None]
    outcomes: dict[str, int] = {}
    errors: dict[str, int] = {}
    for r in records:
        outcomes[r.outcome] = outcomes.get(r.outcome, 0) + 1
        if r.error is not None:
            errors[r.error.code] = errors.get(r.error.code, 0) + 1
    return Group(
        episodes=len(records),
        scored=len(scored),
        successes=successes,
        success_rate=successes / len(scored) if scored else None,
        success_ci95=wilson(successes, len(scored)),
        mean_reward=sum(rewards) / len(rewards) if rewards else None,
        unscored=sum(1 for r in records if r.outcome == "unscored"),
        task_errors=sum(1 for r in records if r.task_error),
        outcomes=dict(sorted(outcomes.items())),
        errors=dict(sorted(errors.items())),
        steps=distribution(r.steps for r in records),
        tool_calls=distribution(r.tool_calls for r in records),
        prompt_tokens=distribution(r.prompt_tokens for r in records),
        completion_tokens=distribution(r.completion_tokens for r in records),
        time_s=distribution(r.time_s for r in records),
    )


def summarise(
    records: Sequence[EpisodeRecord], task_order: Sequence[str] = (), run: dict[str, Any] | None = None
) -> Summary:
    """The summary of ``records``: per task in ``task_order`` (then any other task, by name), and overall."""
    by_task: dict[str, list[EpisodeRecord]] = {t: [] for t in task_order}
    for record in records:
        by_task.setdefault(record.task, []).append(record)
    models = sorted({r.model for r in records})
    return Summary(
        model=", ".join(models),
        interval="Wilson score interval, 95 %",
        overall=_group(records),
        tasks={task: _group(rs) for task, rs in by_task.items()},
        run=run or {},
    )
