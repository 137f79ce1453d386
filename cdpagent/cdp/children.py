"""Child processes that never outlive the process that started them (DR-4).

Two ties hold a launched browser to its host, whatever its transport:

- On Linux the child asks the kernel, between ``fork`` and ``exec``, for ``SIGKILL``
  when its parent dies (``prctl(PR_SET_PDEATHSIG)``). The kernel means the parent
  *thread*: the signal fires when the thread that forked exits. Trio's
  ``open_process`` forks in a worker thread of its cache, which exits after a few idle
  seconds and would take the browser with it, so :func:`spawn` forks on the calling
  thread — the Trio thread, which lives as long as the run that owns the browser.
- The temporary folder of each launch (:func:`owned_workdir`) names its owner (pid and
  start time); :func:`remove_stale_workdirs` removes, at the next launch, those whose
  owner is gone — a host killed with ``SIGKILL`` never runs its own clean-up. The
  browser's own temporary folder is that folder too (:func:`child_environ`), so what a
  killed browser leaves (its lock socket's folder, a temporary file it was writing)
  goes with it.

:class:`Child` is the small process handle the launcher needs (pid, return code,
an awaitable exit, a Trio stream on stderr) around a :class:`subprocess.Popen`.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import trio

__all__ = [
    "OWNER_FILE",
    "Child",
    "child_environ",
    "die_with_parent",
    "owned_workdir",
    "owner_alive",
    "remove_stale_workdirs",
    "spawn",
]

#: The file in a launch's temporary folder naming its owner: ``"<pid> <start time>"`` (``-`` when
#: the system does not say).
OWNER_FILE = ".cdpagent-owner"
_PR_SET_PDEATHSIG = 1
#: The longest Unix socket path every system takes (macOS's 104 bytes, less the terminator).
_SOCKET_PATH_MAX = 103
#: What a Chromium-family browser appends to its temporary folder for its lock socket
#: (``/org.chromium.Chromium.XXXXXX/SingletonSocket``; Chrome's and Edge's names are longer).
_LOCK_SOCKET_TAIL = len("/com.microsoft.Edge.XXXXXX/SingletonSocket")


def _start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (``/proc/PID/stat`` field 22), ``""`` off Linux, None when gone."""
    if not sys.platform.startswith("linux"):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            return ""
        return ""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # Fields after the command name (which may hold spaces and parentheses); field 22 is the 20th of them.
    return text[text.rindex(")") + 2 :].split()[19]


def owner_alive(record: str) -> bool:
    """Whether the owner an :data:`OWNER_FILE` names (``"<pid> <start time>"``) still runs.

    A pid reused by another process since does not count as the owner (its start time
    differs); a record that cannot be read counts as alive, so nothing is removed on a guess.
    """
    try:
        pid_text, started = record.split()
        pid = int(pid_text)
    except ValueError:
        return True
    now = _start_time(pid)
    return now is not None and (started == "-" or now in ("", started))


def owned_workdir(prefix: str = "cdpagent-") -> str:
    """Create a temporary folder for one launch, naming this process as its owner."""
    workdir = tempfile.mkdtemp(prefix=prefix)
    Path(workdir, OWNER_FILE).write_text(f"{os.getpid()} {_start_time(os.getpid()) or '-'}\n")
    return workdir


def child_environ(workdir: str, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment (``environ``, default this process's) for a browser launched in ``workdir``.

    Its temporary folder (``TMPDIR``) is ``workdir``, so whatever the browser leaves there is
    removed with ``workdir``; unchanged where its lock socket's path would be too long for a
    Unix socket there (the browser would refuse to start).
    """
    env = dict(os.environ if environ is None else environ)
    if len(os.fsencode(os.path.abspath(workdir))) + _LOCK_SOCKET_TAIL <= _SOCKET_PATH_MAX:
        env["TMPDIR"] = os.path.abspath(workdir)
    return env


def remove_stale_workdirs(prefix: str = "cdpagent-", root: str | None = None) -> list[str]:
    """Remove the launch folders under ``root`` (the temporary folder) whose owner is gone.

    Only folders named ``prefix…`` that hold an :data:`OWNER_FILE` are considered; one
    without it (being created, or not ours) is left alone. Returns the folders removed;
    never raises for a folder it cannot read or remove.
    """
    removed: list[str] = []
    base = Path(root or tempfile.gettempdir())
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    for entry in entries:
        if not entry.name.startswith(prefix) or not _ours(entry):
            continue
        try:
            record = (entry / OWNER_FILE).read_text()
        except OSError:
            continue
        if owner_alive(record):
            continue
        for folder in _singleton_folders(entry / "profile", base):
            shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(entry, ignore_errors=True)
        if not entry.exists():
            removed.append(str(entry))
    return removed


def _ours(path: Path) -> bool:
    """Whether ``path`` is a real folder (no link) of this user: another user's is never removed."""
    try:
        info = path.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and (not hasattr(os, "getuid") or info.st_uid == os.getuid())


def _singleton_folders(profile: Path, base: Path) -> set[Path]:
    """The folders in ``base`` that a killed browser's profile links to (its lock socket's)."""
    found: set[Path] = set()
    with contextlib.suppress(OSError):
        for link in profile.iterdir():
            if link.name.startswith("Singleton") and link.is_symlink():
                folder = Path(os.readlink(link)).parent
                if folder.parent == base and not folder.name.startswith("cdpagent-") and _ours(folder):
                    found.add(folder)
    return found


def die_with_parent(parent: int, then: Callable[[], None] | None = None) -> Callable[[], None]:
    """A ``preexec_fn``: SIGKILL this child when the thread that forks it dies, then run ``then``.

    ``parent`` is the forking process's pid (``os.getpid()`` before the fork): a child
    whose parent is already gone when the signal is set exits at once. Fork on a thread
    that lives as long as the child may (see the module doc).
    """
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None

    def preexec() -> None:
        if libc is not None:
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            # The parent may have died between fork and prctl: then nobody will send the signal.
            if os.getppid() != parent:
                os._exit(1)
        if then is not None:
            then()

    return preexec


class Child:
    """A started child process: ``pid``, ``returncode``, ``await wait()``, ``kill()`` and ``stderr``.

    ``stderr`` is a Trio stream on the child's error output when it was piped, else None.
    """

    def __init__(self, popen: subprocess.Popen[bytes], stderr: trio.lowlevel.FdStream | None) -> None:
        self._popen = popen
        self.pid = popen.pid
        self.stderr = stderr

    @property
    def returncode(self) -> int | None:
        """The exit status once the child has exited and been reaped, else None."""
        return self._popen.poll()

    async def wait(self) -> int:
        """Wait for the child to exit, reap it and return its status; cancellable."""
        if self._popen.returncode is not None:
            return self._popen.returncode
        pidfd: int | None = None
        with contextlib.suppress(AttributeError, OSError):
            pidfd = os.pidfd_open(self.pid)
        if pidfd is None:
            while self._popen.poll() is None:
                await trio.to_thread.run_sync(self._popen.wait, abandon_on_cancel=True)
        else:
            try:
                await trio.lowlevel.wait_readable(pidfd)
            finally:
                os.close(pidfd)
        return self._popen.wait()

    def kill(self) -> None:
        """Send SIGKILL to the child (no-op once it has been reaped)."""
        with contextlib.suppress(ProcessLookupError):
            self._popen.kill()


def spawn(
    argv: Sequence[str],
    *,
    pipe_stderr: bool = True,
    new_session: bool = False,
    pass_fds: Sequence[int] = (),
    preexec: Callable[[], None] | None = None,
    env: Mapping[str, str] | None = None,
) -> Child:
    """Start ``argv`` on the calling thread, tied to this process's life (see the module doc); POSIX.

    stdin and stdout are ``/dev/null``; stderr is piped when ``pipe_stderr``. ``preexec``
    runs in the child before ``exec``, after the parent-death signal is set; ``env`` is its
    environment (default this process's). Raises
    :class:`OSError` when the program cannot be started.
    """
    popen = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE if pipe_stderr else subprocess.DEVNULL,
        start_new_session=new_session,
        pass_fds=tuple(pass_fds),
        preexec_fn=die_with_parent(os.getpid(), preexec),
        env=None if env is None else dict(env),
    )
    stderr = None
    if popen.stderr is not None:
        stderr = trio.lowlevel.FdStream(os.dup(popen.stderr.fileno()))
        popen.stderr.close()
    return Child(popen, stderr)
