"""Imports point down only: the layers of ``scripts/import_graph.py`` hold for the package.

The same check prints the graph for a person: ``python scripts/import_graph.py``.
"""

from __future__ import annotations

from pathlib import Path

from scripts_support import load_script

ROOT = Path(__file__).resolve().parent.parent


graph = load_script("import_graph")


def _tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


CLEAN = {
    "cdpagent/__init__.py": "from .browser import Browser\n",
    "cdpagent/errors.py": "",
    "cdpagent/cdp/target.py": "from .errors import CDPAgentError\n",
    "cdpagent/browser/tabs.py": "from .runtime.invoke import invoke\nfrom .snapshot import observe\n",
    "cdpagent/runtime/__init__.py": "",
    "cdpagent/runtime/invoke.py": "from ..target import Target\nfrom . import codes\n",
    "cdpagent/runtime/codes.py": "from ..errors import PageApiError\n",
    "cdpagent/snapshot/__init__.py": "from .observe import observe\n",
    "cdpagent/snapshot/observe.py": "from ..target import Target\n",
}


def _problems(root: Path, **changed: str) -> list[str]:
    """The violations of the clean fixture tree with some files replaced (``a__b_py`` = ``a/b.py``)."""
    files = dict(CLEAN)
    files.update({name.replace("__", "/").replace("_py", ".py"): text for name, text in changed.items()})
    return list(graph.violations(graph.build_graph(_tree(root, files))))


def test_the_package_imports_point_down_only() -> None:
    assert graph.violations(graph.build_graph(ROOT)) == []


def test_a_clean_fixture_tree_passes(tmp_path: Path) -> None:
    assert _problems(tmp_path) == []


def test_an_upward_import_fails_even_under_type_checking(tmp_path: Path) -> None:
    text = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..browser.tabs import Tab\n"
    problems = _problems(tmp_path, cdpagent__runtime__invoke_py=text)
    assert "cdpagent.runtime.invoke imports cdpagent.browser.tabs, a higher layer" in problems


def test_an_import_inside_a_function_counts_too(tmp_path: Path) -> None:
    text = "def f() -> None:\n    import cdpagent.browser.tabs\n"
    problems = _problems(tmp_path, cdpagent__snapshot__observe_py=text)
    assert "cdpagent.snapshot.observe imports cdpagent.browser.tabs, a higher layer" in problems


def test_peers_of_one_layer_never_import_each_other(tmp_path: Path) -> None:
    problems = _problems(tmp_path, cdpagent__runtime__invoke_py="from ..snapshot.observe import observe\n")
    assert "cdpagent.runtime.invoke imports cdpagent.snapshot.observe, a peer of the same layer" in problems


def test_cycles_inside_a_group_are_found(tmp_path: Path) -> None:
    problems = _problems(tmp_path, cdpagent__runtime__codes_py="from .invoke import invoke\n")
    assert any(p.startswith("import cycle:") and "cdpagent.runtime.codes" in p for p in problems)


def test_a_module_outside_every_layer_is_named(tmp_path: Path) -> None:
    problems = _problems(tmp_path, cdpagent__utils_py="")
    assert "cdpagent.utils: its group 'utils' is in no layer of LAYERS" in problems


def test_a_folder_outside_every_layer_is_named(tmp_path: Path) -> None:
    problems = _problems(tmp_path, cdpagent__helpers__misc_py="")
    assert "cdpagent.helpers.misc: its group 'helpers' is in no layer of LAYERS" in problems


def test_the_layers_are_the_folders_of_the_package() -> None:
    """Every folder of the package is a layer group, and every group of LAYERS exists."""
    package = ROOT / "cdpagent"
    folders = {p.parent.name for p in package.glob("*/__init__.py")}
    modules = {p.stem for p in package.glob("*.py")} - {"__init__"}
    named = {group for layer in graph.LAYERS for group in layer}
    assert named == folders | modules


def test_the_eval_runner_sits_above_the_agent_and_the_pool_and_below_the_cli(tmp_path: Path) -> None:
    rank = {group: i for i, layer in enumerate(graph.LAYERS) for group in layer}
    assert rank["agent"] < rank["eval"] < rank["commandline"] and rank["remote"] < rank["eval"]
    files = {"cdpagent__agent__loop_py": "from ..eval.runner import run\n", "cdpagent__eval__runner_py": ""}
    problems = _problems(tmp_path, **files)
    assert "cdpagent.agent.loop imports cdpagent.eval.runner, a higher layer" in problems
