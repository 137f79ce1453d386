"""The MCP server's defaults that ``cdpagent mcp --help`` shows.

Their own module so that the command line can show them without importing the server
(and Trio with it).
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_MAX_TABS"]

#: Open tabs one MCP session may hold (``--max-tabs``).
DEFAULT_MAX_TABS: Final = 16
