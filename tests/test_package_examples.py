"""SF-2: the bundled example pages by name (``example:NAME``) and the shipped roles by name,
wherever cdpagent takes a page or a role."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import trio
from mcp.client.client import Client
from mcp_support import call_ok, text_of

import cdpagent
from cdpagent.agent import RoleError, load_role
from cdpagent.browser.bundled import bundled_instead, example_url, examples
from cdpagent.browser.tabs import to_url
from cdpagent.commandline.main import main
from cdpagent.errors import TaskFileError
from cdpagent.eval.tasks import load_tasks
from cdpagent.mcp_server.server import SurfaceConfig, open_server

NAMES = ["editor", "hello", "inventory", "todos", "webmcp", "writing"]


def test_sf2_every_bundled_example_is_listed_with_its_title() -> None:
    found = {e.name: e for e in examples()}
    assert sorted(found) == NAMES
    assert found["todos"].title == "Todos"
    assert all(Path(e.path).is_file() for e in found.values())


def test_sf2_example_names_become_file_urls_keeping_query_and_fragment() -> None:
    todos = Path(examples()[NAMES.index("todos")].path).resolve().as_uri()
    assert to_url("example:todos") == todos
    assert to_url("example:todos/index.html?rows=3#top") == todos + "?rows=3#top"
    assert example_url("examples/todos/index.html") is None
    assert example_url("https://example.com/") is None


@pytest.mark.parametrize("name", ["nope", "", "../todos", "todos/../../pyproject.toml"])
def test_sf2_an_unknown_example_lists_the_ones_there_are(name: str) -> None:
    with pytest.raises(FileNotFoundError, match="the examples are: editor, hello"):
        to_url(f"example:{name}")


def test_sf2_cdpagent_examples_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [f"example:{n}" for n in NAMES]
    assert main(["examples", "--json"]) == 0
    listed = msgspec.json.decode(capsys.readouterr().out)
    assert [e["name"] for e in listed] == NAMES


def test_cx5_a_shipped_role_loads_by_name() -> None:
    role = load_role("writing")
    assert role.name == "writing"
    assert Path(role.page) == Path(examples()[NAMES.index("writing")].path)
    with pytest.raises(RoleError, match=r"no shipped role of that name \(shipped: todos, writing\)"):
        load_role("nope")


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("examples/todos/index.html", "example:todos"),
        ("/home/me/cdpagent/examples/eval/tasks.jsonl", "example:eval/tasks.jsonl"),
        ("file:///tmp/examples/editor/index.html", "example:editor"),
        ("examples/nope/index.html", None),
        ("todos/index.html", None),
    ],
)
def test_sf2_a_checkouts_path_names_the_bundled_file(path: str, name: str | None) -> None:
    assert bundled_instead(path) == name


def test_sf2_missing_role_and_task_files_point_to_the_bundled_names(tmp_path: Path) -> None:
    with pytest.raises(RoleError, match=r"load_role\('todos'\), --role todos"):
        load_role(tmp_path / "cdpagent" / "agent" / "roles" / "todos.toml")
    with pytest.raises(TaskFileError, match=r"the bundled one is example:eval/tasks\.jsonl"):
        load_tasks(tmp_path / "examples" / "eval" / "tasks.jsonl")


async def test_sf1_browser_open_takes_an_example_name(recorded_browser: cdpagent.Browser) -> None:
    tab = await recorded_browser.open("example:editor")
    assert (await tab.invoke("read_current"))["revision"] == 1


async def test_sf3_mcp_open_page_takes_an_example_name(recorded_endpoint: str) -> None:
    async with open_server(SurfaceConfig(connect=recorded_endpoint)) as server, Client(server) as client:
        with trio.fail_after(30):
            opened = await call_ok(client, "open_page", {"url": "example:todos"})
            assert opened["url"].endswith("/todos/index.html")
            observed = await client.call_tool("observe", {"tabId": opened["tabId"]})
            assert "title: Todos" in text_of(observed)
            await call_ok(client, "close_page", {"tabId": opened["tabId"]})
