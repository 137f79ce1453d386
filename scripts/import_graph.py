"""cdpagent's layers, and the import graph that must respect them.

Run ``python scripts/import_graph.py`` to print every module's imports of other
cdpagent modules, layer by layer, followed by any violation; it exits 1 when
there is one. ``tests/test_layers.py`` runs the same check.

The rules, over every ``import`` in a module (``TYPE_CHECKING`` blocks and
function bodies included):

1. a module imports only modules of its own layer or of lower layers;
2. two different groups of one layer never import each other (``runtime`` and
   ``snapshot`` are peers: neither may use the other);
3. no two modules import each other, directly or through others (no cycles).

:data:`LAYERS` is the order, written once, lowest first. A module's group is its
folder under ``cdpagent`` (``cdpagent.act.perform`` → ``act``), or its own name for the
few modules at the top of the package (``errors``, ``codes`` …): the folders are the
layers, and a folder or module that no layer names is a violation.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

__all__ = ["LAYERS", "Graph", "build_graph", "violations"]

LAYERS: tuple[tuple[str, ...], ...] = (
    # root modules: every exception class, the version number, lazy public names
    ("errors", "version", "lazy"),
    # the driver: wire, process, documents, the tab's decisions, the seam, the isolated world
    ("cdp",),
    # the tools pages register (WebMCP)
    ("webmcp",),
    # the cores, peers: the Page Agent API and the observation
    ("runtime", "snapshot"),
    # screenshots, history, waiting, logs, downloads, storage, uploads, the URL policy
    ("primitives",),
    # acting: the round trip, the performers, page tools, coordinates
    ("act",),
    # the trace of a run
    ("trace",),
    # the composition root: Browser, Tab, launch, connect
    ("browser",),
    # every operation declared once, run on a current tab, script steps
    ("ops",),
    # browsers elsewhere: WebDriver, Grid, Pool
    ("remote",),
    # the blocking API: the async one on a Trio loop of its own thread
    ("sync",),
    # what the command-line surfaces share at the terminal
    ("console",),
    ("agent",),
    ("mcp_server", "eval"),
    # the cdpagent command
    ("commandline",),
    # the public namespaces that gather the layers below
    ("codes", "lowlevel", "__main__"),
)

Graph = dict[str, set[str]]
"""Module name → the cdpagent modules it imports."""


def _modules(root: Path) -> dict[str, Path]:
    package = root / "cdpagent"
    found: dict[str, Path] = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(module: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            origin = _resolve(module, is_package, node)
            names = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in known else origin
                     for alias in node.names]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name.startswith("cdpagent.") and name != module:
                yield name


def build_graph(root: Path) -> Graph:
    """The import graph of the ``cdpagent`` package under ``root`` (the repository)."""
    known = _modules(root)
    return {module: set(_targets(module, path, known)) for module, path in known.items()}


def _group(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _rank(group: str) -> int | None:
    for rank, layer in enumerate(LAYERS):
        if group in layer:
            return rank
    return None


def _cycles(graph: Graph) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


def violations(graph: Graph) -> list[str]:
    """Every broken rule of the module docstring, one sentence each (empty when the graph is clean)."""
    problems: list[str] = []
    for module in sorted(graph):
        group = _group(module)
        if group and _rank(group) is None:
            problems.append(f"{module}: its group {group!r} is in no layer of LAYERS")
            continue
        for target in sorted(graph[module]):
            if not group or not _group(target):
                continue  # the package's own __init__ re-exports the public API
            mine, theirs = _rank(group), _rank(_group(target))
            if mine is None or theirs is None:
                continue
            if theirs > mine:
                problems.append(f"{module} imports {target}, a higher layer")
            elif theirs == mine and _group(target) != group:
                problems.append(f"{module} imports {target}, a peer of the same layer")
    problems += [f"import cycle: {' -> '.join(cycle)}" for cycle in _cycles(graph)]
    return problems


def main() -> int:
    """Print the graph layer by layer, then the violations; return 1 when there is one."""
    root = Path(__file__).resolve().parent.parent
    graph = build_graph(root)
    for rank, layer in enumerate(LAYERS):
        modules = [m for m in sorted(graph) if _group(m) in layer]
        if not modules:
            continue
        print(f"layer {rank}: {' '.join(layer)}")
        for module in modules:
            imports = ", ".join(m.removeprefix("cdpagent.") for m in sorted(graph[module])) or "-"
            print(f"  {module.removeprefix('cdpagent.')} -> {imports}")
    problems = violations(graph)
    print("\n".join(problems) if problems else "no upward imports, no peer imports, no cycles")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
