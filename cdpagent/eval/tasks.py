"""Eval tasks: the JSONL task file, and the Python form for suites that need code.

One task a line (``docs/eval.md`` documents every field)::

    {"id": "toggle-report", "url": "example:todos", "goal": "Mark 周报 as done",
     "reward": "document.querySelector('[data-agent-record=t9] input').checked",
     "setup": null, "max_steps": 10, "timeout_s": 120, "role": null, "observe": {"max_records": 30}}

``url`` is what ``cdpagent chat`` accepts: a path (relative to the task file),
``example:NAME`` (a bundled example page), or a URL. ``setup`` is JavaScript
evaluated in the page once it has loaded; ``reward`` a JavaScript expression
evaluated in the page after the agent answered. ``role`` is a role TOML file
(relative to the task file) whose application section and page methods the
agent gets; without ``url`` the role's page is opened. Blank lines and lines
starting with ``#`` are skipped.

In Python, :class:`Task` takes a ``reward`` callable instead of an expression:
``async def reward(tab: cdpagent.Tab) -> bool | float | None``.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Final

import msgspec

from ..agent.roles import Role, RoleError, generic_role, load_role
from ..browser.bundled import EXAMPLE_PREFIX, bundled_instead, example_page
from ..browser.tabs import Tab
from ..errors import TaskFileError
from ..snapshot.options import ObserveOptions

__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TIMEOUT_S",
    "AnswerReward",
    "RewardFunction",
    "Task",
    "load_tasks",
    "parse_tasks",
    "resolve_url",
]

DEFAULT_MAX_STEPS: Final = 20
DEFAULT_TIMEOUT_S: Final = 300.0

RewardValue = bool | int | float | None
RewardFunction = Callable[[Tab], Awaitable[RewardValue]]
"""A Python reward: called with the episode's current tab after the agent answered."""
AnswerReward = Callable[[Tab, str | None], Awaitable[RewardValue]]
"""A Python reward that also reads the agent's final answer (a task with ``judges_answer``)."""


class Task(msgspec.Struct, frozen=True, kw_only=True):
    """One task of a suite: where to start, what to ask, and how to score the page afterwards.

    ``reward`` is a JavaScript expression evaluated in the page, or an async
    :data:`RewardFunction` over the tab. ``url`` is a path or URL (``example:``
    names are resolved by :func:`resolve_url`). ``role``, when given, supplies the
    application section and page methods; its page is used when ``url`` is empty.
    """

    id: str
    url: str
    goal: str
    reward: str | RewardFunction | AnswerReward
    setup: str | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    timeout_s: float = DEFAULT_TIMEOUT_S
    role: Role | None = None
    observe: ObserveOptions | None = None
    judges_answer: bool = False
    """The ``reward`` callable is an :data:`AnswerReward`: ``reward(tab, answer)`` (WebArena's
    ``string_match`` scores the answer)."""

    def agent_role(self) -> Role:
        """The role the agent speaks for: the task's, or the generic one of ``cdpagent chat``."""
        return self.role if self.role is not None else generic_role(self.url)

    def check(self) -> None:
        """Raise :class:`TaskFileError` unless the fields are usable (ids, bounds, non-empty goal)."""
        if not self.id or any(c in self.id for c in "/\\\n\r\t") or self.id.startswith("."):
            raise TaskFileError(f"task id {self.id!r}: must be non-empty, one line, without slashes")
        if not self.goal.strip():
            raise TaskFileError(f"task {self.id}: `goal` is empty")
        if not self.url:
            raise TaskFileError(f"task {self.id}: `url` is empty (and no role gives a page)")
        if isinstance(self.reward, str) and not self.reward.strip():
            raise TaskFileError(f"task {self.id}: `reward` is empty")
        if self.max_steps < 1:
            raise TaskFileError(f"task {self.id}: `max_steps` must be at least 1")
        if not self.timeout_s > 0:
            raise TaskFileError(f"task {self.id}: `timeout_s` must be positive")


class _TaskLine(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    goal: str
    reward: str
    url: str | None = None
    setup: str | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    timeout_s: float = DEFAULT_TIMEOUT_S
    role: str | None = None
    observe: ObserveOptions | None = None


def resolve_url(url: str, base: Path) -> str:
    """``example:NAME`` (or ``example:NAME/page.html``) → the bundled page; a relative path → under
    ``base``; absolute paths and URLs unchanged. Raises :class:`FileNotFoundError` for an unknown example.
    """
    if url.startswith(EXAMPLE_PREFIX):
        name, _, page = url.removeprefix(EXAMPLE_PREFIX).partition("/")
        return str(example_page(name, page or "index.html"))
    if "://" in url or url.startswith(("about:", "data:")) or os.path.isabs(url):
        return url
    return str((base / url).resolve())


def _task(raw: Any, base: Path) -> Task:
    line = msgspec.convert(raw, _TaskLine)
    role: Role | None = None
    if line.role is not None:
        role = load_role(base / line.role)
    url = line.url if line.url is not None else (role.page if role is not None else "")
    if url:
        url = resolve_url(url, base)
    task = Task(
        id=line.id,
        url=url,
        goal=line.goal,
        reward=line.reward,
        setup=line.setup,
        max_steps=line.max_steps,
        timeout_s=line.timeout_s,
        role=role,
        observe=line.observe,
    )
    task.check()
    return task


def parse_tasks(text: str, base: Path, *, name: str = "<tasks>") -> list[Task]:
    """The tasks of JSONL ``text``; relative paths resolve under ``base``; ``name`` is used in messages.

    Raises :class:`TaskFileError` (``TASK_INVALID``) naming the line for bad JSON, an
    unknown, missing or mistyped field, an unusable value, an unknown example page,
    an unreadable role file, a duplicate id, or a file without tasks.
    """
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{name}:{number}"
        try:
            task = _task(msgspec.json.decode(line), base)
        except msgspec.DecodeError as error:
            raise TaskFileError(f"{where}: not a JSON object ({error})") from None
        except msgspec.ValidationError as error:
            raise TaskFileError(f"{where}: {error}") from None
        except (RoleError, FileNotFoundError) as error:
            raise TaskFileError(f"{where}: {error}") from None
        except TaskFileError as error:
            raise TaskFileError(f"{where}: {error}") from None
        if task.id in seen:
            raise TaskFileError(f"{where}: task id {task.id!r} is already used on line {seen[task.id]}")
        seen[task.id] = number
        tasks.append(task)
    if not tasks:
        raise TaskFileError(f"{name}: no tasks (one JSON object a line)")
    return tasks


def load_tasks(path: str | os.PathLike[str]) -> list[Task]:
    """Read the task file at ``path`` (see :func:`parse_tasks`); raises :class:`TaskFileError` also
    when the file cannot be read."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as error:
        instead = bundled_instead(str(where))
        hint = f"; the bundled one is {instead}" if instead else ""
        raise TaskFileError(f"{where}: cannot read the task file ({error.strerror}){hint}") from None
    return parse_tasks(text, where.resolve().parent, name=str(where))
