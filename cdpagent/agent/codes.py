"""Stable codes of the agent (SPEC CX-4, CX-5): model failures and tool-call refusals.

A :class:`ModelError` reaching the caller carries one ``MODEL_*`` code. A tool
call the agent refuses before running it is answered with a tool result whose
``error.code`` is one of the action codes of :mod:`cdpagent.snapshot.codes`
(``UNKNOWN_ACTION``, ``INVALID_ARGUMENT``) or :data:`TOOL_ARGUMENTS_NOT_JSON`.
"""

from __future__ import annotations

from typing import Final

from ..errors import ModelError

__all__ = [
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
    "STEP_LIMIT",
    "TOOL_ARGUMENTS_NOT_JSON",
    "ModelError",
]

MODEL_NOT_CONFIGURED: Final = "MODEL_NOT_CONFIGURED"
"""No model name (argument or ``CDPAGENT_MODEL``) or no base URL and key to reach one."""
MODEL_AUTH_FAILED: Final = "MODEL_AUTH_FAILED"
"""HTTP 401/403: the API key is missing, wrong or not allowed to use the model. Never retried."""
MODEL_NOT_FOUND: Final = "MODEL_NOT_FOUND"
"""HTTP 404: the server does not know the model (or the base URL is wrong)."""
MODEL_CONTEXT_TOO_LONG: Final = "MODEL_CONTEXT_TOO_LONG"
"""The server refused the request as longer than the model's context window."""
MODEL_REQUEST_REJECTED: Final = "MODEL_REQUEST_REJECTED"
"""Any other HTTP 4xx: the server refused this request; the message is the server's."""
MODEL_RATE_LIMITED: Final = "MODEL_RATE_LIMITED"
"""HTTP 429 on every try (each retry waited ``Retry-After`` or a backoff)."""
MODEL_SERVER_ERROR: Final = "MODEL_SERVER_ERROR"
"""HTTP 5xx on every try."""
MODEL_TIMEOUT: Final = "MODEL_TIMEOUT"
"""No complete answer within the configured timeout on every try."""
MODEL_UNREACHABLE: Final = "MODEL_UNREACHABLE"
"""The connection was refused or dropped before a complete answer, on every try."""
MODEL_BAD_REPLY: Final = "MODEL_BAD_REPLY"
"""The answer is not a chat completion (no choices, not JSON, a tool call without a name)."""
TOOL_ARGUMENTS_NOT_JSON: Final = "TOOL_ARGUMENTS_NOT_JSON"
"""A tool call whose ``arguments`` are not a JSON object; answered to the model as a tool result."""
STEP_LIMIT: Final = "STEP_LIMIT"
"""``AgentResult.stopped`` when the turn used all its model requests without a final answer."""
