"""Build the API reference (``make docs``) and fail on any warning or broken docstring reference.

``python scripts/check_docs.py [OUT]`` writes the reference of every ``cdpagent`` module
with pdoc into ``OUT`` (default ``docs/api``, ignored by git), turning every warning
pdoc emits into an error. Then every Sphinx-style reference in a docstring
(``:class:`~cdpagent.errors.PageApiError```, ``:func:`.server.open_server```,
``:meth:`Tab.act```, …) must name something that exists: absolute names are imported,
``.relative`` ones resolve against the module's package, bare ones against the
module's namespace. Exits 1 listing what does not resolve.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
import warnings
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`~?([^`<>]+?)`")


def modules() -> list[str]:
    """Every module of the ``cdpagent`` package, by dotted name."""
    import cdpagent

    names = ["cdpagent"]
    for info in pkgutil.walk_packages(cdpagent.__path__, "cdpagent."):
        if info.name != "cdpagent.__main__":  # running it is the command, not a module to document
            names.append(info.name)
    return sorted(names)


def _lookup(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def _has(owner: object, name: str) -> bool:
    """``owner.name`` exists, or ``owner`` is a class that sets or annotates ``self.name``."""
    if hasattr(owner, name):
        return True
    if not inspect.isclass(owner):
        return False
    if any(name in getattr(k, "__annotations__", {}) for k in owner.__mro__):
        return True
    source = _source(owner)
    return f"self.{name} " in source or f"self.{name}:" in source


_SOURCES: dict[int, str] = {}


def _source(owner: type) -> str:
    """The source text of class ``owner`` (empty when there is none), read once."""
    if id(owner) not in _SOURCES:
        try:
            _SOURCES[id(owner)] = inspect.getsource(owner)
        except (OSError, TypeError):
            _SOURCES[id(owner)] = ""
    return _SOURCES[id(owner)]


def resolves(target: str, module: ModuleType, owner: object = None) -> bool:
    """Whether docstring reference ``target``, written in ``module`` (in class ``owner``), names something."""
    target = target.strip().lstrip("~").removesuffix("()")
    head, _, rest = target.partition(".")
    if owner is not None and not rest and _has(owner, head):
        return True
    if _lookup(f"cdpagent.{target}"):
        return True
    if target.startswith("."):
        package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
        return _lookup(package + target) or _lookup(module.__name__ + target)
    if target.startswith("cdpagent") or ("." in target and _lookup(target)):
        return _lookup(target)
    if hasattr(module, head):
        found: object = getattr(module, head)
        for attribute in rest.split(".") if rest else ():
            if not _has(found, attribute):
                return False
            found = getattr(found, attribute, None)
        return True
    return _lookup(target) or _lookup(f"builtins.{target}")


def _docstrings(module: ModuleType) -> list[tuple[str, object]]:
    """Each docstring of ``module`` with the class it is written in (``None`` at module level)."""
    texts: list[tuple[str, object]] = [(module.__doc__ or "", None)]
    for value in vars(module).values():
        if getattr(value, "__module__", None) != module.__name__:
            continue
        texts.append((inspect.getdoc(value) or "", value if inspect.isclass(value) else None))
        if inspect.isclass(value):
            members = [m for m in vars(value).values() if callable(m) or isinstance(m, property)]
            texts += [(inspect.getdoc(m) or "", value) for m in members]
    return texts


def broken_references() -> list[str]:
    """``module: target`` for every docstring reference that names nothing."""
    problems = []
    for name in modules():
        module = importlib.import_module(name)
        for text, owner in _docstrings(module):
            for target in ROLE.findall(text):
                if not resolves(target, module, owner):
                    problems.append(f"{name}: {target}")
    return sorted(set(problems))


def build(out: Path) -> None:
    """Write the pdoc reference into ``out``; every pdoc warning is an error."""
    import pdoc
    import pdoc.render

    pdoc.render.configure(docformat="restructuredtext", footer_text="cdpagent")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # pdoc walks a package's submodules itself; "cdpagent" alone stops at its __all__.
        pdoc.pdoc(*(m for m in modules() if m.count(".") <= 1), output_directory=out)


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "docs" / "api"
    build(out)
    problems = broken_references()
    for problem in problems:
        print(f"broken reference: {problem}", file=sys.stderr)
    print(f"API reference written to {out} ({len(modules())} modules); "
          f"{len(problems)} broken references", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
