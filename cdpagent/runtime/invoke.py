"""Calling a page's registered methods: ``Tab.invoke`` and ``invoke_page_method`` (SPEC PA-4).

One call is one ``Runtime.callFunctionOn`` into the main world of the tab's
current document. It calls the shim's hidden entry point, which checks the
registration, hands the method a fresh copy of ``args``, checks the result for
pure JSON (with a size cap) and answers with one JSON text — so the happy path
costs a single CDP round trip, and the page decides nothing about the envelope.

Failures become :class:`~cdpagent.runtime.codes.PageApiError` with a
``PAGE_API_*`` code:

* ``PAGE_API_TAB_NOT_FOUND`` — no such tab, or it closed before or during the call;
* ``PAGE_API_NOT_EXPOSED`` — the document is not local, or has not registered once
  it finished loading (the shim waits for ``load`` itself; the message says why
  a rejected registration was rejected);
* ``PAGE_API_METHOD_NOT_FOUND``, ``PAGE_API_ARGS_INVALID``, ``PAGE_API_METHOD_FAILED``,
  ``PAGE_API_RESULT_NOT_JSON`` — reported by the shim;
* ``PAGE_API_TIMEOUT`` — no answer before the deadline;
* ``PAGE_API_PAGE_CHANGED`` — the document the call went to was replaced before
  its answer arrived;
* ``PAGE_API_DIALOG_OPEN`` — a JavaScript dialog blocks the page;
* ``PAGE_API_TAB_CRASHED`` — the tab's renderer crashed before or during the call;
* ``PAGE_API_CALL_FAILED`` — lost connection, protocol failure.

Driver failures get the ``invoke`` column of :data:`cdpagent.cdp.failures.FAILURES`
(:func:`~cdpagent.cdp.failures.code_of`), and the tab's refusals its decisions
(:mod:`cdpagent.cdp.tabstate`).
"""

from __future__ import annotations

import math
from typing import Any, Final

import msgspec
import trio

from ..cdp.documents import Document
from ..cdp.failures import Failure, code_of
from ..cdp.tabstate import refusal
from ..cdp.target import Host, Target
from ..cdp.world import CALL_REPLY, call_value
from ..errors import CallTimeout, ConnectionClosed, PageFunctionError, ProtocolError, SessionClosed
from .codes import (
    PAGE_API_ARGS_INVALID,
    PAGE_API_CALL_FAILED,
    PAGE_API_METHOD_FAILED,
    PAGE_API_METHOD_NOT_FOUND,
    PAGE_API_NOT_EXPOSED,
    PAGE_API_PAGE_CHANGED,
    PAGE_API_RESULT_NOT_JSON,
    PAGE_API_TAB_NOT_FOUND,
    PAGE_API_TIMEOUT,
    PageApiError,
)
from .jsonstrict import check_args_present, decode_page_json, encode_args
from .pageapi import INVOKE_FUNCTION, PageApi

__all__ = ["DEFAULT_TIMEOUT", "INVOKE_FUNCTION", "invoke", "invoke_page_method"]

DEFAULT_TIMEOUT: Final = 30.0
#: How long a failed call waits for the document change that usually explains it.
_CHANGE_GRACE: Final = 2.0
_REQUEST_KEYS: Final = frozenset({"tabId", "method", "args"})
#: Codes the shim may answer an invoke with; anything else means the envelope was not the shim's.
_ANSWER_CODES: Final = frozenset(
    {
        PAGE_API_NOT_EXPOSED,
        PAGE_API_METHOD_NOT_FOUND,
        PAGE_API_ARGS_INVALID,
        PAGE_API_METHOD_FAILED,
        PAGE_API_RESULT_NOT_JSON,
    }
)


class _Envelope(msgspec.Struct):
    ok: bool
    value: Any = None
    code: str = ""
    message: str = ""


_envelope = msgspec.json.Decoder(_Envelope)
_NO_ARGS: Final = "{}"
#: The key of ``(PageApi, context id, document serial)`` in the tab's document memo.
_TARGET: Final = object()


def _check_method(method: object) -> str:
    if type(method) is not str or not method:
        raise PageApiError(PAGE_API_ARGS_INVALID, "method must be a non-empty string")
    return method


async def invoke(tab: Target, method: str, args: Any = None, *, timeout: float = DEFAULT_TIMEOUT) -> Any:
    """Call the page's registered ``method`` with ``args`` and return its JSON value.

    ``args`` is a strict JSON object (``None`` means ``{}``); ``timeout`` bounds the
    whole call in seconds. Raises :class:`PageApiError` with one of the codes in the
    module docstring. Domain refusals (``STALE_STATE`` …) are ordinary return values.
    """
    # The happy path is this one coroutine over Session.send_typed, with cdp/world.py's
    # decoder of page calls (CALL_REPLY, call_value) and params prepared once per browser:
    # every coroutine layer costs on each call, and invoke is the hot path of the benchmark
    # (its CPU per call is measured against the same callFunctionOn sent raw).
    _check_method(method)
    arguments = _NO_ARGS if args is None else encode_args(args)
    refused = refusal(tab, "invoke")  # closed, crashed, a dialog open: cdpagent.cdp.tabstate
    if refused is not None:
        raise _refused(tab, refused)
    deadline = trio.current_time() + timeout
    # The call's target (the extension, the main world's context, the document) is read from
    # the tracker once per change of the tab's documents: the memo is emptied by every change.
    memo = tab.documents.memo
    target = memo.get(_TARGET)
    if target is None:
        api = _page_api(tab)
        found = _current_target(api, tab)
        if found is not None:
            target = memo[_TARGET] = (api, *found)
        else:
            with trio.move_on_at(deadline):
                target = (api, *await _wait_target(api, tab))
            if target is None:
                raise _timeout(method, timeout)
    api, context, serial = target
    try:
        params = api.invoke_call.params(context, method, arguments)
        reply = await tab.session.send_typed("Runtime.callFunctionOn", params, CALL_REPLY, deadline=deadline)
        text = call_value(reply)
    except PageFunctionError as error:
        with trio.move_on_at(deadline):
            raise await _explain(tab, serial, f"the call raised in the page: {error.text}") from None
        raise _timeout(method, timeout) from None
    except CallTimeout:
        raise _timeout(method, timeout) from None
    except (SessionClosed, ConnectionClosed) as error:
        raise _lost(tab, error, "during the call") from None
    except ProtocolError as error:
        with trio.move_on_at(deadline):
            raise await _explain(tab, serial, f"the browser refused the call: {error.message}") from None
        raise _timeout(method, timeout) from None
    if type(text) is str:
        try:
            envelope = _envelope.decode(text)
        except msgspec.DecodeError:
            envelope = _repaired_envelope(text)
        if envelope.ok:
            return envelope.value
        if envelope.code not in _ANSWER_CODES:
            raise PageApiError(PAGE_API_CALL_FAILED, "the page's answer carried an unknown failure code")
        raise PageApiError(envelope.code, envelope.message)
    with trio.move_on_at(deadline):
        raise await _explain(tab, serial, "the page's Page Agent API answered with no result")
    raise _timeout(method, timeout)


def _repaired_envelope(text: str) -> _Envelope:
    """The envelope in ``text`` with any lone surrogate replaced by U+FFFD.

    The shim refuses results with lone surrogates and writes its own messages
    well-formed, so this only runs if some text escaped it; it must not crash.
    Raises :class:`PageApiError` (``PAGE_API_CALL_FAILED``) when ``text`` is no envelope.
    """
    try:
        value, _ = decode_page_json(text)
        return msgspec.convert(value, _Envelope)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise PageApiError(PAGE_API_CALL_FAILED, "the page's answer was not a valid envelope") from None


def _lost(tab: Target, error: SessionClosed | ConnectionClosed, when: str) -> PageApiError:
    """The ``PAGE_API_*`` failure for a tab or connection that went away ``when``."""
    found = code_of(error, "invoke")
    assert found is not None  # every driver error has a row
    code, message = found
    return PageApiError(code, f"{message} (tab {tab.id}, {when})")


def _refused(tab: Target, refused: Failure) -> PageApiError:
    """The ``PAGE_API_*`` failure of a call the tab's state refuses: before it is sent, or once it failed."""
    if refused.event == "open dialog" and tab.dialog is not None:
        detail = f"a {tab.dialog.label} is open in the tab and blocks the page; accept or dismiss it first"
    elif refused.event == "closed tab":
        detail = f"tab {tab.id} is closed"
    else:
        detail = f"{refused.message} (tab {tab.id}); close it and open the page again"
    return PageApiError(refused.invoke, detail)


def _timeout(method: str, timeout: float) -> PageApiError:
    return PageApiError(
        PAGE_API_TIMEOUT,
        f"{method} gave no result within {timeout:g} s; the page may still complete the work",
    )


async def invoke_page_method(
    browser: Host[Target], request: object, *, timeout: float = DEFAULT_TIMEOUT
) -> Any:
    """The agent tool ``invoke_page_method({tabId, method, args?})``: a JSON value, or a failure envelope.

    Returns the method's JSON value, or ``{"ok": False, "error": {"code", "message"}}``
    with a ``PAGE_API_*`` code; it does not raise :class:`PageApiError`.
    """
    try:
        if type(request) is not dict:
            raise PageApiError(PAGE_API_ARGS_INVALID, "the request must be an object {tabId, method, args?}")
        unknown = sorted(str(k) for k in request if k not in _REQUEST_KEYS)
        if unknown:
            raise PageApiError(PAGE_API_ARGS_INVALID, f"unknown request key {unknown[0][:60]!r}")
        method = _check_method(request.get("method"))
        args = check_args_present(request["args"]) if "args" in request else None
        tab_id = request.get("tabId")
        if type(tab_id) is not str or not tab_id:
            raise PageApiError(PAGE_API_TAB_NOT_FOUND, "tabId is required (a tab id string)")
        tab = browser.tab(tab_id)
        if tab is None:
            raise PageApiError(PAGE_API_TAB_NOT_FOUND, f"no open tab {tab_id[:60]!r}")
        return await invoke(tab, method, args, timeout=timeout)
    except PageApiError as error:
        return error.envelope()


def _page_api(tab: Target) -> PageApi:
    try:
        return PageApi.of(tab.browser)
    except LookupError as error:
        raise PageApiError(PAGE_API_CALL_FAILED, str(error)) from None


def _current_target(api: PageApi, tab: Target) -> tuple[int, int] | None:
    """The main-world context id and document serial to call now, or ``None`` to wait.

    Raises :class:`PageApiError` (``PAGE_API_NOT_EXPOSED``) for a loaded non-local document.
    """
    documents = tab.documents
    context = documents.context("")
    document = documents.main
    if context is None or document is None:
        return None
    if not api.is_local(document.url):
        if not document.loaded:
            # Probably the blank document of a tab on its way to a page: judge that page.
            return None
        raise _not_local(document.url)
    return context.id, document.serial


async def _wait_target(api: PageApi, tab: Target) -> tuple[int, int]:
    """Like :func:`_current_target`, after waiting for a context (and, when the document is
    not local, for its ``load``). Raises :class:`PageApiError`."""
    document = tab.document
    context, document = await _current(tab, loaded=document is not None and not api.is_local(document.url))
    if not api.is_local(document.url):
        if not document.loaded:
            context, document = await _current(tab, loaded=True)
        if not api.is_local(document.url):
            raise _not_local(document.url)
    return context, document.serial


def _not_local(url: str) -> PageApiError:
    return PageApiError(
        PAGE_API_NOT_EXPOSED,
        f"the document at {url[:200]} is not a local page (file: or an allowed origin); "
        "it has no Page Agent API",
    )


async def _current(tab: Target, *, loaded: bool) -> tuple[int, Document]:
    """Wait (within the caller's deadline) for the current document's main-world context,
    and with ``loaded`` for that document's ``load`` too.

    Raises :class:`PageApiError` (``PAGE_API_TAB_NOT_FOUND``, ``PAGE_API_CALL_FAILED``).
    """
    try:
        if loaded:
            await tab.wait_loaded(timeout=math.inf)
        context = await tab.context_id(timeout=math.inf)
    except (SessionClosed, ConnectionClosed) as error:
        raise _lost(tab, error, "while waiting for the page") from None
    document = tab.document
    assert document is not None
    return context, document


async def _explain(tab: Target, serial: int, detail: str) -> PageApiError:
    """The error for a call that failed inside the browser: usually its document was replaced.

    Chromium may answer a call into a destroyed context before the driver has seen
    the navigation that destroyed it, so wait briefly for that navigation.
    """
    refused = refusal(tab, "invoke")  # it closed or crashed under the call
    if refused is not None:
        return _refused(tab, refused)
    changed = False
    with trio.move_on_after(_CHANGE_GRACE):
        try:
            await tab.document_changed(serial, timeout=math.inf)
            changed = True
        except (SessionClosed, ConnectionClosed) as error:
            return _lost(tab, error, "during the call")
    if changed:
        return PageApiError(
            PAGE_API_PAGE_CHANGED,
            "the page was reloaded or navigated before the call's result arrived; "
            "the new document must be asked again",
        )
    refused = refusal(tab, "invoke")
    if refused is not None:
        return _refused(tab, refused)
    return PageApiError(PAGE_API_CALL_FAILED, detail[:1000])
