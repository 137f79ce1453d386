"""The :class:`Browser` and its :class:`Tab` objects: what a program holds while it drives pages.

A :class:`Browser` comes from :func:`cdpagent.browser.launch.launch` or
:func:`~cdpagent.browser.launch.connect`, which own its process and connection.

New tabs and popups are attached with ``waitForDebuggerOnStart`` (DR-3): the
driver enables the domains it needs, runs every extension's ``setup_tab`` (so
init scripts and bindings are in place) and only then lets the target run.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from functools import partial
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

import trio

from ..act.coordinates import click_at as _click_at
from ..act.coordinates import type_at as _type_at
from ..act.inputs import ActArgs
from ..act.perform import ConfirmCallback
from ..act.perform import act as _act
from ..act.roundtrip import Hooks
from ..cdp.connection import Connection, Session
from ..cdp.dialogs import LEAVE_NOTICE, JavaScriptDialog
from ..cdp.documents import TRACKED_EVENTS, Document, DocumentTracker
from ..cdp.launcher import BrowserProcess
from ..cdp.tabstate import MAX_POPUPS, Decision, on_dialog_opening, on_popup
from ..cdp.target import ACT_EVENTS, ActWatch, Command, Extension, FrameTarget
from ..errors import (
    CallTimeout,
    CDPAgentError,
    ConnectionClosed,
    NavigationError,
    ProtocolError,
    SessionClosed,
)
from ..primitives.capture import ImageFormat, Screenshot
from ..primitives.capture import pdf as _pdf
from ..primitives.capture import screenshot as _screenshot
from ..primitives.downloads import MAX_DOWNLOAD_BYTES, MAX_TOTAL_BYTES, Download, Downloads
from ..primitives.navigation import go_back, go_forward
from ..primitives.pagelog import COMMANDS as LOG_COMMANDS
from ..primitives.pagelog import ConsoleMessage, FailedRequest, PageLog
from ..primitives.storage import StorageState
from ..primitives.storage import storage_state as _storage_state
from ..primitives.uploads import UploadPolicy
from ..primitives.waiting import wait_for as _wait_for
from ..runtime.invoke import invoke as _invoke
from ..snapshot.model import Observation
from ..snapshot.observe import ObserveResult, observe_page
from ..snapshot.options import ObserveOptions
from ..snapshot.receipts import Receipt
from ..trace.recorder import Recorder, recorded, recorded_sync
from .bundled import bundled_instead, example_url

__all__ = ["Browser", "Tab", "to_url"]

#: The event whose handling the act holding the tab decides (see ``Tab._on_dialog``).
_DIALOG_OPENING: Final = "Page.javascriptDialogOpening"


#: Sent to every tab (and out-of-process frame) session: attach to its frames drawn by
#: another process, so the observation can collect them (OB-11); they run at once.
FRAME_AUTO_ATTACH: Command = (
    "Target.setAutoAttach",
    {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True, "filter": [{"type": "iframe"}]},
)


_REFUSED: Final = "refused tabs the page tried to open"


def to_url(url_or_path: str | os.PathLike[str]) -> str:
    """A URL for ``url_or_path``: URLs pass through, file paths become ``file://`` URLs.

    A path may carry a query and a fragment as written
    (``examples/inventory/index.html?rows=100#top``) unless a file of that whole
    name exists; they are kept on the URL, not encoded into the file name.
    ``example:NAME`` names a bundled example (:mod:`cdpagent.browser.bundled`); an unknown one
    raises :class:`FileNotFoundError` listing those there are.
    """
    text = os.fspath(url_or_path)
    if (example := example_url(text)) is not None:
        return example
    scheme = urlsplit(text).scheme
    if len(scheme) > 1:
        return text
    path, suffix = text, ""
    cut = min((i for i in (text.find("?"), text.find("#")) if i >= 0), default=-1)
    if cut > 0 and not Path(text).exists():
        path, suffix = text[:cut], text[cut:]
    return Path(path).resolve().as_uri() + suffix


class Tab:
    """One page target. Obtain tabs from :meth:`Browser.open` or :attr:`Browser.tabs`.

    ``id`` is a short string, stable for the life of the tab (``"tab1"``, …).
    """

    def __init__(self, browser: Browser, tab_id: str, target_id: str, session: Session) -> None:
        self.browser = browser
        self.id = tab_id
        self.target_id = target_id
        self.session = session
        self._changed = trio.Event()
        self.documents = DocumentTracker(self._notify)
        #: Out-of-process frames (another site), attached through their own sessions (OB-11).
        self.frame_targets: dict[str, FrameTarget] = {}
        self.opener: Tab | None = None
        #: Tabs the pages of this tab's family tried to open past :data:`~cdpagent.cdp.tabstate.MAX_POPUPS`
        #: (BR-2).
        self.refused_popups = 0
        self.closed = False
        self.crashed = False
        #: Set once the tab is set up and released (it is listed in ``Browser.tabs`` from then on).
        self.ready = False
        #: Page scripts the extensions installed in this tab (see :class:`cdpagent.cdp.target.Target`).
        self.installed: set[str] = set()
        #: Serialises everything that delivers input to this tab (actions never interleave).
        self.input_lock = trio.Lock()
        #: The JavaScript dialog open in this tab now, if any (see :mod:`cdpagent.cdp.dialogs`).
        self.dialog: JavaScriptDialog | None = None
        #: What the runtime did on its own since the last result took them (warnings to report).
        self.notices: list[str] = []
        #: The handlers of the act holding this tab now (the round trip sets them,
        #: :mod:`cdpagent.act.roundtrip`): a dialog that opens is decided by the act's
        #: handler (:mod:`cdpagent.cdp.tabstate`), and each of ``ACT_EVENTS`` is handed to the act.
        self.acting: ActWatch | None = None
        #: The page's last console messages and failed requests (:mod:`cdpagent.primitives.pagelog`).
        self.log = PageLog(self._notify)
        for method, handler in self.log.handlers().items():
            session.on(method, handler)
        for method in TRACKED_EVENTS:
            session.on(method, partial(self.documents.apply, method))
        session.on("Page.javascriptDialogOpening", self._on_dialog)
        session.on("Page.javascriptDialogClosed", self._on_dialog_closed)
        session.on("Inspector.targetCrashed", self._on_crash)
        session.on("Inspector.targetReloadedAfterCrash", self._on_recovered)
        for method in ACT_EVENTS:
            if method != _DIALOG_OPENING:  # handed to the act by _on_dialog, which needs its answer
                session.on(method, partial(self._to_act, method))
        self._follow_frames(session)

    def __repr__(self) -> str:
        doc = self.document
        return f"<Tab {self.id} {doc.url if doc else '(no document)'}>"

    @property
    def document(self) -> Document | None:
        """The main frame's current document (``serial`` changes with every new document)."""
        return self.documents.main

    def _follow_frames(self, session: Session) -> None:
        """Keep the out-of-process frames ``session`` attaches to (``FRAME_AUTO_ATTACH``)."""
        session.on("Target.attachedToTarget", self._on_frame_attached)
        session.on("Target.detachedFromTarget", self._on_frame_detached)

    def _on_frame_attached(self, params: dict[str, Any]) -> None:
        info = params["targetInfo"]
        if info.get("type") != "iframe":
            return
        session = self.browser.connection.session(params["sessionId"])
        frame = FrameTarget(info["targetId"], session, self._notify)
        for method in TRACKED_EVENTS:
            frame.session.on(method, partial(frame.documents.apply, method))
        self._follow_frames(frame.session)
        self.frame_targets[frame.target_id] = frame
        self.browser.start_soon(self._setup_frame, frame)

    async def _setup_frame(self, frame: FrameTarget) -> None:
        with suppress(CDPAgentError):
            results = await frame.session.send_batch(
                [("Page.enable", {}), ("Runtime.enable", {}), ("Page.getFrameTree", {}), FRAME_AUTO_ATTACH]
            )
            frame.documents.load_frame_tree(results[2]["frameTree"])
            self._notify()

    def _on_frame_detached(self, params: dict[str, Any]) -> None:
        for target_id, frame in list(self.frame_targets.items()):
            if frame.session.session_id == params.get("sessionId"):
                del self.frame_targets[target_id]
                self._notify()

    def _to_act(self, method: str, params: dict[str, Any]) -> None:
        handler = self.acting.get(method) if self.acting is not None else None
        if handler is not None:
            handler(params)

    def _on_dialog(self, params: dict[str, Any]) -> None:
        # The decision is cdpagent.cdp.tabstate's; the tab only carries it out. While an act
        # holds the tab, the act's handler decides under its own dialog policy.
        handler = self.acting.get(_DIALOG_OPENING) if self.acting is not None else None
        decided = handler(params) if handler is not None else None
        if isinstance(decided, tuple) and len(decided) == 2 and isinstance(decided[1], Decision):
            dialog, decision = decided
        else:
            dialog, decision = on_dialog_opening(params, acting=self.acting is not None)
        if decision is Decision.ACCEPT_LEAVING:
            self.notices.append(LEAVE_NOTICE)
            self.browser.start_soon(self._resolve_quietly, True)
        elif decision is Decision.DISMISS:
            self.browser.start_soon(self._resolve_quietly, False)
        else:
            self.dialog = dialog
            self._notify()

    def _on_dialog_closed(self, _: dict[str, Any]) -> None:
        self.dialog = None
        self._notify()

    async def _resolve_quietly(self, accept: bool) -> None:
        with suppress(CDPAgentError):
            await self.session.send("Page.handleJavaScriptDialog", {"accept": accept})

    def take_notices(self) -> list[str]:
        """The notices recorded since the last call (for example a ``beforeunload`` that was accepted)."""
        notices, self.notices = self.notices, []
        return notices

    async def resolve_dialog(self, accept: bool, prompt_text: str | None = None) -> JavaScriptDialog:
        """Accept (OK) or dismiss (Cancel) the open JavaScript dialog; returns the dialog resolved.

        ``prompt_text`` is what a ``prompt`` answers. Raises :class:`LookupError`
        when no dialog is open, and the driver's errors when the tab is gone.
        """
        dialog = self.dialog
        if dialog is None:
            raise LookupError("no JavaScript dialog is open")
        params: dict[str, Any] = {"accept": accept}
        if prompt_text is not None:
            params["promptText"] = prompt_text
        await self.session.send("Page.handleJavaScriptDialog", params)
        if self.dialog is dialog:
            self.dialog = None
            self._notify()
        return dialog

    def _on_crash(self, _: dict[str, Any]) -> None:
        self.crashed = True
        self._notify()

    def _on_recovered(self, _: dict[str, Any]) -> None:
        self.crashed = False
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def _mark_closed(self) -> None:
        self.closed = True
        self.frame_targets.clear()  # their sessions ended with the tab's
        self._notify()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        """Return once ``predicate()`` holds; it is re-checked on every tab state change.

        Raises :class:`trio.TooSlowError` after ``timeout`` seconds and
        :class:`SessionClosed` when the tab closes first.
        """
        with trio.fail_after(timeout):
            while not predicate():
                if self.closed:
                    raise SessionClosed(f"tab {self.id} was closed")
                if self.browser.connection.closed.is_set():
                    raise ConnectionClosed(self.browser.connection.close_reason)
                await self._changed.wait()

    async def wait_document(self, accept: Callable[[Document], bool], timeout: float = 30.0) -> Document:
        """Wait until there is a main document and ``accept(document)`` holds; return it.

        Raises what :meth:`wait_until` raises.
        """

        def ready() -> bool:
            doc = self.document
            return doc is not None and accept(doc)

        await self.wait_until(ready, timeout)
        doc = self.document
        assert doc is not None
        return doc

    async def wait_loaded(self, timeout: float = 30.0) -> Document:
        """Wait until the current main document fired ``load``; returns that document."""
        return await self.wait_document(lambda doc: doc.loaded, timeout)

    async def document_changed(self, serial: int, timeout: float = 30.0) -> Document:
        """Wait until the main document is no longer the one numbered ``serial``."""
        return await self.wait_document(lambda doc: doc.serial != serial, timeout)

    async def context_id(self, world: str = "", timeout: float = 30.0) -> int:
        """The execution context of ``world`` ("" = the page's own) in the current main document."""

        def ready() -> bool:
            return self.documents.context(world) is not None

        await self.wait_until(ready, timeout)
        ctx = self.documents.context(world)
        assert ctx is not None
        return ctx.id

    @recorded("navigate")
    async def navigate(self, url_or_path: str | os.PathLike[str], *, timeout: float = 30.0) -> Document:
        """Navigate the main frame and wait for the new document's ``load``.

        A same-document navigation (``#hash``) returns the current document once
        it shows the new URL. A ``beforeunload`` dialog is accepted (see :mod:`cdpagent.cdp.dialogs`).
        Everything, ``Page.navigate`` included, is bounded by ``timeout``.
        Raises :class:`NavigationError` when the browser reports a failure or the
        new document has not loaded in time.
        """
        url = to_url(url_or_path)
        deadline = trio.current_time() + timeout
        since = self._serial_now()
        try:
            result = await self.session.send("Page.navigate", {"url": url}, deadline=deadline)
        except CallTimeout:
            raise NavigationError(f"navigation to {url} did not start within {timeout:g} s") from None
        if result.get("errorText"):
            instead = bundled_instead(url) if result["errorText"] == "net::ERR_FILE_NOT_FOUND" else None
            hint = f" (the bundled example is {instead})" if instead else ""
            raise NavigationError(f"navigation to {url_or_path} failed: {result['errorText']}{hint}")
        loader = result.get("loaderId")
        if loader is None:
            # Same-document: done once the history entry is committed (the document shows the URL).
            try:
                return await self.wait_document(
                    lambda doc: doc.url == url, max(deadline - trio.current_time(), 0)
                )
            except trio.TooSlowError:
                raise NavigationError(f"navigation to {url} did not finish in time") from None
        return await self._loaded(
            lambda doc: doc.loader_id == loader, since, deadline, f"navigation to {url}"
        )

    @recorded("reload")
    async def reload(self, *, timeout: float = 30.0) -> Document:
        """Reload and wait for the new document's ``load``.

        Only the navigation this reload starts counts: the new document is matched
        by the loader id Chromium gives that navigation, so a navigation already in
        flight cannot satisfy it. A ``beforeunload`` dialog is accepted. Raises
        :class:`NavigationError` when the reloaded document has not loaded within
        ``timeout``.
        """
        deadline = trio.current_time() + timeout
        since = self._serial_now()
        started: list[str] = []

        def on_start(params: dict[str, Any]) -> None:
            main = self.documents.main_frame_id
            if params.get("frameId") == main and str(params.get("navigationType", "")).startswith("reload"):
                started.append(str(params.get("loaderId", "")))
                self._notify()

        off = self.session.on("Page.frameStartedNavigating", on_start)
        try:
            try:
                await self.session.send("Page.reload", {}, deadline=deadline)
            except CallTimeout:
                raise NavigationError(f"the reload did not start within {timeout:g} s") from None
            return await self._loaded(
                lambda doc: bool(started) and doc.loader_id == started[0], since, deadline, "the reload"
            )
        finally:
            off()

    def _serial_now(self) -> int:
        main = self.documents.main
        return main.serial if main is not None else 0

    async def _loaded(
        self, accept: Callable[[Document], bool], since: int, deadline: float, what: str
    ) -> Document:
        """The main document committed after document ``since`` that ``accept(doc)`` holds
        for, once it has loaded — even if the page navigated on since (its next document may
        commit in the same burst of events as this one's ``load``); :class:`NavigationError` late."""

        def found() -> Document | None:
            for doc in reversed(self.documents.main_documents):
                if doc.serial > since and doc.loaded and accept(doc):
                    return doc
            return None

        try:
            await self.wait_until(lambda: found() is not None, max(deadline - trio.current_time(), 0))
            document = found()
            assert document is not None
            return document
        except trio.TooSlowError:
            busy = " (a JavaScript dialog is open)" if self.dialog is not None else ""
            raise NavigationError(f"{what} did not finish loading in time{busy}") from None

    @recorded("invoke")
    async def invoke(self, method: str, args: Any = None, *, timeout: float = 30.0) -> Any:
        """Call the page's registered Page Agent API ``method`` and return its JSON value (PA-4).

        Raises :class:`cdpagent.PageApiError` with a ``PAGE_API_*`` code on failure;
        see :func:`cdpagent.runtime.invoke`.
        """
        return await _invoke(self, method, args, timeout=timeout)

    async def observe(self, options: ObserveOptions | None = None, *, timeout: float = 10.0) -> Observation:
        """The bounded observation of this tab now (OB-1…OB-6); see :func:`cdpagent.snapshot.observe`."""
        return (await self.view(options, timeout=timeout)).observation

    @recorded("observe")
    async def view(self, options: ObserveOptions | None = None, *, timeout: float = 10.0) -> ObserveResult:
        """What a model is given of this tab now: the observation, its rendered text and its tools.

        ``result.text`` is the page section of the system message and ``result.tools``
        the OpenAI function tools built from the same snapshot. Raises what
        :func:`cdpagent.snapshot.observe.observe_page` raises (``ObservationError``,
        ``SessionClosed``); while a dialog blocks the page the observation is that dialog.
        """
        return await observe_page(self, options, timeout=timeout)

    @recorded("act")
    async def act(
        self,
        action: str,
        *,
        record: str | None = None,
        text: str | None = None,
        option: str | None = None,
        checked: bool | None = None,
        input: dict[str, Any] | None = None,
        key: str | None = None,
        to: str | None = None,
        value: float | None = None,
        files: Sequence[str | os.PathLike[str]] | None = None,
        confirm: ConfirmCallback | None = None,
        unattended: bool = False,
        timeout: float = 30.0,
    ) -> Receipt:
        """Perform a declared action with trusted input and return its change receipt (OB-7, OB-8).

        The arguments are those of the ``act`` operation (:mod:`cdpagent.ops.operations`),
        the same on every surface: ``action`` is a tool name or action id (``toggle``
        with ``record="t9"``, or ``toggle@t9``); ``text`` / ``option`` / ``checked`` /
        ``key`` / ``to`` / ``value`` are the input of type / select / check / press /
        scroll / set actions, ``input`` the JSON object of a page tool (WebMCP).
        ``act("press_key", key=…)`` presses a key on whatever has the focus.
        ``files`` are attached to an upload action's file input (or the one a clicked
        button or label opens), each a regular file under the browser's ``allow_dirs``
        (``FILE_NOT_ALLOWED`` otherwise; :mod:`cdpagent.primitives.uploads`); the receipt's ``state``
        names them. The receipt of an act that starts a download waits (bounded) for it
        and says where it went (:meth:`Browser.downloaded`).
        A JavaScript dialog the act raises (``confirm``, ``prompt``, ``beforeunload``…) stays
        open: the receipt returns once it is open and says what the page asks (``asks``), and
        ``accept_dialog`` / ``dismiss_dialog`` answer it. ``unattended`` (the command line's
        ``--yes``) answers it at once instead (a ``beforeunload`` accepted, any other dismissed).
        Refusals are receipts with ``ok: false`` and a stable code, not exceptions.
        """
        paths = [os.fspath(f) for f in files] if files is not None else None
        args = ActArgs(
            action=action, record=record, text=text, option=option, checked=checked, input=input, key=key,
            to=to, value=value, files=paths,
        )  # fmt: skip
        return await self._perform(args, confirm, unattended, timeout)

    @recorded("act")
    async def perform(
        self,
        args: ActArgs,
        *,
        confirm: ConfirmCallback | None = None,
        unattended: bool = False,
        timeout: float = 30.0,
    ) -> Receipt:
        """:meth:`act` with its arguments already decoded: the one value every surface (script,
        agent, MCP) hands down to the round trip (:func:`cdpagent.act.perform.act`)."""
        return await self._perform(args, confirm, unattended, timeout)

    async def _perform(
        self, args: ActArgs, confirm: ConfirmCallback | None, unattended: bool, timeout: float
    ) -> Receipt:
        """The act, with the browser's upload policy and downloads and the dialog policy as its hooks."""
        hooks = Hooks(UploadPolicy(self.browser.allow_dirs), self.browser.downloads, unattended)
        return await _act(self, args, hooks=hooks, confirm=confirm, timeout=timeout)

    @recorded("click_at")
    async def click_at(self, x: float, y: float, *, timeout: float = 10.0) -> Receipt:
        """Click at viewport CSS pixel ``(x, y)`` (vision mode) and return the change receipt;
        see :func:`cdpagent.act.coordinates.click_at`."""
        return await _click_at(self, x, y, timeout=timeout)

    @recorded("type_at")
    async def type_at(self, x: float, y: float, text: str, *, timeout: float = 10.0) -> Receipt:
        """Click at viewport CSS pixel ``(x, y)`` and type ``text`` (vision mode); the change
        receipt; see :func:`cdpagent.act.coordinates.type_at`."""
        return await _type_at(self, x, y, text, timeout=timeout)

    @recorded("back")
    async def back(self, *, timeout: float = 30.0) -> Document:
        """Go back one entry in this tab's history (BR-1).

        See :func:`cdpagent.primitives.navigation.go_forward`.
        """
        return await go_back(self, timeout=timeout)

    @recorded("forward")
    async def forward(self, *, timeout: float = 30.0) -> Document:
        """Go forward one entry in this tab's history (BR-1); raises :class:`OperationError`
        ``NAVIGATION_FAILED`` when there is none or it does not load in time."""
        return await go_forward(self, timeout=timeout)

    @recorded("screenshot")
    async def screenshot(
        self,
        *,
        full_page: bool = False,
        target: str | None = None,
        format: ImageFormat = "png",
        quality: int | None = None,
        max_edge: int = 1568,
        timeout: float = 10.0,
    ) -> Screenshot:
        """A bounded screenshot, sensitive fields covered (BR-3).

        See :func:`cdpagent.primitives.capture.screenshot`.
        """
        return await _screenshot(
            self, full_page=full_page, target=target, format=format, quality=quality,
            max_edge=max_edge, timeout=timeout,
        )

    @recorded("pdf")
    async def pdf(self, *, landscape: bool = False, timeout: float = 30.0) -> bytes:
        """The page printed to PDF (headless only); see :func:`cdpagent.primitives.capture.pdf`."""
        return await _pdf(self, landscape=landscape, timeout=timeout)

    @recorded("wait_for")
    async def wait_for(
        self,
        *,
        text: str | None = None,
        gone: str | None = None,
        action: str | None = None,
        timeout: float = 10.0,
    ) -> ObserveResult:
        """Wait until the observation shows ``text`` / lost ``gone`` / offers ``action`` (BR-5);
        see :func:`cdpagent.primitives.waiting.wait_for`."""
        return await _wait_for(self, text=text, gone=gone, action=action, timeout=timeout)

    @recorded_sync("console")
    def console(self, limit: int = 50) -> list[ConsoleMessage]:
        """The page's last ``limit`` console messages and uncaught exceptions, oldest first (BR-5)."""
        return list(self.log.console)[-limit:] if limit > 0 else []

    @recorded_sync("network")
    def network(self, limit: int = 50) -> list[FailedRequest]:
        """The page's last ``limit`` failed requests (network errors, HTTP ≥ 400), oldest first (BR-5)."""
        return list(self.log.failed)[-limit:] if limit > 0 else []

    @recorded("close")
    async def close(self) -> None:
        """Close the tab and wait until the browser confirms it is gone."""
        if self.closed:
            return
        with suppress(ProtocolError):
            await self.session.connection.call("Target.closeTarget", {"targetId": self.target_id}, None)
        with trio.move_on_after(10):
            while not self.closed:
                await self._changed.wait()


class Browser:
    """A connected browser. Create it with :func:`launch` or :func:`connect`."""

    def __init__(
        self,
        connection: Connection,
        nursery: trio.Nursery,
        extensions: Sequence[Extension] = (),
        process: BrowserProcess | None = None,
        download_dir: Path | None = None,
        download_caps: tuple[int, int] = (MAX_DOWNLOAD_BYTES, MAX_TOTAL_BYTES),
    ) -> None:
        self.connection = connection
        self.process = process
        self._nursery = nursery
        #: Where this browser's downloads go and what they became (BR-4); None: not managed.
        self.downloads: Downloads | None = (
            Downloads(
                download_dir, self._tab_of_frame, self._tell, self._notify, self._cancel_download,
                max_bytes=download_caps[0], max_total=download_caps[1],
            )
            if download_dir is not None
            else None
        )
        self.extensions = list(extensions)
        #: Records every operation while a trace is kept (``launch(trace=PATH)``); None: no trace.
        self.tracer: Recorder | None = None
        #: The directories files may be uploaded from, resolved (:mod:`cdpagent.primitives.uploads`);
        #: none: no uploads.
        self.allow_dirs: tuple[str, ...] = ()
        self._tabs: dict[str, Tab] = {}  # by session id
        self._by_target: dict[str, Tab] = {}
        self._ready: dict[str, trio.Event] = {}
        self._setup_errors: dict[str, BaseException] = {}
        self._ids = itertools.count(1)
        self._changed = trio.Event()
        connection.closed_callbacks.append(self._on_lost)
        session = connection.browser_session
        session.on("Target.attachedToTarget", self._on_attached)
        session.on("Target.detachedFromTarget", self._on_detached)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def _on_lost(self) -> None:
        for tab in self._tabs.values():
            tab._notify()
        self._notify()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        """Return once ``predicate()`` holds; re-checked whenever a tab is ready or goes away.

        Raises :class:`trio.TooSlowError` after ``timeout`` seconds and
        :class:`ConnectionClosed` when the connection closes first.
        """
        with trio.fail_after(timeout):
            while not predicate():
                if self.connection.closed.is_set():
                    raise ConnectionClosed(self.connection.close_reason)
                await self._changed.wait()

    @property
    def tabs(self) -> list[Tab]:
        """Open tabs that are set up, in the order they were attached."""
        return [t for t in self._tabs.values() if t.ready and not t.closed]

    def tab(self, tab_id: str) -> Tab | None:
        """The open tab with id ``tab_id``, or ``None``."""
        for t in self.tabs:
            if t.id == tab_id:
                return t
        return None

    def start_soon(self, async_fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Run ``async_fn(*args)`` in the background, owned by this browser.

        For work an event handler must not wait for (handlers run in the reader);
        it is cancelled when the browser's block ends. An exception from it is a
        bug and ends the browser's block.
        """
        self._nursery.start_soon(async_fn, *args)

    async def send(self, method: str, params: Any = None) -> Any:
        """Send a browser-level command (for example ``Browser.getVersion``)."""
        return await self.connection.browser_session.send(method, params)

    def _tab_of_frame(self, frame_id: str) -> str | None:
        for tab in self._tabs.values():
            if frame_id in tab.documents.frames:
                return tab.id
        return None

    def _tell(self, tab_id: str, text: str) -> None:
        tab = self.tab(tab_id)
        if tab is not None:
            tab.notices.append(text)

    def _cancel_download(self, guid: str) -> None:
        """Ask the browser to cancel a download past its cap (:mod:`cdpagent.primitives.downloads`)."""

        async def cancel() -> None:
            with suppress(CDPAgentError):
                await self.send("Browser.cancelDownload", {"guid": guid})

        self._nursery.start_soon(cancel)

    @recorded_sync("downloads")
    def downloaded(self, limit: int = 50) -> list[Download]:
        """The last ``limit`` downloads of this browser's pages, oldest first (BR-4).

        Empty when the browser does not manage downloads (a connected browser
        without ``download_dir``).
        """
        if self.downloads is None or limit <= 0:
            return []
        return self.downloads.items[-limit:]

    async def storage_state(self, path: str | os.PathLike[str] | None = None) -> StorageState:
        """The cookies and the local storage of the open tabs' origins, in Playwright's
        ``storageState`` format, also written to ``path`` when given (BR-6); see
        :func:`cdpagent.primitives.storage.storage_state`."""
        return await _storage_state(self, path)

    async def _start(self) -> None:
        if self.downloads is not None:
            self.downloads.directory.mkdir(parents=True, exist_ok=True)
            for method, handler in self.downloads.handlers().items():
                self.connection.browser_session.on(method, handler)
            await self.send(*self.downloads.command())
        await self.send(
            "Target.setAutoAttach",
            {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True},
        )

    @recorded("open")
    async def open(
        self,
        url_or_path: str | os.PathLike[str] = "about:blank",
        *,
        timeout: float = 30.0,
        prepare: Callable[[Tab], None] | None = None,
    ) -> Tab:
        """Open a new tab, set it up, navigate it and wait for ``load``.

        ``prepare(tab)`` runs once the tab exists, before the page is loaded into
        it (a thread takes ownership there). Raises :class:`NavigationError`
        when the page cannot be loaded; the tab is closed then.
        """
        created = await self.send("Target.createTarget", {"url": "about:blank"})
        target_id = created["targetId"]
        tab = await self._wait_tab(target_id, timeout)
        if prepare is not None:
            prepare(tab)
        url = to_url(url_or_path)
        if url != "about:blank":
            try:
                await tab.navigate(url, timeout=timeout)
            except BaseException:
                with trio.CancelScope(shield=True):
                    await tab.close()
                raise
        else:
            await tab.wait_loaded(timeout)
        return tab

    async def _wait_tab(self, target_id: str, timeout: float) -> Tab:
        event = self._ready.setdefault(target_id, trio.Event())
        with trio.fail_after(timeout):
            await event.wait()
        self._ready.pop(target_id, None)
        error = self._setup_errors.pop(target_id, None)
        if error is not None:
            raise error
        tab = self._by_target.get(target_id)
        if tab is None:
            raise SessionClosed(f"target {target_id} went away while opening")
        return tab

    def _on_attached(self, params: dict[str, Any]) -> None:
        info = params["targetInfo"]
        session_id = params["sessionId"]
        if info["type"] != "page":
            self._nursery.start_soon(self._release_other, self.connection.session(session_id))
            return
        opener = self._by_target.get(info.get("openerId") or "")
        if opener is not None and self._refused(opener, session_id, info["targetId"]):
            return
        tab = Tab(self, f"tab{next(self._ids)}", info["targetId"], self.connection.session(session_id))
        if opener is not None:
            tab.opener = opener
            url = str(info.get("url") or "")
            opener.notices.append(f"the page opened tab {tab.id}" + (f" ({url[:200]})" if url else ""))
        self._tabs[session_id] = tab
        self._by_target[info["targetId"]] = tab
        self._nursery.start_soon(self._setup, tab, params.get("waitingForDebugger", False))

    def _refused(self, opener: Tab, session_id: str, target_id: str) -> bool:
        """Refuse a popup when its family is full (the decision is :mod:`cdpagent.cdp.tabstate`'s); say so."""
        root = opener
        while root.opener is not None and not root.opener.closed:
            root = root.opener
        family = 0
        for tab in self._tabs.values():
            top = tab
            while top.opener is not None and not top.opener.closed:
                top = top.opener
            family += top is root and tab is not root and not tab.closed
        if on_popup(family) is Decision.KEEP_POPUP:
            return False
        root.refused_popups += 1
        # One line, first, however many: a storm must not push everything else out of the receipt.
        opener.notices[:] = [n for n in opener.notices if not n.startswith(_REFUSED)]
        count = f"{root.refused_popups} refused: at most {MAX_POPUPS} tabs opened from one tab stay open"
        opener.notices.insert(0, f"{_REFUSED} ({count})")
        self._nursery.start_soon(self._close_refused, self.connection.session(session_id), target_id)
        return True

    async def _close_refused(self, session: Session, target_id: str) -> None:
        # Released first: a target closed while paused on start can leave its opener waiting.
        with suppress(CDPAgentError):
            await session.send("Runtime.runIfWaitingForDebugger")
        with suppress(CDPAgentError):
            await self.send("Target.closeTarget", {"targetId": target_id})

    async def _release_other(self, session: Session) -> None:
        # The session object is taken while the target is attached: made later, for a
        # target that went away meanwhile, it would never be forgotten.
        try:
            await session.send("Runtime.runIfWaitingForDebugger")
            await self.send("Target.detachFromTarget", {"sessionId": session.session_id})
        except CDPAgentError:
            pass

    async def _setup(self, tab: Tab, waiting: bool) -> None:
        batch: list[Command] = [
            ("Page.enable", {}),
            ("Runtime.enable", {}),
            ("Page.setLifecycleEventsEnabled", {"enabled": True}),
            ("Page.getFrameTree", {}),
            FRAME_AUTO_ATTACH,
            *LOG_COMMANDS,
        ]
        try:
            for extension in self.extensions:
                batch.extend(extension.setup_tab(tab))
            if waiting:
                batch.append(("Runtime.runIfWaitingForDebugger", {}))
            results = await tab.session.send_batch(batch)
            tab.documents.load_frame_tree(results[3]["frameTree"])
            tab._notify()
            await self._seed_readiness(tab)
        except CDPAgentError as exc:
            self._setup_errors[tab.target_id] = exc
        finally:
            tab.ready = True
            self._ready.setdefault(tab.target_id, trio.Event()).set()
            self._notify()

    async def _seed_readiness(self, tab: Tab) -> None:
        """Learn whether a document that existed before we attached has loaded already."""
        doc = tab.document
        if doc is None or doc.loaded:
            return
        state = await tab.session.send(
            "Runtime.evaluate", {"expression": "document.readyState", "returnByValue": True}
        )
        ready = state.get("result", {}).get("value")
        if tab.document is doc and tab.documents.mark_ready(doc, ready):
            tab._notify()

    def _on_detached(self, params: dict[str, Any]) -> None:
        session_id = params["sessionId"]
        tab = self._tabs.pop(session_id, None)
        if tab is not None:
            self._by_target.pop(tab.target_id, None)
            tab._mark_closed()
            self._notify()
