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

import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

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


def _run(argv: list[str], cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


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
