"""The action kinds, in one table: what each takes, how its tool declares it, what the page calls it.

Rule 1: a kind exists because it is a row of :data:`KINDS`. Everything that knows the
kinds reads its row, and nothing lists them again:

* the tool schemas (:func:`cdpagent.snapshot.openai_tools.tool_declaration`) take the
  row's :attr:`KindSpec.schema`, the JSON-schema properties of its argument;
* the act argument check (:mod:`cdpagent.act.perform`) takes the row's
  :attr:`KindSpec.argument`: which act argument it needs (a field of
  :class:`cdpagent.act.inputs.ActArgs`), of which type, and whether it may be left out;
* the performers (:data:`cdpagent.act.perform.PERFORMERS`) are keyed by the table and
  checked, when they are built, to cover exactly its kinds;
* the page scripts get the kinds the page performs on an element (:data:`PAGE_KINDS`) in
  the collector's options (:meth:`cdpagent.snapshot.options.ObserveOptions.collector_args`):
  ``kindOf`` in ``js/prelude.js`` accepts a declared ``data-agent-kind`` only among them,
  and no page script lists kinds of its own (``js/act.js`` is told the kind with each call).

Rule 2: :data:`Kind` is the table's key as a type (the snapshot's Structs decode a kind
through it); the module refuses to load when the two disagree.

:class:`InputSpec` is what one action's control accepts (its constraints, options,
current value); a kind's schema is written from it, so it lives here, beside the kinds.

=========  ============  ==========  ============================================
kind       argument      type        performed
=========  ============  ==========  ============================================
click      —                         a click at the element's centre
type       ``text``      string      focus, select all, typed text (dates by segment)
select     ``option``    string      the option's native selection
check      ``checked``   boolean     a click when the state differs
tool       ``input``     JSON        a page tool's call (WebMCP: no element)
hover      —                         the mouse moved over it
press      ``key``       string      the key or chord, with the element focused
scroll     ``to`` (opt)  string      wheel turns inside it
set        ``value``     number      keys, else a drag of its thumb
choose     ``option``    string      a click on the radio of that label
upload     ``files``     paths       the file input's files set
=========  ============  ==========  ============================================
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal

import msgspec

__all__ = [
    "KINDS",
    "PAGE_KINDS",
    "SCROLL_TO",
    "Argument",
    "InputSpec",
    "Kind",
    "KindSpec",
    "Schema",
    "constraint_words",
    "input_schemas",
    "key_schema",
]

Kind = Literal[
    "click", "type", "select", "check", "tool", "hover", "press", "scroll", "set", "choose", "upload"
]
"""The key of :data:`KINDS`: the kind of an action in a snapshot."""


class InputSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a type/select/check action accepts, from its declaration and the control."""

    doc: str = ""
    input_type: str = ""
    required: bool = False
    pattern: str | None = None
    min: str | None = None
    max: str | None = None
    step: str | None = None
    """A range's or slider's step (``set`` actions)."""
    minlength: int | None = None
    maxlength: int | None = None
    options: list[str] = []
    value: str | None = None
    """The current value; ``"[masked]"`` for sensitive controls."""
    checked: bool | None = None
    multiple: bool = False
    """An upload takes several files."""
    sensitive: bool = False
    read_only: bool = False
    json_schema: dict[str, Any] | None = None
    """A WebMCP tool's own input schema (``kind == "tool"``)."""


def constraint_words(spec: InputSpec) -> list[str]:
    """The input's constraints in words (shared by the text and the schema)."""
    words: list[str] = []
    if spec.required:
        words.append("required")
    if spec.input_type and spec.input_type not in (
        "text",
        "select",
        "textarea",
        "search",
        "checkbox",
        "radio",
    ):
        words.append(f"{spec.input_type} input")
    if spec.minlength is not None:
        words.append(f"at least {spec.minlength} characters")
    if spec.maxlength is not None:
        words.append(f"at most {spec.maxlength} characters")
    if spec.min is not None:
        words.append(f"min {spec.min}")
    if spec.max is not None:
        words.append(f"max {spec.max}")
    if spec.pattern is not None:
        words.append(f"must match /{spec.pattern}/")
    if spec.read_only:
        words.append("read-only")
    if spec.sensitive:
        words.append("sensitive (its value is masked)")
    return words


# -- the JSON-schema fragment of each kind's argument ------------------------------------

Schema = Callable[[InputSpec, str, bool], dict[str, Any]]
"""``(spec, doc, inferred) -> properties``: the tool's parameters for the kind's argument,
from the action's control (``doc``: its documentation, already cut; ``inferred``: the
action was read from the page, not declared, and is described in fewer words)."""

SCROLL_TO: Final = ("down", "up", "end", "start")
"""The ``to`` argument of a scroll action; the first is its default."""

_ISO_FORMATS: Final = {
    "date": "2026-12-01",
    "time": "13:45",
    "datetime-local": "2026-12-01T13:45",
    "month": "2026-12",
    "week": "2026-W49",
}
_KEY_DOC: Final = "The key or chord to press: Enter, Escape, Tab, Shift+Tab, ArrowDown, PageDown, Control+A…"


def _escaped(text: str) -> str:
    # Author text in a schema: a provider that renders it as HTML sees no tag.
    return text.replace("<", "\\u003c")


def _no_argument(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    return {}


def _text(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    words = constraint_words(spec)
    prop: dict[str, Any] = {"type": "string"}
    desc = doc or (
        "Text to type (replaces the value)." if inferred else "The text to type (replaces the current value)."
    )
    if spec.input_type in _ISO_FORMATS and "ISO" not in desc:
        desc += f" As ISO text: {_ISO_FORMATS[spec.input_type]}."
    if words:
        desc += " (" + "; ".join(words) + ")"
    prop["description"] = _escaped(desc)
    if spec.maxlength is not None:
        prop["maxLength"] = spec.maxlength
    if spec.minlength is not None:
        prop["minLength"] = spec.minlength
    elif spec.required:
        prop["minLength"] = 1
    if spec.pattern is not None:
        # HTML patterns match the whole value; JSON Schema patterns search.
        prop["pattern"] = f"^(?:{spec.pattern})$"
    return {"text": prop}


def _option(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": "string", "description": (doc or "The option to choose, by its label.")}
    if spec.options:
        prop["enum"] = list(spec.options)
    return {"option": prop}


def _checked(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    desc = doc or "true to check, false to uncheck."
    return {"checked": {"type": "boolean", "description": _escaped(desc)}}


def key_schema(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    """The ``key`` of a press action (and of the built-in press on the focus)."""
    return {"key": {"type": "string", "description": _escaped(doc or _KEY_DOC)}}


def _to(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    desc = "down or up by one page, or to the end or the start."
    return {"to": {"type": "string", "enum": list(SCROLL_TO), "description": desc}}


def _number_or_none(text: str | None) -> float | None:
    try:
        return float(text) if text is not None else None
    except ValueError:
        return None


def _value(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    prop: dict[str, Any] = {"type": "number"}
    words = []
    for bound, key, word in ((spec.min, "minimum", "min"), (spec.max, "maximum", "max")):
        number = _number_or_none(bound)
        if number is not None:
            prop[key] = number
            words.append(f"{word} {bound}")
    desc = doc or f"The value to set the {'spin button' if spec.input_type == 'spinbutton' else 'slider'} to."
    if words:
        desc += " (" + "; ".join(words) + ")"
    prop["description"] = _escaped(desc)
    return {"value": prop}


def _files(spec: InputSpec, doc: str, inferred: bool) -> dict[str, Any]:
    desc = (doc + ". " if doc else "") + "Paths of the files to attach (under a directory the user allows)."
    prop: dict[str, Any] = {"type": "array", "items": {"type": "string"}, "minItems": 1}
    prop["description"] = _escaped(desc)
    if not spec.multiple:
        prop["maxItems"] = 1
    return {"files": prop}


# -- the table -------------------------------------------------------------------------


class Argument(msgspec.Struct, frozen=True):
    """The act argument a kind takes: a field of :class:`cdpagent.act.inputs.ActArgs`."""

    name: str
    type: type
    """What a value must be (``float``: any number but a boolean)."""
    what: str
    """The type in words, for a refusal: ``a number``."""
    optional: bool = False
    """The kind has a default for it (``scroll`` goes ``down``; a page tool may take no input)."""

    def fits(self, value: Any) -> bool:
        """``value`` is of this argument's type (a boolean is no number)."""
        if isinstance(value, bool):
            return self.type is bool
        if self.type is float:
            return isinstance(value, int | float)
        return isinstance(value, self.type)


class KindSpec(msgspec.Struct, frozen=True):
    """One row of :data:`KINDS`."""

    argument: Argument | None
    """The act argument it takes besides ``record`` (None: none)."""
    schema: Schema
    """The tool parameters of that argument. A page tool's are its own input schema
    (:func:`cdpagent.snapshot.openai_tools.tool_declaration` reads it): none here."""
    on_page: bool = True
    """Performed on an element by the page's acting helper (``js/act.js``), under this
    kind's own name; a page tool (WebMCP) is a call, with no element."""


_TEXT: Final = Argument("text", str, "a string")
_OPTION: Final = Argument("option", str, "a string")

KINDS: Final[dict[Kind, KindSpec]] = {
    "click": KindSpec(None, _no_argument),
    "type": KindSpec(_TEXT, _text),
    "select": KindSpec(_OPTION, _option),
    "check": KindSpec(Argument("checked", bool, "a boolean"), _checked),
    "tool": KindSpec(Argument("input", dict, "a JSON object", optional=True), _no_argument, on_page=False),
    "hover": KindSpec(None, _no_argument),
    "press": KindSpec(Argument("key", str, "a string"), key_schema),
    "scroll": KindSpec(Argument("to", str, "a string", optional=True), _to),
    "set": KindSpec(Argument("value", float, "a number"), _value),
    "choose": KindSpec(_OPTION, _option),
    "upload": KindSpec(Argument("files", list, "a list of paths"), _files),
}
"""Every action kind, by name (see the module's table)."""

if set(KINDS) != set(typing.get_args(Kind)):  # pragma: no cover - a table and its type edited apart
    raise RuntimeError(f"KINDS and Kind disagree: {sorted(set(KINDS) ^ set(typing.get_args(Kind)))}")


def input_schemas(requests: Sequence[tuple[Kind, InputSpec, str, bool]]) -> list[dict[str, Any]]:
    """The argument properties of each ``(kind, spec, doc, inferred)``, in order: every tool
    declaration of an observation takes its input schema from this one table at once."""
    return [KINDS[kind].schema(spec, doc, inferred) for kind, spec, doc, inferred in requests]


PAGE_KINDS: Final = tuple(kind for kind, spec in KINDS.items() if spec.on_page)
"""The kinds the page performs on an element, in table order: what a page may declare with
``data-agent-kind`` (the collector is handed them in its options,
:meth:`cdpagent.snapshot.options.ObserveOptions.collector_args`)."""
