"""One episode: a fresh thread and tab from the pool, the task's page and setup, one agent turn, the reward.

The agent's part (opening the page, ``setup``, the turn) runs under the task's
``timeout_s``; the reward is then computed under its own bound
(:data:`REWARD_TIMEOUT_S`), only when the agent answered.
:func:`cdpagent.eval.scoring.score` turns how it ended into the record.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, cast

import msgspec
import trio

from ..agent import Agent, AgentResult, Model, Reply
from ..agent.history import Message
from ..agent.request import RULES
from ..browser.tabs import Browser, Tab
from ..cdp.failures import code_of
from ..console.terminal import accept_all
from ..errors import NavigationError
from ..ops.script import describe_failure
from ..remote.pool import Pool
from . import codes
from .records import EpisodeError, EpisodeRecord, Step, Transcript, episode_file
from .scoring import UNDEFINED, Ending, score
from .tasks import AnswerReward, RewardFunction, Task, resolve_url

__all__ = ["REWARD_TIMEOUT_S", "MeteredModel", "ModelSettings", "episode_outputs", "metered", "run_episode"]

REWARD_TIMEOUT_S: Final = 10.0
"""How long a reward expression or callable may take."""


class ModelSettings(msgspec.Struct, frozen=True, kw_only=True):
    """Where episodes ask their model: the same for every episode of a run."""

    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = 120.0
    """Seconds per model try."""
    max_retries: int = 2
    policy: str | None = None
    """``module:callable``: a scripted policy plays instead of the model (:mod:`cdpagent.eval.policy`)."""


class _Asked(msgspec.Struct, frozen=True):
    saw: str
    tools: list[str]


class MeteredModel(Model):
    """A :class:`~cdpagent.agent.Model` that keeps what each request showed and the server's token usage.

    One per episode, so the counts are the episode's. With ``inner`` (a scripted
    policy's :class:`~cdpagent.eval.policy.PolicyModel`) the requests go there instead of
    to a server. ``before``, when given, runs before each request: a text it returns is
    the final answer in the model's place (a suite that says its episode is done), and
    that request is neither sent nor counted.
    """

    def __init__(
        self,
        settings: ModelSettings,
        *,
        inner: Model | None = None,
        before: Callable[[], Awaitable[str | None]] | None = None,
    ) -> None:
        if inner is None:
            super().__init__(
                settings.model,
                base_url=settings.base_url,
                api_key=settings.api_key,
                timeout=settings.timeout,
                max_retries=settings.max_retries,
            )
        else:
            self.name, self.base_url = inner.name, None
        self.inner = inner
        self.before = before
        self.asked: list[_Asked] = []
        self.prompt_tokens: int | None = None
        self.completion_tokens: int | None = None

    async def aclose(self) -> None:
        """Close the HTTP connections (the inner model's are its own)."""
        if self.inner is None:
            await super().aclose()

    async def complete(self, body: dict[str, Any]) -> Reply:
        """Send the request like :meth:`Model.complete` (same errors), noting its page and its usage."""
        if self.before is not None and (final := await self.before()) is not None:
            return Reply(final, [], "stop")
        system = str(body["messages"][0]["content"]) if body.get("messages") else ""
        # The rules are the same in every request; the report shows what changes.
        saw = system[len(RULES) :].lstrip("\n") if system.startswith(RULES) else system
        tools = [t["function"]["name"] for t in body.get("tools", ())]
        self.asked.append(_Asked(saw, tools))
        reply = await (self.inner.complete(body) if self.inner is not None else super().complete(body))
        if reply.prompt_tokens is not None:
            self.prompt_tokens = (self.prompt_tokens or 0) + reply.prompt_tokens
        if reply.completion_tokens is not None:
            self.completion_tokens = (self.completion_tokens or 0) + reply.completion_tokens
        return reply


def metered(
    settings: ModelSettings, task: str, goal: str, before: Callable[[], Awaitable[str | None]] | None = None
) -> MeteredModel:
    """The episode's model: the server's, or the scripted policy's when ``settings.policy`` names one."""
    if settings.policy is None:
        return MeteredModel(settings, before=before)
    from .policy import PolicyModel

    return _WithPolicy(settings, PolicyModel(settings.policy, task, goal), before)


class _WithPolicy(MeteredModel):
    """A metered policy: entering it starts the policy's task; leaving it ends it."""

    def __init__(
        self, settings: ModelSettings, policy: Model, before: Callable[[], Awaitable[str | None]] | None
    ) -> None:
        super().__init__(settings, inner=policy, before=before)
        self._policy = policy

    async def __aenter__(self) -> _WithPolicy:
        await self._policy.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._policy.__aexit__(*exc)


class _SetupFailed(Exception):
    pass


class _PageThrew(Exception):
    """A task's script (``setup`` or ``reward``) threw in the page; the message is the page's."""


async def _evaluate(tab: Tab, expression: str) -> Any:
    """The value of ``expression`` in the page's main world (promises awaited); raises
    :class:`_PageThrew` with the page's exception text when it throws."""
    reply = await tab.session.send(
        "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
    )
    details = reply.get("exceptionDetails")
    if details:
        exception = details.get("exception") or {}
        text = exception.get("description") or details.get("text") or "the expression threw"
        raise _PageThrew(" ".join(str(text).split())[:300])
    result = reply.get("result") or {}
    if result.get("type") == "undefined":
        return UNDEFINED
    return result.get("value")


def _error(error: BaseException) -> EpisodeError:
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    found = code_of(error)  # a coded error's own code, a driver error's (cdpagent.cdp.failures)
    if found is None:
        return EpisodeError(codes.EPISODE_CRASHED, describe_failure(error))
    return EpisodeError(*found)


def _steps(asked: list[_Asked], messages: list[Message]) -> list[Step]:
    """Pair each request with the assistant message that answered it and the tool messages after it."""
    replies: list[tuple[Message, list[str]]] = []
    for message in messages:
        if message.get("role") == "assistant":
            replies.append((message, []))
        elif message.get("role") == "tool" and replies:
            replies[-1][1].append(str(message.get("content")))
    steps = []
    for index, request in enumerate(asked):
        reply, results = replies[index] if index < len(replies) else ({}, [])
        calls = [
            {"id": c.get("id"), "name": c["function"]["name"], "arguments": c["function"]["arguments"]}
            for c in reply.get("tool_calls") or ()
        ]
        steps.append(Step(request.saw, request.tools, reply.get("content"), calls, results))
    return steps


def _name(function: object) -> str:
    return str(getattr(function, "__qualname__", None) or type(function).__name__)


def _current_tab(agent: Agent) -> Tab | None:
    tabs = agent.thread.tabs
    return next((t for t in tabs if t.id == agent.tab_id), tabs[0] if tabs else None)


async def _reward(task: Task, tab: Tab | None, answer: str | None) -> tuple[Any, EpisodeError | None]:
    if tab is None:
        return None, EpisodeError(codes.REWARD_FAILED, "every tab of the episode was closed")
    try:
        with trio.fail_after(REWARD_TIMEOUT_S):
            if isinstance(task.reward, str):
                return await _evaluate(tab, task.reward), None
            if task.judges_answer:
                return await cast(AnswerReward, task.reward)(tab, answer), None
            return await cast(RewardFunction, task.reward)(tab), None
    except trio.TooSlowError:
        return None, EpisodeError(codes.REWARD_FAILED, f"the reward took longer than {REWARD_TIMEOUT_S} s")
    except _PageThrew as error:
        return None, EpisodeError(codes.REWARD_FAILED, f"the reward threw: {error}")
    except Exception as error:
        return None, EpisodeError(codes.REWARD_FAILED, f"the reward threw: {describe_failure(error)}")


async def run_episode(
    task: Task, repeat: int, *, pool: Pool, settings: ModelSettings, lease_timeout: float = 120.0
) -> tuple[EpisodeRecord, Transcript]:
    """Run ``task`` once (repetition ``repeat``) in a thread leased from ``pool``; never raises for
    anything the episode does (every failure is in the record), only on cancellation.
    """
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    started = time.monotonic()
    result: AgentResult | None = None
    agent: Agent | None = None
    ending: Ending
    model = metered(settings, task.id, task.goal)
    async with model:
        try:
            async with pool.thread(timeout=lease_timeout) as thread:
                started = time.monotonic()
                browser = thread.browser
                assert isinstance(browser, Browser)
                agent = Agent(
                    browser,
                    model,
                    task.agent_role(),
                    thread=thread,
                    max_steps=task.max_steps,
                    confirm=accept_all,
                    observe_options=task.observe,
                )
                ending, result = await _agent_part(task, agent)
                if ending.kind == "answered":
                    answer = result.answer if result is not None else None
                    value, problem = await _reward(task, _current_tab(agent), answer)
                    ending = Ending("answered", reward=value, reward_error=problem)
        except Exception as error:
            # No lease, a browser gone while the tab closed, or a bug: the episode scores 0 with
            # its reason and the run goes on.
            ending = Ending("crashed", _error(error))
    check = task.reward if isinstance(task.reward, str) else f"python:{_name(task.reward)}"
    return episode_outputs(
        task, repeat, task.goal, check, ending, started, stamp, settings.model, model, agent, result
    )


def episode_outputs(
    task: Task,
    repeat: int,
    goal: str,
    check: str,
    ending: Ending,
    started: float,
    stamp: str,
    model_name: str,
    model: MeteredModel | None,
    agent: Agent | None,
    result: AgentResult | None,
    *,
    count_unfinished: bool = True,
) -> tuple[EpisodeRecord, Transcript]:
    """The record and the transcript of repetition ``repeat`` of ``task``, which ended with
    ``ending`` (scored here), began at ``started`` (``time.monotonic``, ``stamp`` in words)
    and was scored by ``check``. ``model`` asked (None: the episode ended before it did),
    ``agent`` and its turn's ``result`` (None: the turn did not end) give the steps, the
    answer and the tool calls; a turn that did not end counts the calls its history holds,
    unless not ``count_unfinished``."""
    elapsed = time.monotonic() - started
    scored = score(ending)
    asked = model.asked if model is not None else []
    messages = result.transcript if result is not None else (agent.history if agent is not None else [])
    if result is not None:
        tool_calls = len(result.receipts)
    elif count_unfinished:
        tool_calls = sum(len(m.get("tool_calls") or ()) for m in messages if m.get("role") == "assistant")
    else:
        tool_calls = 0
    answer = result.answer if result is not None and result.stopped is None else None
    record = EpisodeRecord(
        task=task.id,
        repeat=repeat,
        outcome=scored.outcome,
        reward=scored.reward,
        success=scored.success,
        task_error=scored.task_error,
        error=scored.error,
        steps=len(asked),
        tool_calls=tool_calls,
        prompt_tokens=model.prompt_tokens if model is not None else None,
        completion_tokens=model.completion_tokens if model is not None else None,
        time_s=round(elapsed, 3),
        answer=answer,
        model=model_name,
        started=stamp,
        transcript=episode_file(task.id, repeat),
    )
    transcript = Transcript(
        task=task.id,
        repeat=repeat,
        goal=goal,
        url=task.url,
        steps=_steps(asked, messages),
        outcome=scored.outcome,
        error=scored.error,
        answer=answer,
        reward=scored.reward,
        check=check,
    )
    return record, transcript


async def _agent_part(task: Task, agent: Agent) -> tuple[Ending, AgentResult | None]:
    """Open, set up and run the turn under ``timeout_s``; how it ended, and the turn's result if any."""
    result: AgentResult | None = None
    ending = Ending("timeout", EpisodeError(codes.EPISODE_TIMEOUT, f"no answer within {task.timeout_s} s"))
    with trio.move_on_after(task.timeout_s):
        try:
            try:
                await agent.open(resolve_url(task.url, Path.cwd()))
                tab = _current_tab(agent)
                if task.setup is not None and tab is not None:
                    await _evaluate(tab, task.setup)
            except _PageThrew as error:
                raise _SetupFailed(f"the setup script threw: {error}") from error
            except (NavigationError, FileNotFoundError) as error:
                raise _SetupFailed(describe_failure(error)) from error
            result = await agent.run(task.goal)
        except _SetupFailed as error:
            return Ending("setup_failed", EpisodeError(codes.TASK_SETUP_FAILED, str(error))), None
        except Exception as error:
            return Ending("crashed", _error(error)), None
        if result.stopped is not None:
            message = f"no answer after {task.max_steps} model requests"
            return Ending("step_limit", EpisodeError(codes.STEP_LIMIT, message)), result
        ending = Ending("answered")
    return ending, result
