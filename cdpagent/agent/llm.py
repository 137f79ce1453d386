"""The model adapter (SPEC CX-4): an OpenAI-compatible ``/chat/completions`` client.

Built on the official ``openai`` package's ``AsyncOpenAI``, which runs under
Trio (its HTTP stack and its retry sleeps go through anyio) and already does
what a careful client must: per-request timeouts, retries with exponential
backoff and jitter on connection errors, 408/409/429 and 5xx, honouring
``Retry-After``, and typed errors. This module only configures it and maps its
errors to one :class:`~cdpagent.agent.codes.ModelError` with a stable code.

Stateless by design: :meth:`Model.complete` sends the whole request body each
time (rules, observation, tools, messages); no server-side session is used.

Configuration comes from the arguments, then the environment:
``CDPAGENT_MODEL`` (model name), ``OPENAI_BASE_URL``, ``OPENAI_API_KEY``.
"""

from __future__ import annotations

import os
import time
from typing import Any, Final

import msgspec
import openai

from ..cdp.logs import AGENT as _LOG
from ..version import USER_AGENT
from . import codes
from .codes import ModelError
from .deadline_http import bounded_client

__all__ = ["DEFAULT_MAX_RETRIES", "DEFAULT_TIMEOUT", "Model", "Reply", "ToolCall", "missing_setting"]

DEFAULT_TIMEOUT: Final = 120.0
DEFAULT_MAX_RETRIES: Final = 2
_NO_KEY: Final = "not-needed"


def missing_setting(model: str | None, base_url: str | None, api_key: str | None = None) -> str | None:
    """What a model client configured with these arguments and the environment lacks:
    ``"model"`` (no name), ``"key"`` (no API key and no base URL), or ``None``.

    One decision for every surface; each words it with its own names (:class:`Model`'s
    arguments from Python, the flags on the command line).
    """
    if not (model or os.environ.get("CDPAGENT_MODEL")):
        return "model"
    if not (api_key or os.environ.get("OPENAI_API_KEY") or base_url or os.environ.get("OPENAI_BASE_URL")):
        return "key"
    return None


class ToolCall(msgspec.Struct, frozen=True):
    """One function call of a reply; ``arguments`` is the model's text, unparsed (may be bad JSON)."""

    id: str
    name: str
    arguments: str

    def message(self) -> dict[str, Any]:
        """The call as it goes into the assistant message of the history."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


class Reply(msgspec.Struct, frozen=True):
    """The model's answer: text and/or tool calls, plus the server's token usage when it sent one."""

    content: str | None
    tool_calls: list[ToolCall]
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def message(self) -> dict[str, Any]:
        """The assistant message to append to the history."""
        out: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            out["tool_calls"] = [c.message() for c in self.tool_calls]
        return out


def _status_error(error: openai.APIStatusError) -> ModelError:
    status = error.status_code
    detail = str(error.message)[:300]
    if status in (401, 403):
        return ModelError(
            codes.MODEL_AUTH_FAILED, f"the server refused the API key (HTTP {status}): {detail}"
        )
    if status == 404:
        return ModelError(codes.MODEL_NOT_FOUND, f"unknown model or wrong base URL (HTTP 404): {detail}")
    if status == 429:
        return ModelError(codes.MODEL_RATE_LIMITED, f"rate limited on every try (HTTP 429): {detail}")
    if status >= 500:
        return ModelError(
            codes.MODEL_SERVER_ERROR, f"the server failed on every try (HTTP {status}): {detail}"
        )
    code = str(getattr(error, "code", "") or "")
    if "context_length" in code or "context length" in detail.lower() or "too long" in detail.lower():
        return ModelError(
            codes.MODEL_CONTEXT_TOO_LONG, f"the request is longer than the model's context: {detail}"
        )
    return ModelError(
        codes.MODEL_REQUEST_REJECTED, f"the server rejected the request (HTTP {status}): {detail}"
    )


class Model:
    """One configured model endpoint; use ``async with`` or call :meth:`aclose` when done.

    ``model``, ``base_url`` and ``api_key`` default to ``CDPAGENT_MODEL``,
    ``OPENAI_BASE_URL`` and ``OPENAI_API_KEY``; a base URL without a key (a
    local server) sends a placeholder key. ``timeout`` bounds each whole try in
    seconds (connecting, the headers and the whole body); ``max_retries`` more
    tries follow a 429, a 5xx, a timeout or a dropped connection. Raises
    :class:`ModelError` ``MODEL_NOT_CONFIGURED`` when no model name or neither
    a key nor a base URL is given.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
    ) -> None:
        missing = missing_setting(model, base_url, api_key)
        if missing == "model":
            unnamed = "no model: pass Model(model=…) or set CDPAGENT_MODEL"
            raise ModelError(codes.MODEL_NOT_CONFIGURED, unnamed)
        if missing == "key":
            raise ModelError(
                codes.MODEL_NOT_CONFIGURED,
                "no API key: set OPENAI_API_KEY, or pass base_url=… for a local server",
            )
        name = model or os.environ.get("CDPAGENT_MODEL") or ""
        url = base_url or os.environ.get("OPENAI_BASE_URL") or None
        key = api_key or os.environ.get("OPENAI_API_KEY") or None
        self.name = name
        self.base_url = url
        self._client = openai.AsyncOpenAI(
            api_key=key or _NO_KEY,
            base_url=url,
            timeout=timeout,
            max_retries=max_retries,
            # ``timeout`` bounds the whole try (connect, headers, body), not each read
            http_client=bounded_client(timeout),
            default_headers={"User-Agent": USER_AGENT, "X-Title": "cdpagent"},
        )

    async def complete(self, body: dict[str, Any]) -> Reply:
        """Send one ``/chat/completions`` request (``body`` without ``model``) and return the reply.

        Raises :class:`ModelError`: ``MODEL_AUTH_FAILED`` (no retry),
        ``MODEL_NOT_FOUND``, ``MODEL_CONTEXT_TOO_LONG``, ``MODEL_REQUEST_REJECTED``,
        ``MODEL_RATE_LIMITED`` / ``MODEL_SERVER_ERROR`` / ``MODEL_TIMEOUT`` /
        ``MODEL_UNREACHABLE`` once the retries are spent, ``MODEL_BAD_REPLY``.
        """
        started = time.perf_counter()
        try:
            completion = await self._client.chat.completions.create(**{**body, "model": self.name})
        except openai.APIStatusError as error:
            raise _status_error(error) from None
        except openai.APITimeoutError:
            raise ModelError(
                codes.MODEL_TIMEOUT, f"no answer within {self._client.timeout} s on every try"
            ) from None
        except openai.APIConnectionError as error:
            cause = error.__cause__ or error
            raise ModelError(
                codes.MODEL_UNREACHABLE, f"cannot reach {self._client.base_url}: {str(cause)[:200]}"
            ) from None
        except openai.OpenAIError as error:
            raise ModelError(codes.MODEL_BAD_REPLY, f"the answer is not a chat completion: {error}") from None
        choices = getattr(completion, "choices", None)
        if not choices:
            raise ModelError(codes.MODEL_BAD_REPLY, "the answer has no choices")
        choice = choices[0]
        message = getattr(choice, "message", None)
        if message is None:
            raise ModelError(codes.MODEL_BAD_REPLY, "the answer's first choice has no message")
        content = getattr(message, "content", None)
        if content is not None and not isinstance(content, str):
            raise ModelError(codes.MODEL_BAD_REPLY, "the answer's content is not text")
        calls: list[ToolCall] = []
        for call in getattr(message, "tool_calls", None) or ():
            function = getattr(call, "function", None)
            name = getattr(function, "name", None)
            arguments = getattr(function, "arguments", None) or ""
            call_id = getattr(call, "id", None) or f"call_{len(calls) + 1}"
            if not isinstance(name, str) or not name:
                raise ModelError(codes.MODEL_BAD_REPLY, "a tool call has no function name")
            if not isinstance(arguments, str) or not isinstance(call_id, str):
                raise ModelError(codes.MODEL_BAD_REPLY, "a tool call's id or arguments are not text")
            calls.append(ToolCall(call_id, name, arguments))
        usage = getattr(completion, "usage", None)
        _LOG.info(
            "%s answered in %.0f ms: %s prompt tokens, %d tool calls, finish %s",
            self.name, (time.perf_counter() - started) * 1000,
            usage.prompt_tokens if usage is not None else "?", len(calls), choice.finish_reason,
        )
        return Reply(
            content=content,
            tool_calls=calls,
            finish_reason=choice.finish_reason,
            prompt_tokens=usage.prompt_tokens if usage is not None else None,
            completion_tokens=usage.completion_tokens if usage is not None else None,
        )

    async def aclose(self) -> None:
        """Close the HTTP connections."""
        await self._client.close()

    async def __aenter__(self) -> Model:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
