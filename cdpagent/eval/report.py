"""``report.html``: one self-contained page of a run (sans-IO: records in, HTML text out).

It holds the overall numbers, a bar chart of the success rate per task with its
Wilson interval, histograms of steps, tokens and time, a table per task with one
row per episode, and under each failed row its transcript, collapsed: for every
step what the model saw, the tool calls, and the receipts.

The charts are inline SVG written here and the page has no script: a few dozen
rectangles do not need a plotting library, and none of the ones that could be
installed draws offline without either shipping a JavaScript bundle inside the
page (Plotly, Vega-Altair) or pulling in NumPy and a renderer (matplotlib).
Every text from a run (task ids, goals, page text, model output) goes through
:func:`html.escape`; the page is safe to open whatever the pages said.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from importlib.resources import files
from typing import Final

from .records import EpisodeRecord, Transcript
from .stats import Distribution, Group, Summary

__all__ = ["render_report"]

_CSS: Final = files("cdpagent.eval").joinpath("report.css").read_text(encoding="utf-8")
_FAILED: Final = frozenset({"failed", "timeout", "step_limit", "crashed", "task_error"})


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _num(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if not float(value).is_integer() else f"{int(value)}"


def _success_chart(tasks: Mapping[str, Group]) -> str:
    """Horizontal bars: success rate per task, a whisker for its 95 % interval, ``k/n`` at the end."""
    label_w, bar_w, row_h = 190, 300, 24
    height = row_h * len(tasks) + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_w + bar_w + 70}" height="{height}" '
        f'role="img" aria-label="success rate per task" class="chart" id="success-chart">'
    ]
    for i, (task, group) in enumerate(tasks.items()):
        y = i * row_h + 4
        rate = group.success_rate or 0.0
        name = task if len(task) <= 28 else task[:27] + "…"
        parts.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{_e(name)}</text>')
        width = max(rate * bar_w, 1.5)
        cls = "bar" if rate >= 0.5 else "bar low"
        parts.append(
            f'<rect class="{cls}" data-task="{_e(task)}" x="{label_w}" y="{y + 3}" '
            f'width="{width:.1f}" height="{row_h - 8}"><title>{_e(task)}: {_pct(group.success_rate)}'
            f"</title></rect>"
        )
        if group.scored:
            lo, hi = group.success_ci95
            x1, x2, mid = label_w + lo * bar_w, label_w + hi * bar_w, y + row_h / 2 - 1
            parts.append(f'<line class="ci" x1="{x1:.1f}" x2="{x2:.1f}" y1="{mid}" y2="{mid}"/>')
            for x in (x1, x2):
                parts.append(f'<line class="ci" x1="{x:.1f}" x2="{x:.1f}" y1="{mid - 4}" y2="{mid + 4}"/>')
        count = f"{group.successes}/{group.scored}" if group.scored else "not scored"
        parts.append(f'<text x="{label_w + bar_w + 6}" y="{y + 14}">{count}</text>')
    axis_y = row_h * len(tasks) + 6
    parts.append(f'<line class="axis" x1="{label_w}" x2="{label_w + bar_w}" y1="{axis_y}" y2="{axis_y}"/>')
    for tick in (0, 0.5, 1):
        x = label_w + tick * bar_w
        parts.append(f'<text x="{x}" y="{axis_y + 14}" text-anchor="middle">{tick:.0%}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _histogram(name: str, values: Sequence[float], unit: str) -> str:
    """Vertical bars of ``values`` over at most 10 equal-width bins, the range under the axis."""
    width, height, pad = 260, 130, 22
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 34}" role="img" '
        f'aria-label="{_e(name)} distribution" class="chart histogram">'
    ]
    if not values:
        parts.append(f'<text x="10" y="40">no {_e(name)} recorded</text></svg>')
        return "".join(parts)
    low, high = min(values), max(values)
    # Whole numbers with a short range (steps) get a bar per value, each labelled.
    discrete = all(float(v).is_integer() for v in values) and high - low < 10
    bins = int(high - low) + 1 if discrete else max(1, min(10, len(set(values))))
    span = (high - low) or 1.0
    counts = [0] * bins
    for v in values:
        index = int(v - low) if discrete else math.floor((v - low) / span * bins)
        counts[min(bins - 1, index)] += 1
    top = max(counts)
    bar_w = (width - 2 * pad) / bins
    for i, count in enumerate(counts):
        h = (height - 20) * count / top
        x = pad + i * bar_w
        if count:
            parts.append(
                f'<rect class="bar" x="{x + 1:.1f}" y="{height - h:.1f}" width="{bar_w - 2:.1f}" '
                f'height="{h:.1f}"><title>{count}</title></rect>'
            )
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{height - h - 3:.1f}" text-anchor="middle">{count}</text>'
            )
        if discrete:
            parts.append(
                f'<text x="{x + bar_w / 2:.1f}" y="{height + 14}" text-anchor="middle">{int(low) + i}</text>'
            )
    parts.append(f'<line class="axis" x1="{pad}" x2="{width - pad}" y1="{height}" y2="{height}"/>')
    if not discrete:
        parts.append(f'<text x="{pad}" y="{height + 14}">{_num(low)}</text>')
        parts.append(f'<text x="{width - pad}" y="{height + 14}" text-anchor="end">{_num(high)}</text>')
    parts.append(
        f'<text x="{width / 2}" y="{height + 28}" text-anchor="middle">{_e(name)} ({_e(unit)})</text></svg>'
    )
    return "".join(parts)


def _card(value: str, label: str) -> str:
    return f'<div class="card"><b>{_e(value)}</b><span>{_e(label)}</span></div>'


def _dist(d: Distribution, digits: int = 1) -> str:
    return f"{_num(d.p50, digits)} / {_num(d.p90, digits)}"


def _transcript(t: Transcript) -> str:
    parts = [f'<p class="goal">Goal: {_e(t.goal)}</p>']
    if t.error is not None:
        parts.append(f"<p><b>{_e(t.error.code)}</b>: {_e(t.error.message)}</p>")
    for n, step in enumerate(t.steps, 1):
        parts.append(f'<div class="step"><b>Step {n}</b> — {len(step.tools)} tools offered')
        parts.append(f"<details><summary>what the model saw</summary><pre>{_e(step.saw)}</pre></details>")
        if step.content:
            parts.append(f"<div>model: {_e(step.content)}</div>")
        for call, result in zip(step.calls, [*step.results, *[""] * len(step.calls)], strict=False):
            parts.append(f'<div class="call">→ {_e(call["name"])} {_e(call["arguments"])}</div>')
            if result:
                parts.append(f"<details><summary>receipt</summary><pre>{_e(result)}</pre></details>")
        if not step.calls and not step.content:
            parts.append("<div>(no answer: the episode ended during this request)</div>")
        parts.append("</div>")
    if t.answer is not None:
        parts.append(f"<p>Final answer (not used for scoring): {_e(t.answer)}</p>")
    if t.check:
        parts.append(f"<p>Reward {_num(t.reward, 2)} from the check <code>{_e(t.check)}</code></p>")
    return "".join(parts)


def _task_table(
    task: str,
    group: Group,
    records: Sequence[EpisodeRecord],
    transcripts: Mapping[tuple[str, int], Transcript],
) -> str:
    head = (
        f'<h3 id="task-{_e(task)}">{_e(task)} — {group.successes}/{group.scored} solved, '
        f"mean reward {_num(group.mean_reward, 2)}</h3>"
    )
    rows = [
        '<table class="episodes"><tr><th>#</th><th>outcome</th><th class="num">reward</th>'
        '<th class="num">steps</th><th class="num">tokens</th><th class="num">time (s)</th>'
        "<th>error</th></tr>"
    ]
    for r in records:
        tokens = (r.prompt_tokens or 0) + (r.completion_tokens or 0)
        error = f"{_e(r.error.code)}: {_e(r.error.message)}" if r.error else ""
        rows.append(
            f'<tr class="episode"><td>{r.repeat}</td><td class="{r.outcome}">{r.outcome}</td>'
            f'<td class="num">{_num(r.reward, 2)}</td><td class="num">{r.steps}</td>'
            f'<td class="num">{tokens}</td><td class="num">{r.time_s:.1f}</td><td>{error}</td></tr>'
        )
        transcript = transcripts.get(r.key())
        if r.outcome in _FAILED and transcript is not None:
            rows.append(
                f'<tr class="transcript"><td></td><td colspan="6"><details class="failed-episode">'
                f"<summary>transcript ({len(transcript.steps)} steps)</summary>"
                f"{_transcript(transcript)}</details></td></tr>"
            )
    rows.append("</table>")
    return head + "".join(rows)


def _settings(summary: Summary) -> str:
    run = summary.run
    shown = [f"{key} {run[key]}" for key in ("started", "repeat", "parallel", "cdpagent") if run.get(key)]
    return "<br>" + _e(" · ".join(shown)) if shown else ""


def render_report(
    summary: Summary,
    records: Sequence[EpisodeRecord],
    transcripts: Mapping[tuple[str, int], Transcript],
    *,
    title: str = "cdpagent eval",
) -> str:
    """The report page of ``summary`` and its ``records``; ``transcripts`` are shown under failed rows."""
    o = summary.overall
    lo, hi = o.success_ci95
    tokens = [
        float((r.prompt_tokens or 0) + (r.completion_tokens or 0))
        for r in records
        if r.prompt_tokens is not None or r.completion_tokens is not None
    ]
    overview = [
        "<table><tr><th>task</th><th class='num'>success</th><th class='num'>95% interval</th>"
        "<th class='num'>mean reward</th><th class='num'>steps p50/p90</th>"
        "<th class='num'>time p50/p90 (s)</th><th>errors</th></tr>"
    ]
    for task, g in summary.tasks.items():
        lo_t, hi_t = g.success_ci95
        errors = ", ".join(f"{code} ×{n}" for code, n in g.errors.items())
        interval = f"{_pct(lo_t)}–{_pct(hi_t)}" if g.scored else "–"
        overview.append(
            f"<tr><td><a href='#task-{_e(task)}'>{_e(task)}</a></td>"
            f"<td class='num'>{g.successes}/{g.scored} ({_pct(g.success_rate)})</td>"
            f"<td class='num'>{interval}</td><td class='num'>{_num(g.mean_reward, 2)}</td>"
            f"<td class='num'>{_dist(g.steps)}</td><td class='num'>{_dist(g.time_s)}</td>"
            f"<td>{_e(errors)}</td></tr>"
        )
    overview.append("</table>")
    by_task: dict[str, list[EpisodeRecord]] = {}
    for r in sorted(records, key=lambda r: r.repeat):
        by_task.setdefault(r.task, []).append(r)
    sections = [_task_table(t, g, by_task.get(t, []), transcripts) for t, g in summary.tasks.items()]
    cards = "".join(
        [
            _card(
                f"{_pct(o.success_rate)}", f"success ({o.successes}/{o.scored}), 95% {_pct(lo)}–{_pct(hi)}"
            ),
            _card(_num(o.mean_reward, 2), "mean reward"),
            _card(_num(o.steps.mean), "steps per episode (mean)"),
            _card(_num(sum(tokens), 0), "tokens in all"),
            _card(_num(o.time_s.p50), "seconds per episode (p50)"),
            _card(str(o.task_errors), "task errors (not counted)"),
        ]
    )
    charts = "".join(
        [
            f"<figure>{_success_chart(summary.tasks)}<figcaption>Success per task, whiskers: "
            f"{_e(summary.interval)}</figcaption></figure>",
            f"<figure>{_histogram('steps', [float(r.steps) for r in records], 'model requests')}</figure>",
            f"<figure>{_histogram('tokens', tokens, 'prompt + completion')}</figure>",
            f"<figure>{_histogram('time', [r.time_s for r in records], 's')}</figure>",
        ]
    )
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
        f"<style>{_CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1><p class='meta'>model {_e(summary.model)} · {o.episodes} episodes of "
        f"{len(summary.tasks)} tasks · success over scored episodes, interval: {_e(summary.interval)}"
        f"{_settings(summary)}</p>"
        f'<div class="cards">{cards}</div><h2>Charts</h2><div class="charts">{charts}</div>'
        f"<h2>Tasks</h2>{''.join(overview)}<h2>Episodes</h2>{''.join(sections)}</body></html>\n"
    )
