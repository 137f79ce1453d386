"""The eval test suite: 13 tasks on the bundled todos page and a scripted model that plays each one.

The scripted server is shared by episodes running in parallel, so the script is
not a queue: :func:`router` answers each request from the task's goal (in the
first user message) and the number of assistant messages so far.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scripted_model import Reply, answer, calls, status

CHECKED = "document.querySelector('[data-agent-record=\"{}\"] input').checked"

# id → (goal, reward, extra fields, the model's replies in order)
SUITE: dict[str, tuple[str, str, dict[str, Any], list[Reply]]] = {
    "report": ("Mark 周报 as done", CHECKED.format("t9"), {},
               [calls(("toggle", '{"record":"t9"}')), answer("Done.")]),
    "add-milk": ("Add Buy milk",
                 "[...document.querySelectorAll('#list span')].some(s => s.textContent === 'Buy milk')", {},
                 [calls(("add_todo", '{"text":"Buy milk"}')), answer("Added.")]),
    "half": ("Mark t1 and t2 as done",
             "[...document.querySelectorAll('#list input')].slice(0, 2).filter(b => b.checked).length / 2",
             {},
             [calls(("toggle", '{"record":"t1"}')), answer("Both are done.")]),
    "search": ("Show only the landlord task",
               "[...document.querySelectorAll('#list li')].filter(li => !li.hidden).length === 1", {},
               [calls(("search", '{"text":"landlord"}')), answer("Shown.")]),
    "seeded": ("Mark the seeded task as done", CHECKED.format("t13"), {"setup": "addTask('Seeded by setup')"},
               [calls(("toggle", '{"record":"t13"}')), answer("Done.")]),
    "claims": ("Mark t5 as done (claim only)", CHECKED.format("t5"), {},
               [answer("I have marked it as done, it is complete.")]),
    "wrong-row": ("Mark t5 as done (wrong row)", CHECKED.format("t5"), {},
                  [calls(("toggle", '{"record":"t4"}')), answer("Done.")]),
    "hangs": ("Wait for a model that never answers", "true", {"timeout_s": 1.0}, [Reply(hang=True)]),
    "reward-throws": ("Anything; the check is broken", "document.querySelector('#nope').checked", {},
                      [answer("ok")]),
    "step-limit": ("Search forever", "true", {"max_steps": 2},
                   [calls(("search", '{"text":"a"}')), calls(("search", '{"text":"b"}'))]),
    "crashed": ("Ask a model that refuses the key", "true", {}, [status(401, "bad key")]),
    "unscored": ("Do anything; nothing is checked", "null", {}, [answer("Looked around.")]),
    "setup-throws": ("Never starts", "true", {"setup": "throw new Error('seed failed')"}, []),
}  # fmt: skip

# What the scripted model makes of each task: (outcome, reward, error code).
EXPECTED: dict[str, tuple[str, float | None, str | None]] = {
    "report": ("solved", 1.0, None),
    "add-milk": ("solved", 1.0, None),
    "half": ("solved", 0.5, None),
    "search": ("solved", 1.0, None),
    "seeded": ("solved", 1.0, None),
    "claims": ("failed", 0.0, None),
    "wrong-row": ("failed", 0.0, None),
    "hangs": ("timeout", 0.0, "EPISODE_TIMEOUT"),
    "reward-throws": ("task_error", 0.0, "REWARD_FAILED"),
    "step-limit": ("step_limit", 0.0, "STEP_LIMIT"),
    "crashed": ("crashed", 0.0, "MODEL_AUTH_FAILED"),
    "unscored": ("unscored", None, None),
    "setup-throws": ("task_error", 0.0, "TASK_SETUP_FAILED"),
}


def write_suite(folder: Path) -> Path:
    """The suite as a task file in ``folder`` (pages by ``example:`` name)."""
    lines = []
    for task, (goal, reward, extra, _) in SUITE.items():
        line = {"id": task, "url": "example:todos", "goal": goal, "reward": reward, **extra}
        lines.append(json.dumps(line, ensure_ascii=False))
    path = folder / "tasks.jsonl"
    path.write_text("# the eval test suite\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def goal_of(body: dict[str, Any]) -> str:
    """The task's goal: the first user message of a request."""
    return next(str(m["content"]) for m in body["messages"] if m["role"] == "user")


def router(replies: dict[str, list[Reply]] | None = None) -> Callable[[dict[str, Any]], Reply]:
    """A script entry answering any request of the suite (``replies`` overrides tasks by id)."""
    by_goal = {goal: list(r) for goal, _, _, r in SUITE.values()}
    for task, changed in (replies or {}).items():
        by_goal[SUITE[task][0]] = changed

    def route(body: dict[str, Any]) -> Reply:
        script = by_goal[goal_of(body)]
        step = sum(1 for m in body["messages"] if m["role"] == "assistant")
        return script[step] if step < len(script) else answer("(the script is over)")

    return route
