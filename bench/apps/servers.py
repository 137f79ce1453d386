"""Start issue 34's corpus applications on loopback, each from its installed package.

- :func:`django_admin`: the Django project of ``bench/apps/django`` served by the Django of
  ``.realworld/django-venv`` on 127.0.0.1 (a port the system picks), over a fresh SQLite
  database seeded with the corpus's books and a superuser (:data:`ADMIN`).
- :func:`shoelace_page`: ``bench/apps/shoelace/index.html`` and the installed Shoelace
  package, served by a static server on 127.0.0.1.
- :func:`streamlit_app`: ``bench/apps/streamlit/app.py`` run by the Streamlit of
  ``.realworld/streamlit-venv`` on 127.0.0.1; the app writes its own state to a JSON file
  (:meth:`StreamlitApp.state`).
- :func:`jupyter_lab`: the JupyterLab of ``.realworld/jupyter-venv`` on 127.0.0.1 over a
  fresh folder holding a copy of ``bench/apps/jupyter/analysis.ipynb``; the notebooks it
  saved are read back through its own contents API (:meth:`JupyterLab.notebook`).

All are context managers that stop what they started when left. :func:`django_state`
reads the application's own database through its ORM (``manage.py shell -c``).
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import install

HERE = Path(__file__).resolve().parent
PROJECT = HERE / "django"
ADMIN = ("admin", "corpus-admin-pw")

# The books every run starts with: (title, author, genre, published, pages, in stock).
BOOKS = [
    ("Emma", "Jane Austen", "novel", "1815-12-23", 474, True),
    ("Persuasion", "Jane Austen", "novel", "1817-12-20", 249, True),
    ("Middlemarch", "George Eliot", "novel", "1871-12-01", 880, True),
    ("Leaves of Grass", "Walt Whitman", "poetry", "1855-07-04", 95, True),
    ("The Prelude", "William Wordsworth", "poetry", "1850-07-01", 320, False),
    ("The Histories", "Herodotus", "history", "0430-01-01", 716, False),
    ("Decline and Fall", "Edward Gibbon", "history", "1776-02-17", 1200, False),
    ("Opticks", "Isaac Newton", "science", "1704-02-16", 416, True),
    ("On the Origin of Species", "Charles Darwin", "science", "1859-11-24", 502, True),
    ("Walden", "Henry David Thoreau", "history", "1854-08-09", 352, True),
    ("Silas Marner", "George Eliot", "novel", "1861-04-02", 248, True),
    ("Sybil", "Benjamin Disraeli", "novel", "1845-05-01", 420, True),
]

_SEED = """
import json, sys
from django.contrib.auth.models import User
from library.models import Book
User.objects.create_superuser({user!r}, "admin@corpus.invalid", {password!r})
for t, a, g, p, n, s in json.loads({books!r}):
    Book.objects.create(title=t, author=a, genre=g, published=p, pages=n, in_stock=s)
"""


@dataclass(frozen=True)
class DjangoAdmin:
    url: str  # the admin's root, ending in "/admin/"
    database: Path

    def state(self, code: str) -> Any:
        """What ``code`` (Python run by ``manage.py shell -c`` against this run's database,
        ending in an expression assigned to ``out``) computes, decoded from JSON."""
        return django_state(self.database, code)


def _manage(database: Path, *args: str) -> str:
    """Run ``manage.py`` with ``args`` on ``database``; its stdout. Raises
    :class:`subprocess.CalledProcessError` (with its stderr) when it fails."""
    done = subprocess.run(
        [str(install.django_python()), str(PROJECT / "manage.py"), *args],
        env={**os.environ, "CORPUS_DB": str(database), "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise subprocess.CalledProcessError(done.returncode, args, done.stdout, done.stderr)
    return done.stdout


def django_state(database: Path, code: str) -> Any:
    """``out`` as ``code`` leaves it, read through the application's ORM."""
    script = f"import json\nfrom library.models import Book\n{code}\nprint(json.dumps(out, default=str))"
    return json.loads(_manage(database, "shell", "-c", script).strip().splitlines()[-1])


@functools.cache
def _template() -> Path:
    """A migrated and seeded database, made once per process and copied for every run."""
    folder = Path(tempfile.mkdtemp(prefix="corpus-django-"))
    database = folder / "template.sqlite3"
    _manage(database, "migrate", "--noinput")
    user, password = ADMIN
    _manage(database, "shell", "-c", _SEED.format(user=user, password=password, books=json.dumps(BOOKS)))
    return database


@contextmanager
def django_admin() -> Iterator[DjangoAdmin]:
    """The admin served on 127.0.0.1 over a fresh copy of the seeded database.

    Raises :class:`install.InstallError` when Django cannot be installed, and
    :class:`RuntimeError` when the server does not start."""
    install.install_django()
    folder = Path(tempfile.mkdtemp(prefix="corpus-run-"))
    database = folder / "db.sqlite3"
    shutil.copyfile(_template(), database)
    server = subprocess.Popen(
        [str(install.django_python()), str(PROJECT / "serve.py")],
        env={**os.environ, "CORPUS_DB": str(database), "PYTHONDONTWRITEBYTECODE": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = server.stdout.readline().strip()
        if not port.isdigit():
            raise RuntimeError(
                f"the Django server did not start: {server.stderr.read() if server.stderr else ''}"
            )
        yield DjangoAdmin(url=f"http://127.0.0.1:{port}/admin/", database=database)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


class _Static(SimpleHTTPRequestHandler):
    """The page's folder at ``/``, the installed Shoelace package at ``/shoelace/``."""

    package: Path = HERE

    def translate_path(self, path: str) -> str:
        clean = path.split("?", 1)[0].split("#", 1)[0]
        if clean.startswith("/shoelace/"):
            return str(self.package / clean.removeprefix("/shoelace/"))
        return str(HERE / "shoelace" / clean.lstrip("/"))

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a browser closing a connection mid-file is not the corpus's business


@contextmanager
def _serving(handler: Any) -> Iterator[str]:
    """``handler``'s requests answered on 127.0.0.1 (a port the system picks) until left; the
    url of its root."""
    httpd = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


@contextmanager
def _static(root: Path) -> Iterator[str]:
    """``root`` served on 127.0.0.1 until left; the url of its root folder."""
    with _serving(functools.partial(_Plain, directory=str(root))) as url:
        yield url


class _Plain(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def python_docs() -> Iterator[str]:
    """Python's documentation (Debian's python3-doc) served on 127.0.0.1: its root url.

    Raises :class:`install.InstallError` when it is not installed and cannot be."""
    with _static(install.install_python_docs()) as url:
        yield url


@contextmanager
def shoelace_page() -> Iterator[str]:
    """The corpus's Shoelace page's url, served on 127.0.0.1 until left.

    Raises :class:`install.InstallError` when Shoelace cannot be installed."""
    package = install.install_shoelace()
    with _serving(type("Handler", (_Static,), {"package": package})) as url:
        yield url + "index.html"


@dataclass(frozen=True)
class StreamlitApp:
    url: str  # the app's root, ending in "/"
    state_file: Path

    def state(self) -> Any:
        """The app's state as it last wrote it (its widgets' values and its registration),
        decoded from JSON; None before its first run."""
        try:
            return json.loads(self.state_file.read_text())
        except FileNotFoundError:
            return None


def _free_port() -> int:
    """A port nobody listens on at the moment of asking (Streamlit takes a port number, not
    a socket)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def streamlit_app() -> Iterator[StreamlitApp]:
    """``bench/apps/streamlit/app.py`` served by the installed Streamlit on 127.0.0.1 (a free
    port, headless, no usage statistics), once its health check answers; stopped when left.

    Raises :class:`install.InstallError` when Streamlit cannot be installed, and
    :class:`RuntimeError` when the server exits or does not answer within 60 s."""
    python = install.install_streamlit()
    folder = Path(tempfile.mkdtemp(prefix="corpus-streamlit-"))
    port = _free_port()
    options = {
        "server.headless": "true",
        "browser.gatherUsageStats": "false",
        "server.address": "127.0.0.1",
        "server.port": str(port),
        "server.fileWatcherType": "none",
        "global.developmentMode": "false",
    }
    argv = [
        str(python),
        *("-m", "streamlit", "run", str(HERE / "streamlit" / "app.py")),
        *(arg for key, value in options.items() for arg in (f"--{key}", value)),
    ]
    env = {**os.environ, "CORPUS_STATE": str(folder / "state.json"), "HOME": str(folder)}
    try:
        with _server("streamlit", argv, env, folder, f"http://127.0.0.1:{port}/_stcore/health"):
            yield StreamlitApp(url=f"http://127.0.0.1:{port}/", state_file=folder / "state.json")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def _server(name: str, argv: list[str], env: dict[str, str], cwd: Path, health: str) -> Iterator[None]:
    """Run the server process ``argv`` until left, entered once ``health`` answers 200.

    Raises :class:`RuntimeError` when it exits first or does not answer within 60 s."""
    server = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"{name} exited: {server.stderr.read() if server.stderr else ''}")
            try:
                with urllib.request.urlopen(health, timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not answer on {health} within 60 s")
            time.sleep(0.1)  # a server process's start has no event to wait on but its port
        yield
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@dataclass(frozen=True)
class JupyterLab:
    url: str  # the server's root, ending in "/"

    def notebook(self, path: str) -> Any:
        """The notebook ``path`` as JupyterLab last saved it (nbformat JSON, through the
        server's contents API), or None when there is none."""
        try:
            with urllib.request.urlopen(f"{self.url}api/contents/{path}?content=1", timeout=10) as answer:
                return json.loads(answer.read())["content"]
        except OSError:
            return None


@contextmanager
def jupyter_lab() -> Iterator[JupyterLab]:
    """JupyterLab on 127.0.0.1 (a free port, no token: loopback only, a fresh folder of its
    own holding ``analysis.ipynb``; fresh settings, so no workspace of an earlier task is
    restored), once its API answers; stopped, with its kernels, when left.

    Raises :class:`install.InstallError` when JupyterLab cannot be installed, and
    :class:`RuntimeError` when the server exits or does not answer within 60 s."""
    python = install.install_jupyter()
    folder = Path(tempfile.mkdtemp(prefix="corpus-jupyter-"))
    (folder / "notebooks").mkdir()
    shutil.copyfile(HERE / "jupyter" / "analysis.ipynb", folder / "notebooks" / "analysis.ipynb")
    port = _free_port()
    argv = [
        str(python),
        *("-m", "jupyterlab", "--no-browser", f"--ServerApp.port={port}"),
        *("--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password="),
        f"--ServerApp.root_dir={folder / 'notebooks'}",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")  # the tests run as root in CI containers
    env = {
        **os.environ,
        "HOME": str(folder),
        "JUPYTER_CONFIG_DIR": str(folder / "config"),
        "JUPYTER_DATA_DIR": str(folder / "data"),
        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(folder / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(folder / "workspaces"),
    }
    try:
        with _server("jupyterlab", argv, env, folder, f"http://127.0.0.1:{port}/api/status"):
            yield JupyterLab(url=f"http://127.0.0.1:{port}/")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def serve(app: str) -> Iterator[tuple[Any, str]]:
    """Corpus application ``app`` (a :class:`~tasks.Task`'s ``app``) served on loopback until
    left: (its handle for the scorers, its root url, ending in "/")."""
    if app == "django":
        with django_admin() as admin:
            yield admin, admin.url
    elif app == "streamlit":
        with streamlit_app() as streamlit:
            yield streamlit, streamlit.url
    elif app == "jupyter":
        with jupyter_lab() as lab:
            yield lab, lab.url
    elif app == "python-docs":
        with python_docs() as url:
            yield None, url
    elif app == "shoelace":
        with shoelace_page() as url:
            yield None, url.removesuffix("index.html")
    else:
        raise ValueError(f"no corpus application {app!r}")
