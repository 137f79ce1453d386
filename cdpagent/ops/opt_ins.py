"""The opt-in operation groups: what a surface serves only when asked (``--allow``).

Their own module so that the command line can offer them as choices without importing
the operations table and everything it reaches.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = ["OPT_INS", "OptIn"]

#: An opt-in group: ``pdf`` (the pdf tool), ``vision`` (``click_at``, ``type_at``).
OptIn = Literal["pdf", "vision"]

#: Every opt-in group, in the order the help lists them.
OPT_INS: Final[tuple[str, ...]] = get_args(OptIn)
