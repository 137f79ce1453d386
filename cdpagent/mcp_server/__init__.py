"""The Agent Surface: cdpagent as an MCP server (SPEC SF-3).

A surface above the cores: it imports the browser, runtime and snapshot layers;
nothing in cdpagent imports it. :func:`open_server` builds the server;
:mod:`.command` is ``cdpagent mcp`` (stdio, or streamable HTTP through :mod:`.http`).
"""

from .server import ObserveBudget, SurfaceConfig, open_server

__all__ = ["ObserveBudget", "SurfaceConfig", "open_server"]
