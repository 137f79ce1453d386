"""Public names a package imports on first use (PEP 562), so that importing it costs only
what its caller uses: ``import cdpagent`` loads no browser, ``cdpagent --help`` no model
client or MCP server.

A package lists its lazy names once, as the imports of its ``if TYPE_CHECKING:`` block
(what type checkers read); :func:`exports` reads that block from the package's source
and returns the module's ``__getattr__`` and ``__dir__``::

    if TYPE_CHECKING:
        from .browser.launch import launch

    __getattr__, __dir__ = exports(__name__, __file__)
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["exports"]


def _lazy_imports(source: str) -> dict[str, tuple[str, str]]:
    """name -> (relative module, attribute) of the ``from . import`` statements inside the
    top-level ``if TYPE_CHECKING:`` blocks of ``source``."""
    table: dict[str, tuple[str, str]] = {}
    for node in ast.parse(source).body:
        test = node.test if isinstance(node, ast.If) else None
        if not (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"):
            continue
        assert isinstance(node, ast.If)
        for statement in node.body:
            if isinstance(statement, ast.ImportFrom) and statement.level > 0:
                module = "." * statement.level + (statement.module or "")
                for alias in statement.names:
                    table[alias.asname or alias.name] = (module, alias.name)
    return table


def exports(package: str, init_file: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of package ``package`` (whose ``__init__.py`` is
    ``init_file``): a name its ``if TYPE_CHECKING:`` block imports is imported on first use
    and kept; any other name raises :class:`AttributeError`."""
    table = _lazy_imports(Path(init_file).read_text(encoding="utf-8"))

    def __getattr__(name: str) -> Any:
        try:
            module, attribute = table[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        imported = importlib.import_module(module, package)
        value = getattr(imported, attribute)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__
