"""The turn loop (SPEC CX-5): observe, assemble, ask the model, run its tool calls, repeat.

One turn starts with a user message (an instruction, or a ``thread_notify``
wake-up) and goes:

1. compact the history if it passed its threshold (:mod:`.history`);
2. settle and observe the current tab; assemble the request from that one
   observation (:mod:`.request`);
3. call the model (:mod:`.llm`); append its assistant message;
4. no tool call → the content is the final answer, the turn ends;
5. otherwise run the calls one after another, in order, on the tab — declared
   actions through :meth:`Tab.act`, ``invoke_page_method`` through
   :meth:`Tab.invoke`, the browser operations the role's ``capabilities`` enable
   through :func:`cdpagent.ops.current_tab.run`, their arguments decoded once into the
   operation's Struct (:mod:`cdpagent.ops.operations`) — and append one tool message
   per call with its receipt or error envelope (cut to ``maxToolResultTokens``);
   a screenshot's image follows the turn's tool messages as a user message with an
   image part (only the latest image stays attached; with ``images=False`` the tool
   result says images are not available instead); back to 1.

A call the agent cannot run — a tool name the request did not offer (for
example an action from an older snapshot), arguments that are not a JSON
object, arguments the tool does not take, an undocumented method or a tab of
another thread — is answered with a tool result carrying a stable code and the
available tools, never with an exception. After ``max_steps`` model requests
the turn stops and says so. Turns of one agent run one at a time.

:class:`Agent` owns a :class:`cdpagent.Thread` (its tabs and its wake-ups) and
the thread's conversation.
"""

from __future__ import annotations

import base64
import json
import os
import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

import msgspec
import trio

from ..act.perform import ConfirmCallback
from ..browser.tabs import Browser, Tab, to_url
from ..cdp.failures import code_of
from ..errors import PageApiError, RoleError, SessionClosed, ToolCallError
from ..ops import current_tab
from ..ops.operations import (
    CAPABILITIES,
    InvokeArgs,
    Operation,
    decode,
    function_call,
    surface_arguments,
)
from ..primitives.capture import Screenshot
from ..primitives.urlpolicy import UrlPolicy, default_dirs
from ..runtime.codes import PAGE_API_TAB_NOT_FOUND, refusal
from ..runtime.jsonstrict import check_args_present
from ..runtime.threads import Notification, Thread
from ..snapshot import codes as action_codes
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import Receipt
from ..trace.recorder import model_turn
from . import codes
from .history import AsyncSummariser, Budgets, Message, Summariser, compact_async, summarise_conversation
from .history import outcome as describe_outcome
from .llm import Model, ToolCall
from .replies import bound_reply, refused_call
from .request import PAGE_METHOD_TOOL, Request, assemble_request, enabled_operations, page_options
from .roles import Role
from .tokens import TokenCounter, estimate_tokens
from .truncation import truncate_middle

__all__ = ["Agent", "AgentResult", "Progress", "ToolRecord"]

Progress = Callable[[str], None]
"""Receives one line per request and per tool call (the CLI prints them on stderr)."""


class ToolRecord(msgspec.Struct, frozen=True):
    """One executed (or refused) tool call: what was called, and the full result it produced."""

    id: str
    name: str
    arguments: str
    result: Any
    """For an action (a page tool, or a call refused as one) the :class:`~cdpagent.Receipt`, the
    same value :meth:`cdpagent.Tab.act` returns; for a page method its JSON value or error
    envelope; for a browser operation its JSON result."""
    ok: bool

    def result_json(self) -> Any:
        """:attr:`result` as plain JSON values (a receipt as ``{"result": …}``)."""
        return self.result.to_builtins() if isinstance(self.result, Receipt) else self.result


class AgentResult(msgspec.Struct, frozen=True):
    """The end of one turn: the final answer, the turn's messages and every tool result."""

    answer: str
    transcript: list[Message]
    """This turn's messages, from its user message to the final answer (never compacted)."""
    receipts: list[ToolRecord]
    requests: int
    """Model requests made in this turn."""
    stopped: str | None = None
    """``None`` when the model answered; :data:`~cdpagent.agent.codes.STEP_LIMIT` when the turn
    was cut short."""
    handoffs: list[str] = []
    """What a person must do (actions declared as hand-offs the model tried)."""

    def to_builtins(self) -> dict[str, Any]:
        """Plain JSON-ready dicts and lists (what ``cdpagent chat --json`` prints)."""
        value: dict[str, Any] = msgspec.to_builtins(self)
        return value


class Agent:
    """An agent for one thread of ``browser``, speaking for ``role``, thinking with ``model``.

    ``thread`` defaults to a new :class:`cdpagent.Thread` (the browser needs the
    Page Agent API extension, which :func:`cdpagent.launch` installs).
    ``confirm`` answers ``data-agent-confirm`` actions (none = denied).
    ``summarise`` writes the history summary when it is compacted (default: no
    model call; :class:`~cdpagent.agent.summary.ModelSummariser` asks the model).
    ``max_steps`` bounds the model requests of one turn. ``observe_options``
    are the page's budgets; their ``max_total_chars`` is lowered so that system
    message and tools stay within 16,000 characters. ``images`` says whether the
    model endpoint takes image parts in user messages (OpenAI's chat format does;
    a text-only endpoint does not): a screenshot is sent to the model only then.
    ``url_policy`` bounds where the model may take the tabs when the role enables
    ``tabs`` or ``navigation`` (default :func:`default_policy`): a URL it refuses is
    answered ``URL_NOT_ALLOWED`` / ``FILE_NOT_ALLOWED`` and a tab that got there anyway
    is blanked.
    Raises :class:`ValueError` when ``max_steps`` is below 1 and
    :class:`~cdpagent.errors.RoleError` for a capability the operations do not have.
    """

    def __init__(
        self,
        browser: Browser,
        model: Model,
        role: Role,
        *,
        thread: Thread[Tab] | None = None,
        budgets: Budgets | None = None,
        counter: TokenCounter = estimate_tokens,
        summarise: Summariser | AsyncSummariser = summarise_conversation,
        max_steps: int = 20,
        confirm: ConfirmCallback | None = None,
        unattended: bool = False,
        observe_options: ObserveOptions | None = None,
        progress: Progress | None = None,
        images: bool = True,
        url_policy: UrlPolicy | None = None,
    ) -> None:
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1 (got {max_steps})")
        unknown = [c for c in role.capabilities if c not in CAPABILITIES]
        if unknown:
            raise RoleError(
                f"role {role.name}: unknown capability {unknown[0]!r} (known: {', '.join(CAPABILITIES)})"
            )
        self.browser = browser
        self.model = model
        self.role = role
        self.thread = thread if thread is not None else Thread(browser)
        self.budgets = budgets or Budgets()
        self.counter = counter
        self.summarise = summarise
        self.max_steps = max_steps
        self.confirm = confirm
        #: The unattended policy (``--yes``): dialogs the page raises during an act are
        #: answered at once rather than left open for the model (:class:`cdpagent.act.roundtrip.Hooks`).
        self.unattended = unattended
        self.observe_options = observe_options
        self.progress = progress or (lambda line: None)
        self.history: list[Message] = []
        """The conversation sent to the model (compacted when it grows past its budget)."""
        self.last_request: Request | None = None
        """The latest request sent (system text, tools, messages, estimated tokens)."""
        self.tab_id: str | None = None
        self.images = images
        self.url_policy = url_policy if url_policy is not None else default_policy(role)
        """Where the model may take the tabs (open_page, navigate, a redirect …)."""
        self._operations = {op.tool: op for op in enabled_operations(role)}
        self._images: list[Message] = []  # this step's screenshots, sent after its tool messages
        self._turn_lock = trio.Lock()

    async def open(self, page: str | None = None) -> str:
        """Open ``page`` (default: the role's) in a tab of the thread; it becomes the current tab.

        Returns the tab id. Raises what :meth:`Thread.open` raises.
        """
        tab = await self.thread.open(page or self.role.page)
        self.tab_id = tab.id
        return tab.id

    async def run(self, instruction: str) -> AgentResult:
        """Run one turn for the user's ``instruction`` (opens the role's page first if needed).

        Returns when the model answers without a tool call or the step limit is
        reached. Raises :class:`~cdpagent.agent.codes.ModelError` when the model
        cannot be asked, :class:`cdpagent.ObservationError` when the page keeps
        changing while it is observed, :class:`cdpagent.SessionClosed` when every
        tab of the thread closed, and driver errors when the browser goes away.
        """
        return await self._turn({"role": "user", "content": instruction})

    async def wake(self, note: Notification) -> AgentResult:
        """Run the turn a ``thread_notify`` queued: the tab that asked becomes current.

        The user message says it comes from the page and carries the tab id and the
        page's message. Raises what :meth:`run` raises.
        """
        if any(t.id == note.tab_id for t in self.thread.tabs):
            self.tab_id = note.tab_id
        text = f"[thread_notify from tab {note.tab_id}, delivery {note.delivery_id}] {note.message}"
        return await self._turn({"role": "user", "content": text})

    async def next_wakeup(self) -> AgentResult:
        """Wait for the thread's next queued ``thread_notify`` and run its turn.

        Queued turns are taken in order, one at a time. Raises
        :class:`trio.EndOfChannel` once the thread is closed and drained.
        """
        return await self.wake(await self.thread.receive())

    async def aclose(self) -> None:
        """Close the thread (and its tabs)."""
        await self.thread.aclose()

    async def __aenter__(self) -> Agent:
        return self

    async def __aexit__(self, *exc: object) -> None:
        with trio.CancelScope(shield=True):
            await self.aclose()

    # -- one turn ------------------------------------------------------------------

    def _tab(self) -> Tab | None:
        tabs = {t.id: t for t in self.thread.tabs}
        if self.tab_id in tabs:
            return tabs[self.tab_id]
        return next(iter(tabs.values()), None)

    async def _turn(self, user: Message) -> AgentResult:
        async with self._turn_lock:
            if self._tab() is None:
                await self.open()
            self.history.append(user)
            transcript: list[Message] = [user]
            records: list[ToolRecord] = []
            for step in range(1, self.max_steps + 1):
                self.history = await compact_async(self.history, self.budgets, self.counter, self.summarise)
                tab = self._tab()
                if tab is None:
                    raise SessionClosed(f"every tab of thread {self.thread.id} was closed during the turn")
                self.tab_id = tab.id
                tab_ids = [t.id for t in self.thread.tabs]
                options = page_options(self.role, tab_ids, self.observe_options)
                page = await tab.view(options)
                request = assemble_request(
                    self.role, page, self.history, tab_id=tab.id, tab_ids=tab_ids, counter=self.counter
                )
                self.last_request = request
                body = request.body(self.model.name)
                size = len(json.dumps(body, ensure_ascii=False).encode())
                self.progress(
                    f"request {step}: ~{request.tokens} tokens ({size} bytes), "
                    f"{len(request.tools)} tools, {len(request.messages)} messages"
                )
                started = time.perf_counter()
                reply = await self.model.complete(body)
                model_turn(tab.browser.tracer, started, size, request.tokens, reply)
                bounded = bound_reply(  # what the model sends is cut before it enters the history
                    reply,
                    request.tool_names(),
                    max_content_tokens=self.budgets.max_tool_result_tokens,
                    counter=self.counter,
                )
                assistant = bounded.reply.message()
                self.history.append(assistant)
                transcript.append(assistant)
                if not reply.tool_calls:
                    self.progress(f"answer after {time.perf_counter() - started:.1f} s")
                    return self._result(reply.content or "", transcript, records, step, None)
                kinds = {entry.tool: entry.kind for entry in page.observation.actions}
                for call in bounded.reply.tool_calls:
                    refused = bounded.refusals.get(call.id)
                    record = (
                        ToolRecord(call.id, call.name, call.arguments, refused, False)
                        if refused is not None
                        else await self._execute(call, request, tab, kinds)
                    )
                    records.append(record)
                    content = truncate_middle(
                        json.dumps(record.result_json(), ensure_ascii=False),
                        self.budgets.max_tool_result_tokens,
                        self.counter,
                    )
                    message = {"role": "tool", "tool_call_id": call.id, "content": content}
                    self.history.append(message)
                    transcript.append(message)
                    self.progress(f"  {call.name} {call.arguments[:120]} → {describe_outcome(content)}")
                self._attach_images(transcript)
            answer = (
                f"I stopped after {self.max_steps} model requests (the step limit) before the task was "
                "finished; the receipts of this turn show what was done."
            )
            self.progress(f"step limit of {self.max_steps} requests reached")
            return self._result(answer, transcript, records, self.max_steps, codes.STEP_LIMIT)

    def _result(
        self,
        answer: str,
        transcript: list[Message],
        records: list[ToolRecord],
        requests: int,
        stopped: str | None,
    ) -> AgentResult:
        handoffs = [
            str(r.result.result.error.reason or r.result.result.error.message)
            for r in records
            if isinstance(r.result, Receipt)
            and r.result.result.error is not None
            and r.result.code == action_codes.HANDOFF_REQUIRED
        ]
        return AgentResult(answer, transcript, records, requests, stopped, handoffs)

    # -- tool calls ------------------------------------------------------------------

    async def _execute(
        self, call: ToolCall, request: Request, tab: Tab, kinds: Mapping[str, str]
    ) -> ToolRecord:
        """Run one tool call: ``invoke_page_method``, or ``act`` on the page action it names.

        The arguments are decoded once into the operation's Struct
        (:mod:`cdpagent.ops.operations`); a page tool's (WebMCP) arguments are its ``input``.
        """
        available = request.tool_names()

        def record(result: Any, ok: bool) -> ToolRecord:
            return ToolRecord(call.id, call.name, call.arguments, result, ok)

        if call.name not in available:
            message = (
                f"no tool named {call.name!r} is offered now (it may belong to an earlier page); "
                "use one of the available tools"
            )
            return record(refused_call(call.name, action_codes.UNKNOWN_ACTION, message, available), False)
        try:
            args = json.loads(call.arguments) if call.arguments.strip() else {}
        except ValueError as error:
            message = f"the arguments are not JSON ({error}); call {call.name} again with a JSON object"
            return record(refused_call(call.name, codes.TOOL_ARGUMENTS_NOT_JSON, message, available), False)
        if not isinstance(args, dict):
            message = f"the arguments must be a JSON object, not {type(args).__name__}"
            return record(refused_call(call.name, codes.TOOL_ARGUMENTS_NOT_JSON, message, available), False)
        if call.name == PAGE_METHOD_TOOL and self.role.methods:
            return await self._invoke(args, record)
        if call.name in self._operations:
            return await self._operate(self._operations[call.name], args, tab, call.id, record)
        try:
            act = function_call(call.name, kinds.get(call.name), args)
        except ToolCallError as error:
            return record(refused_call(call.name, error.code, error.message, available), False)
        receipt = await tab.perform(act, confirm=self.confirm, unattended=self.unattended)
        return record(receipt, receipt.ok)

    async def _invoke(self, args: dict[str, Any], record: Callable[[Any, bool], ToolRecord]) -> ToolRecord:
        documented = [m.name for m in self.role.methods]
        tab_id = args.pop("tabId", None)
        try:
            if not isinstance(tab_id, str):
                raise ToolCallError(action_codes.INVALID_ARGUMENT, "invoke: tabId (a string) is required")
            invoke = decode(InvokeArgs, args)
            given = check_args_present(args["args"]) if "args" in args else None
        except PageApiError as error:
            return record(error.envelope(), False)
        except ToolCallError as error:
            message = error.message.replace("invoke:", "invoke_page_method:", 1)
            return record(refusal(action_codes.INVALID_ARGUMENT, message), False)
        method = invoke.method
        if method not in documented:
            message = (
                f"{method!r} is not a documented method; the documented methods are: {', '.join(documented)}"
            )
            return record(refusal(action_codes.INVALID_ARGUMENT, message), False)
        target = next((t for t in self.thread.tabs if t.id == tab_id), None)
        if target is None:
            message = f"{tab_id!r} is not a tab of this thread"
            return record(refusal(PAGE_API_TAB_NOT_FOUND, message), False)
        try:
            value = await target.invoke(method, given, timeout=invoke.timeout)
        except PageApiError as error:
            return record(error.envelope(), False)
        # A domain refusal ({"ok": false, "error": {"code": "STALE_STATE"}}) is the page's
        # answer, not a failed call: ok, as on every surface (cdpagent.cdp.failures, rule 3).
        return record(value, True)

    async def _operate(
        self,
        op: Operation,
        args: dict[str, Any],
        tab: Tab,
        call_id: str,
        record: Callable[[Any, bool], ToolRecord],
    ) -> ToolRecord:
        """Run a browser operation the role enables on the current tab (:mod:`cdpagent.ops.current_tab`)."""
        tab_id = args.pop("tabId", None) if "tabId" in surface_arguments(op, current_tab=True) else None
        try:
            if tab_id is not None and not isinstance(tab_id, str):
                raise ToolCallError(
                    action_codes.INVALID_ARGUMENT, f"{op.name}: tabId must be a tab id string"
                )
            decoded = decode(op.args, args)
        except ToolCallError as error:
            message = error.message.replace(f"{op.name}:", f"{op.tool}:", 1)
            return record(refusal(action_codes.INVALID_ARGUMENT, message), False)
        current = _Current(tab, self.thread, self.url_policy)
        try:
            outcome = await current_tab.run(current, op.name, decoded, tab_id)
        except Exception as exc:
            found = code_of(exc)  # the operation's stable code, as on every surface
            if found is None:
                raise
            return record(refusal(*found), False)
        self.tab_id = current.tab.id
        value: dict[str, Any] = {"ok": True, **outcome.value}
        receipt = value.get("receipt")
        ok = not isinstance(receipt, dict) or bool(receipt.get("result", {}).get("ok", True))
        if outcome.image is not None:
            value["image"] = self._queue_image(outcome.image, call_id, str(value.get("summary", "")))
        if outcome.document is not None:
            value["note"] = "the PDF is not shown to the model; its size is in bytes"
        return record(value, ok)

    def _queue_image(self, shot: Screenshot, call_id: str, summary: str) -> str:
        """Queue ``shot`` for the model (after this step's tool messages); say where it is."""
        if not self.images:
            return "not available: this model endpoint's messages cannot carry images"
        data = base64.b64encode(shot.data).decode()
        self._images.append({
            "role": "user",
            "content": [
                {"type": "text", "text": f"[the screenshot of tool call {call_id}: {summary}; page data]"},
                {"type": "image_url", "image_url": {"url": f"data:{shot.mime_type};base64,{data}"}},
            ],
        })  # fmt: skip
        return "attached in the next message"

    def _attach_images(self, transcript: list[Message]) -> None:
        """Append the queued screenshots; earlier ones in the history become a short text."""
        if not self._images:
            return
        for message in self.history:
            if isinstance(message.get("content"), list):
                message["content"] = "[an earlier screenshot, no longer attached]"
        self.history += self._images
        transcript += self._images
        self._images = []


def default_policy(role: Role) -> UrlPolicy:
    """Loopback URLs, and ``file:`` pages under the current directory, the bundled examples
    and the directory of the role's page (:mod:`cdpagent.primitives.urlpolicy`)."""
    dirs = list(default_dirs())
    if role.page:
        try:
            url = to_url(role.page)
        except (OSError, ValueError):
            url = ""  # opening the page will say what is wrong with it
        if url.startswith("file:"):
            dirs.append(os.path.dirname(url2pathname(urlsplit(url).path)))
    return UrlPolicy(allow_dirs=tuple(dirs))


class _Current:
    """The agent's current tab as :mod:`cdpagent.ops.current_tab` changes it (``open``, ``select``,
    ``close``)."""

    def __init__(self, tab: Tab, thread: Thread[Tab], policy: UrlPolicy) -> None:
        self.tab = tab
        self.thread: Thread[Tab] | None = thread
        self.policy: UrlPolicy | None = policy
