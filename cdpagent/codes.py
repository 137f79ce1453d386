"""Every stable code cdpagent reports, and what it means (``cdpagent.codes``).

A code never changes spelling: programs (and models) branch on it. Each family
lives next to what raises it, and this namespace gathers them all:

=============================  ======================================================
family                         where it appears
=============================  ======================================================
driver failures                every surface, the same code for the same event
(:mod:`cdpagent.cdp.failures`)     (``TAB_CRASHED``, ``PAGE_CHANGED``, ``DIALOG_OPEN`` …)
Page Agent API (``PAGE_API_*``)  ``Tab.invoke`` / ``invoke_page_method`` (SPEC PA-4, PA-5)
action receipts                ``Tab.act``'s receipt ``error.code`` (SPEC OB-7, OB-8)
observation                    ``ObservationError.code`` (``COLLECT_FAILED`` …)
agent (``MODEL_*`` …)          the agent's model and its tool-call refusals (CX-4, CX-5)
surfaces                       ``script`` result lines, the MCP server's tool errors
evaluation                     ``cdpagent eval`` records and run folders (``EPISODE_*`` …)
coded exceptions               one code per class (``GRID_*``, ``ROLE_INVALID`` …)
=============================  ======================================================

:data:`MEANINGS` maps every code to its one-line meaning; the names below are the
codes themselves (``cdpagent.codes.TAB_CRASHED == "TAB_CRASHED"``).
"""

from __future__ import annotations

import ast
import inspect
from types import ModuleType
from typing import Final

from . import errors
from .agent import codes as _agent
from .agent.codes import (
    MODEL_AUTH_FAILED,
    MODEL_BAD_REPLY,
    MODEL_CONTEXT_TOO_LONG,
    MODEL_NOT_CONFIGURED,
    MODEL_NOT_FOUND,
    MODEL_RATE_LIMITED,
    MODEL_REQUEST_REJECTED,
    MODEL_SERVER_ERROR,
    MODEL_TIMEOUT,
    MODEL_UNREACHABLE,
    STEP_LIMIT,
    TOOL_ARGUMENTS_NOT_JSON,
)
from .cdp import failures
from .cdp.failures import (
    BROWSER_UNAVAILABLE,
    CALL_FAILED,
    DIALOG_OPEN,
    FAILURES,
    FILE_NOT_ALLOWED,
    NAVIGATION_FAILED,
    PAGE_CHANGED,
    TAB_CRASHED,
    TAB_NOT_FOUND,
    TIMEOUT,
)

# Re-exported one by one so that a reader (and a type checker) sees every name.
from .eval import codes as _eval
from .eval.codes import (
    EPISODE_CRASHED,
    EPISODE_TIMEOUT,
    REWARD_FAILED,
    REWARD_INVALID,
    RUN_DIR_INVALID,
    TASK_INVALID,
    TASK_SETUP_FAILED,
)
from .mcp_server import codes as _surface
from .mcp_server.codes import INVALID_ARGUMENT, TAB_LIMIT, URL_NOT_ALLOWED
from .ops import script as _script
from .ops.script import SCRIPT_STEP_FAILED, SCRIPT_STEP_INVALID
from .primitives import downloads as _downloads
from .primitives.downloads import DOWNLOAD_TOO_LARGE
from .runtime import codes as _page_api
from .runtime.codes import (
    PAGE_API_ALREADY_EXPOSED,
    PAGE_API_ARGS_INVALID,
    PAGE_API_CALL_FAILED,
    PAGE_API_CONTRACT_INVALID,
    PAGE_API_DIALOG_OPEN,
    PAGE_API_METHOD_FAILED,
    PAGE_API_METHOD_NOT_FOUND,
    PAGE_API_NOT_EXPOSED,
    PAGE_API_PAGE_CHANGED,
    PAGE_API_RESULT_NOT_JSON,
    PAGE_API_TAB_CRASHED,
    PAGE_API_TAB_NOT_FOUND,
    PAGE_API_TIMEOUT,
    PAGE_API_UNKNOWN_TOPIC,
    THREAD_NOTIFY_BAD_MESSAGE,
    THREAD_NOTIFY_DELIVERY_FAILED,
    THREAD_NOTIFY_NOT_ALLOWED,
    THREAD_NOTIFY_QUEUE_FULL,
)
from .snapshot import codes as _actions
from .snapshot.codes import (
    ACTION_FAILED,
    ACTION_UNAVAILABLE,
    COLLECT_FAILED,
    CONFIRMATION_DENIED,
    CONFIRMATION_REQUIRED,
    EXPECTATION_FAILED,
    HANDOFF_REQUIRED,
    PAGE_TOOL_SCHEMA_INVALID,
    PICKER_REQUIRED,
    RECORD_REQUIRED,
    STALE_ACTION,
    UNKNOWN_ACTION,
    UNKNOWN_OPTION,
    UNKNOWN_RECORD,
)

__all__ = [
    "ACTION_FAILED",
    "ACTION_UNAVAILABLE",
    "BIND_REFUSED",
    "BROWSER_UNAVAILABLE",
    "CALL_FAILED",
    "COLLECT_FAILED",
    "CONFIRMATION_DENIED",
    "CONFIRMATION_REQUIRED",
    "DIALOG_OPEN",
    "DOWNLOAD_TOO_LARGE",
    "EPISODE_CRASHED",
    "EPISODE_TIMEOUT",
    "EXPECTATION_FAILED",
    "FAILURES",
    "FILE_NOT_ALLOWED",
    "GRID_CAPABILITIES_REFUSED",
    "GRID_FAILED",
    "GRID_NOT_A_HUB",
    "GRID_NO_FREE_SLOT",
    "GRID_UNREACHABLE",
    "HANDOFF_REQUIRED",
    "INVALID_ARGUMENT",
    "MEANINGS",
    "MODEL_AUTH_FAILED",
    "MODEL_BAD_REPLY",
    "MODEL_CONTEXT_TOO_LONG",
    "MODEL_NOT_CONFIGURED",
    "MODEL_NOT_FOUND",
    "MODEL_RATE_LIMITED",
    "MODEL_REQUEST_REJECTED",
    "MODEL_SERVER_ERROR",
    "MODEL_TIMEOUT",
    "MODEL_UNREACHABLE",
    "NAVIGATION_FAILED",
    "PAGE_API_ALREADY_EXPOSED",
    "PAGE_API_ARGS_INVALID",
    "PAGE_API_CALL_FAILED",
    "PAGE_API_CONTRACT_INVALID",
    "PAGE_API_DIALOG_OPEN",
    "PAGE_API_METHOD_FAILED",
    "PAGE_API_METHOD_NOT_FOUND",
    "PAGE_API_NOT_EXPOSED",
    "PAGE_API_PAGE_CHANGED",
    "PAGE_API_RESULT_NOT_JSON",
    "PAGE_API_TAB_CRASHED",
    "PAGE_API_TAB_NOT_FOUND",
    "PAGE_API_TIMEOUT",
    "PAGE_API_UNKNOWN_TOPIC",
    "PAGE_CHANGED",
    "PAGE_TOOL_SCHEMA_INVALID",
    "PICKER_REQUIRED",
    "RECORD_REQUIRED",
    "REWARD_FAILED",
    "REWARD_INVALID",
    "ROLE_INVALID",
    "RUN_DIR_INVALID",
    "SCRIPT_STEP_FAILED",
    "SCRIPT_STEP_INVALID",
    "STALE_ACTION",
    "STEP_LIMIT",
    "TAB_CRASHED",
    "TAB_LIMIT",
    "TAB_NOT_FOUND",
    "TASK_INVALID",
    "TASK_SETUP_FAILED",
    "THREAD_NOTIFY_BAD_MESSAGE",
    "THREAD_NOTIFY_DELIVERY_FAILED",
    "THREAD_NOTIFY_NOT_ALLOWED",
    "THREAD_NOTIFY_QUEUE_FULL",
    "TIMEOUT",
    "TOOL_ARGUMENTS_NOT_JSON",
    "UNKNOWN_ACTION",
    "UNKNOWN_OPTION",
    "UNKNOWN_RECORD",
    "URL_NOT_ALLOWED",
    "USER_INPUT_FAILED",
    "WEBSOCKET_FRAME_INVALID",
]

#: The code of each coded exception class that has one code (see :mod:`cdpagent.errors`).
BIND_REFUSED: Final = errors.BindRefused.CODE
GRID_FAILED: Final = errors.GridError.CODE
GRID_UNREACHABLE: Final = errors.GridUnreachable.CODE
GRID_NOT_A_HUB: Final = errors.GridNotAHub.CODE
GRID_NO_FREE_SLOT: Final = errors.GridNoFreeSlot.CODE
GRID_CAPABILITIES_REFUSED: Final = errors.GridCapabilitiesRefused.CODE
ROLE_INVALID: Final = errors.RoleError.CODE
USER_INPUT_FAILED: Final = errors.UserInputError.CODE
WEBSOCKET_FRAME_INVALID: Final = errors.FrameError.CODE
_CLASS_CODES: Final = (
    errors.BindRefused,
    errors.GridError,
    errors.GridUnreachable,
    errors.GridNotAHub,
    errors.GridNoFreeSlot,
    errors.GridCapabilitiesRefused,
    errors.RoleError,
    errors.UserInputError,
    errors.FrameError,
    errors.StepError,
    errors.RunDirError,
)


def _documented(module: ModuleType) -> dict[str, str]:
    """The string constants of ``module`` with the text documenting them.

    A constant is documented by the string literal right after it or by the
    ``#:`` comment lines right above it (the two styles the code modules use).
    """
    source = inspect.getsource(module)
    lines = source.splitlines()
    found: dict[str, str] = {}
    body = ast.parse(source).body
    for i, node in enumerate(body):
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        value = node.value
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            continue
        after = body[i + 1] if i + 1 < len(body) else None
        if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            found[value.value] = " ".join(str(after.value.value).split())
            continue
        comment: list[str] = []
        row = node.lineno - 2
        while row >= 0 and lines[row].lstrip().startswith("#:"):
            comment.insert(0, lines[row].lstrip()[2:].strip())
            row -= 1
        if comment:
            found[value.value] = " ".join(comment)
    return found


def _meanings() -> dict[str, str]:
    meanings: dict[str, str] = {}
    for module in (failures, _page_api, _actions, _agent, _surface, _script, _eval, _downloads):
        for code, text in _documented(module).items():
            if code.isupper() and code not in meanings:
                meanings[code] = text
    for cls in _CLASS_CODES:
        meanings.setdefault(cls.CODE, " ".join((inspect.getdoc(cls) or "").split("\n\n")[0].split()))
    return meanings


#: Every stable code → what it means (one line).
MEANINGS: Final[dict[str, str]] = _meanings()
