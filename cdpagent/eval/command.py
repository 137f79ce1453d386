"""``cdpagent eval``: run a task suite with a model and write results, summary and report; compare runs.

::

    cdpagent eval TASKS.jsonl --model M [--base-url URL] [--repeat N] [--parallel K]
                  [--grid URL] [--out DIR] [--resume]
    cdpagent eval browsergym:miniwob[:GLOB,…] (--model M | --policy MODULE:CALLABLE)
                  [--seeds N] [--parallel K] [--max-steps N] [--episode-timeout S] [--out DIR] [--resume]
    cdpagent eval webarena:CONFIGS.json (--model M | --policy MODULE:CALLABLE) [options as for TASKS.jsonl]
    cdpagent eval compare RUN_A RUN_B [--out FILE]

``TASKS.jsonl`` may be ``example:eval/tasks.jsonl``, the bundled example suite.
``browsergym:miniwob`` runs BrowserGym's MiniWoB++ tasks, scored by BrowserGym
(:mod:`cdpagent.eval.suites`). ``--policy`` lets a scripted policy play instead of a
model (:mod:`cdpagent.eval.policy`). ``webarena:CONFIGS.json`` runs WebArena task configs
on the user's own sites (:mod:`cdpagent.eval.webarena`).

The progress bar goes to stderr (plain lines when stderr is not a terminal);
stdout gets one JSON object: the run folder and the overall numbers (or, for
``compare``, the table). Exit status: 0 the run finished (whatever it scored),
1 a cdpagent error, 2 bad arguments, an unusable task file or run folder.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from ..console.flags import add_launch_flags, launch_only_flags, launch_options

if TYPE_CHECKING:
    from ..remote.pool import BrowserSource

__all__ = ["add_eval_command", "run_eval_command"]

EXIT_BAD_INPUT = 2
_USAGE = "TASKS.jsonl | webarena:CONFIGS.json | browsergym:SUITE[:GLOB,…] | compare RUN_A RUN_B"


def _say(line: str) -> None:
    print(f"cdpagent eval: {line}", file=sys.stderr, flush=True)


def add_eval_command(sub: Any, commands: dict[str, Callable[[argparse.Namespace], Awaitable[int]]]) -> None:
    """Add the ``eval`` subcommand to ``sub`` (an argparse subparsers object) and to ``commands``."""
    parser = sub.add_parser(
        "eval",
        help="run a suite of web tasks with a model and report (or: eval compare RUN_A RUN_B)",
        usage="cdpagent eval TASKS.jsonl --model M [options]\n"
        "       cdpagent eval browsergym:miniwob[:GLOB,…] (--model M | --policy MODULE:CALLABLE) [options]\n"
        "       cdpagent eval compare RUN_A RUN_B [--out FILE]",
        description="Run every task of TASKS.jsonl with the agent and score it by the page; "
        "`browsergym:miniwob` runs BrowserGym's MiniWoB++ tasks scored by BrowserGym; "
        "`cdpagent eval compare RUN_A RUN_B` prints the per-task difference of two runs.",
    )
    parser.add_argument(
        "words", nargs="+", metavar=_USAGE, help="the task file, or compare and two run folders"
    )
    parser.add_argument("--model", default=None, help="the model name (default $CDPAGENT_MODEL)")
    parser.add_argument("--base-url", default=None, help="the OpenAI-compatible base URL ($OPENAI_BASE_URL)")
    parser.add_argument(
        "--policy", default=None, metavar="MODULE:CALLABLE", help="a scripted policy plays instead of a model"
    )
    parser.add_argument("--repeat", type=int, default=1, metavar="N", help="episodes per task (default 1)")
    parser.add_argument(
        "--seeds", type=int, default=1, metavar="N", help="browsergym: seeds 0…N-1 of every task (default 1)"
    )
    parser.add_argument(
        "--max-steps", type=int, default=30, metavar="N", help="browsergym: model requests per episode (30)"
    )
    parser.add_argument(
        "--episode-timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="browsergym: seconds per episode (120)",
    )
    parser.add_argument("--parallel", type=int, default=1, metavar="K", help="episodes at a time (default 1)")
    parser.add_argument(
        "--grid", default=None, metavar="URL", help="take browsers from a Selenium Grid 4 hub"
    )
    parser.add_argument(
        "--out",
        default=None,
        metavar="DIR",
        help="the run folder (default eval-runs/NAME-TIME); for compare, the JSON file (RUN_B/compare.json)",
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the run in --out, skipping finished episodes"
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, metavar="S", help="seconds per model try (120)"
    )
    parser.add_argument("--allow-origin", action="append", default=[], help="an extra local origin")
    add_launch_flags(parser)
    commands["eval"] = run_eval_command


async def run_eval_command(args: argparse.Namespace) -> int:
    """Run ``cdpagent eval`` for parsed ``args``; returns the exit status (see the module doc)."""
    if args.words[0] == "compare":
        return _compare(args)
    if len(args.words) != 1:
        _say(f"eval takes {_USAGE}")
        return EXIT_BAD_INPUT
    if args.words[0].startswith("browsergym:"):
        return await _suite(args)
    from ..agent import Model, ModelError
    from ..agent.command import model_flags_missing
    from ..browser.launch import launch
    from ..errors import TaskFileError
    from .progress import Progress
    from .rundir import RunDirError
    from .runner import run
    from .tasks import load_tasks, resolve_url

    if args.repeat < 1 or args.parallel < 1:
        _say("--repeat and --parallel must be at least 1")
        return EXIT_BAD_INPUT
    if args.resume and not args.out:
        _say("--resume needs --out DIR (the run to continue)")
        return EXIT_BAD_INPUT
    source = args.words[0]
    try:
        if source.startswith("example:"):
            # The bundled suite wherever the package is installed: example:eval/tasks.jsonl.
            source = resolve_url(source, Path.cwd())
        if source.startswith("webarena:"):
            from .webarena import load_configs

            source = source.removeprefix("webarena:")
            tasks = load_configs(source)
        else:
            tasks = load_tasks(source)
        if args.policy is None:
            if (missing := model_flags_missing(args)) is not None:
                _say(missing)
                return EXIT_BAD_INPUT
            model = Model(args.model, base_url=args.base_url)
            await model.aclose()
    except (TaskFileError, ModelError, FileNotFoundError) as error:
        _say(str(error))
        return EXIT_BAD_INPUT
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = Path(args.out or f"eval-runs/{Path(source).stem}-{stamp}")
    if args.grid and (given := launch_only_flags(args) + (["--allow-dir"] if args.allow_dir else [])):
        _say(f"{', '.join(given)} need a browser cdpagent launches, not one of --grid")
        return EXIT_BAD_INPUT
    options, origins = launch_options(args), tuple(args.allow_origin)
    sources: list[BrowserSource | str] = (
        [f"grid+{args.grid}"] * args.parallel if args.grid
        else [lambda: launch(allow_origins=origins, **options)]
    )  # fmt: skip
    repeat = args.repeat
    try:
        records = await run(
            tasks,
            model=model.name if args.policy is None else "",
            policy=args.policy,
            base_url=args.base_url,
            repeat=repeat,
            parallel=args.parallel,
            sources=sources,
            out=out,
            resume=args.resume,
            progress=Progress(_pending(out, tasks, repeat, args.resume)),
            model_timeout=args.timeout,
            allow_origins=args.allow_origin,
            meta={"tasks_file": source, "grid": args.grid},
        )
    except (RunDirError, ValueError) as error:
        _say(str(error))
        return EXIT_BAD_INPUT
    return _finished(out, records)


def _finished(out: Path, records: Any) -> int:
    """Say where the report is; print the overall numbers as one JSON object."""
    from .rundir import REPORT
    from .stats import summarise

    overall = summarise(records).overall
    _say(f"report: {out / REPORT}")
    value = {
        "out": str(out),
        "episodes": overall.episodes,
        "success_rate": overall.success_rate,
        "success_ci95": overall.success_ci95,
        "mean_reward": overall.mean_reward,
        "task_errors": overall.task_errors,
    }
    sys.stdout.write(msgspec.json.encode(value).decode() + "\n")
    sys.stdout.flush()
    return 0


async def _suite(args: argparse.Namespace) -> int:
    """``cdpagent eval browsergym:…``: BrowserGym's tasks (:mod:`cdpagent.eval.suites`)."""
    from ..agent import ModelError
    from ..agent.command import model_flags_missing
    from ..errors import TaskFileError
    from .policy import load_policy
    from .progress import Progress
    from .rundir import RunDirError
    from .suites import list_tasks, run_suite, suite_tasks, worker_python

    spec = args.words[0]
    if args.seeds < 1 or args.parallel < 1 or args.max_steps < 1 or not args.episode_timeout > 0:
        _say("--seeds, --parallel and --max-steps must be at least 1, --episode-timeout positive")
        return EXIT_BAD_INPUT
    if args.resume and not args.out:
        _say("--resume needs --out DIR (the run to continue)")
        return EXIT_BAD_INPUT
    if args.grid or args.repeat != 1:
        _say("browsergym suites take --seeds (not --repeat) and launch their own browsers (not --grid)")
        return EXIT_BAD_INPUT
    if args.policy is None and (missing := model_flags_missing(args)) is not None:
        _say(f"{missing} (or --policy MODULE:CALLABLE)")
        return EXIT_BAD_INPUT
    try:
        if args.policy is not None:
            load_policy(args.policy)
        names = await list_tasks(spec, worker_python())
    except (TaskFileError, ValueError) as error:
        _say(str(error))
        return EXIT_BAD_INPUT
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    name = spec.removeprefix("browsergym:").replace(":", "-").replace("*", "").replace(",", "+")[:60]
    out = Path(args.out or f"eval-runs/{name}-{stamp}")
    tasks = suite_tasks(names)
    _say(f"{len(names)} tasks × {args.seeds} seeds, {args.parallel} at a time → {out}")
    try:
        records = await run_suite(
            spec,
            model=args.model or "",
            base_url=args.base_url,
            policy=args.policy,
            seeds=args.seeds,
            parallel=args.parallel,
            out=out,
            resume=args.resume,
            progress=Progress(_pending(out, tasks, args.seeds, args.resume)),
            max_steps=args.max_steps,
            timeout_s=args.episode_timeout,
            model_timeout=args.timeout,
            names=names,
        )
    except (TaskFileError, RunDirError, ModelError, ValueError) as error:
        _say(str(error))
        return EXIT_BAD_INPUT
    return _finished(out, records)


def _pending(out: Path, tasks: Any, repeat: int, resume: bool) -> int:
    """The episodes a resumed run still has to do (all of them for a new run)."""
    from .rundir import RunDirError, read_results

    total = len(tasks) * repeat
    if not resume or not (out / "results.jsonl").exists():
        return total
    try:
        done = {r.key() for r in read_results(out)}
    except RunDirError:
        return total
    return sum(1 for t in tasks for n in range(repeat) if (t.id, n) not in done)


def _compare(args: argparse.Namespace) -> int:
    from .compare import baseline_records, compare, format_comparison
    from .records import EpisodeRecord
    from .rundir import RunDirError, read_results

    if len(args.words) != 3:
        _say("compare takes two run folders (or one and a baseline JSON file): compare RUN_A RUN_B")
        return EXIT_BAD_INPUT
    a, b = Path(args.words[1]), Path(args.words[2])

    def records(side: Path) -> list[EpisodeRecord]:
        # A run folder, or a published baseline's JSON file of per-task success.
        if side.is_file():
            return baseline_records(side.read_bytes(), name=str(side))
        return read_results(side)

    try:
        baseline = a.is_file() or b.is_file()
        comparison = compare(records(a), records(b), a_name=str(a), b_name=str(b), baseline=baseline)
    except (RunDirError, ValueError) as error:
        _say(str(error))
        return EXIT_BAD_INPUT
    sys.stdout.write(format_comparison(comparison))
    sys.stdout.flush()
    if args.out:
        Path(args.out).write_bytes(msgspec.json.format(msgspec.json.encode(comparison)) + b"\n")
        _say(f"written to {args.out}")
    return 0
