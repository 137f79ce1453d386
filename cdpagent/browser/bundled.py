"""The bundled example pages (shipped as package data ``cdpagent.examples``) and their ``example:`` names.

Wherever cdpagent accepts a page — ``Browser.open``, every command's ``PAGE``,
``script`` steps, role files, the MCP ``open_page`` tool — ``example:NAME`` names
bundled example ``NAME``, wherever the package is installed: ``example:todos``,
``example:inventory?rows=1000`` (a query and a fragment are kept),
``example:editor/index.html`` (a file of the example).
"""

from __future__ import annotations

import re
from importlib.resources import as_file, files
from pathlib import Path

import msgspec

__all__ = ["EXAMPLE_PREFIX", "Example", "bundled_instead", "example_page", "example_url", "examples"]

#: The prefix that names a bundled example: ``example:todos``.
EXAMPLE_PREFIX = "example:"

_TITLE = re.compile(rb"<title>([^<]*)</title>", re.IGNORECASE)


class Example(msgspec.Struct, frozen=True):
    """One bundled example: its name (``example:NAME``), its page's title and its file path."""

    name: str
    title: str
    path: str


def example_page(name: str, page: str = "index.html") -> Path:
    """The file path of bundled example ``name`` (e.g. ``"todos"``).

    Raises :class:`FileNotFoundError` naming the examples there are when there is no such example.
    """
    root = files("cdpagent.examples")
    resource = root.joinpath(name).joinpath(page)
    with as_file(resource) as path:
        if not name or ".." in Path(name, page).parts or not path.is_file():
            known = ", ".join(e.name for e in examples())
            raise FileNotFoundError(f"no bundled example {name}/{page}; the examples are: {known}")
        return path


def example_url(text: str) -> str | None:
    """The ``file:`` URL an ``example:NAME[/FILE][?query][#fragment]`` names, else ``None``.

    ``None`` means ``text`` is not an ``example:`` name at all. Raises
    :class:`FileNotFoundError` (listing the examples) for an unknown example.
    """
    if not text.startswith(EXAMPLE_PREFIX):
        return None
    rest = text.removeprefix(EXAMPLE_PREFIX)
    cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
    name, _, page = rest[:cut].partition("/")
    return example_page(name, page or "index.html").resolve().as_uri() + rest[cut:]


def bundled_instead(path: str) -> str | None:
    """The ``example:`` name of the bundled file that a path that does not exist seems to mean.

    ``examples/todos/index.html`` (a checkout's path, tried elsewhere) → ``example:todos``;
    ``examples/eval/tasks.jsonl`` → ``example:eval/tasks.jsonl``; ``None`` when ``path`` has no
    ``examples`` folder or the package bundles no such file.
    """
    parts = Path(path.removeprefix("file://")).parts
    if "examples" not in parts:
        return None
    rest = parts[len(parts) - parts[::-1].index("examples") :]
    if not rest:
        return None
    name, page = rest[0], "/".join(rest[1:]) or "index.html"
    try:
        example_page(name, page)
    except FileNotFoundError:
        return None
    return EXAMPLE_PREFIX + (name if page == "index.html" else f"{name}/{page}")


def examples() -> list[Example]:
    """Every bundled example, by name: those whose folder has an ``index.html``."""
    found = []
    for entry in files("cdpagent.examples").iterdir():
        index = entry.joinpath("index.html")
        if not entry.is_dir() or not index.is_file():
            continue
        with as_file(index) as path:
            match = _TITLE.search(path.read_bytes()[:4096])
            title = match.group(1).decode("utf-8", "replace").strip() if match else ""
            found.append(Example(entry.name, title, str(path)))
    return sorted(found, key=lambda e: e.name)
