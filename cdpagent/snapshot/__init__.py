"""Observations (SPEC OB-1 … OB-6, OB-9, OB-10): snapshot, budgets, folding, rendering, tools.

``observe(tab, options)`` settles the page, collects a snapshot in the isolated
world ``cdpagent-observe`` and returns the bounded :class:`Observation`;
:func:`present` renders its Markdown page section and its ``tools`` array.
"""

from ..errors import ToolCallError
from .budget import assemble, build, present
from .model import ActionEntry, ActionLocator, Observation, Snapshot
from .openai_tools import resolve_tool_call, tools_json
from .options import ObserveOptions

__all__ = [
    "ActionEntry",
    "ActionLocator",
    "Observation",
    "ObserveOptions",
    "Snapshot",
    "ToolCallError",
    "assemble",
    "build",
    "present",
    "resolve_tool_call",
    "tools_json",
]
