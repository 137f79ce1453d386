"""SF-3: the docs/mcp.md snippets for the OpenAI Agents SDK and LangChain's adapter, run for real.

Those clients depend on the 1.x ``mcp`` package while cdpagent is written on 2.x, so
they cannot share the test virtualenv: set ``CDPAGENT_CLIENTS_PYTHON`` to the Python of
a virtualenv with ``openai-agents`` and/or ``langchain-mcp-adapters`` installed
(``python -m venv /tmp/clients && /tmp/clients/bin/pip install openai-agents
langchain-mcp-adapters``). The client runs there (``tests/mcp_client_check.py``) and
starts this checkout's ``cdpagent mcp`` over stdio. Without it the tests skip and say
why; ``make test`` never installs those clients.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from mcp_support import CDPAGENT, TOOLS

CLIENTS_PYTHON = os.environ.get("CDPAGENT_CLIENTS_PYTHON", "")
CHECK = Path(__file__).resolve().parent / "mcp_client_check.py"


def _has(module: str) -> bool:
    if not CLIENTS_PYTHON:
        return False
    found = subprocess.run([CLIENTS_PYTHON, "-c", f"import {module}"], capture_output=True, timeout=60)
    return found.returncode == 0


CLIENTS = [("agents", "agents"), ("langchain", "langchain_mcp_adapters")]


@pytest.mark.browser
@pytest.mark.parametrize(("client", "module"), CLIENTS)
def test_sf3_a_third_party_python_client_drives_the_server(client: str, module: str) -> None:
    if not _has(module):
        pytest.skip(f"set CDPAGENT_CLIENTS_PYTHON to a Python with {module} installed (see the module doc)")
    ran = subprocess.run(
        [CLIENTS_PYTHON, str(CHECK), client, str(CDPAGENT)], capture_output=True, text=True, timeout=180
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    found = json.loads(ran.stdout.splitlines()[-1])
    assert set(found["tools"]) == TOOLS
    assert found["title"] == "Todos"
    if client == "agents":
        assert found["strict"] == sorted(TOOLS)  # no tool falls back to non-strict
