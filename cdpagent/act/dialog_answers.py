"""Acting while a JavaScript dialog blocks the page: only the dialog's own actions run.

Which act may answer the open dialog is the tab's decision (:mod:`cdpagent.cdp.tabstate`: an
alert has only OK); ``accept_dialog`` with ``text`` answers a prompt. Any other act is refused
with ``DIALOG_OPEN`` and the dialog's actions (:func:`~cdpagent.cdp.tabstate.dialog_actions`)
as what is available.
"""

from __future__ import annotations

from ..cdp.dialogs import ACCEPT, JavaScriptDialog
from ..cdp.tabstate import dialog_actions
from ..cdp.target import Target
from ..errors import CDPAgentError
from ..snapshot import codes
from ..snapshot.receipts import (
    ActionRef,
    Changes,
    Receipt,
    ValueChange,
    error_receipt,
    failure_receipt,
    ok_receipt,
)

__all__ = ["answer_dialog", "blocked"]


def blocked(ref: ActionRef, dialog: JavaScriptDialog) -> Receipt:
    """The refusal of an act that is not one of ``dialog``'s actions."""
    actions = dialog_actions(dialog)
    message = f"a {dialog.label} dialog blocks the page; {' or '.join(actions)} it first"
    return error_receipt(ref, codes.DIALOG_OPEN, message, actions)


async def answer_dialog(tab: Target, dialog: JavaScriptDialog, action: str, text: str | None) -> Receipt:
    """Answer ``dialog`` on ``tab`` with ``action``, one of its actions (``accept_dialog`` with
    ``text``: a prompt's answer), as the tab's table lets an act do.

    ``INVALID_ARGUMENT`` for text given where the dialog takes none or a prompt's answer
    missing, ``UNKNOWN_ACTION`` when the dialog went meanwhile, and the driver failures'
    codes; raises the driver's ``ConnectionClosed``.
    """
    actions = dialog_actions(dialog)
    accept = action == ACCEPT
    if text is not None and not (accept and dialog.type == "prompt"):
        return error_receipt(
            ActionRef(action), codes.INVALID_ARGUMENT, f"{action} takes no text here", actions
        )
    if accept and dialog.type == "prompt" and text is None:
        message = f"{action} needs text (the prompt's answer)"
        return error_receipt(ActionRef(action), codes.INVALID_ARGUMENT, message, actions)
    answered = ActionRef(action, "Accept the dialog (OK)" if accept else "Dismiss the dialog (Cancel)")
    try:
        await tab.resolve_dialog(accept, text)
    except LookupError:
        return error_receipt(answered, codes.UNKNOWN_ACTION, "the dialog is gone", [])
    except CDPAgentError as exc:
        return failure_receipt(answered, exc, actions)
    changed = Changes(observed=True, modal=ValueChange(dialog.label, None))
    return ok_receipt(answered, changed, tab.take_notices())
