"""The Agent Surface: cdpagent as an MCP server (SPEC SF-3).

A surface above the cores: it imports the browser, runtime and snapshot layers;
nothing in cdpagent imports it but the command line. :func:`.server.open_server`
builds the server; :mod:`.command` is ``cdpagent mcp`` (stdio, or streamable HTTP
through :mod:`.http`). Nothing is imported here so that ``cdpagent --help`` does
not load the MCP SDK.
"""
