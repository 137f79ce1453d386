"""``cdpagent eval compare RUN BASELINE.json``: a run against a published baseline of per-task success."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdpagent.commandline.main import _parser
from cdpagent.eval import EpisodeRecord, Step, Transcript, compare
from cdpagent.eval.compare import baseline_records
from cdpagent.eval.rundir import RunDir, read_results

BASELINE = {
    "name": "paper",
    "source": "a table of a paper",
    "episodes": 4,
    "tasks": {"miniwob.click-test": 1.0, "miniwob.enter-text": {"success_rate": 0.5, "episodes": 2}},
}


def _record(task: str, repeat: int, won: bool) -> EpisodeRecord:
    return EpisodeRecord(
        task=task, repeat=repeat, outcome="solved" if won else "failed", reward=float(won), success=won,
        task_error=False, error=None, steps=2, tool_calls=1, prompt_tokens=None, completion_tokens=None,
        time_s=1.0, answer=None, model="policy:x", started="", transcript=f"episodes/{task}__{repeat}.json",
    )  # fmt: skip


def _run(folder: Path) -> Path:
    run = RunDir(folder)
    run.open({"model": "policy:x"}, resume=False)
    for task, wins in [("miniwob.click-test", [True, False]), ("miniwob.enter-text", [True, True])]:
        for n, won in enumerate(wins):
            record = _record(task, n, won)
            steps: list[Step] = []
            run.append(record, Transcript(task, n, "goal", "url", steps, record.outcome, None, None, 1.0))
    return folder


def test_a_baseline_stands_for_its_counts() -> None:
    records = baseline_records(json.dumps(BASELINE).encode())
    assert [(r.task, r.success) for r in records] == [
        ("miniwob.click-test", True), ("miniwob.click-test", True), ("miniwob.click-test", True),
        ("miniwob.click-test", True), ("miniwob.enter-text", True), ("miniwob.enter-text", False),
    ]  # fmt: skip
    assert {r.model for r in records} == {"paper"}


@pytest.mark.parametrize(
    ("baseline", "why"),
    [
        ({"tasks": {"a": 0.5}}, "how many episodes"),
        ({"episodes": 3, "tasks": {"a": 0.5}}, "not a count of successes over 3"),
        ({"episodes": 2, "tasks": {"a": 1.5}}, "not in \\[0, 1\\]"),
        ({"episodes": 2, "tasks": {}}, "no tasks"),
        ({"episodes": 2, "tasks": {"a": 1}, "extra": 1}, "not a baseline JSON"),
    ],
)
def test_a_baseline_that_cannot_be_counted_is_refused(baseline: object, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        baseline_records(json.dumps(baseline).encode())


def test_the_per_task_table_against_a_baseline(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    records = baseline_records(json.dumps(BASELINE).encode())
    comparison = compare(read_results(run), records, a_name="run", b_name="paper", baseline=True)
    by_task = {d.task: d for d in comparison.tasks}
    click = by_task["miniwob.click-test"]
    assert (click.a_success_rate, click.b_success_rate, click.success_delta) == (0.5, 1.0, 0.5)
    low, high = click.success_delta_ci95 or (1.0, 1.0)
    assert low < 0 < high  # two episodes against four: not beyond chance
    assert click.steps_p50_delta is None  # a baseline has no steps


async def test_compare_command_takes_a_baseline_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _run(tmp_path / "run")
    baseline = tmp_path / "paper.json"
    baseline.write_text(json.dumps(BASELINE), encoding="utf-8")
    parser, commands = _parser()
    status = await commands["eval"](parser.parse_args(["eval", "compare", str(run), str(baseline)]))
    assert status == 0
    table = capsys.readouterr().out
    assert f"B = {baseline} (paper)" in table
    row = next(line for line in table.splitlines() if line.startswith("miniwob.click-test"))
    assert row.split()[1:6] == ["50%", "(2)", "100%", "(4)", "+50%"]
    baseline.write_text(json.dumps({"tasks": {"a": 0.5}}), encoding="utf-8")
    status = await commands["eval"](parser.parse_args(["eval", "compare", str(run), str(baseline)]))
    assert status == 2 and "how many episodes" in capsys.readouterr().err
