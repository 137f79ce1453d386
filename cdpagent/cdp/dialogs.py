"""JavaScript dialogs (``alert``, ``confirm``, ``prompt``, ``beforeunload``) and the runtime's policy (DR-7).

A dialog blocks its page: while it is open, nothing that runs script in the page
answers. So dialogs are tracked per tab *at all times*, not only during an
action, with one policy, readable here:

===============  ===========================================================
dialog           what happens
===============  ===========================================================
``beforeunload`` opened by a navigation or at rest: accepted at once (the
                 page is left, as the navigation asked); the tab records a
                 notice that the next result reports as a warning. Opened by
                 an action: left open, as below
``alert``,       left open and reported, whenever it opens: the observation
``confirm``,     shows it as a modal whose only actions accept or dismiss it
``prompt``       (``prompt`` takes the text), and ``invoke`` / ``act`` on
                 anything else are refused with a clear code instead of
                 waiting for their deadline. Opened by an action, the action's
                 receipt returns as soon as it is open and says what the page
                 asks (``asks``: type, message, answers)
any, opened by   under the unattended policy (``--yes``): answered at once
an action        (``beforeunload`` accepted, any other dismissed), and the
                 receipt says so
===============  ===========================================================

A dialog opened by a frame of another site (drawn by another process, with its
own session) is the tab's too: Chromium reports it on the tab's session (its
``frameId`` names the frame) and answers ``Page.handleJavaScriptDialog`` only
there ("only on top-level targets" on the frame's session), so the same policy
and the same calls hold for it.

This module is pure: it turns ``Page.javascriptDialogOpening`` parameters into a
:class:`JavaScriptDialog` and names the actions that resolve one; the tab
(:mod:`cdpagent.browser`) does the IO.
"""

from __future__ import annotations

from typing import Any, Final, Literal

import msgspec

__all__ = [
    "ACCEPT",
    "DISMISS",
    "LEAVE_NOTICE",
    "MESSAGE_MAX_CHARS",
    "JavaScriptDialog",
    "opened",
]

#: The action that accepts the open dialog (OK; for a prompt, with ``text``).
ACCEPT: Final = "accept_dialog"
#: The action that dismisses the open dialog (Cancel).
DISMISS: Final = "dismiss_dialog"
#: The warning reported after a ``beforeunload`` dialog was accepted for the agent.
LEAVE_NOTICE: Final = (
    "the page asked to confirm leaving it (beforeunload); cdpagent left it, "
    "so unsaved input on that page may be lost"
)
#: Longest dialog message kept; the rest is cut with an ellipsis.
MESSAGE_MAX_CHARS: Final = 500

DialogType = Literal["alert", "confirm", "prompt", "beforeunload"]


class JavaScriptDialog(msgspec.Struct, frozen=True):
    """An open dialog: its type, its message (page data) and, for a prompt, the default text."""

    type: DialogType
    message: str
    default_prompt: str = ""
    url: str = ""

    @property
    def label(self) -> str:
        """How the observation names the dialog as a modal: ``"JavaScript confirm"``."""
        return f"JavaScript {self.type}"


def _text(value: object, limit: int) -> str:
    text = value if isinstance(value, str) else ""
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def opened(params: dict[str, Any]) -> JavaScriptDialog:
    """The dialog that ``Page.javascriptDialogOpening`` announces; unknown types count as ``alert``."""
    kind = params.get("type")
    dialog_type: DialogType = kind if kind in ("alert", "confirm", "prompt", "beforeunload") else "alert"
    return JavaScriptDialog(
        type=dialog_type,
        message=_text(params.get("message"), MESSAGE_MAX_CHARS),
        default_prompt=_text(params.get("defaultPrompt"), MESSAGE_MAX_CHARS),
        url=_text(params.get("url"), 2000),
    )
