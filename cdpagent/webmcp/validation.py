"""Page-supplied JSON Schemas, checked once and applied without side effects (WM-1).

A WebMCP tool's ``inputSchema`` is page data. Applying it must never make this
process do something on the page's behalf, so the rules are:

1. **No retrieval.** References resolve only inside the schema itself: the
   registry's ``retrieve`` refuses every URI, so an ``http:`` or ``file:``
   ``$ref`` can neither send a request nor read a file (jsonschema's deprecated
   automatic retrieval is never reached).
2. **Decided once.** :func:`schema_refusal` runs when the tool is registered: a
   schema that is not valid JSON Schema, a ``$ref`` that points outside it or
   resolves to nothing (or to something that is not a schema), and a
   ``pattern`` a linear-time engine cannot run, a schema over
   :data:`MAX_SCHEMA_CHARS`, and a property name with control characters
   (it would break the observation's lines) or over 64 characters are refusals. The tool stays
   listed but cannot be called (``PAGE_TOOL_SCHEMA_INVALID``).
3. **Linear time.** ``pattern`` and ``patternProperties`` run on RE2
   (``google-re2``), whose matching time is linear in the input: no page pattern
   can backtrack on the event loop. Without RE2 a schema with a pattern is
   refused rather than run on Python's backtracking engine.

Refusal and problem texts name keywords and JSON paths, cut short; they never
quote what a reference pointed to.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final, cast

import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema import exceptions, validators
from jsonschema.protocols import Validator
from referencing._core import Resolver

try:
    import re2
except ImportError:  # no wheel for this platform: patterns are refused (rule 3)
    re2 = None

__all__ = ["HAVE_RE2", "MAX_SCHEMA_CHARS", "input_problem", "schema_refusal"]

#: Whether page patterns can be checked (RE2 is installed).
HAVE_RE2: Final = re2 is not None
#: The largest schema accepted, in characters of JSON (a tool's schema is far smaller; the
#: observation's budgets count what the model sees of it).
MAX_SCHEMA_CHARS: Final = 16_000
_MAX_PATTERN: Final = 1000
#: Keywords whose values are data (instances), not subschemas: a ``$ref`` or
#: ``pattern`` key inside them is not a keyword.
_DATA_KEYWORDS: Final = frozenset({"enum", "const", "default", "examples", "example"})
#: Keywords whose values map *names* to subschemas.
_NAMED_SUBSCHEMAS: Final = frozenset(
    {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)


def _refuse_retrieval(uri: str) -> referencing.Resource[Any]:
    raise referencing.exceptions.NoSuchResource(ref=uri)  # type: ignore[call-arg]


_NO_RETRIEVAL: Final[referencing.Registry[Any]] = referencing.Registry(
    retrieve=_refuse_retrieval  # type: ignore[call-arg]
)
_UNRESOLVABLE: Final = (referencing.exceptions.Unresolvable, RecursionError)


def _cut(text: str, limit: int = 120) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _path(parts: tuple[str | int, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{_cut(p, 40)}" for p in parts)


_Path = tuple[str | int, ...]


def _walk(schema: Any, at: _Path = ()) -> Iterator[tuple[_Path, dict[str, Any]]]:
    """Every subschema (a dict) of ``schema`` with its path, data keywords skipped."""
    if not isinstance(schema, dict):
        return
    yield at, schema
    for key, value in schema.items():
        if key in _DATA_KEYWORDS:
            continue
        if key in _NAMED_SUBSCHEMAS and isinstance(value, dict):
            for name, sub in value.items():
                yield from _walk(sub, (*at, key, str(name)))
        elif isinstance(value, dict):
            yield from _walk(value, (*at, key))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _walk(sub, (*at, key, i))


def _validator_class(schema: dict[str, Any]) -> type[Validator]:
    base = validators.validator_for(schema, default=validators.Draft202012Validator)
    extended = validators.extend(base, {"pattern": _pattern, "patternProperties": _pattern_properties})  # type: ignore[no-untyped-call]
    return cast(type[Validator], extended)


def _search(pattern: str, text: str) -> bool:
    assert re2 is not None  # schemas with patterns are refused without RE2
    return re2.search(pattern, text) is not None


def _pattern(validator: Any, pattern: Any, instance: Any, _: Any) -> Iterator[exceptions.ValidationError]:
    if validator.is_type(instance, "string") and not _search(pattern, instance):
        text = f"{_cut(repr(instance), 60)} does not match {_cut(repr(pattern), 60)}"
        yield exceptions.ValidationError(text)


def _pattern_properties(
    validator: Any, patterns: Any, instance: Any, schema: Any
) -> Iterator[exceptions.ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for name, value in instance.items():
            if _search(pattern, name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def _pattern_refusal(pattern: Any, at: str) -> str | None:
    if not isinstance(pattern, str):
        return None  # the meta-schema check reports it
    if re2 is None:
        return f"the pattern at {at} cannot be checked here (google-re2 is not installed)"
    if len(pattern) > _MAX_PATTERN:
        return f"the pattern at {at} is longer than {_MAX_PATTERN} characters"
    try:
        re2.compile(pattern)
    except re2.error:
        return f"the pattern at {at} uses what a linear-time engine cannot run (backreferences, lookaround)"
    return None


def schema_refusal(schema: dict[str, Any] | None) -> str | None:
    """Why the page's ``schema`` cannot be applied (a short reason naming a path), or ``None``.

    Decided once, when the tool is registered: an invalid schema, a ``$ref`` (or
    ``$dynamicRef``) that does not resolve inside the schema or resolves to a
    non-schema, and a pattern RE2 cannot run are refusals (rules 1–3). Never
    retrieves anything and never raises for any JSON value.
    """
    if not schema:
        return None
    try:
        return _refusal(schema)
    except RecursionError:
        return "it is nested too deeply to be checked"
    except Exception as error:  # page data must never break the event handler that registers it
        return f"it cannot be checked ({type(error).__name__})"


def _refusal(schema: dict[str, Any]) -> str | None:
    size = len(json.dumps(schema, ensure_ascii=False, default=str))
    if size > MAX_SCHEMA_CHARS:
        return f"it is {size} characters of JSON, more than {MAX_SCHEMA_CHARS}"
    try:
        cls = _validator_class(schema)
        cls.check_schema(schema)
    except exceptions.SchemaError as bad:
        return f"it is not valid JSON Schema (at {_path(tuple(bad.absolute_path))}: {_cut(bad.message)})"
    except _UNRESOLVABLE:
        return "its meta-schema cannot be resolved"
    resolver = _resolver(cls, schema)
    for at, sub in _walk(schema):
        for keyword in ("$ref", "$dynamicRef", "$recursiveRef"):
            ref = sub.get(keyword)
            if not isinstance(ref, str):
                continue
            try:
                target = resolver.lookup(ref).contents
            except (referencing.exceptions.Unresolvable, referencing.exceptions.Unretrievable):
                return f"the {keyword} at {_path(at)} does not resolve inside the schema (nothing is fetched)"
            except Exception:  # a malformed URI or pointer is page data too
                return f"the {keyword} at {_path(at)} is malformed"
            if not isinstance(target, dict | bool):
                return f"the {keyword} at {_path(at)} points to something that is not a schema"
        names = sub.get("properties")
        for name in names if isinstance(names, dict) else ():
            if not isinstance(name, str) or not name.isprintable() or len(name) > 64:
                return (
                    f"a property name at {_path(at)} is longer than 64 characters or holds control characters"
                )
        for pattern in [sub.get("pattern"), *(sub.get("patternProperties") or {})]:
            refusal = _pattern_refusal(pattern, _path(at)) if pattern is not None else None
            if refusal is not None:
                return refusal
    return None


def _resolver(cls: type[Validator], schema: dict[str, Any]) -> Resolver[Any]:
    dialect = getattr(cls, "META_SCHEMA", {}).get("$id", "")
    spec = referencing.jsonschema.specification_with(dialect, default=referencing.jsonschema.DRAFT202012)
    resource = spec.create_resource(schema)
    return _NO_RETRIEVAL.resolver_with_root(resource)


def input_problem(schema: dict[str, Any] | None, value: dict[str, Any]) -> str | None:
    """Why ``value`` does not fit ``schema`` (the JSON path of the first offence), or ``None``.

    ``schema`` must have passed :func:`schema_refusal`. References resolve only
    inside it and patterns run on RE2; a reference that still fails while
    validating is reported as a problem of the schema, never raised.
    """
    if not schema:
        return None if not value else "must be empty: the tool takes no input"
    cls = _validator_class(schema)
    try:
        first = exceptions.best_match(cls(schema, registry=_NO_RETRIEVAL).iter_errors(value))
    except _UNRESOLVABLE:
        return "cannot be checked: the page's schema does not resolve"
    if first is None:
        return None
    return f"at {_path(tuple(first.absolute_path))}: {first.message[:200]}"
