"""WebMCP tools as actions of the observation (WM-1).

A page that registers tools with ``document.modelContext`` (see
:mod:`cdpagent.webmcp.bridge`) gets them in the same observation as its declared
actions: :func:`with_page_tools` adds a "Page tools" region and one action of
kind ``tool`` per tool, so budgets, omission counts, the rendered text, the
``tools`` array and receipts treat them like every other action. A tool's name
and description are author semantics; its input schema becomes the tool's
parameters; ``readOnly`` makes it a read, ``consequential`` asks for the user's
confirmation. What a tool returns is page data: :func:`output_text` fences it.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ..webmcp.bridge import PageTool
from ..webmcp.validation import input_problem
from .model import InputSpec, PageAction, Region, Snapshot
from .render import clean, fenced

__all__ = ["REGION", "SCHEMA_REFUSED", "output_text", "schema_problem", "schema_summary", "with_page_tools"]

#: The id of the region page tools are listed in.
REGION: Final = "page-tools"
#: A tool's description is cut like a declared one (whitespace squashed: no raw newlines).
MAX_DESCRIPTION: Final = 2000
#: How the reason of a tool whose input schema was refused at registration begins.
SCHEMA_REFUSED: Final = "its input schema is refused: "


def schema_summary(schema: dict[str, Any] | None) -> str:
    """A one-line summary of an input schema's properties (``qty (number, required)``)."""
    if not schema:
        return "takes no input"
    properties = schema.get("properties")
    if not isinstance(properties, dict) or not properties:
        return "input: a JSON object"
    required = set(schema.get("required") or [])
    parts = []
    for name, spec in properties.items():
        kind = spec.get("type") if isinstance(spec, dict) else None
        note = ", ".join(str(x) for x in (kind, "required" if name in required else None) if x)
        parts.append(f"{name} ({note})" if note else str(name))
    return "input: " + "; ".join(parts)


def _one_line(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _action(tool: PageTool, ordinal: int, order: int) -> PageAction:
    confirm = (
        f"Run the page tool {tool.name}? The page marks it as consequential." if tool.consequential else None
    )
    # A refused schema never reaches the model or the validator: the tool is listed, unavailable.
    refused = tool.schema_refusal
    schema = None if refused else tool.input_schema
    return PageAction(
        name=tool.name,
        kind="tool",
        effect="read" if tool.read_only else "write",
        description=_one_line(tool.description or tool.name, MAX_DESCRIPTION),
        region=REGION,
        region_path=[REGION],
        ordinal=ordinal,
        available=refused is None,
        reason=SCHEMA_REFUSED + refused if refused else None,
        confirm=confirm,
        input=InputSpec(doc=schema_summary(schema), json_schema=schema or {}),
        in_viewport=True,
        order=order,
    )


def with_page_tools(snapshot: Snapshot, tools: list[PageTool]) -> Snapshot:
    """``snapshot`` with ``tools`` as the actions of a "Page tools" region (unchanged without tools)."""
    if not tools:
        return snapshot
    start = max([a.order for a in snapshot.actions] + [g.order for g in snapshot.row_actions] + [0]) + 1
    seen: dict[str, int] = {}
    actions = []
    for i, tool in enumerate(tools):
        ordinal = seen.get(tool.name, 0)
        seen[tool.name] = ordinal + 1
        actions.append(_action(tool, ordinal, start + i))
    region = Region(
        id=REGION,
        label="Page tools",
        role="tools",
        purpose="tools the page registered for agents (WebMCP)",
        path=[REGION],
        in_viewport=True,
        actions_total=len(actions),
        actions_visible=len(actions),
    )
    return msgspec.structs.replace(
        snapshot,
        regions=[*snapshot.regions, region],
        regions_total=snapshot.regions_total + 1,
        actions=[*snapshot.actions, *actions],
        actions_total=snapshot.actions_total + len(actions),
    )


def output_text(output: Any, max_chars: int) -> str:
    """A tool's output as one fenced line of page data, cut to ``max_chars``."""
    text = msgspec.json.encode(output).decode() if not isinstance(output, str) else output
    return fenced(clean(text, max_chars))


def schema_problem(schema: dict[str, Any] | None, value: dict[str, Any]) -> str | None:
    """Why ``value`` does not fit ``schema`` (with the JSON path of the first offence), or ``None``.

    The validator is the one the schema's ``$schema`` names (2020-12 by default), with
    references resolved inside the schema only and patterns run on RE2
    (:func:`cdpagent.webmcp.validation.input_problem`).
    """
    return input_problem(schema, value)
