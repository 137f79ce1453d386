"""What an eval run writes: one :class:`EpisodeRecord` per episode, and its transcript.

``results.jsonl`` holds one record a line, appended as each episode finishes;
``episodes/TASK__REPEAT.json`` the transcript of that episode. Every field is
documented in ``docs/eval.md``.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = ["EpisodeError", "EpisodeRecord", "Outcome", "Step", "Transcript", "episode_file"]

Outcome = Literal["solved", "failed", "unscored", "timeout", "step_limit", "crashed", "task_error"]


class EpisodeError(msgspec.Struct, frozen=True):
    """Why an episode scored 0 (an agent failure) or could not be scored (a task error)."""

    code: str
    message: str


class EpisodeRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One episode's line in ``results.jsonl``."""

    task: str
    repeat: int
    """0-based repetition index (``--repeat N`` runs 0 … N-1)."""
    outcome: Outcome
    reward: float | None
    """The page's reward in [-1, 1]; 0 for every failure and task error; ``None`` when unscored."""
    success: bool | None
    """``reward > 0``; ``None`` when unscored or a task error (left out of the success rate)."""
    task_error: bool
    error: EpisodeError | None
    steps: int
    """Model requests made (what ``max_steps`` bounds)."""
    tool_calls: int
    prompt_tokens: int | None
    completion_tokens: int | None
    """Summed over the episode's requests from the server's ``usage``; ``None`` when it sent none."""
    time_s: float
    """Wall time from leasing the tab to the reward."""
    answer: str | None
    """The model's final answer (never used for scoring)."""
    model: str
    started: str
    """UTC, ISO 8601."""
    transcript: str
    """The transcript's path relative to the run folder."""

    def key(self) -> tuple[str, int]:
        """``(task, repeat)``: what identifies an episode within a run (``--resume`` skips these)."""
        return (self.task, self.repeat)


class Step(msgspec.Struct, frozen=True):
    """One model request of an episode: what the model saw, what it answered, what its calls returned."""

    saw: str
    """The system message's page part: the role section and the observation of this step."""
    tools: list[str]
    """The tool names offered in this request."""
    content: str | None
    calls: list[dict[str, Any]]
    """``{"id", "name", "arguments"}`` of each tool call."""
    results: list[str]
    """The tool messages (receipts or error envelopes) answering the calls, in order."""


class Transcript(msgspec.Struct, frozen=True):
    """``episodes/TASK__REPEAT.json``: the goal, every step, and how it ended."""

    task: str
    repeat: int
    goal: str
    url: str
    steps: list[Step]
    outcome: Outcome
    error: EpisodeError | None
    answer: str | None
    reward: float | None
    check: str = ""
    """The reward expression, or ``python:NAME`` for a Python callable."""


def episode_file(task: str, repeat: int) -> str:
    """The transcript path of an episode, relative to the run folder."""
    return f"episodes/{task}__{repeat}.json"
