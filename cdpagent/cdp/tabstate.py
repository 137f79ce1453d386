"""The tab's own decisions, as one table: what it does on a dialog, a popup, a call (DR-7, BR-2).

Rule 1: everything a tab decides lives in :data:`DECISIONS`, one table from an event and
a fact of the tab to a :class:`Decision`, the way h11's ``_state.py`` keeps its
transitions and :mod:`.documents` its event handlers. The functions below only read it;
nothing here does IO, so the whole policy is unit-tested from recorded CDP events. Those
who carry the decisions out read the same table: :class:`cdpagent.browser.Tab` (a dialog
that opens, a call it refuses), :class:`cdpagent.browser.Browser` (a popup), acting (a
dialog's own actions; a dialog that opens while it delivers input) and the observation
(a dialog as the modal, with the actions that answer it).

Rule 2: a call the tab cannot serve is refused *before* it is sent, with the row of
:data:`cdpagent.cdp.failures.FAILURES` its decision names (the same code on every
surface), rather than waiting for its deadline.

The facts, besides the event: what the tab is doing when a dialog opens (:data:`ACTING`:
an action is delivering input and the page's question is left to the agent;
:data:`ACTING_UNATTENDED`: the same under the unattended policy, the command line's
``--yes``, which answers on its own; :data:`AT_REST`), whether a popup's family has room
(:data:`ROOM`, :data:`FULL`: :data:`MAX_POPUPS` tabs opened from one tab are open), and
for a call the tab's state (:func:`state_of`, the first that holds): :data:`CLOSED`,
:data:`CRASHED`, :data:`ALERT_OPEN`, :data:`DIALOG_OPEN` (a ``confirm`` or ``prompt``),
:data:`READY`. The facts change on the browser's events: a dialog closing forgets it, a
renderer crash and its reload set and clear ``crashed``, a detach closes the tab.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, Final, Literal, Protocol

from .dialogs import ACCEPT, JavaScriptDialog, opened
from .dialogs import DISMISS as DISMISS_ACTION
from .failures import Failure, failure

__all__ = [
    "ACCEPT_LEAVING",
    "ACTING",
    "ACTING_UNATTENDED",
    "ALERT_OPEN",
    "AT_REST",
    "BEFOREUNLOAD_OPENS",
    "CLOSED",
    "CRASHED",
    "DECISIONS",
    "DIALOG_OPEN",
    "DIALOG_OPENS",
    "DISMISS",
    "FULL",
    "INPUT_AT",
    "KEEP_OPEN",
    "MAX_POPUPS",
    "POPUP_OPENS",
    "READY",
    "ROOM",
    "Call",
    "Decision",
    "TabFacts",
    "decide",
    "dialog_actions",
    "on_dialog_opening",
    "on_popup",
    "refusal",
    "state_of",
]


class Decision(enum.StrEnum):
    """What the tab does."""

    ACCEPT_LEAVING = "accept-leaving"
    """Accept the dialog at once (the navigation the agent or page started goes ahead) and
    record :data:`~.dialogs.LEAVE_NOTICE`."""
    DISMISS = "dismiss"
    """Dismiss the dialog at once; the action's receipt says so (an action never stalls on it)."""
    KEEP_OPEN = "keep-open"
    """Keep the dialog as the tab's dialog; the observation shows it as the modal."""
    KEEP_POPUP = "keep-popup"
    """Set the new tab up like any other; its opener's next result names it."""
    REFUSE_POPUP = "refuse-popup"
    """Close the new tab at once, count it, and say so in its opener's next result."""
    SERVE = "serve"
    """Run the call."""
    ANSWER = "answer"
    """The act answers the open dialog (OK, or Cancel; a prompt's OK with its text)."""
    SHOW_DIALOG = "show-dialog"
    """Observe the dialog: it is the modal, and its actions are those the act answers with."""
    REFUSE_CLOSED = "refuse-closed"
    """Refuse the call before sending anything: the row ``closed tab``."""
    REFUSE_CRASHED = "refuse-crashed"
    """Refuse the call before sending anything: the row ``crash``."""
    REFUSE_DIALOG = "refuse-dialog"
    """Refuse the call before sending anything: the row ``open dialog`` (the dialog's own
    actions are named as the way out)."""


ACCEPT_LEAVING: Final = Decision.ACCEPT_LEAVING
DISMISS: Final = Decision.DISMISS
KEEP_OPEN: Final = Decision.KEEP_OPEN

# -- events ------------------------------------------------------------------------------
#: ``Page.javascriptDialogOpening`` of a ``beforeunload`` dialog.
BEFOREUNLOAD_OPENS: Final = "beforeunload opens"
#: ``Page.javascriptDialogOpening`` of an ``alert``, ``confirm`` or ``prompt``.
DIALOG_OPENS: Final = "dialog opens"
#: A page opened a tab (``window.open``, ``target=_blank``).
POPUP_OPENS: Final = "popup opens"
#: Input at a point of the viewport (``click_at``, ``type_at``): it cannot answer a dialog.
INPUT_AT: Final = "input at a point"
# The calls "invoke", "act" and "observe", and the act of a dialog's own actions, which
# are named by the action: dialogs.ACCEPT ("accept_dialog"), dialogs.DISMISS ("dismiss_dialog").

# -- facts -------------------------------------------------------------------------------
ACTING: Final = "acting"
ACTING_UNATTENDED: Final = "acting unattended"
AT_REST: Final = "at rest"
ROOM: Final = "room"
FULL: Final = "full"
CLOSED: Final = "closed"
CRASHED: Final = "crashed"
ALERT_OPEN: Final = "alert open"
DIALOG_OPEN: Final = "dialog open"
READY: Final = "ready"

#: At most this many tabs opened by pages (popups, ``target=_blank``) stay open per tab
#: that opened them, counting their own popups (BR-2).
MAX_POPUPS: Final = 20

_D = Decision
#: The whole policy: (event, fact) → what the tab does. Every (call, state) pair is here.
DECISIONS: Final[Mapping[tuple[str, str], Decision]] = {
    # A JavaScript dialog opens while an action delivers input to the tab (the act's receipt
    # returns once it is open and says what the page asks; the agent answers it with the
    # dialog's actions), under the unattended policy (answered at once), or at rest.
    (BEFOREUNLOAD_OPENS, ACTING): _D.KEEP_OPEN,
    (BEFOREUNLOAD_OPENS, ACTING_UNATTENDED): _D.ACCEPT_LEAVING,
    (BEFOREUNLOAD_OPENS, AT_REST): _D.ACCEPT_LEAVING,
    (DIALOG_OPENS, ACTING): _D.KEEP_OPEN,
    (DIALOG_OPENS, ACTING_UNATTENDED): _D.DISMISS,
    (DIALOG_OPENS, AT_REST): _D.KEEP_OPEN,
    # A page opens a tab; its opener's family (the tabs opened from one tab) has room, or not.
    (POPUP_OPENS, ROOM): _D.KEEP_POPUP,
    (POPUP_OPENS, FULL): _D.REFUSE_POPUP,
    # The Page Agent API's call.
    ("invoke", CLOSED): _D.REFUSE_CLOSED,
    ("invoke", CRASHED): _D.REFUSE_CRASHED,
    ("invoke", ALERT_OPEN): _D.REFUSE_DIALOG,
    ("invoke", DIALOG_OPEN): _D.REFUSE_DIALOG,
    ("invoke", READY): _D.SERVE,
    # An act on any action but a dialog's own.
    ("act", CLOSED): _D.REFUSE_CLOSED,
    ("act", CRASHED): _D.REFUSE_CRASHED,
    ("act", ALERT_OPEN): _D.REFUSE_DIALOG,
    ("act", DIALOG_OPEN): _D.REFUSE_DIALOG,
    ("act", READY): _D.SERVE,
    # The dialog's own actions (with no dialog open, an action of that name is an ordinary act).
    (ACCEPT, CLOSED): _D.REFUSE_CLOSED,
    (ACCEPT, CRASHED): _D.REFUSE_CRASHED,
    (ACCEPT, ALERT_OPEN): _D.ANSWER,
    (ACCEPT, DIALOG_OPEN): _D.ANSWER,
    (ACCEPT, READY): _D.SERVE,
    (DISMISS_ACTION, CLOSED): _D.REFUSE_CLOSED,
    (DISMISS_ACTION, CRASHED): _D.REFUSE_CRASHED,
    (DISMISS_ACTION, ALERT_OPEN): _D.REFUSE_DIALOG,  # an alert has only OK
    (DISMISS_ACTION, DIALOG_OPEN): _D.ANSWER,
    (DISMISS_ACTION, READY): _D.SERVE,
    # Input at a point (vision mode).
    (INPUT_AT, CLOSED): _D.REFUSE_CLOSED,
    (INPUT_AT, CRASHED): _D.REFUSE_CRASHED,
    (INPUT_AT, ALERT_OPEN): _D.REFUSE_DIALOG,
    (INPUT_AT, DIALOG_OPEN): _D.REFUSE_DIALOG,
    (INPUT_AT, READY): _D.SERVE,
    # An observation.
    ("observe", CLOSED): _D.REFUSE_CLOSED,
    ("observe", CRASHED): _D.REFUSE_CRASHED,
    ("observe", ALERT_OPEN): _D.SHOW_DIALOG,
    ("observe", DIALOG_OPEN): _D.SHOW_DIALOG,
    ("observe", READY): _D.SERVE,
}

#: The row of FAILURES each refusal names.
_REFUSED: Final = {
    Decision.REFUSE_CLOSED: "closed tab",
    Decision.REFUSE_CRASHED: "crash",
    Decision.REFUSE_DIALOG: "open dialog",
}

Call = Literal["invoke", "act", "observe", "input at a point"]
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


def decide(event: str, fact: str) -> Decision:
    """The row of :data:`DECISIONS` for ``event`` and ``fact``; raises :class:`KeyError` for a pair
    it does not have."""
    return DECISIONS[event, fact]


def state_of(tab: TabFacts) -> str:
    """The tab's state as the calls see it: the first of closed, crashed, an alert open, another
    dialog open, ready."""
    if tab.closed:
        return CLOSED
    if tab.crashed:
        return CRASHED
    dialog = tab.dialog
    if dialog is None:
        return READY
    return ALERT_OPEN if dialog.type == "alert" else DIALOG_OPEN


def on_dialog_opening(
    params: dict[str, Any], *, acting: bool, unattended: bool = False
) -> tuple[JavaScriptDialog, Decision]:
    """The dialog ``Page.javascriptDialogOpening`` announces, and what to do with it.

    ``acting``: an action is delivering input to the tab now; ``unattended``: that action
    runs under the unattended policy (:attr:`cdpagent.act.roundtrip.Hooks.unattended`).
    """
    dialog = opened(params)
    event = BEFOREUNLOAD_OPENS if dialog.type == "beforeunload" else DIALOG_OPENS
    fact = (ACTING_UNATTENDED if unattended else ACTING) if acting else AT_REST
    return dialog, decide(event, fact)


def on_popup(family: int) -> Decision:
    """What to do with a tab a page opened when ``family`` tabs opened from the same tab are open."""
    return decide(POPUP_OPENS, FULL if family >= MAX_POPUPS else ROOM)


def dialog_actions(dialog: JavaScriptDialog) -> list[str]:
    """The actions that answer ``dialog``: those the table lets an act answer it with."""
    state = ALERT_OPEN if dialog.type == "alert" else DIALOG_OPEN
    return [action for action in (ACCEPT, DISMISS_ACTION) if DECISIONS[action, state] is Decision.ANSWER]


def refusal(tab: TabFacts, call: Call, action: str | None = None) -> Failure | None:
    """The failure a ``call`` (an act on ``action``) is refused with before it is sent, or ``None``
    when the table serves it, answers a dialog with it, or shows the dialog.

    The failure's ``code`` (``invoke`` for an invoke) is what the caller reports.
    """
    event = action if call == "act" and action in (ACCEPT, DISMISS_ACTION) else call
    refused = _REFUSED.get(decide(event, state_of(tab)))
    return failure(refused) if refused is not None else None
