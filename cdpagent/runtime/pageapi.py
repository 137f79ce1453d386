"""The Page Agent API as a driver extension: shim, binding, and the page-to-thread path.

:class:`PageApi` is passed to :func:`cdpagent.launch` as an extension. For every
new tab, while its target is still paused (DR-3), :meth:`PageApi.setup_tab`

* adds a ``Runtime.addBinding`` binding with an unguessable per-browser name, and
* installs ``js/agotalk.js`` with ``Page.addScriptToEvaluateOnNewDocument``
  (``runImmediately`` covers the document that already exists),

so every document of the tab gets ``window.agotalk`` before its own scripts when it
is local (a ``file:`` URL or one of ``allow_origins``), and nothing otherwise
(PA-1, PA-6). Registration state lives in the shim, which lives and dies with its
document: reload and cross-document navigation clear it, same-document
navigation keeps it (PA-3).

``window.agotalk.post`` calls arrive as ``Runtime.bindingCalled`` events. The
sender is identified by the event's ``executionContextId`` (its tab, frame and
document URL from the driver's document tracker), never by the payload; calls
from contexts the tracker does not know as a live main world are dropped (PA-6).
Accepted ``thread_notify`` posts are queued on the tab's owning
:class:`~cdpagent.runtime.threads.Thread`, and every post is answered through
``Runtime.callFunctionOn`` into the sending context (PA-5).
"""

from __future__ import annotations

import contextlib
import itertools
import secrets
from collections.abc import Iterable
from typing import Any, Final
from urllib.parse import urlsplit

import msgspec

from ..cdp.pagescripts import configured
from ..cdp.target import Command, Host, Target
from ..cdp.world import CALL_REPLY, PreparedFunction
from ..errors import CDPAgentError
from . import codes
from .jsonstrict import MAX_DEPTH
from .notify import POST_MAX_CHARS, Owner, Sender, check_notify, parse_post

__all__ = [
    "INVOKE_FUNCTION",
    "POST_REPLY_FUNCTION",
    "RESULT_MAX_CHARS",
    "SHIM_CODES",
    "PageApi",
    "origin_of",
    "shim_source",
]

#: The whole page-side program of an invoke: call the shim's hidden entry point. The entry
#: point's name and the key are written into the text (:meth:`PageApi.bind`), not passed as
#: arguments: each argument is a value V8's inspector decodes, and a name read from one makes
#: the property lookup a generic one (two arguments fewer: ~8 µs of ~300 per call here).
INVOKE_FUNCTION: Final = "function(m,a){return agotalk[%(entry)s](%(key)s,'invoke',m,a)}"
#: Cap on a method's result, in characters of JSON text.
RESULT_MAX_CHARS: Final = 8 * 1024 * 1024
#: The codes the shim answers with; it receives them from here, never spells them itself.
SHIM_CODES: Final = (
    codes.PAGE_API_ALREADY_EXPOSED,
    codes.PAGE_API_ARGS_INVALID,
    codes.PAGE_API_CALL_FAILED,
    codes.PAGE_API_CONTRACT_INVALID,
    codes.PAGE_API_METHOD_FAILED,
    codes.PAGE_API_METHOD_NOT_FOUND,
    codes.PAGE_API_NOT_EXPOSED,
    codes.PAGE_API_RESULT_NOT_JSON,
    codes.THREAD_NOTIFY_BAD_MESSAGE,
)
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}

#: Answers a page's pending ``post()`` promise (see js/agotalk.js); filled in like
#: :data:`INVOKE_FUNCTION`.
POST_REPLY_FUNCTION: Final = "function(i,r){agotalk[%(entry)s](%(key)s,'reply',i,r)}"

_encoder = msgspec.json.Encoder()


def shim_source(config: dict[str, Any]) -> str:
    """The text of ``js/agotalk.js`` with its configuration object filled in."""
    return configured("agotalk.js", config)


def origin_of(url: str) -> str:
    """The web origin of ``url`` as ``location.origin`` spells it (``scheme://host[:port]``).

    Returns ``""`` for URLs without a host (``file:``, ``about:``, ``data:``).
    """
    parts = urlsplit(url)
    if not parts.hostname:
        return ""
    scheme = parts.scheme.lower()
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        return ""
    if port is None or _DEFAULT_PORTS.get(scheme) == port:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


class PageApi:
    """The Page Agent API extension; pass a fresh one to each :func:`cdpagent.launch`.

    ``allow_origins`` lists origins (for example a loopback dev server,
    ``"http://127.0.0.1:8000"``) that count as local besides ``file:`` URLs.
    Raises :class:`ValueError` for an entry that is not an ``http(s)`` origin.
    """

    def __init__(
        self, allow_origins: Iterable[str] = (), *, result_max_chars: int = RESULT_MAX_CHARS
    ) -> None:
        origins = []
        for entry in allow_origins:
            origin = origin_of(entry)
            if not origin or urlsplit(entry).scheme.lower() not in _DEFAULT_PORTS:
                raise ValueError(f"not an http(s) origin: {entry!r}")
            origins.append(origin)
        self.allow_origins: tuple[str, ...] = tuple(origins)
        #: Name of the binding; pages never see it (the shim deletes it first).
        self.binding = "_" + secrets.token_hex(16)
        #: Name of the shim's entry point on ``window.agotalk`` (visible to the page).
        self.entry = "_" + secrets.token_hex(8)
        #: Secret argument the entry point requires (never visible to the page).
        self.key = secrets.token_hex(16)
        self.result_max_chars = result_max_chars
        #: :data:`INVOKE_FUNCTION` with this browser's entry point and key, for ``invoke``.
        self.invoke_call = PreparedFunction(self.bind(INVOKE_FUNCTION), await_promise=True)
        #: :data:`POST_REPLY_FUNCTION` with this browser's entry point and key, for the answers to ``post``.
        self.reply_call = PreparedFunction(self.bind(POST_REPLY_FUNCTION))
        self.source = shim_source(
            {
                "binding": self.binding,
                "entry": self.entry,
                "key": self.key,
                "origins": list(self.allow_origins),
                "resultMax": result_max_chars,
                "postMax": POST_MAX_CHARS,
                "maxDepth": MAX_DEPTH,
                "codes": {code: code for code in SHIM_CODES},
            }
        )
        self._owners: dict[str, Owner] = {}
        self._thread_ids = itertools.count(1)

    def bind(self, function: str) -> str:
        """``function`` (:data:`INVOKE_FUNCTION` or :data:`POST_REPLY_FUNCTION`) with this
        browser's entry point and key written in as string literals."""
        literals = {"entry": _encoder.encode(self.entry), "key": _encoder.encode(self.key)}
        return function % {name: text.decode() for name, text in literals.items()}

    @staticmethod
    def of(browser: Host[Target]) -> PageApi:
        """The :class:`PageApi` among ``browser``'s extensions.

        Raises :class:`LookupError` when the browser was launched without one.
        """
        for extension in browser.extensions:
            if isinstance(extension, PageApi):
                return extension
        raise LookupError("this browser was launched without the PageApi extension")

    def is_local(self, url: str) -> bool:
        """Whether a document at ``url`` gets ``window.agotalk``: ``file:`` or an allowed origin."""
        if url.startswith("file:"):
            return True
        return bool(self.allow_origins) and origin_of(url) in self.allow_origins

    def new_thread_id(self) -> str:
        """A fresh thread id for this browser (``"thread1"``, …)."""
        return f"thread{next(self._thread_ids)}"

    def set_owner(self, tab_id: str, thread: Owner) -> None:
        """Record that ``thread`` owns tab ``tab_id``."""
        self._owners[tab_id] = thread

    def owner(self, tab_id: str) -> Owner | None:
        """The thread that owns tab ``tab_id``; ``None`` for a standalone tab."""
        return self._owners.get(tab_id)

    def setup_tab(self, tab: Target) -> list[Command]:
        """Install the binding and the shim in a new, still paused tab (PA-1, PA-6)."""

        def on_binding(params: dict[str, Any]) -> None:
            self._on_binding(tab, params)

        # A page opened by a thread-owned page belongs to the same thread (PA-5).
        owner = self._owners.get(tab.opener.id) if tab.opener is not None else None
        if owner is not None:
            owner.adopt(tab)

        tab.session.on("Runtime.bindingCalled", on_binding)
        return [
            ("Runtime.addBinding", {"name": self.binding}),
            ("Page.addScriptToEvaluateOnNewDocument", {"source": self.source, "runImmediately": True}),
        ]

    def _on_binding(self, tab: Target, params: dict[str, Any]) -> None:
        if params.get("name") != self.binding:
            return
        context_id = params.get("executionContextId")
        if type(context_id) is not int:
            return
        frame = tab.documents.frame_of_context(context_id)
        if frame is None or frame.document is None:
            return
        context = frame.contexts.get("")
        if context is None or context.id != context_id:
            return
        call = parse_post(params.get("payload"))
        if call is None:
            return
        url = frame.document.url
        sender = Sender(
            tab_id=tab.id,
            frame_id=frame.id,
            url=url,
            main_frame=frame.id == tab.documents.main_frame_id,
            local=self.is_local(url),
        )
        owner = self._owners.get(tab.id)
        decision = check_notify(call, sender, owned=owner is not None)
        if isinstance(decision, str):
            assert owner is not None
            answer = owner.deliver(sender, decision)
        else:
            answer = decision
        reply = _encoder.encode(answer).decode()
        # The reader task must not wait, so the answer goes out from the browser's nursery.
        tab.browser.start_soon(self._answer, tab, context_id, call.post_id, reply)

    async def _answer(self, tab: Target, context_id: int, post_id: int, reply: str) -> None:
        # If the document went away before its answer, there is nobody left to tell.
        with contextlib.suppress(CDPAgentError):
            params = self.reply_call.params(context_id, post_id, reply)
            await tab.session.send_typed("Runtime.callFunctionOn", params, CALL_REPLY)
