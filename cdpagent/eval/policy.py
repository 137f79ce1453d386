"""``cdpagent eval --policy module:callable``: a scripted policy in the model's place.

A policy is an async callable ``policy(episode: PolicyEpisode) -> str | None``. It
sees what a model sees and nothing else — the goal, each step's observation text and
tools (:meth:`PolicyEpisode.observe`), the receipts of its calls — and acts only
through the tool calls a model makes (:meth:`PolicyEpisode.call`). Its return value
is the episode's final answer. So baselines and oracles run through the same agent
loop, step limit, transcript, scoring and report as a model.

:class:`PolicyModel` does it: it stands where the agent's :class:`~cdpagent.agent.Model`
stands, hands each request to the policy (running in its own task) and answers with
the policy's next tool call, or its final answer when the policy returns. A policy
that raises ends the episode with an answer that names the exception; the page (or
the suite) still scores it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

import msgspec
import trio

from ..agent import Model, Reply
from ..agent.llm import ToolCall
from ..agent.request import RULES
from ..ops.script import describe_failure

__all__ = ["PolicyEpisode", "PolicyFunction", "PolicyModel", "Seen", "load_policy"]


class Seen(msgspec.Struct, frozen=True):
    """One observation as the model gets it: the page's text and the tools (OpenAI format)."""

    text: str
    tools: list[dict[str, Any]]


class PolicyEpisode:
    """A policy's view of one episode: ``task`` (its id), ``goal``, and the two calls below."""

    def __init__(self, task: str, goal: str) -> None:
        self.task = task
        self.goal = goal
        #: What each :meth:`call` returned, in order.
        self.receipts: list[Any] = []
        self._bodies_in, self._bodies = trio.open_memory_channel[dict[str, Any]](0)
        self._replies_in, self._replies = trio.open_memory_channel[Reply](0)
        self._current: dict[str, Any] | None = None
        self._calls = 0

    async def observe(self) -> Seen:
        """The current observation: the text of the request's system message (after the rules)
        and its tools."""
        if self._current is None:
            self._current = await self._bodies.receive()
        body = self._current
        system = str(body["messages"][0]["content"]) if body.get("messages") else ""
        text = system[len(RULES) :].lstrip("\n") if system.startswith(RULES) else system
        return Seen(text, list(body.get("tools") or ()))

    async def call(self, name: str, args: dict[str, Any] | None = None) -> Any:
        """Call tool ``name`` with ``args`` as a model would; returns its tool message (the
        receipt or the error envelope, as JSON; the text when it is not JSON). The next
        :meth:`observe` shows the page after it."""
        if self._current is None:
            await self.observe()
        self._calls += 1
        call_id = f"policy_{self._calls}"
        arguments = json.dumps(args or {}, ensure_ascii=False)
        await self._replies_in.send(Reply(None, [ToolCall(call_id, name, arguments)]))
        self._current = body = await self._bodies.receive()
        content = next(
            (m.get("content") for m in body.get("messages", ()) if m.get("tool_call_id") == call_id), None
        )
        try:
            result = json.loads(str(content))
        except ValueError:
            result = content
        self.receipts.append(result)
        return result


PolicyFunction = Callable[[PolicyEpisode], Awaitable[str | None]]
"""A scripted policy: acts through ``episode`` and returns its final answer."""


def load_policy(reference: str) -> PolicyFunction:
    """The callable ``module:name`` names (``module`` importable from ``sys.path``).

    Raises :class:`ValueError` naming what is wrong: not ``module:callable``, a module
    that cannot be imported, a missing or non-callable attribute.
    """
    module_name, _, attribute = reference.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"--policy {reference!r}: give it as module:callable")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"--policy {reference!r}: cannot import {module_name} ({error})") from None
    found = getattr(module, attribute, None)
    if not callable(found):
        raise ValueError(f"--policy {reference!r}: {module_name} has no callable {attribute!r}")
    function: PolicyFunction = found
    return function


class PolicyModel(Model):
    """Stands in for the agent's model: each request goes to the policy, each reply is its next move.

    Use ``async with`` (the policy runs in a task of its own until the block ends). It asks
    no server: no connection is made. Raises :class:`ValueError` as :func:`load_policy`.
    """

    def __init__(self, reference: str, task: str, goal: str) -> None:
        self.name = f"policy:{reference}"
        self.base_url: str | None = None
        self.function = load_policy(reference)
        self.episode = PolicyEpisode(task, goal)
        self._stack = AsyncExitStack()
        self._nursery: trio.Nursery | None = None
        self._started = False

    async def aclose(self) -> None:
        """Nothing to close: the policy ends with the ``async with`` block."""

    async def __aenter__(self) -> PolicyModel:
        self._nursery = await self._stack.enter_async_context(trio.open_nursery())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._nursery is not None:
            self._nursery.cancel_scope.cancel()
        await self._stack.aclose()

    async def _drive(self) -> None:
        try:
            answer = await self.function(self.episode)
            text = "done" if answer is None else str(answer)
        except Exception as error:
            text = f"the policy stopped: {describe_failure(error)}"
        await self.episode._replies_in.send(Reply(text, [], "stop"))

    async def complete(self, body: dict[str, Any]) -> Reply:
        """Hand ``body`` to the policy and return its next tool call or its final answer."""
        if not self._started:
            if self._nursery is None:
                raise RuntimeError("use the policy model in `async with`")
            self._started = True
            self._nursery.start_soon(self._drive)
        # The policy waits for a request only when it wants to see or act; once it has
        # answered it waits for none.
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.episode._bodies_in.send, body)
            reply = await self.episode._replies.receive()
            nursery.cancel_scope.cancel()
        return reply
