"""A/B of two versions of the inference (``js/infer.js`` and its files) in one page, and where time goes.

Both versions are loaded into the same tab (main world, each under its own global,
beside the collector, whose helpers the inference calls) and run alternately, so
background load on the machine falls on both alike. Prints, per version, the p50
and min of the in-page ``collect_ms`` over ``--runs`` passes, whether the two
snapshots are identical (they must be, for a change that only makes inference
faster), and with ``--profile`` the functions of the new version by self time
from a CPU profile (``Profiler`` domain, 100 µs sampling).

    .venv/bin/python bench/infer_ab.py [--old REV] [--new PATH] [--rows 10000] [--runs 15] [--profile]

``--old`` is a git revision whose ``js/clickables.js`` and inference files are the baseline
(default HEAD); ``--new`` the ``js/`` folder whose files to compare (default the working
tree's); ``--url`` another page (e.g. the 50,000-link docs page). The inference's files are
those of :data:`~cdpagent.cdp.pagescripts.WORLD_SCRIPTS` from ``clickables.js`` through
``infer.js``; a revision from before they were split has ``js/infer.js`` alone.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import trio

import cdpagent
from cdpagent.cdp.pagescripts import WORLD_SCRIPTS, source
from cdpagent.snapshot import ObserveOptions

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "realworld" / "generated" / "table.html"
GLOBAL = "__cdpagentInfer"
INFERENCE = WORLD_SCRIPTS[WORLD_SCRIPTS.index("clickables.js") : WORLD_SCRIPTS.index("infer.js") + 1]
COLLECTOR = WORLD_SCRIPTS[: WORLD_SCRIPTS.index("collect.js") + 1]
CLICKS = "__cdpagentClickables"
OPTIONS = msgspec.json.encode(ObserveOptions().collector_args()).decode()


def _renamed(source: str, name: str) -> str:
    return source.replace(GLOBAL, name).replace(CLICKS, name + "Clicks")


def _infer_call(name: str) -> str:
    return f"{name}.infer({json.dumps(OPTIONS)}, {name}.plan(null))"


async def _evaluate(tab: cdpagent.Tab, expression: str) -> Any:
    reply = await tab.session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    if "exceptionDetails" in reply:
        raise RuntimeError(json.dumps(reply["exceptionDetails"])[:2000])
    return reply["result"].get("value")


async def _self_times(tab: cdpagent.Tab, name: str, passes: int) -> list[tuple[str, float]]:
    """(function:line, ms of self time per pass) of ``passes`` passes of ``name``, highest first."""
    session = tab.session
    await session.send("Profiler.enable")
    await session.send("Profiler.setSamplingInterval", {"interval": 100})
    await session.send("Profiler.start")
    for _ in range(passes):
        await _evaluate(tab, _infer_call(name))
    profile = (await session.send("Profiler.stop"))["profile"]
    await session.send("Profiler.disable")
    frames = {n["id"]: n["callFrame"] for n in profile["nodes"]}
    parents = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}
    label = {i: f"{f['functionName'] or '(anonymous)'}:{f['lineNumber'] + 1}" for i, f in frames.items()}
    totals: collections.Counter[str] = collections.Counter()
    for node, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        key = label[node]
        # A DOM call (querySelector, checkVisibility) is named with the function that made it.
        if frames[node]["lineNumber"] < 0 and node in parents and frames[parents[node]]["lineNumber"] >= 0:
            key += f" in {label[parents[node]]}"
        totals[key] += delta
    return [(key, us / 1000 / passes) for key, us in totals.most_common(30)]


async def compare(old: str, new: str, rows: int, runs: int, profile: bool, url: str | None = None) -> None:
    """Print the A/B figures of ``old`` and ``new`` (the inference's sources, joined) on the
    generated table (or ``url``)."""
    async with cdpagent.launch() as browser:
        tab = await browser.open(url or f"{TABLE.as_uri()}?rows={rows}", timeout=300)
        for name in COLLECTOR:
            await _evaluate(tab, source(name))
        await _evaluate(tab, _renamed(old, "__inferA"))
        await _evaluate(tab, _renamed(new, "__inferB"))
        times: dict[str, list[float]] = {"__inferA": [], "__inferB": []}
        last: dict[str, dict[str, Any]] = {}
        for i in range(runs + 2):  # two warm-up rounds
            for name in ("__inferA", "__inferB") if i % 2 else ("__inferB", "__inferA"):
                snapshot = json.loads(await _evaluate(tab, _infer_call(name)))
                ms = snapshot.pop("collect_ms")
                if i >= 2:
                    times[name].append(ms)
                last[name] = snapshot
        for name, label in (("__inferA", "old"), ("__inferB", "new")):
            t = times[name]
            p50, low = statistics.median(t), min(t)
            print(f"{rows} rows, {label}: p50 {p50:.1f} ms, min {low:.1f} ms ({len(t)} runs)")
        a, b = statistics.median(times["__inferA"]), statistics.median(times["__inferB"])
        print(f"new/old p50: {b / a:.2f}; identical snapshots: {last['__inferA'] == last['__inferB']}")
        for key in last["__inferA"]:
            if last["__inferA"][key] != last["__inferB"].get(key):
                print(f"  differs: {key}")
        if profile:
            print("new version, self time per pass (ms):")
            for key, ms in await _self_times(tab, "__inferB", 5):
                print(f"  {ms:8.1f}  {key}")
        await tab.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="HEAD", help="git revision of the baseline inference files")
    parser.add_argument("--new", type=Path, default=ROOT / "js", help="the js/ folder of the other version")
    parser.add_argument("--rows", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--url", help="another page than the generated table")
    args = parser.parse_args()
    shown = [
        subprocess.run(["git", "show", f"{args.old}:js/{name}"], cwd=ROOT, capture_output=True, text=True)
        for name in INFERENCE
    ]
    # A file the revision lacks: the inference was not split yet there.
    old = "".join(run.stdout for run in shown if run.returncode == 0)
    new = "".join((args.new / name).read_text() for name in INFERENCE)
    trio.run(compare, old, new, args.rows, args.runs, args.profile, args.url)


if __name__ == "__main__":
    main()
