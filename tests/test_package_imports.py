"""What importing cdpagent costs: the public names a package imports on first use
(:mod:`cdpagent.lazy`) all resolve, none is shadowed by a submodule of the same name, and a
fresh interpreter that imports the package, or builds the command line's parser, loads no
browser, model client or MCP server. (Times are the start-up benchmark's, never asserted.)"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cdpagent.lazy import _lazy_imports

LAZY_PACKAGES = ("cdpagent", "cdpagent.agent", "cdpagent.eval")
HEAVY = ("trio", "openai", "mcp", "cdpagent.browser", "cdpagent.agent.llm", "cdpagent.mcp_server.server")


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_every_public_name_resolves_and_none_is_a_submodule(package: str) -> None:
    module = importlib.import_module(package)
    folder = Path(module.__file__ or "").parent
    lazy = _lazy_imports((folder / "__init__.py").read_text(encoding="utf-8"))
    assert lazy, f"{package} imports nothing lazily"
    # A submodule of the same name would be returned instead of the name once imported.
    assert not {name for name in lazy if (folder / f"{name}.py").exists() or (folder / name).is_dir()}
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    assert set(lazy) <= set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="no attribute 'no_such_name'"):
        module.no_such_name  # noqa: B018


def _loaded_after(statement: str) -> list[str]:
    probe = f"import sys\n{statement}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    command = [sys.executable, "-c", probe]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("statement", "heavy"),
    [
        ("import cdpagent", HEAVY),
        ("from cdpagent.commandline.main import _parser; _parser()", (*HEAVY, "cdpagent.ops.operations")),
    ],
    ids=["import cdpagent", "the command line's parser"],
)
def test_a_fresh_start_loads_no_browser_model_client_or_mcp_server(
    statement: str, heavy: tuple[str, ...]
) -> None:
    loaded = _loaded_after(statement)
    assert [name for name in heavy if name in loaded] == []
