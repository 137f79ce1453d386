"""The MiniWoB++ scripted policy (:mod:`cdpagent.eval.policies.miniwob`) on the vendored task pages.

The policy itself ships in the package as ``cdpagent eval --policy``'s example; the tests
(``tests/test_realworld_tasks.py``) and ``bench/realworld.py`` run it on the pages under
``tests/realworld/miniwob/`` through :class:`Episode`, which observes and acts on the tab.
"""

from __future__ import annotations

from pathlib import Path

from cdpagent.eval.policies.miniwob import (
    POLICIES,
    Episode,
    Hands,
    Look,
    Policy,
    Record,
    Tool,
    Unseen,
    ident,
    squash,
)

__all__ = [
    "POLICIES", "QUERY", "REWARD", "TASKS", "Episode", "Hands", "Look", "Policy", "Record", "Tool",
    "Unseen", "ident", "squash", "task_url",
]  # fmt: skip

TASKS = Path(__file__).resolve().parent / "realworld" / "miniwob" / "tasks"
# The vendored core.js starts the first episode at once when the url has a seed
# (tests/realworld/README.md); a generous time limit keeps a loaded machine from
# timing an episode out (the policy's speed is not what these tests measure).
QUERY = "?seed={seed}&max_time=120000"
# What the caller reads from the page at the end: the episode's own reward.
REWARD = "[WOB_DONE_GLOBAL, WOB_RAW_REWARD_GLOBAL, WOB_REWARD_REASON]"


def task_url(task: str, seed: str = "cdpagent") -> str:
    """The file url of ``task``'s page with its episode seeded by ``seed``."""
    return (TASKS / f"{task}.html").as_uri() + QUERY.format(seed=seed)
