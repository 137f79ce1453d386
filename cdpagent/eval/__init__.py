"""``cdpagent eval``: run a suite of web tasks with any model, score each episode by the page, report.

::

    import cdpagent.eval

    tasks = cdpagent.eval.load_tasks("examples/eval/tasks.jsonl")
    records = await cdpagent.eval.run(tasks, model="gpt-4o-mini", parallel=2, out="runs/mini")
    print(cdpagent.eval.summarise(records).overall.success_rate)

or, with a Python reward over the tab::

    async def added(tab: cdpagent.Tab) -> bool:
        return "t13" in (await tab.observe()).record_ids   # a 13th task exists

    task = cdpagent.eval.Task(id="add", url="example:todos", goal="Add 'Buy milk'", reward=added)

This package sits above the agent (``cdpagent.agent``) and the pool; nothing
below imports it. ``docs/eval.md`` documents the task format and every output field.
"""

from typing import TYPE_CHECKING

from ..errors import TaskFileError
from ..lazy import exports
from . import codes
from .compare import Comparison, TaskDelta, compare, format_comparison
from .records import EpisodeError, EpisodeRecord, Step, Transcript
from .stats import Summary, summarise, wilson

if TYPE_CHECKING:  # imported on first use: they bring the agent and the browser
    from .report import render_report
    from .rundir import RunDirError, read_results
    from .runner import run
    from .tasks import Task, load_tasks, parse_tasks

__getattr__, __dir__ = exports(__name__, __file__)

__all__ = [
    "Comparison",
    "EpisodeError",
    "EpisodeRecord",
    "RunDirError",
    "Step",
    "Summary",
    "Task",
    "TaskDelta",
    "TaskFileError",
    "Transcript",
    "codes",
    "compare",
    "format_comparison",
    "load_tasks",
    "parse_tasks",
    "read_results",
    "render_report",
    "run",
    "summarise",
    "wilson",
]
