"""Asking the human before a ``data-agent-confirm`` action, through the MCP client.

One :class:`Confirmation` serves one ``act`` call. Its ``ask`` is the
:data:`~cdpagent.act.perform.ConfirmCallback` handed to ``act``; which way it
asks depends on the server and the client:

=====================================  ==========================================================
``--yes`` on the server                every question is answered yes (unattended runs)
client speaks 2026-07-28 + elicitation  the call answers ``input_required`` with an
                                       ``elicitation/create`` request; the client asks the user
                                       and retries the call with the answer (nothing ran yet)
older client with elicitation          an ``elicitation/create`` request while the call waits
client without elicitation             refused: ``CONFIRMATION_REQUIRED``, nothing performed
=====================================  ==========================================================

A declined or cancelled elicitation leaves ``act``'s ``CONFIRMATION_DENIED``.
"""

from __future__ import annotations

from typing import Any, Final

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ..act.perform import ConfirmRequest
from ..snapshot import codes
from ..snapshot.receipts import Receipt, error_receipt

__all__ = ["Confirmation"]

KEY: Final = "cdpagent_confirm"
"""The key of our question in ``inputRequests`` / ``inputResponses``."""
_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "confirm": {"type": "boolean", "title": "Perform this action?", "description": "true to go ahead"}
    },
    "required": ["confirm"],
}


def _accepted(result: ElicitResult | Any) -> bool:
    return (
        isinstance(result, ElicitResult)
        and result.action == "accept"
        and (result.content or {}).get("confirm") is True
    )


class Confirmation:
    """The confirmation policy of one ``act`` call (see the module table)."""

    def __init__(self, context: Context[Any, Any], mode: str) -> None:
        self._context = context
        self._mode = mode
        self.asked: ConfirmRequest | None = None
        #: Set by :meth:`settle` when the call must return ``input_required`` to ask.
        self.pending: InputRequiredResult | None = None

    @staticmethod
    def modern(context: Context[Any, Any]) -> bool:
        """Whether this call's connection speaks 2026-07-28 or later (no server-initiated requests)."""
        return context.protocol_version in MODERN_PROTOCOL_VERSIONS

    @classmethod
    def for_call(cls, context: Context[Any, Any], *, accept_all: bool) -> Confirmation:
        """The policy for a call arriving with ``context``; ``accept_all`` is the server's ``--yes``."""
        if accept_all:
            return cls(context, "yes")
        caps = context.client_capabilities
        elicitation = caps.elicitation if caps is not None else None
        if elicitation is None or (elicitation.form is None and elicitation.url is not None):
            return cls(context, "refuse")
        return cls(context, "input" if cls.modern(context) else "elicit")

    @staticmethod
    def _message(request: ConfirmRequest) -> str:
        what = f"{request.action} ({request.description})" if request.description else request.action
        return f"The page in {request.tab} asks before {what}: {request.question}"

    async def ask(self, request: ConfirmRequest) -> bool:
        """The ``ConfirmCallback``: True only when the user (or ``--yes``) said yes."""
        self.asked = request
        if self._mode == "yes":
            return True
        if self._mode == "input":
            answers = self._context.input_responses or {}
            return _accepted(answers.get(KEY))
        if self._mode == "elicit":
            try:
                answer = await self._context.session.elicit_form(
                    self._message(request), _SCHEMA, related_request_id=self._context.request_id
                )
            except MCPError:
                self._mode = "refuse"
                return False
            return _accepted(answer)
        return False

    def settle(self, receipt: Receipt) -> Receipt:
        """The receipt to return after ``act``; may set :attr:`pending` instead.

        A denial because nobody could be asked becomes ``CONFIRMATION_REQUIRED``; a
        first round on a 2026-07-28 connection becomes an ``input_required`` question.
        """
        if self.asked is None or receipt.code != codes.CONFIRMATION_DENIED:
            return receipt
        if self._mode == "input" and KEY not in (self._context.input_responses or {}):
            params = ElicitRequestFormParams(message=self._message(self.asked), requested_schema=_SCHEMA)
            self.pending = InputRequiredResult(input_requests={KEY: ElicitRequest(params=params)})
            return receipt
        if self._mode != "refuse":
            return receipt
        result = receipt.result
        assert result.action is not None and result.error is not None
        return error_receipt(
            result.action,
            codes.CONFIRMATION_REQUIRED,
            f"{self.asked.action} needs a person's confirmation ({self.asked.question}) and this MCP "
            "client cannot ask (no elicitation support). It was not performed. Ask the user; "
            "the server's --yes flag accepts confirmations for unattended runs.",
            result.error.available,
        )
