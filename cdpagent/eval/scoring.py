"""How an episode is scored: one table from how it ended and what the page said to its record (sans-IO).

The rules, in order (the first that applies decides):

1. the page could not be opened or ``setup`` threw → ``task_error``, reward 0, ``TASK_SETUP_FAILED``;
2. the episode passed ``timeout_s`` → ``timeout``, reward 0, ``EPISODE_TIMEOUT``;
3. an exception ended it (the model could not be asked, the browser went away) →
   ``crashed``, reward 0, the exception's own code or ``EPISODE_CRASHED``;
4. the agent used ``max_steps`` requests without answering → ``step_limit``, reward 0, ``STEP_LIMIT``;
5. the reward threw or timed out → ``task_error``, reward 0, ``REWARD_FAILED``;
6. the reward is not ``true``/``false``/``null`` or a finite number in [-1, 1]
   (``undefined``, a string, 2, NaN) → ``task_error``, reward 0, ``REWARD_INVALID``;
7. ``null`` → ``unscored`` (done, but the page cannot say): reward and success ``None``;
8. otherwise the reward (``true`` = 1, ``false`` = 0); ``success`` is ``reward > 0``
   (the MiniWoB++ convention) → ``solved`` or ``failed``.

The model's final answer is recorded and never read: a model that claims
success on an unchanged page scores what the page says.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from . import codes
from .records import EpisodeError, Outcome

__all__ = ["Ending", "Score", "score"]


class Ending(msgspec.Struct, frozen=True):
    """How the agent's part of an episode ended; ``reward`` is read only when ``kind`` is ``"answered"``."""

    kind: str
    """``"answered"``, ``"setup_failed"``, ``"timeout"``, ``"crashed"``, ``"step_limit"``."""
    error: EpisodeError | None = None
    reward_error: EpisodeError | None = None
    """Set when the reward could not be computed (it threw or timed out)."""
    reward: Any = None
    """The reward's value as the page (or the Python callable) returned it."""


class Score(msgspec.Struct, frozen=True):
    """The scored part of an episode record."""

    outcome: Outcome
    reward: float | None
    success: bool | None
    task_error: bool
    error: EpisodeError | None


def _zero(outcome: Outcome, error: EpisodeError | None, task_error: bool = False) -> Score:
    return Score(outcome, 0.0, None if task_error else False, task_error, error)


def score(ending: Ending) -> Score:
    """Apply the module's rules to ``ending``. Never raises."""
    if ending.kind == "setup_failed":
        return _zero("task_error", ending.error, task_error=True)
    if ending.kind == "timeout":
        return _zero("timeout", ending.error)
    if ending.kind == "crashed":
        return _zero("crashed", ending.error)
    if ending.kind == "step_limit":
        return _zero("step_limit", ending.error)
    if ending.reward_error is not None:
        return _zero("task_error", ending.reward_error, task_error=True)
    value = ending.reward
    if value is None:
        return Score("unscored", None, None, False, None)
    if isinstance(value, bool):
        reward = 1.0 if value else 0.0
    elif isinstance(value, int | float) and math.isfinite(value) and -1 <= value <= 1:
        reward = float(value)
    else:
        shown = "undefined" if value is _UNDEFINED else repr(value)[:80]
        message = f"the reward must be true, false, null or a number in [-1, 1], not {shown}"
        return _zero("task_error", EpisodeError(codes.REWARD_INVALID, message), task_error=True)
    return Score("solved" if reward > 0 else "failed", reward, reward > 0, False, None)


class _Undefined:
    def __repr__(self) -> str:
        return "undefined"


_UNDEFINED = _Undefined()
UNDEFINED: Any = _UNDEFINED
"""What a JavaScript reward that evaluates to ``undefined`` is passed as (never a valid reward)."""
