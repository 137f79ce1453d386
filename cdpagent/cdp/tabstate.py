"""The tab's own decisions, in one place: what it does on a dialog, a crash, a close (DR-7).

Rule 1: everything a tab decides without being asked lives here, as pure
functions of the event and the tab's facts (its open dialog, whether it crashed or
closed, whether an action is delivering input). :class:`cdpagent.browser.Tab`
only carries the decisions out (sends ``Page.handleJavaScriptDialog``, records a
notice, refuses a call); nothing here does IO, so the whole policy is unit-tested
from recorded CDP events.

Rule 2: a call the tab cannot serve is refused *before* it is sent, with the code
of :data:`cdpagent.cdp.failures.FAILURES` (the same on every surface), rather than
waiting for its deadline.

========================================  ================================================
event / call                              decision
========================================  ================================================
``beforeunload`` dialog opens             :data:`ACCEPT_LEAVING`: accept it at once (the
                                          navigation the agent or page started goes
                                          ahead) and record :data:`~.dialogs.LEAVE_NOTICE`
``alert``/``confirm``/``prompt`` opens    :data:`DISMISS`: dismiss it at once; the
while an action delivers input            receipt says so (an action never stalls on it)
``alert``/``confirm``/``prompt`` opens    :data:`KEEP_OPEN`: keep it as the tab's dialog;
any other time                            the observation shows it as a modal
dialog closes                             forget the tab's dialog
renderer crashes / reloads after a crash  the tab is crashed / no longer crashed
``invoke`` on a closed tab                refuse: closed tab (``PAGE_API_TAB_NOT_FOUND``)
``invoke`` on a crashed tab               refuse: crash (``PAGE_API_CALL_FAILED``)
``invoke`` while a dialog is open         refuse: open dialog (``PAGE_API_DIALOG_OPEN``)
``act`` on a closed / crashed tab         refuse: ``TAB_NOT_FOUND`` / ``TAB_CRASHED``
``act`` while a dialog is open            only ``accept_dialog`` / ``dismiss_dialog`` run;
                                          anything else is refused with ``DIALOG_OPEN``
``observe`` while a dialog is open        served: the dialog is the observation's modal
========================================  ================================================
"""

from __future__ import annotations

from typing import Any, Final, Literal, Protocol

from .dialogs import ACCEPT, JavaScriptDialog, opened
from .dialogs import DISMISS as DISMISS_ACTION
from .failures import Failure, failure

__all__ = [
    "ACCEPT_LEAVING",
    "DISMISS",
    "KEEP_OPEN",
    "Call",
    "DialogDecision",
    "TabFacts",
    "dialog_actions",
    "on_dialog_opening",
    "refusal",
]

DialogDecision = Literal["accept-leaving", "dismiss", "keep-open"]
"""What the tab does with a dialog that opens."""
ACCEPT_LEAVING: Final = "accept-leaving"
DISMISS: Final = "dismiss"
KEEP_OPEN: Final = "keep-open"

Call = Literal["invoke", "act", "observe"]
"""The calls whose admission the tab decides."""


class TabFacts(Protocol):
    """What the decisions read of a tab (:class:`cdpagent.browser.Tab` has them)."""

    @property
    def closed(self) -> bool:
        """The tab is gone."""
        ...

    @property
    def crashed(self) -> bool:
        """The tab's renderer crashed (and was not reloaded since)."""
        ...

    @property
    def dialog(self) -> JavaScriptDialog | None:
        """The JavaScript dialog open in the tab now."""
        ...


def on_dialog_opening(params: dict[str, Any], *, acting: bool) -> tuple[JavaScriptDialog, DialogDecision]:
    """The dialog ``Page.javascriptDialogOpening`` announces, and what to do with it.

    ``acting``: an action is delivering input to the tab now.
    """
    dialog = opened(params)
    if dialog.type == "beforeunload":
        return dialog, ACCEPT_LEAVING
    return dialog, DISMISS if acting else KEEP_OPEN


def dialog_actions(dialog: JavaScriptDialog) -> list[str]:
    """The actions that resolve ``dialog`` (an alert has only OK)."""
    return [ACCEPT] if dialog.type == "alert" else [ACCEPT, DISMISS_ACTION]


def refusal(tab: TabFacts, call: Call, action: str | None = None) -> Failure | None:
    """The failure a ``call`` (acting on ``action``) is refused with before it is sent, or ``None``.

    See the module's table; the failure's ``code`` (``invoke`` for an invoke) is
    what the caller reports.
    """
    if tab.closed:
        return failure("closed tab")
    if tab.crashed:
        return failure("crash")
    dialog = tab.dialog
    if dialog is None or call == "observe":
        return None
    if call == "act" and action in dialog_actions(dialog):
        return None
    return failure("open dialog")
