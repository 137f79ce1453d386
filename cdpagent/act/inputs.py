"""The act operation's arguments: one Struct from every surface down to the round trip.

:class:`OperationArgs` is the base of every operation's argument Struct
(:mod:`cdpagent.ops.operations`); :class:`ActArgs` is the ``act`` operation's, the one
value a surface decodes and hands to :meth:`cdpagent.browser.tabs.Tab.act`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec

__all__ = ["ACT_INPUTS", "ActArgs", "OperationArgs", "act_inputs"]


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


#: The act arguments that are the input of an action (the rest name the action).
ACT_INPUTS: Final = ("text", "option", "checked", "input", "key", "to", "value", "files")


def act_inputs(args: ActArgs) -> dict[str, Any]:
    """The input arguments ``args`` gives (those not ``None``), by name, for ``act(...)``."""
    return {name: getattr(args, name) for name in ACT_INPUTS if getattr(args, name) is not None}
