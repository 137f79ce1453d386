"""``cdpagent eval`` end to end: a 13-task suite on the todos page, a scripted loopback model, K = 2.

The scripted model (tests/eval_support.py) solves some tasks, fails others,
hangs on one (its episode times out), and one task's reward throws; every
output file is checked against what the script makes the agent do. And WebArena-format
configs against a loopback stand-in site, each evaluator type scoring one pass and one fail.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio
from conftest import evaluate
from eval_support import CHECKED, EXPECTED, SUITE, goal_of, router, write_suite
from scripted_model import ScriptedModel, answer, calls

import cdpagent
import cdpagent.eval
from cdpagent.commandline.main import _parser
from cdpagent.eval.webarena import load_configs


async def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "cdpagent", "eval", *args]
    env = {**os.environ, "CDPAGENT_NO_GRID": "1"}  # read now: tests/conftest.py sets where the browser is
    return await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False, env=env)


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def check_records(records: list[dict[str, Any]]) -> None:
    assert sorted(r["task"] for r in records) == sorted(SUITE)
    for r in records:
        outcome, reward, code = EXPECTED[r["task"]]
        assert (r["outcome"], r["reward"], (r["error"] or {}).get("code")) == (outcome, reward, code), r
        scored = outcome not in ("unscored", "task_error")
        assert r["success"] == (reward is not None and reward > 0 if scored else None)
        assert r["task_error"] == (outcome == "task_error")
        assert r["model"] == "scripted" and r["repeat"] == 0 and r["time_s"] >= 0
    by_task = {r["task"]: r for r in records}
    # The model's claim of success counts for nothing: the page was unchanged.
    assert by_task["claims"]["answer"].startswith("I have marked it as done")
    assert by_task["step-limit"]["steps"] == 2 and by_task["step-limit"]["tool_calls"] == 2
    assert by_task["report"]["steps"] == 2 and by_task["report"]["prompt_tokens"] == 2
    assert by_task["report"]["completion_tokens"] == 2
    assert by_task["setup-throws"]["steps"] == 0
    assert "seed failed" in by_task["setup-throws"]["error"]["message"]
    assert "the reward threw: TypeError" in by_task["reward-throws"]["error"]["message"]


async def in_process(*args: str) -> int:
    """``cdpagent eval ARGS`` in this Trio run (no interpreter start): what needs no browser."""
    parser, commands = _parser()
    return await commands["eval"](parser.parse_args(["eval", *args]))


async def test_eval_cli_suite_resume_python_api_compare_and_report(
    tmp_path: Path, chrome_endpoint: str, browser: cdpagent.Browser, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks = write_suite(tmp_path)
    out = tmp_path / "run"
    server = ScriptedModel([router()] * 100)
    with server.running(), trio.fail_after(120):
        done = await cli(str(tasks), "--model", "scripted", "--base-url", server.url, "--parallel", "2",
                         "--out", str(out))  # fmt: skip
    stderr = done.stderr.decode()
    assert done.returncode == 0, stderr
    stdout = json.loads(done.stdout)
    assert stdout["out"] == str(out) and stdout["episodes"] == 13 and stdout["task_errors"] == 2
    # Not a terminal: one plain line per episode, with the running counts, success rate and ETA.
    progress = [line for line in stderr.splitlines() if line.startswith("cdpagent eval: ") and "#0" in line]
    assert len(progress) == 13 and "\r" not in stderr and "13/13 done · 0 running" in progress[-1]
    assert all("ETA" in line and "success" in line for line in progress)
    goals = [goal_of(body) for body in server.checked_requests()]
    assert SUITE["setup-throws"][0] not in goals  # the episode ended before the model was asked

    records = lines(out / "results.jsonl")
    check_records(records)
    run = json.loads((out / "run.json").read_text())
    assert run["model"] == "scripted" and run["parallel"] == 2 and run["tasks"] == list(SUITE)

    summary = json.loads((out / "summary.json").read_text())
    overall = summary["overall"]
    assert (overall["episodes"], overall["scored"], overall["successes"]) == (13, 10, 5)
    assert (overall["task_errors"], overall["unscored"]) == (2, 1)
    assert overall["success_rate"] == 0.5 and summary["interval"].startswith("Wilson")
    lo, hi = overall["success_ci95"]
    assert abs(lo - 0.2366) < 1e-3 and abs(hi - 0.7634) < 1e-3  # Wilson 5/10
    assert abs(overall["mean_reward"] - 0.45) < 1e-9  # (4 + 0.5) / 10 scored episodes
    assert summary["tasks"]["half"]["mean_reward"] == 0.5
    assert summary["tasks"]["hangs"]["errors"] == {"EPISODE_TIMEOUT": 1}
    assert overall["steps"]["max"] == 2 and overall["time_s"]["p50"] is not None
    assert list(summary["tasks"]) == list(SUITE)

    wrong = json.loads((out / "episodes" / "wrong-row__0.json").read_text())
    assert wrong["outcome"] == "failed" and len(wrong["steps"]) == 2
    assert wrong["check"] == CHECKED.format("t5")
    first = wrong["steps"][0]
    assert "t5" in first["saw"] and "toggle" in first["tools"]
    assert first["calls"][0]["name"] == "toggle" and '"t4"' in first["calls"][0]["arguments"]
    assert '"ok":true' in first["results"][0].replace(" ", "")
    report = (out / "report.html").read_text()
    assert report.count('class="failed-episode"') == 7 and "<script" not in report

    # Interrupted: three episodes lost their lines (one a half-written last line); --resume runs only those.
    kept = (out / "results.jsonl").read_text().splitlines()
    lost = {json.loads(line)["task"] for line in kept[-3:]}
    (out / "results.jsonl").write_text("\n".join(kept[:-3]) + "\n" + kept[-3][:40], encoding="utf-8")
    again = ScriptedModel([router()] * 50)
    capsys.readouterr()
    with again.running(), trio.fail_after(120):
        resumed = await in_process(str(tasks), "--model", "scripted", "--base-url", again.url,
                                   "--parallel", "2", "--out", str(out), "--resume")  # fmt: skip
    assert resumed == 0
    asked = {goal_of(body) for body in again.requests}
    expected = {SUITE[t][0] for t in lost} - {SUITE["setup-throws"][0]}
    # Under load, "hangs" may pass its 1 s before its first request: it is timed out either way.
    assert expected - {SUITE["hangs"][0]} <= asked <= expected
    assert capsys.readouterr().err.count("#0 ") == 3
    check_records(lines(out / "results.jsonl"))
    refused = await in_process(str(tasks), "--model", "scripted", "--base-url", again.url, "--out", str(out))
    assert refused == 2
    assert "pass --resume" in capsys.readouterr().err

    # Run B through the Python API on the session browser: the model now does what it claimed on
    # "claims", and the key works on "crashed".
    fixed = {"claims": [calls(("toggle", '{"record":"t5"}')), answer("Done.")], "crashed": [answer("ok")]}
    wanted = ("report", "claims", "wrong-row", "crashed")
    subset = [t for t in cdpagent.eval.load_tasks(tasks) if t.id in wanted]

    async def t9_done(tab: cdpagent.Tab) -> bool:
        return bool(await evaluate(tab, CHECKED.format("t9")))

    async def broken(tab: cdpagent.Tab) -> bool:
        raise ValueError("a Python check with a bug")

    # The Python form: reward callables over the tab (the goals route to the same scripts).
    subset += [
        cdpagent.eval.Task(id="py-reward", url="example:todos", goal=SUITE["report"][0], reward=t9_done),
        cdpagent.eval.Task(id="py-throws", url="example:todos", goal=SUITE["unscored"][0], reward=broken),
    ]
    server_b = ScriptedModel([router(fixed)] * 50)
    with server_b.running(), trio.fail_after(120):
        b = await cdpagent.eval.run(
            subset, model="scripted-b", base_url=server_b.url, parallel=2, sources=[chrome_endpoint],
            out=tmp_path / "b",
        )  # fmt: skip
    assert [r.task for r in b] == [*wanted, "py-reward", "py-throws"]  # task order
    assert [r.outcome for r in b] == ["solved", "solved", "failed", "solved", "solved", "task_error"]
    assert b[-1].error is not None and "a Python check with a bug" in b[-1].error.message
    assert (tmp_path / "b" / "report.html").exists()

    capsys.readouterr()
    listing = sorted(p.name for p in (tmp_path / "b").iterdir())
    assert await in_process("compare", str(out), str(tmp_path / "b"), "--out", str(tmp_path / "c.json")) == 0
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == listing  # only what was asked is written
    table = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[3:]}
    assert "+100%" in table["claims"] and "+100%" in table["crashed"]
    assert "+0%" in table["report"] and "+0%" in table["wrong-row"] and table["half"].count("–") >= 3
    written = json.loads((tmp_path / "c.json").read_text())
    deltas = {d["task"]: d for d in written["tasks"]}
    assert deltas["claims"]["success_delta"] == 1.0 and deltas["half"]["b_success_rate"] is None
    assert written["a_model"] == "scripted" and written["b_model"] == "scripted-b"

    # The report opens offline in Chromium with its charts drawn: a bar per task, three histograms.
    tab = await browser.open(out / "report.html")
    page = await evaluate(
        tab,
        """(() => {
          const chart = document.getElementById('success-chart');
          return {
            bars: [...chart.querySelectorAll('rect[data-task]')]
              .map(r => [r.dataset.task, r.getBBox().width]),
            chartWidth: chart.getBoundingClientRect().width,
            histograms: [...document.querySelectorAll('svg.histogram')]
              .map(s => s.querySelectorAll('rect.bar').length),
            failed: document.querySelectorAll('details.failed-episode').length,
            rows: document.querySelectorAll('tr.episode').length,
            open: document.querySelectorAll('details[open]').length,
            steps: document.querySelectorAll('details.failed-episode .step').length,
          };
        })()""",
    )
    bars = dict(page["bars"])
    assert list(bars) == list(SUITE) and page["chartWidth"] > 300
    assert bars["report"] > 250 and bars["claims"] < 2 and bars["half"] > 250  # 100 %, 0 %, 1/1
    assert len(page["histograms"]) == 3 and all(n >= 1 for n in page["histograms"])
    assert page["failed"] == 7 and page["open"] == 0 and page["steps"] >= 7 and page["rows"] == 13
    shot = await tab.session.send("Page.captureScreenshot", {"format": "png"})
    png = base64.b64decode(shot["data"])
    (tmp_path / "report.png").write_bytes(png)
    assert png.startswith(b"\x89PNG") and len(png) > 20_000


def msgspec_builtins(record: cdpagent.eval.EpisodeRecord) -> dict[str, Any]:
    value: dict[str, Any] = msgspec.to_builtins(record)
    return value


#: The loopback stand-in site of tests/test_eval_webarena.py's configs (never WebArena itself).
WEBARENA = Path(__file__).resolve().parent / "webarena"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def shop(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(WEBARENA)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    monkeypatch.setenv("WA_SHOPPING", url)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.mark.browser
async def test_each_evaluator_type_scores_one_pass_and_one_fail(shop: str, tmp_path: Path) -> None:
    tasks = load_configs(WEBARENA / "configs.json")
    assert tasks[0].url == f"{shop}/index.html" and tasks[0].goal == "What is the price of the blue mug?"
    records = await cdpagent.eval.run(
        tasks, model="", policy="webarena_support:policy", parallel=2, out=tmp_path / "run"
    )
    got = {r.task: (r.outcome, r.reward) for r in records}
    assert got == {
        "webarena.1": ("solved", 1.0), "webarena.2": ("failed", 0.0),  # string_match
        "webarena.3": ("solved", 1.0), "webarena.4": ("failed", 0.0),  # url_match
        "webarena.5": ("solved", 1.0), "webarena.6": ("failed", 0.0),  # program_html
    }  # fmt: skip
    assert all(r.error is None for r in records), [r.error for r in records]
    transcript = json.loads((tmp_path / "run" / "episodes" / "webarena.6__0.json").read_text())
    assert transcript["check"] == "python:webarena:6"
