"""The agent's own cost per step, excluding the model, on the inventory example at 100 / 1,000 / 10,000 rows.

One agent step without the model is: settle + observe + render (``observe_page``),
assemble the request (rules + role + page section, tools), count its tokens and
serialise the JSON body. For each size this prints the p50 of that step beside
the p50 of a bare ``observe_page`` on the same tab (samples interleaved, so load
drift hits both alike) and their ratio (aim ≤ 1.2×), with settle (the agent's
default) and without it (``settle=False``: the pure processing cost); then the
request's size in bytes, estimated tokens and system + tools characters (aim
≤ 16,000). Last, the history over a scripted 200-turn conversation (user asks,
the model calls one tool whose receipt grows with the turn, then answers),
compacted before every request as the agent does: the largest and last history
in tokens against ``maxTokens``.

    .venv/bin/python bench/agent.py [--samples N] [--sizes 100,1000,10000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import trio

import cdpagent
from cdpagent.agent import Budgets, assemble_request, compact, estimate_tokens, generic_role
from cdpagent.agent.history import Message
from cdpagent.agent.request import page_options
from cdpagent.agent.tokens import messages_tokens
from cdpagent.snapshot import ObserveOptions
from cdpagent.snapshot.observe import observe_page

PAGE = Path(__file__).resolve().parent.parent / "examples" / "inventory" / "index.html"
HISTORY: list[Message] = [{"role": "user", "content": "Mark the item sku-00300 as discontinued."}]


def p50(values: list[float]) -> float:
    return statistics.median(values) * 1000


async def agent_step(tab: cdpagent.Tab, options: ObserveOptions) -> tuple[int, int, int]:
    """One step without the model: (body bytes, tokens, system + tools characters)."""
    role = generic_role(str(PAGE))
    page = await observe_page(tab, page_options(role, [tab.id], options))
    request = assemble_request(role, page, HISTORY, tab_id=tab.id, counter=estimate_tokens)
    body = json.dumps(request.body("model"), ensure_ascii=False).encode()
    chars = len(request.system) + len(json.dumps(request.tools, ensure_ascii=False, separators=(",", ":")))
    return len(body), request.tokens, chars


async def measure(sizes: list[int], samples: int) -> None:
    print(
        f"{'rows':>6} | {'settled: observe':>16} {'agent step':>10} {'ratio':>6} | "
        f"{'no settle: observe':>18} {'agent step':>10} {'ratio':>6} | "
        f"{'bytes':>7} {'tokens':>6} {'sys+tools':>9}"
    )
    async with cdpagent.launch() as browser:
        for size in sizes:
            # A 10,000-row page takes seconds to build on a loaded machine.
            tab = await browser.open(f"{PAGE.as_uri()}?rows={size}", timeout=300)
            figures: dict[str, list[float]] = {k: [] for k in ("obs", "step", "obs_q", "step_q")}
            quick = ObserveOptions(settle=False)
            default = ObserveOptions()
            await agent_step(tab, default)  # warm-up
            size_figures = (0, 0, 0)
            for _ in range(samples):
                for key, options, whole_step in (
                    ("obs", default, False),
                    ("step", default, True),
                    ("obs_q", quick, False),
                    ("step_q", quick, True),
                ):
                    t0 = time.perf_counter()
                    if whole_step:
                        size_figures = await agent_step(tab, options)
                    else:
                        await observe_page(tab, options)
                    figures[key].append(time.perf_counter() - t0)
            obs, step, obs_q, step_q = (p50(figures[k]) for k in ("obs", "step", "obs_q", "step_q"))
            body, tokens, chars = size_figures
            print(
                f"{size:>6} | {obs:>13.1f} ms {step:>7.1f} ms {step / obs:>5.2f}× | "
                f"{obs_q:>15.1f} ms {step_q:>7.1f} ms {step_q / obs_q:>5.2f}× | "
                f"{body:>7} {tokens:>6} {chars:>9}"
            )
            await tab.close()


def receipt(turn: int) -> str:
    value: dict[str, Any] = {
        "result": {
            "ok": True,
            "action": {"id": f"toggle@t{turn}", "description": "Mark the task as complete"},
            "changed": {"records": {"changed": {f"t{turn}": {"done": {"before": False, "after": True}}}}},
            "warnings": [f"note {k}: the list is long and still loading" for k in range(turn % 40)],
        }
    }
    return json.dumps(value, ensure_ascii=False)


def history_over_200_turns() -> None:
    budgets = Budgets()
    history: list[Message] = []
    sizes: list[int] = []
    started = time.perf_counter()
    for turn in range(200):
        call = {"id": f"call_{turn}", "type": "function", "function": {"name": "toggle", "arguments": "{}"}}
        for message in (
            {"role": "user", "content": f"请把第 {turn} 条待办标记为完成，然后告诉我结果。"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"call_{turn}", "content": receipt(turn)},
            {"role": "assistant", "content": f"已完成 t{turn}：done false → true。"},
        ):
            history.append(message)
            if message["role"] != "assistant":
                history = compact(history, budgets)
                sizes.append(messages_tokens(history))
    elapsed = (time.perf_counter() - started) * 1000
    print(
        f"\nhistory over 200 turns ({len(sizes)} requests): max {max(sizes)} tokens, last {sizes[-1]}, "
        f"maxTokens {budgets.max_tokens} (available {budgets.available}, compaction at {budgets.threshold}); "
        f"{'within' if max(sizes) <= budgets.max_tokens else 'OVER'} budget; "
        f"compaction and counting {elapsed / len(sizes):.2f} ms per request"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=15)
    parser.add_argument("--sizes", default="100,1000,10000")
    args = parser.parse_args()
    trio.run(measure, [int(s) for s in args.sizes.split(",")], args.samples)
    history_over_200_turns()


if __name__ == "__main__":
    main()
