"""Where the bundled example pages are (shipped as package data ``cdpagent.examples``)."""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

__all__ = ["example_page"]


def example_page(name: str, page: str = "index.html") -> Path:
    """The file path of bundled example ``name`` (e.g. ``"todos"``).

    Raises :class:`FileNotFoundError` when there is no such example.
    """
    resource = files("cdpagent.examples").joinpath(name).joinpath(page)
    with as_file(resource) as path:
        if not path.is_file():
            raise FileNotFoundError(f"no bundled example {name}/{page}")
        return path
