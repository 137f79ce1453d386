"""The agent (SPEC CX-1 … CX-5): stateless model requests, bounded history, the turn loop, roles.

::

    async with cdpagent.launch() as browser, Model("gpt-4o-mini") as model:
        agent = Agent(browser, model, load_role("cdpagent/agent/roles/todos.toml"))
        result = await agent.run("把周报标记为完成")
        print(result.answer, [r.result for r in result.receipts])

This package sits above ``runtime/`` and ``snapshot/`` and imports them; they
never import it.
"""

from typing import TYPE_CHECKING

from ..lazy import exports

if TYPE_CHECKING:
    from .codes import STEP_LIMIT, ModelError
    from .history import SUMMARY_HEADER, Budgets, compact, summarise_conversation
    from .llm import Model, Reply, ToolCall
    from .loop import Agent, AgentResult, ToolRecord
    from .request import RULES, Request, assemble_request
    from .roles import MethodDoc, Role, RoleError, WakeUp, generic_role, load_role
    from .summary import ModelSummariser
    from .tokens import TokenCounter, estimate_tokens
    from .truncation import truncate_middle

__getattr__, __dir__ = exports(__name__, __file__)

__all__ = [
    "RULES",
    "STEP_LIMIT",
    "SUMMARY_HEADER",
    "Agent",
    "AgentResult",
    "Budgets",
    "MethodDoc",
    "Model",
    "ModelError",
    "ModelSummariser",
    "Reply",
    "Request",
    "Role",
    "RoleError",
    "TokenCounter",
    "ToolCall",
    "ToolRecord",
    "WakeUp",
    "assemble_request",
    "compact",
    "estimate_tokens",
    "generic_role",
    "load_role",
    "summarise_conversation",
    "truncate_middle",
]
