"""SF-2: cdpagent as a user gets it — a wheel, installed into a new virtualenv, used outside the checkout.

The wheel is built from a copy of what it is made of (``pyproject.toml``, the README,
the licence, ``cdpagent/``, ``js/``, ``examples/``) with the test virtualenv's
setuptools and no build isolation, so nothing is downloaded. To stay fast and
offline the fresh virtualenv gets its *dependencies* from the test virtualenv's
site-packages through a ``.pth`` file, and the wheel is installed with
``--no-deps``; cdpagent itself comes only from the wheel (checked: the editable
install of the checkout is not reachable from there). Every command then runs from
a directory outside the checkout: ``cdpagent --version``, ``cdpagent observe
example:todos``, ``import cdpagent`` and ``mypy --strict`` on a user's file.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest
from scripted_model import ScriptedModel, answer

import cdpagent

ROOT = Path(__file__).resolve().parent.parent
MADE_OF = ("pyproject.toml", "README.md", "LICENSE", "cdpagent", "js", "examples")

USER_FILE = """\
import trio

import cdpagent


async def main() -> None:
    async with cdpagent.connect("http://127.0.0.1:9222", timeout=5) as browser:
        tab: cdpagent.Tab = await browser.open("example:todos")
        observation: cdpagent.Observation = await tab.observe()
        print(observation.identity.title, cdpagent.__version__)


trio.run(main)
"""

# A user's mistake mypy must see: the package's types are real, not Any.
MISTAKE = "import cdpagent\n\nrevision: int = cdpagent.__version__\n"


def _user_env() -> dict[str, str]:
    """The environment without this checkout's virtualenv in it."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def _run(
    argv: list[str], cwd: Path, timeout: float = 120, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, cwd=cwd, env={**_user_env(), **(env or {})}, capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """``(virtualenv, a directory outside the checkout)`` with the freshly built wheel installed."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    for name in MADE_OF:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    dist = base / "dist"
    build = "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"
    built = _run([sys.executable, "-c", build, str(dist)], cwd=source)
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = dist / built.stdout.strip().splitlines()[-1]
    venv = base / "venv"
    made = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=base)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=base).stdout.strip())
    (site / "test-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q"]
    put = _run([*pip, str(wheel)], cwd=base)
    assert put.returncode == 0, put.stderr[-3000:]
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    yield venv, elsewhere


def test_sf2_the_wheel_carries_the_licence_and_the_typing_marker(installed: tuple[Path, Path]) -> None:
    venv, elsewhere = installed
    code = "import cdpagent, importlib.metadata as m; print(cdpagent.__version__); print(cdpagent.__file__)"
    shown = _run([str(venv / "bin" / "python"), "-c", code], cwd=elsewhere)
    assert shown.returncode == 0, shown.stderr
    version, where = shown.stdout.splitlines()
    assert version == cdpagent.__version__
    package = Path(where).parent
    assert package.is_relative_to(venv), "cdpagent was imported from the checkout, not the wheel"
    assert (package / "py.typed").is_file()
    folders = {p.parent.relative_to(ROOT / "cdpagent") for p in (ROOT / "cdpagent").glob("*/__init__.py")}
    missing = {f for f in folders if not (package / f / "__init__.py").is_file()}
    assert missing == set(), "folders missing from pyproject.toml's packages"
    licences = list(venv.glob("lib/python*/site-packages/cdpagent-*.dist-info/licenses/LICENSE"))
    assert len(licences) == 1 and "MIT License" in licences[0].read_text()


@pytest.mark.browser
def test_sf2_the_installed_command_runs_outside_the_checkout(installed: tuple[Path, Path]) -> None:
    venv, elsewhere = installed
    command = venv / "bin" / "cdpagent"
    version = _run([str(command), "--version"], cwd=elsewhere)
    assert (version.returncode, version.stdout) == (0, f"cdpagent {cdpagent.__version__}\n"), version.stderr
    observed = _run([str(command), "observe", "example:todos"], cwd=elsewhere)
    assert observed.returncode == 0, observed.stderr
    assert "- title: Todos" in observed.stdout
    assert str(venv) in observed.stdout  # the page came from the installed package data


def test_sf2_mypy_strict_sees_the_packages_types(installed: tuple[Path, Path]) -> None:
    venv, elsewhere = installed
    (elsewhere / "user.py").write_text(USER_FILE)
    (elsewhere / "mistake.py").write_text(MISTAKE)
    checked = _run(
        [
            sys.executable, "-m", "mypy", "--strict", "--python-executable", str(venv / "bin" / "python"),
            "--cache-dir", str(elsewhere / ".mypy_cache"), "--no-error-summary", "user.py", "mistake.py",
        ],
        cwd=elsewhere,
        timeout=300,
    )
    lines = checked.stdout.splitlines()
    assert len(lines) == 1, checked.stdout + checked.stderr
    assert lines[0].startswith("mistake.py:3: error: Incompatible types in assignment"), lines


# -- every code block of the README and docs/, run as written against the wheel ----------------------

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: A block whose first line is a comment starting ``illustration:`` says in its own text why it does
#: not run as it is (a fragment, another machine); a command line whose comment says ``(needs …)``
#: names what it needs that the reader brings (a file of theirs, a server).
_ILLUSTRATION = re.compile(r"^\s*(#|//)\s*illustration:", re.IGNORECASE)
_NEEDS = re.compile(r"#.*\(needs [^)]+\)")
#: A ``print(...)`` comment that is a Python or JSON value promises that text in the output.
_PROMISE = re.compile(r"print\(.*\)\s+#\s*([\[{'\"].*)$")


class Block(NamedTuple):
    where: str
    lang: str
    text: str

    @property
    def illustration(self) -> bool:
        return bool(_ILLUSTRATION.match(self.text.splitlines()[0] if self.text else ""))


def _blocks() -> list[Block]:
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"^```(\w+)\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(f"{path.relative_to(ROOT)}:{line}", match.group(1), match.group(2)))
    return found


BLOCKS = _blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python" and not b.illustration]
COMMANDS = sorted(
    {
        line.split("  #")[0].strip()
        for b in BLOCKS
        if b.lang == "sh" and not b.illustration
        for line in b.text.replace("\\\n", " ").splitlines()
        if line.startswith("cdpagent ") and not _NEEDS.search(line)
    }
)


def test_sf2_every_block_is_runnable_or_says_why_not() -> None:
    for block in BLOCKS:
        if block.lang == "python":
            # An illustration is still valid Python (top-level await allowed: it is a fragment).
            compile(block.text, block.where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        elif block.lang == "sh" and not block.illustration:
            lines = [line for line in block.text.replace("\\\n", " ").splitlines() if line.strip()]
            unrun = [line for line in lines if not line.startswith("cdpagent ") and not _NEEDS.search(line)]
            assert not unrun, f"{block.where}: lines the docs test cannot run, and no (needs …): {unrun}"
        elif block.lang == "json":
            try:
                json.loads(block.text)
            except json.JSONDecodeError:  # JSON Lines: a value per line
                [json.loads(line) for line in block.text.splitlines() if line.strip()]
        elif block.lang == "toml":
            tomllib.loads(block.text)
    assert len(PYTHON) >= 4 and len(COMMANDS) >= 5


def _stand_in_model() -> ScriptedModel:
    return ScriptedModel([answer("done")] * 8)


@pytest.mark.browser
@pytest.mark.parametrize("block", PYTHON, ids=[b.where for b in PYTHON])
def test_sf2_python_blocks_run_outside_the_checkout(installed: tuple[Path, Path], block: Block) -> None:
    venv, elsewhere = installed
    script = elsewhere / "block.py"
    script.write_text(block.text, encoding="utf-8")
    model = _stand_in_model()
    with model.running():
        env = {"OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": "k"}
        done = _run([str(venv / "bin" / "python"), str(script)], cwd=elsewhere, env=env)
    assert done.returncode == 0, f"{block.where}\n{done.stderr[-3000:]}"
    for line in block.text.splitlines():
        promise = _PROMISE.search(line)
        if promise:
            assert promise.group(1).strip() in done.stdout, f"{block.where}: {line}"


@pytest.mark.browser
@pytest.mark.parametrize("command", COMMANDS)
def test_sf2_command_lines_run_outside_the_checkout(installed: tuple[Path, Path], command: str) -> None:
    venv, elsewhere = installed
    model = _stand_in_model()
    with model.running():
        env = {
            **_user_env(),
            "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
            "OPENAI_BASE_URL": model.url,
            "OPENAI_API_KEY": "k",
        }
        done = subprocess.run(
            command, shell=True, cwd=elsewhere, env=env, capture_output=True, text=True, timeout=180
        )
    assert done.returncode == 0, f"{command}\n{done.stderr[-3000:]}"
