"""SF-2/SF-3: one version, from the package metadata, wherever cdpagent says which it is."""

from __future__ import annotations

import importlib.metadata

import pytest
from mcp.client.client import Client
from scripted_model import ScriptedModel, answer

import cdpagent
from cdpagent.agent import Model
from cdpagent.commandline.main import main
from cdpagent.mcp_server.server import open_server

INSTALLED = importlib.metadata.version("cdpagent")


def test_sf1_the_package_version_is_the_installed_distributions() -> None:
    assert cdpagent.__version__ == INSTALLED
    assert INSTALLED[0].isdigit()


def test_sf2_cdpagent_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"cdpagent {INSTALLED}\n"


async def test_sf3_mcp_initialize_reports_the_version() -> None:
    async with open_server() as server, Client(server) as client:
        info = client.server_info
        assert info is not None
        assert (info.name, info.version) == ("cdpagent", INSTALLED)


async def test_cx4_the_model_client_names_cdpagent_and_its_version() -> None:
    server = ScriptedModel([answer("done")])
    with server.running():
        async with Model("scripted", base_url=server.url, api_key="k", timeout=10) as model:
            await model.complete({"messages": [{"role": "user", "content": "hi"}]})
    assert server.headers[0]["user-agent"] == f"cdpagent/{INSTALLED}"
    assert server.headers[0]["x-title"] == "cdpagent"
