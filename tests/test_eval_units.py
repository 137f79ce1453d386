"""The sans-IO parts of ``cdpagent eval``: task files, scoring rules, statistics, run folder, progress,
compare and the report's escaping. No browser, no model."""

from __future__ import annotations

import io
import json
from pathlib import Path

import msgspec
import pytest

from cdpagent.eval import (
    EpisodeError,
    EpisodeRecord,
    RunDirError,
    Step,
    TaskFileError,
    Transcript,
    compare,
    format_comparison,
    parse_tasks,
    read_results,
    render_report,
    summarise,
    wilson,
)
from cdpagent.eval.progress import Progress, format_duration
from cdpagent.eval.rundir import RunDir
from cdpagent.eval.scoring import UNDEFINED, Ending, score
from cdpagent.eval.stats import percentile

ROOT = Path(__file__).resolve().parent.parent


def record(
    task: str, outcome: str = "solved", reward: float | None = 1.0, **changes: object
) -> EpisodeRecord:
    fields: dict[str, object] = {
        "task": task, "repeat": 0, "outcome": outcome, "reward": reward,
        "success": None if reward is None or outcome == "task_error" else reward > 0,
        "task_error": outcome == "task_error", "error": None, "steps": 2, "tool_calls": 1,
        "prompt_tokens": 10, "completion_tokens": 3, "time_s": 1.5, "answer": "done", "model": "m",
        "started": "2026-12-01T00:00:00+00:00", "transcript": f"episodes/{task}__0.json",
    }  # fmt: skip
    fields.update(changes)
    return msgspec.convert(fields, EpisodeRecord)


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert round(lo, 4) == 0.2366 and round(hi, 4) == 0.7634
    assert wilson(0, 5)[0] == 0 and round(wilson(0, 5)[1], 4) == 0.4345
    assert wilson(10, 10)[1] == 1 and round(wilson(10, 10)[0], 4) == 0.7225
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_percentiles_interpolate_linearly() -> None:
    assert percentile([1, 2, 3, 4], 50) == 2.5 and percentile([5], 90) == 5
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90) == pytest.approx(9.1)
    assert percentile([], 50) is None


def test_scoring_rules_never_turn_a_failure_or_a_broken_check_into_success() -> None:
    failure = EpisodeError("X", "x")
    timeout = score(Ending("timeout", failure))
    assert timeout.reward == 0 and timeout.success is False
    assert score(Ending("step_limit", failure)).outcome == "step_limit"
    assert score(Ending("crashed", failure)).success is False
    setup = score(Ending("setup_failed", failure))
    assert setup.task_error and setup.success is None and setup.reward == 0
    thrown = score(Ending("answered", reward=True, reward_error=failure))
    assert thrown.outcome == "task_error" and thrown.success is None
    for bad in ("yes", 2, -1.5, float("nan"), UNDEFINED, [1], {"ok": True}):
        result = score(Ending("answered", reward=bad))
        assert result.outcome == "task_error" and result.error is not None, bad
        assert result.error.code == "REWARD_INVALID"
    assert "undefined" in (score(Ending("answered", reward=UNDEFINED)).error or failure).message
    assert score(Ending("answered", reward=None)).outcome == "unscored"
    assert score(Ending("answered", reward=True)).reward == 1.0
    assert score(Ending("answered", reward=False)).outcome == "failed"
    assert score(Ending("answered", reward=0.25)).success is True
    assert score(Ending("answered", reward=-1)).outcome == "failed"
    assert score(Ending("answered", reward=0)).success is False


def test_task_lines_are_checked_and_name_their_line(tmp_path: Path) -> None:
    good = '{"id": "a", "url": "page.html", "goal": "g", "reward": "true", "observe": {"max_records": 5}}'
    (task,) = parse_tasks(good, tmp_path)
    assert task.url == str(tmp_path / "page.html") and task.observe is not None
    assert task.observe.max_records == 5 and task.max_steps == 20 and task.agent_role().page == task.url
    (example,) = parse_tasks('{"id": "e", "url": "example:todos", "goal": "g", "reward": "1"}', tmp_path)
    assert example.url.endswith("todos/index.html")
    cases = {
        "not json": "not a JSON object",
        '{"id": "a", "url": "u", "goal": "g"}': "missing required field `reward`",
        '{"id": "a", "url": "u", "goal": "g", "reward": "1", "rewrad": 1}': "unknown field `rewrad`",
        '{"id": "a", "url": "u", "goal": "g", "reward": 1}': "Expected `str`",
        '{"id": "a", "url": "example:nope", "goal": "g", "reward": "1"}': "no bundled example nope",
        '{"id": "a", "url": "u", "goal": "g", "reward": "1", "max_steps": 0}': "max_steps",
        '{"id": "a", "url": "u", "goal": " ", "reward": "1"}': "`goal` is empty",
        '{"id": "a/b", "url": "u", "goal": "g", "reward": "1"}': "without slashes",
        '{"id": "a", "goal": "g", "reward": "1"}': "`url` is empty",
        '{"id": "a", "url": "u", "goal": "g", "reward": "1", "observe": {"max_rows": 1}}': "max_rows",
        '{"id": "a", "url": "u", "goal": "g", "reward": "1", "role": "missing.toml"}': "cannot read the role",
        "# only a comment": "no tasks",
    }
    for text, message in cases.items():
        with pytest.raises(TaskFileError, match=message) as caught:
            parse_tasks(text, tmp_path, name="t.jsonl")
        assert caught.value.code == "TASK_INVALID"
        assert text.startswith("#") or "t.jsonl:1" in str(caught.value)
    with pytest.raises(TaskFileError, match=r"t.jsonl:3: task id 'a' is already used on line 1"):
        parse_tasks(good + "\n\n" + good, tmp_path, name="t.jsonl")


def test_the_example_suite_loads_and_ships_as_package_data() -> None:
    from cdpagent.eval import load_tasks

    tasks = load_tasks(ROOT / "examples" / "eval" / "tasks.jsonl")
    assert len(tasks) >= 5 and all(Path(t.url).is_file() for t in tasks)
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"**/*.jsonl"' in pyproject and '"cdpagent.eval" = ["report.css"]' in pyproject


def test_run_folder_refuses_to_mix_runs_and_drops_a_cut_last_line(tmp_path: Path) -> None:
    folder = RunDir(tmp_path)
    assert folder.open({"model": "m"}, resume=False) == []
    transcript = Transcript("a", 0, "g", "u", [], "solved", None, "done", 1.0)
    folder.append(record("a"), transcript)
    folder.append(record("b"), transcript)
    with pytest.raises(RunDirError, match="--resume") as caught:
        folder.open({"model": "m"}, resume=False)
    assert caught.value.code == "RUN_DIR_INVALID"
    with pytest.raises(RunDirError, match="model 'm', not 'other'"):
        folder.open({"model": "other"}, resume=True)
    results = tmp_path / "results.jsonl"
    results.write_bytes(results.read_bytes() + b'{"task": "c", "rep')
    assert [r.task for r in folder.open({"model": "m"}, resume=True)] == ["a", "b"]
    assert results.read_bytes().endswith(b"}\n")
    results.write_bytes(b"garbage\n" + results.read_bytes())
    with pytest.raises(RunDirError, match=r"results\.jsonl:1"):
        read_results(tmp_path)


def test_progress_is_a_bar_on_a_terminal_and_lines_on_a_pipe() -> None:
    pipe = io.StringIO()
    progress = Progress(4, stream=pipe, tty=False)
    progress.begin()
    progress.begin()
    progress.finish(record("a"))
    progress.finish(record("b", "timeout", 0.0, error=EpisodeError("EPISODE_TIMEOUT", "slow")))
    shown = pipe.getvalue().splitlines()
    assert len(shown) == 2 and "\r" not in pipe.getvalue()
    assert "b#0 timeout EPISODE_TIMEOUT reward 0.00" in shown[1]
    assert "2/4 done · 0 running · 1 failed · success 50% · ETA" in shown[1]
    terminal = io.StringIO()
    bar = Progress(2, stream=terminal, tty=True)
    bar.begin()
    bar.finish(record("a"))
    bar.close()
    assert terminal.getvalue().startswith("\r[") and "1/2 done" in terminal.getvalue()
    assert terminal.getvalue().endswith("\n") and format_duration(3725) == "1:02:05"


def test_summary_and_compare_count_task_errors_out_of_the_rate() -> None:
    a = [record("x"), record("y", "failed", 0.0), record("z", "task_error", 0.0)]
    b = [record("x"), record("y"), record("w", "unscored", None)]
    summary = summarise(a, ["x", "y", "z"])
    assert summary.overall.scored == 2 and summary.overall.task_errors == 1
    assert summary.overall.success_rate == 0.5 and summary.overall.prompt_tokens.total == 30
    comparison = compare(a, b, a_name="runA", b_name="runB")
    deltas = {d.task: d for d in comparison.tasks}
    assert deltas["y"].success_delta == 1.0 and deltas["x"].success_delta == 0.0
    lo, hi = deltas["y"].success_delta_ci95 or (0, 0)
    assert -1 <= lo < 1 and 0 < hi <= 1
    assert deltas["z"].b_success_rate is None and deltas["w"].a_success_rate is None
    table = format_comparison(comparison)
    assert table.splitlines()[0] == "A = runA (m)" and "+100%" in table and "(all)" in table


def test_report_escapes_everything_a_page_or_model_said() -> None:
    hostile = "<script>alert(1)</script>"
    records = [record("t1", "failed", 0.0, answer=hostile)]
    step = Step(saw=f"page {hostile}", tools=["x"], content=hostile, calls=[
        {"id": "c", "name": hostile, "arguments": hostile}], results=[hostile])  # fmt: skip
    transcript = Transcript("t1", 0, hostile, "u", [step], "failed", None, hostile, 0.0)
    page = render_report(summarise(records), records, {("t1", 0): transcript}, title=hostile)
    assert "<script" not in page and page.count("&lt;script&gt;") >= 6
    assert 'class="failed-episode"' in page and json.dumps("x")  # the transcript is under the row


async def test_eval_command_refuses_bad_input_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cdpagent.commandline.main import _parser

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "CDPAGENT_MODEL"):
        monkeypatch.delenv(name, raising=False)

    async def command(*args: str) -> int:
        parser, commands = _parser()
        return await commands["eval"](parser.parse_args(["eval", *args]))

    model = ("--model", "m", "--base-url", "http://127.0.0.1:9/v1")
    tasks = tmp_path / "t.jsonl"
    tasks.write_text('{"id": "a", "url": "example:todos", "goal": "g", "reward": "true"}\n', encoding="utf-8")
    cases = [
        ((str(tasks), "extra", *model), "eval takes TASKS.jsonl | webarena:CONFIGS.json | browsergym:SUITE"),
        ((str(tasks), "--repeat", "0", *model), "--repeat and --parallel must be at least 1"),
        ((str(tasks), "--resume", *model), "--resume needs --out DIR"),
        ((str(tmp_path / "missing.jsonl"), *model), "cannot read the task file"),
        (("example:nope/tasks.jsonl", *model), "no bundled example nope/tasks.jsonl"),
        ((str(tasks), "--model", "m", "--base-url", ""), "pass --base-url for a local server"),
        (("compare", str(tmp_path)), "compare takes two run folders"),
        (("compare", str(tmp_path), str(tmp_path)), "cannot read the results"),
    ]
    for args, message in cases:
        assert await command(*args) == 2, args
        assert message in capsys.readouterr().err, args



def test_every_eval_name_is_documented() -> None:
    import inspect

    import cdpagent.eval

    names = cdpagent.eval.__all__
    assert [n for n in names if not (inspect.getdoc(getattr(cdpagent.eval, n)) or "").strip()] == []
