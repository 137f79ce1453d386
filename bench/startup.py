"""Start-up: how long ``cdpagent --version``, ``cdpagent --help`` and ``import cdpagent`` take,
and how soon ``cdpagent mcp`` answers ``initialize`` over stdio (the browser starts on the first
tool call), beside the floor every Python program pays (an interpreter that imports nothing),
measured in the same run.

Each figure is the p50 wall time of ``--runs`` fresh processes, taking turns so that load
drift hits them alike; the targets (issue 32, on a quiet machine) are printed with met / NOT MET.

    .venv/bin/python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

CDPAGENT = Path(sys.executable).with_name("cdpagent")
MCP = "cdpagent mcp: initialize answered"
CASES: dict[str, tuple[list[str], float | None]] = {
    "python -c pass (the floor)": ([sys.executable, "-c", "pass"], None),
    "python -c 'import cdpagent'": ([sys.executable, "-c", "import cdpagent"], 200.0),
    "cdpagent --version": ([str(CDPAGENT), "--version"], 150.0),
    "cdpagent --help": ([str(CDPAGENT), "--help"], 300.0),
    MCP: ([str(CDPAGENT), "mcp"], 1000.0),
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    },
}


def _once(command: list[str]) -> float:
    started = time.perf_counter()
    if command[1:] != ["mcp"]:
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        return (time.perf_counter() - started) * 1000
    # The time to the first answer line; closing stdin then ends the server.
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    ) as server:
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write(json.dumps(INITIALIZE).encode() + b"\n")
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        elapsed = (time.perf_counter() - started) * 1000
        assert answer.get("id") == 1 and "result" in answer, answer
        server.stdin.close()
        server.wait(timeout=60)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for command, _ in CASES.values():
        _once(command)  # warm the file cache
    for _ in range(args.runs):
        for name, (command, _) in CASES.items():
            times[name].append(_once(command))
    floor = statistics.median(times["python -c pass (the floor)"])
    print(f"start-up, p50 of {args.runs} fresh processes (ms)       p50   ÷ floor   target  result")
    for name, (_, target) in CASES.items():
        p50 = statistics.median(times[name])
        verdict = "" if target is None else f"{target:6.0f}  {'met' if p50 <= target else 'NOT MET'}"
        print(f"{name:44s} {p50:7.0f}   {p50 / floor:6.2f}x  {verdict}")
    print(f"load average while running: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
