"""Install issue 34's corpus applications into ``.realworld/`` of the checkout (stdlib only).

Each application is installed from its own package, never vendored: Django from PyPI into a
virtualenv of its own (``.realworld/django-venv``, the version pip resolves), Shoelace
(``@shoelace-style/shoelace``, pinned) from npm into ``.realworld/shoelace``, Streamlit from
PyPI into ``.realworld/streamlit-venv`` (about 90 s, so only on first use: see
:func:`install_streamlit`), JupyterLab and ipykernel from PyPI into
``.realworld/jupyter-venv`` (first use too: :func:`install_jupyter`), and Python's
own documentation from Debian's ``python3-doc`` (apt-get, as root; it installs under
``/usr/share/doc``, so that one is optional: without it its tasks are left out). Each one's
licence file is copied next to it (``.realworld/licences/``). The folder is git-ignored.

Idempotent: a step already done (its stamp file exists) says nothing; every step taken
prints one line of progress on stderr. A package that cannot be fetched raises
:class:`InstallError` naming the package and the client's last output line.

    python3 bench/apps/install.py            (installs what is missing; prints the folder)
    python3 bench/apps/install.py streamlit jupyter  (Streamlit and JupyterLab too)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HOME = ROOT / ".realworld"
SHOELACE_VERSION = "2.20.1"
DJANGO_VENV = HOME / "django-venv"
SHOELACE = HOME / "shoelace"
STREAMLIT_VENV = HOME / "streamlit-venv"
JUPYTER_VENV = HOME / "jupyter-venv"
PLAYWRIGHT_MCP_VERSION = "0.0.86"
PLAYWRIGHT_MCP = HOME / "playwright-mcp"
LICENCES = HOME / "licences"


class InstallError(RuntimeError):
    """A package could not be fetched or installed; the message names it and why."""


def _say(line: str) -> None:
    print(f"apps: {line}", file=sys.stderr, flush=True)


def _run(what: str, argv: list[str]) -> None:
    """Run ``argv``; :class:`InstallError` naming ``what`` when it fails or is missing."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise InstallError(f"cannot install {what}: {argv[0]} is not installed") from exc
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise InstallError(f"cannot install {what}: {lines[-1] if lines else 'exit ' + str(done.returncode)}")


def django_python() -> Path:
    return DJANGO_VENV / "bin" / "python"


def _pip_install(folder: Path, package: str, module: str) -> Path:
    """``package`` from PyPI (the version pip resolves) into the virtualenv ``folder``, made
    first when missing; returns the site-packages folder that holds ``module``.

    Raises :class:`InstallError` when pip cannot fetch it."""
    python = folder / "bin" / "python"
    if not python.exists():
        _say(f"creating the virtualenv {folder.relative_to(ROOT)}")
        venv.create(folder, with_pip=True)
    _say(f"installing {package} from PyPI (pip)")
    _run(package, [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", package])
    where = f"import {module}, pathlib; print(pathlib.Path({module}.__file__).parent.parent)"
    found = subprocess.run([str(python), "-c", where], capture_output=True, text=True, check=True)
    return Path(found.stdout.strip())


def _npm_install(folder: Path, name: str, version: str, licence: str, kept_as: str) -> Path:
    """npm package ``name@version`` into ``folder`` (once: a stamp says it is there), its
    ``licence`` file copied into the licences folder as ``kept_as``; returns the package's folder.

    Raises :class:`InstallError` when npm is missing, cannot fetch it, or it carries no licence."""
    stamp = folder / f".installed-{version}"
    package = folder / "node_modules" / name
    if stamp.exists():
        return package
    _say(f"installing {name}@{version} from npm")
    folder.mkdir(parents=True, exist_ok=True)
    _run(
        name,
        [
            "npm",
            "install",
            "--silent",
            "--no-audit",
            "--no-fund",
            "--prefix",
            str(folder),
            f"{name}@{version}",
        ],
    )
    if not (package / licence).exists():
        raise InstallError(f"cannot install {name}: the package carries no {licence}")
    LICENCES.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(package / licence, LICENCES / kept_as)
    stamp.touch()
    return package


def install_django() -> Path:
    """Django in its own virtualenv; returns that virtualenv's python.

    Raises :class:`InstallError` when pip cannot fetch Django."""
    stamp = DJANGO_VENV / ".installed"
    if stamp.exists():
        return django_python()
    site = _pip_install(DJANGO_VENV, "Django", "django")
    _keep_wheel_licence(site, "[Dd]jango", "Django")
    stamp.touch()
    return django_python()


def _keep_wheel_licence(site: Path, wheel: str, name: str) -> None:
    """Copy the licence file the wheel ``wheel`` (a glob of its dist-info's name) installed in
    ``site`` into the licences folder as ``{name}-LICENSE``.

    Raises :class:`InstallError` when the wheel carries none."""
    info = f"{wheel}-*.dist-info"
    found = [*site.glob(f"{info}/licenses/LICENSE*"), *site.glob(f"{info}/LICENSE*")]
    if not found:
        raise InstallError(f"cannot install {name}: its wheel carries no licence file")
    LICENCES.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(sorted(found)[0], LICENCES / f"{name}-LICENSE")


def streamlit_python() -> Path:
    return STREAMLIT_VENV / "bin" / "python"


def streamlit_installed() -> bool:
    """Whether Streamlit is installed (its tasks need it; it is installed on first use, not by
    ``scripts/setup.sh``: its wheels take longer than the suite's set-up may)."""
    return (STREAMLIT_VENV / ".installed").exists()


def install_streamlit() -> Path:
    """Streamlit in its own virtualenv (``.realworld/streamlit-venv``, the version pip
    resolves); returns that virtualenv's python.

    Raises :class:`InstallError` when pip cannot fetch Streamlit or its wheel carries no
    licence."""
    stamp = STREAMLIT_VENV / ".installed"
    if stamp.exists():
        return streamlit_python()
    site = _pip_install(STREAMLIT_VENV, "streamlit", "streamlit")
    # Its wheel declares its licence (``License-Expression``) without carrying the text: the
    # declaration is kept, with the Apache-2.0 text Debian ships when that is what it declares.
    metadata = next(iter(sorted(site.glob("streamlit-*.dist-info/METADATA"))), None)
    declared = [
        line
        for line in (metadata.read_text().splitlines() if metadata else [])
        if line.startswith(("License:", "License-Expression:", "Version:"))
    ]
    if not any(line.startswith("License") for line in declared):
        raise InstallError("cannot install streamlit: its wheel declares no licence")
    text = "\n".join(["streamlit, as its wheel's METADATA declares it:", *declared, ""])
    apache = Path("/usr/share/common-licenses/Apache-2.0")
    if "Apache-2.0" in text and apache.exists():
        text += "\n" + apache.read_text()
    LICENCES.mkdir(parents=True, exist_ok=True)
    (LICENCES / "streamlit-LICENSE").write_text(text)
    stamp.touch()
    return streamlit_python()


def jupyter_python() -> Path:
    return JUPYTER_VENV / "bin" / "python"


def jupyter_installed() -> bool:
    """Whether JupyterLab is installed (installed on first use, as Streamlit is)."""
    return (JUPYTER_VENV / ".installed").exists()


def install_jupyter() -> Path:
    """JupyterLab and ipykernel (the Python kernel its notebooks run on) in their own
    virtualenv (``.realworld/jupyter-venv``, the versions pip resolves); returns its python.

    Raises :class:`InstallError` when pip cannot fetch them or JupyterLab's wheel carries no
    licence."""
    stamp = JUPYTER_VENV / ".installed"
    if stamp.exists():
        return jupyter_python()
    _pip_install(JUPYTER_VENV, "ipykernel", "ipykernel")
    site = _pip_install(JUPYTER_VENV, "jupyterlab", "jupyterlab")
    _keep_wheel_licence(site, "jupyterlab", "jupyterlab")
    stamp.touch()
    return jupyter_python()


def install_shoelace() -> Path:
    """Shoelace from npm; returns the package's folder (its ``cdn/`` holds the bundle).

    Raises :class:`InstallError` when npm is missing or cannot fetch the package."""
    return _npm_install(
        SHOELACE, "@shoelace-style/shoelace", SHOELACE_VERSION, "LICENSE.md", "shoelace-LICENSE.md"
    )


def install_playwright_mcp() -> Path:
    """``@playwright/mcp`` (pinned) from npm, the comparison the corpus's request sizes are
    measured against; returns its ``cli.js`` (run with node; it drives a browser only when a
    tool is called, so listing its tools downloads nothing).

    Raises :class:`InstallError` when npm is missing or cannot fetch the package."""
    package = _npm_install(
        PLAYWRIGHT_MCP, "@playwright/mcp", PLAYWRIGHT_MCP_VERSION, "LICENSE", "playwright-mcp-LICENSE"
    )
    return package / "cli.js"


PYTHON_DOCS = Path("/usr/share/doc/python3/html")


def install_python_docs() -> Path:
    """Debian's ``python3-doc`` (the Sphinx site of Python's documentation, with its offline
    search); returns its html folder. Raises :class:`InstallError` when it is not installed
    and cannot be (not root, no apt-get, or the package cannot be fetched)."""
    if not (PYTHON_DOCS / "index.html").exists():
        if not shutil.which("apt-get") or not hasattr(os, "geteuid") or os.geteuid() != 0:
            raise InstallError("cannot install python3-doc: it needs apt-get as root")
        _say("installing Debian's python3-doc (apt-get)")
        _run("python3-doc", ["apt-get", "install", "-y", "-qq", "python3-doc"])
    licence = Path("/usr/share/doc/python3-doc/copyright")
    if licence.exists() and not (LICENCES / "python3-doc-copyright").exists():
        LICENCES.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(licence, LICENCES / "python3-doc-copyright")
    return PYTHON_DOCS.resolve()


def installed() -> bool:
    """Whether the applications ``scripts/setup.sh`` installs (Django, Shoelace) are installed."""
    return (DJANGO_VENV / ".installed").exists() and (SHOELACE / f".installed-{SHOELACE_VERSION}").exists()


def install_all() -> None:
    """Install every application that is missing; :class:`InstallError` on the first failure."""
    install_django()
    install_shoelace()


def install_optional() -> list[str]:
    """Install the applications that need more than a user's rights (python3-doc); the
    reasons of those that could not be installed."""
    try:
        install_python_docs()
    except InstallError as exc:
        return [str(exc)]
    return []


if __name__ == "__main__":
    try:
        install_all()
    except InstallError as exc:
        print(f"apps: {exc}", file=sys.stderr)
        sys.exit(1)
    for why in install_optional():
        print(f"apps: left out: {why}", file=sys.stderr)
    for name, install in (("streamlit", install_streamlit), ("jupyter", install_jupyter)):
        if name in sys.argv[1:]:
            try:
                install()
            except InstallError as exc:
                print(f"apps: left out: {exc}", file=sys.stderr)
    print(HOME)
