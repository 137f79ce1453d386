"""The ``tools`` array (OB-9): OpenAI function declarations from action entries.

Names come from :mod:`cdpagent.snapshot.toolnames` (legal function names, unique, kept
across a document's observations). :func:`resolve_tool_call` maps a tool call back to the original
action id and its :class:`~cdpagent.snapshot.model.ActionLocator`; the mapping
grants no permission, acting re-checks availability.

Schemas are strict: every property required, ``additionalProperties: false``,
``record`` enumerated when at most ``enum_limit`` rows are available.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec

from ..errors import ToolCallError
from . import codes
from .kinds import InputSpec, Kind, input_schemas, key_schema
from .model import MORE_TOOL, ActionEntry, ActionLocator
from .toolnames import RESERVED_TOOL_NAMES, legal_name

__all__ = [
    "PRESS_FOCUSED",
    "PRESS_FOCUSED_DESCRIPTION",
    "ToolCallError",
    "declaration_sizes",
    "more_call",
    "more_tool",
    "press_focused_tool",
    "resolve_tool_call",
    "tool_declaration",
    "tool_declarations",
    "tool_description",
    "tools_json",
]

_RENAMED: Final = "Renamed: the runtime has its own tool named {name}."
RECORD_DOC = (
    "Which row: a record id from the page data or citation records (for example, {example}). "
    "Offscreen targets are scrolled into view before execution."
)


def _cut(text: str, limit: int) -> str:
    # Page text in a description is one line: a raw newline would start a line of its own
    # wherever the provider renders the tool list.
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


INFERRED_NOTE: Final = "inferred"
"""What marks an inferred entry's tool description: ``Yes (inferred click)``."""
INFERRED_RECORD_DOC: Final = "Which row: a record id (for example, {example})."


def fold_note(entry: ActionEntry) -> str:
    """The tool description's fold note for a folded entry (in fewer words when inferred:
    the observation of a page that declares nothing is written short)."""
    short = entry.source == "inferred"
    if short:
        note = f"Row action: pass record ({entry.rows} rows"
    else:
        note = (
            "Row actions of the same type are folded into one: pass record to choose a row "
            f"({entry.rows} rows"
        )
    if entry.offscreen:
        where = ", {n} outside the viewport, scrolled to" if short else (
            "; {n} rows outside the viewport (auto-scroll before execution)"
        )
        note += where.format(n=entry.offscreen)
    note += ")."
    if entry.rows_available < entry.rows:
        note += f" Available on {entry.rows_available}" + ("." if short else f" of {entry.rows} rows.")
    return note


def tool_description(entry: ActionEntry, max_chars: int = 160) -> str:
    """``description (kind / effect / region:…)`` plus fold, confirm and hand-off notes.

    An inferred entry says ``description (inferred kind)``, its effect only when it is not
    ``write`` and its region only when it has one (inferred pages stay small).
    """
    if entry.source == "inferred":
        head = f"inferred {entry.kind}" + ("" if entry.effect == "write" else f" / {entry.effect}")
        if entry.region_path:
            head += f" / region:{_cut(entry.region, 80)}"
        text = f"{_cut(entry.description, max_chars)} ({head})"
    else:
        text = (
            f"{_cut(entry.description, max_chars)} "
            f"({entry.kind} / {entry.effect} / region:{_cut(entry.region, 80)})"
        )
    if legal_name(entry.name) in RESERVED_TOOL_NAMES:
        text += " | " + _RENAMED.format(name=legal_name(entry.name))
    if entry.folded:
        text += " | " + fold_note(entry)
    if entry.submit:
        text += " | Submits after typing."
    if entry.confirm:
        text += f" | Needs the user's confirmation ({_cut(entry.confirm, 120)})."
    if entry.handoff:
        text += (
            f" | Hand-off: a person must do this ({_cut(entry.handoff, 120)}); "
            "calling it only tells the user."
        )
    return text.replace("<", "\\u003c")


def _schema_request(entry: ActionEntry, max_chars: int) -> tuple[Kind, InputSpec, str, bool]:
    """What :func:`~cdpagent.snapshot.kinds.input_schemas` takes for ``entry``'s argument."""
    spec = entry.input or InputSpec()
    doc = _cut(spec.doc, max_chars) if spec.doc else ""
    return entry.kind, spec, doc, entry.source == "inferred"


def _input_properties(entries: list[ActionEntry], max_chars: int) -> list[dict[str, Any]]:
    """The parameters of each entry's kind's argument (:data:`cdpagent.snapshot.kinds.KINDS`)."""
    return input_schemas([_schema_request(entry, max_chars) for entry in entries])


def _page_schema(value: Any) -> Any:
    """A copy of a page's schema with ``<`` escaped in its descriptions and titles (author text)."""
    if isinstance(value, dict):
        return {
            k: v.replace("<", "\\u003c") if k in ("description", "title") and isinstance(v, str)
            else _page_schema(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_page_schema(v) for v in value]
    return value


def _tool_parameters(entry: ActionEntry) -> tuple[dict[str, Any], bool]:
    """A WebMCP tool's parameters (its own input schema) and whether they can be strict.

    Strict mode needs an object schema whose every property is required and which
    admits no other property; a schema that makes some properties optional keeps
    them optional, and the declaration is then not strict.
    """
    schema = _page_schema((entry.input.json_schema if entry.input else None) or {})
    if schema.get("type", "object") != "object":
        return schema, False
    params: dict[str, Any] = {"type": "object", "properties": {}, **schema}
    params.setdefault("additionalProperties", False)
    properties = params["properties"] if isinstance(params["properties"], dict) else {}
    required = params.get("required") or []
    strict = params["additionalProperties"] is False and set(required) == set(properties)
    if not properties:
        params["required"] = []
    return params, strict


def tool_declaration(entry: ActionEntry, max_chars: int = 160) -> dict[str, Any]:
    """One OpenAI function declaration for ``entry`` (strict JSON Schema where it can be)."""
    return _declaration(entry, max_chars, _input_properties([entry], max_chars)[0])


def _declaration(entry: ActionEntry, max_chars: int, argument: dict[str, Any]) -> dict[str, Any]:
    """:func:`tool_declaration` with ``argument``, the properties of ``entry``'s kind's argument."""
    if entry.kind == "tool":
        parameters, strict = _tool_parameters(entry)
        return {
            "type": "function",
            "function": {
                "name": entry.tool,
                "description": tool_description(entry, max_chars),
                "parameters": parameters,
                "strict": strict,
            },
        }
    properties: dict[str, Any] = {}
    if entry.folded:
        example = _cut(entry.sample[0], 40) if entry.sample else "an id"
        doc = INFERRED_RECORD_DOC if entry.source == "inferred" else RECORD_DOC
        record: dict[str, Any] = {
            "type": "string",
            "description": doc.format(example=example).replace("<", "\\u003c"),
        }
        if entry.record_enum is not None:
            record["enum"] = list(entry.record_enum)
        properties["record"] = record
    description = tool_description(entry, max_chars)
    properties.update(argument)
    return {
        "type": "function",
        "function": {
            "name": entry.tool,
            "description": description,
            "parameters": {
                "type": "object",
                "properties": properties,
                "required": list(properties),
                "additionalProperties": False,
            },
            "strict": True,
        },
    }


PRESS_FOCUSED: Final = "press_key"
"""The built-in action that presses ``key`` on whatever has the focus (no page element named);
``act`` performs it when the page has no action of that name."""
PRESS_FOCUSED_DESCRIPTION: Final = (
    "Press a key or chord on whatever has the focus now (Escape closes a popup or menu, "
    "Tab moves the focus, Enter submits)"
)


def tool_declarations(
    entries: list[ActionEntry], max_chars: int = 160, more: list[ActionEntry] | None = None
) -> list[dict[str, Any]]:
    """:func:`tool_declaration` of each of ``entries``, in order (what a budget measures at once),
    then :func:`more_tool` of ``more`` when there are any."""
    arguments = _input_properties(entries, max_chars)
    tools = [_declaration(e, max_chars, a) for e, a in zip(entries, arguments, strict=True)]
    if more:
        tools.append(more_tool(more))
    return tools


def more_tool(more: list[ActionEntry]) -> dict[str, Any]:
    """The declaration of :data:`~cdpagent.snapshot.model.MORE_TOOL`: ``control`` is one of the
    tool names of ``more`` (controls past the action budget, each a click that takes no
    argument); the call is the same as calling that name (:func:`more_call`)."""
    return {
        "type": "function",
        "function": {
            "name": MORE_TOOL,
            "description": (
                "Click one of the page's controls listed by name only (not as tools of their own)."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "control": {
                        "type": "string",
                        "description": "the control's name",
                        "enum": [e.tool for e in more],
                    }
                },
                "required": ["control"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    }


def more_call(arguments: Mapping[str, Any]) -> str:
    """The tool name a :data:`~cdpagent.snapshot.model.MORE_TOOL` call with ``arguments``
    names. Raises :class:`ToolCallError` (``INVALID_ARGUMENT``) unless ``arguments`` is
    ``{"control": <non-empty string>}``."""
    if set(arguments) != {"control"}:
        given = sorted(arguments)
        raise ToolCallError(codes.INVALID_ARGUMENT, f"{MORE_TOOL} takes only control, not {given}")
    control = arguments["control"]
    if not isinstance(control, str) or not control:
        raise ToolCallError(codes.INVALID_ARGUMENT, f"{MORE_TOOL}: control must be a control's name")
    return control


def declaration_sizes(entries: list[ActionEntry], max_chars: int = 160) -> list[int]:
    """The characters (not bytes) of each entry's :func:`tool_declaration` as compact JSON
    (what the tools budget counts), each declaration measured and let go."""
    encode = msgspec.json.encode
    arguments = _input_properties(entries, max_chars)
    declarations = map(_declaration, entries, [max_chars] * len(entries), arguments)
    return [len(encode(declaration).decode()) for declaration in declarations]


def tools_json(tools: list[dict[str, Any]]) -> str:
    """The tools array as compact JSON text (what the character bound measures, as
    :func:`declaration_sizes` measures each declaration)."""
    return msgspec.json.encode(tools).decode()


def press_focused_tool() -> dict[str, Any]:
    """The function declaration of :data:`PRESS_FOCUSED` (the agent offers it beside the page's)."""
    return {
        "type": "function",
        "function": {
            "name": PRESS_FOCUSED,
            "description": f"{PRESS_FOCUSED_DESCRIPTION} (built in).",
            "parameters": {
                "type": "object",
                "properties": key_schema(InputSpec(), "", False),
                "required": ["key"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    }


def resolve_tool_call(
    entries: list[ActionEntry], tool: str, record: str | None = None
) -> tuple[ActionEntry, ActionLocator]:
    """Map a tool call back to its entry and the locator of the original action.

    ``toggle`` with ``record="t9"`` → the ``toggle`` entry and the locator whose
    ``id`` is ``toggle@t9``. Unavailable entries resolve too (the caller reports
    why they cannot run). Raises :class:`ToolCallError` with ``UNKNOWN_ACTION``
    when no entry has that tool name, ``RECORD_REQUIRED`` when a folded entry is
    called without a record.
    """
    for entry in entries:
        if entry.tool == tool:
            if entry.folded and not record:
                raise ToolCallError(
                    codes.RECORD_REQUIRED, f"{tool} is a row action: pass record (a record id)"
                )
            return entry, entry.locator(record if entry.folded else None)
    raise ToolCallError(codes.UNKNOWN_ACTION, f"no action named {tool!r} on this page")
