"""Run by tests/test_mcp_clients.py in *another* interpreter, one with a third-party MCP client.

``python mcp_client_check.py agents|langchain CDPAGENT`` starts ``CDPAGENT mcp`` over
stdio through that client, lists the tools, opens ``example:todos`` and observes it,
and prints one JSON line: the tool names, which of them the client made strict, and
the observation's title. It imports nothing of cdpagent (the client's own ``mcp``
package may be another major version than cdpagent's).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any


async def with_agents(command: str) -> dict[str, Any]:
    from agents.mcp import MCPServerStdio
    from agents.mcp.util import MCPUtil

    params = {"command": command, "args": ["mcp", "--eager"]}
    async with MCPServerStdio(name="cdpagent", params=params, client_session_timeout_seconds=60) as server:
        tools = await server.list_tools()
        strict = []
        for tool in tools:
            converted = MCPUtil.to_function_tool(tool, server, convert_schemas_to_strict=True)
            if converted.strict_json_schema:
                strict.append(tool.name)
        opened = await server.call_tool("open_page", {"url": "example:todos", "timeout": None})
        tab = json.loads(json.dumps(opened.structuredContent))["tabId"]
        observed = await server.call_tool("observe", {"tabId": tab, "options": None})
        title = observed.structuredContent["observation"]["identity"]["title"]
    return {"tools": sorted(t.name for t in tools), "strict": sorted(strict), "title": title}


async def with_langchain(command: str) -> dict[str, Any]:
    from langchain_mcp_adapters.client import MultiServerMCPClient

    client = MultiServerMCPClient(
        {"cdpagent": {"transport": "stdio", "command": command, "args": ["mcp", "--eager"]}}
    )
    async with client.session("cdpagent") as session:
        from langchain_mcp_adapters.tools import load_mcp_tools

        tools = await load_mcp_tools(session)
        opened = await session.call_tool("open_page", {"url": "example:todos"})
        tab = opened.structuredContent["tabId"]
        observed = await session.call_tool("observe", {"tabId": tab})
        title = observed.structuredContent["observation"]["identity"]["title"]
    return {"tools": sorted(t.name for t in tools), "strict": [], "title": title}


if __name__ == "__main__":
    which, command = sys.argv[1], sys.argv[2]
    run = with_agents if which == "agents" else with_langchain
    print(json.dumps(asyncio.run(run(command))))
