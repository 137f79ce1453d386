"""Stable codes of ``cdpagent eval``: why an episode scored 0, or why a task could not be scored.

Every episode record carries ``error`` = ``None`` or ``{"code", "message"}``.
The codes fall in two families, and the family decides how the episode counts:

* **Agent failures** score 0 and count as tried: :data:`EPISODE_TIMEOUT`,
  :data:`STEP_LIMIT`, :data:`EPISODE_CRASHED`, and any ``MODEL_*`` code of
  :mod:`cdpagent.agent.codes` or a driver error's own code (for example
  ``PAGE_CHANGED``) that ended the episode.
* **Task errors** (``task_error: true``) are the suite's fault, not the model's:
  :data:`TASK_SETUP_FAILED`, :data:`REWARD_FAILED`, :data:`REWARD_INVALID`. They
  score 0, are never a success, and are left out of the success rate, which
  says how many were left out.

:data:`TASK_INVALID` is raised when a task file is read (:class:`cdpagent.errors.TaskFileError`),
before any episode runs.
"""

from __future__ import annotations

from typing import Final

from ..agent.codes import STEP_LIMIT as _AGENT_STEP_LIMIT

__all__ = [
    "AGENT_FAILURES",
    "EPISODE_CRASHED",
    "EPISODE_TIMEOUT",
    "REWARD_FAILED",
    "REWARD_INVALID",
    "RUN_DIR_INVALID",
    "STEP_LIMIT",
    "TASK_ERRORS",
    "TASK_INVALID",
    "TASK_SETUP_FAILED",
]

EPISODE_TIMEOUT: Final = "EPISODE_TIMEOUT"
"""The episode passed its ``timeout_s`` (opening, setup and the agent's turn together)."""
STEP_LIMIT: Final = _AGENT_STEP_LIMIT
"""The agent used its ``max_steps`` model requests without a final answer (the agent's own code)."""
EPISODE_CRASHED: Final = "EPISODE_CRASHED"
"""The episode ended on an exception that has no code of its own (the message names it)."""

TASK_SETUP_FAILED: Final = "TASK_SETUP_FAILED"
"""The page could not be opened, or the task's ``setup`` script threw."""
REWARD_FAILED: Final = "REWARD_FAILED"
"""The ``reward`` expression (or Python callable) threw, or did not finish in time."""
REWARD_INVALID: Final = "REWARD_INVALID"
"""The reward is not a boolean, ``null`` or a finite number in [-1, 1]."""

TASK_INVALID: Final = "TASK_INVALID"
"""A task line that cannot be used (bad JSON, a missing or mistyped field, a duplicate id)."""
RUN_DIR_INVALID: Final = "RUN_DIR_INVALID"
"""An output folder that holds another run (without ``--resume``), or a run folder that cannot be read."""

TASK_ERRORS: Final = frozenset({TASK_SETUP_FAILED, REWARD_FAILED, REWARD_INVALID})
AGENT_FAILURES: Final = frozenset({EPISODE_TIMEOUT, STEP_LIMIT, EPISODE_CRASHED})
