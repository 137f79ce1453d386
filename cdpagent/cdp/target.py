"""The seam between the driver and the cores: what a tab and a browser offer them.

The Page Agent API (``cdpagent.runtime``) and the observation (``cdpagent.snapshot``)
are functions over a small target interface, the way chromedp's actions are
functions over a target: they import this module, never :mod:`cdpagent.browser`,
which composes them. :class:`Target` and :class:`Host` are structural
(``typing.Protocol``): :class:`cdpagent.browser.Tab` and
:class:`cdpagent.browser.Browser` satisfy them without naming them.

:class:`Extension` is how a core prepares every new tab before its first script
runs (DR-3): it registers event handlers and returns the :data:`Command` list the
driver sends, in one ordered batch, while the target is still paused.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar

import trio

from .connection import Command, Session
from .dialogs import JavaScriptDialog
from .documents import Document, DocumentTracker

# Acting still imports the page-function caller from here until it moves to .world.
from .world import call_function

__all__ = [
    "ACT_EVENTS",
    "ActWatch",
    "Command",
    "Extension",
    "FrameTarget",
    "Host",
    "TabT",
    "Target",
    "call_function",
]


ACT_EVENTS: Final = (
    "Runtime.exceptionThrown",
    "Page.frameRequestedNavigation",
    "Page.frameStartedNavigating",
    "Page.frameStartedLoading",
    "Page.frameStoppedLoading",
    "Page.javascriptDialogOpening",
)
"""The events of a tab's page an act watches while it holds the tab (``Target.acting``): the
tab subscribes to them once and hands each to the act holding it, if any. The act's handler
of ``Page.javascriptDialogOpening`` returns what :func:`cdpagent.cdp.tabstate.on_dialog_opening`
decided under the act's dialog policy, and the tab carries that decision out."""

ActWatch = Mapping[str, Callable[[dict[str, Any]], object]]
"""An act's handlers of :data:`ACT_EVENTS`, by event."""


class FrameTarget:
    """A frame of a tab that another renderer process draws (another site), attached
    through its own session (OB-11): its frame tree and execution contexts, and the
    page scripts installed in it. Its main frame's id is ``target_id``."""

    def __init__(self, target_id: str, session: Session, on_change: Callable[[], None] | None = None) -> None:
        self.target_id = target_id
        self.session = session
        self.documents = DocumentTracker(on_change)
        self.installed: set[str] = set()


class Target(Protocol):
    """One page target (a tab), as the cores use it.

    ``installed`` names the page scripts an extension has already installed in
    this tab; ``input_lock`` serialises everything that delivers input to it;
    ``dialog`` is the JavaScript dialog open in it now (:mod:`cdpagent.cdp.dialogs`);
    ``acting``: the handlers of the act that holds the lock and may deliver input, or
    ``None`` (while an act holds it, a dialog that opens is decided by the act's policy,
    :mod:`cdpagent.cdp.tabstate`, and the tab hands the act each of :data:`ACT_EVENTS`).
    """

    id: str
    target_id: str
    session: Session
    documents: DocumentTracker
    frame_targets: dict[str, FrameTarget]
    """Out-of-process frames of this tab (and of those frames), by target id."""
    closed: bool
    crashed: bool
    installed: set[str]
    input_lock: trio.Lock
    dialog: JavaScriptDialog | None
    acting: ActWatch | None

    @property
    def browser(self) -> Host[Target]:
        """The browser this tab belongs to."""
        ...

    @property
    def opener(self) -> Target | None:
        """The tab whose page opened this one (a popup), if any."""
        ...

    @property
    def document(self) -> Document | None:
        """The main frame's current document."""
        ...

    async def wait_loaded(self, timeout: float = 30.0) -> Document:
        """Wait until the current main document fired ``load``; returns that document."""
        ...

    async def document_changed(self, serial: int, timeout: float = 30.0) -> Document:
        """Wait until the main document is no longer the one numbered ``serial``."""
        ...

    async def context_id(self, world: str = "", timeout: float = 30.0) -> int:
        """The execution context of ``world`` ("" = the page's own) in the current main document."""
        ...

    async def close(self) -> None:
        """Close the tab."""
        ...

    def take_notices(self) -> list[str]:
        """What the runtime did on its own since the last call, as warnings to report."""
        ...

    async def resolve_dialog(self, accept: bool, prompt_text: str | None = None) -> JavaScriptDialog:
        """Accept or dismiss the open JavaScript dialog; raises :class:`LookupError` when none is open."""
        ...

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 30.0) -> None:
        """Return once ``predicate()`` holds; re-checked on every change of the tab's state."""
        ...


TabT = TypeVar("TabT", bound=Target, covariant=True)
"""The concrete tab type of a :class:`Host` (:class:`cdpagent.browser.Tab` for a real browser)."""


class Host(Protocol[TabT]):
    """The browser, as the cores use it; its tabs are of type ``TabT``."""

    @property
    def extensions(self) -> Sequence[Extension]:
        """The extensions every new tab is set up with."""
        ...

    @property
    def tabs(self) -> Sequence[TabT]:
        """Open tabs that are set up."""
        ...

    def tab(self, tab_id: str) -> TabT | None:
        """The open tab with id ``tab_id``, or ``None``."""
        ...

    async def send(self, method: str, params: Any = None) -> Any:
        """Send a browser-level command and return its decoded result."""
        ...

    def start_soon(self, async_fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Run ``async_fn(*args)`` in the background, owned by the browser."""
        ...

    async def open(
        self,
        url_or_path: str | os.PathLike[str],
        *,
        timeout: float = 30.0,
        prepare: Callable[[TabT], None] | None = None,
    ) -> TabT:
        """Open a new tab (``prepare`` runs before the page loads) and wait for ``load``."""
        ...


class Extension(Protocol):
    """Something that prepares every new tab before its first script runs."""

    def setup_tab(self, tab: Target) -> Sequence[Command]:
        """Called once per new tab while its target is paused.

        Register event handlers on ``tab.session`` here, and return the commands
        (``Runtime.addBinding``, ``Page.addScriptToEvaluateOnNewDocument``, …)
        that must run before the tab's first script. The driver sends every
        extension's commands in one ordered batch and only then releases the
        target: a paused target may answer nothing until it is released, so
        setup cannot wait for replies one by one.
        """
        ...
