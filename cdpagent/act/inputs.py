"""The act operation's arguments: one Struct from every surface down to the round trip.

:class:`OperationArgs` is the base of every operation's argument Struct
(:mod:`cdpagent.ops.operations`); :class:`ActArgs` is the ``act`` operation's. A surface
decodes its arguments once into an :class:`ActArgs` (the Python ``Tab.act`` builds it
from its keywords) and that same value goes down to the round trip and the performer.
Which input argument an action takes is its kind's (:data:`cdpagent.snapshot.kinds.KINDS`):
:func:`argument_refusal` checks a call against that table.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec

from ..snapshot.kinds import KINDS, Kind

__all__ = ["ACT_INPUTS", "ActArgs", "OperationArgs", "argument_refusal", "performed_kind"]


class OperationArgs(
    msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True
):
    """Arguments of one operation: unknown names are refused, absent ones take their default."""


class ActArgs(OperationArgs, frozen=True):
    """``act``: perform one declared action. Only the input its kind takes may be given."""

    action: Annotated[str, msgspec.Meta(description="a tool name from the observation (or an action id)")]
    record: Annotated[str | None, msgspec.Meta(description="the record id, for row actions")] = None
    text: Annotated[str | None, msgspec.Meta(description="the text, for type actions")] = None
    option: Annotated[str | None, msgspec.Meta(description="the option, for select and choose actions")] = (
        None
    )
    checked: Annotated[bool | None, msgspec.Meta(description="true/false, for check actions")] = None
    input: Annotated[
        dict[str, Any] | None, msgspec.Meta(description="the JSON object a page tool (WebMCP) takes")
    ] = None
    key: Annotated[str | None, msgspec.Meta(description="a key or chord, for press actions")] = None
    to: Annotated[str | None, msgspec.Meta(description="down, up, end or start, for scroll actions")] = None
    value: Annotated[float | None, msgspec.Meta(description="a number, for set actions (sliders)")] = None
    files: Annotated[
        list[str] | None,
        msgspec.Meta(description="paths of files to attach, for upload actions (under an allowed directory)"),
    ] = None


#: The act arguments that are the input of an action (the others name the action): each is
#: the argument of one or more kinds (:data:`cdpagent.snapshot.kinds.KINDS`).
ACT_INPUTS: Final = tuple(f for f in ActArgs.__struct_fields__ if f not in ("action", "record"))


def performed_kind(kind: Kind, args: ActArgs) -> Kind:
    """The kind an act on an action of ``kind`` is performed as: ``files`` turn a click into an
    upload (a styled button or label that opens a file input)."""
    return "upload" if kind == "click" and args.files is not None else kind


def argument_refusal(tool: str, kind: Kind, args: ActArgs) -> str | None:
    """Why ``args`` do not fit an action ``tool`` of ``kind`` (its kind's row of
    :data:`~cdpagent.snapshot.kinds.KINDS`): an input argument the kind does not take, or
    its own argument missing or of the wrong type; None when they fit."""
    wanted = KINDS[performed_kind(kind, args)].argument
    extra = [f for f in ACT_INPUTS if getattr(args, f) is not None and (wanted is None or f != wanted.name)]
    if extra:
        return f"{tool} is a {kind} action and takes no {', '.join(extra)}"
    if wanted is None:
        return None
    value = getattr(args, wanted.name)
    if (value is None and wanted.optional) or wanted.fits(value):
        return None
    return f"{tool} needs {wanted.name} ({wanted.what})"
