"""Finding, starting and reaping a Chromium (DR-4).

:func:`find_browser` looks at ``CDPAGENT_CHROME``, then the usual executable
names on ``PATH``, then the usual macOS and Windows install paths.
:class:`BrowserProcess` starts one with a fresh temporary profile and flags that
keep it off the network, and always reaps it and removes the profile; it forks through
:func:`cdpagent.cdp.children.spawn`, so the browser dies with its host even on ``SIGKILL``,
and removes the profiles of hosts that died that way.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final, Literal

import msgspec
import trio

from ..errors import BrowserNotFound, LaunchError
from .children import Child, child_environ, owned_workdir, remove_stale_workdirs, spawn
from .logs import LAUNCH

__all__ = [
    "BrowserProcess",
    "ProcessPlan",
    "browser_candidates",
    "default_flags",
    "devtools_url",
    "find_browser",
    "process_plan",
    "write_preferences",
]

#: Executable names looked up on ``PATH``, per system, most specific first.
_NAMES: dict[str, tuple[str, ...]] = {
    "linux": (
        "chromium", "chromium-browser", "chromium-headless-shell", "google-chrome", "google-chrome-stable",
        "chrome", "microsoft-edge", "microsoft-edge-stable",
    ),
    "darwin": ("chromium", "google-chrome", "chrome"),
    "win32": ("chrome", "msedge", "chromium"),
}

#: Install locations, relative to a folder: macOS applications folders, Windows program folders.
_MAC_APPS = (
    "Chromium.app/Contents/MacOS/Chromium",
    "Google Chrome.app/Contents/MacOS/Google Chrome",
    "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
)
_WINDOWS_APPS = (
    r"Chromium\Application\chrome.exe",
    r"Google\Chrome\Application\chrome.exe",
    r"Microsoft\Edge\Application\msedge.exe",
)
#: Linux installs that are not always on ``PATH`` (snap's bin folder, Debian's and Fedora's libdirs).
_LINUX_PATHS = (
    "/snap/bin/chromium",
    "/var/lib/snapd/snap/bin/chromium",
    "/usr/lib/chromium/chromium",
    "/usr/lib64/chromium-browser/chromium-browser",
    "/opt/google/chrome/chrome",
)

_STDERR_KEEP = 64 * 1024


def _system(platform: str) -> str:
    return "linux" if platform.startswith(("linux", "freebsd", "openbsd")) else platform


def browser_candidates(platform: str, environ: Mapping[str, str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Where to look for a browser on ``platform`` (``sys.platform``) given ``environ``: pure.

    Returns ``(names, paths)``: executable names to look up on ``PATH``, then full
    install paths to try, each in order. macOS: ``/Applications`` and
    ``~/Applications`` (Chromium, Chrome, Edge). Windows: ``%PROGRAMFILES%``,
    ``%PROGRAMFILES(X86)%`` and the per-user ``%LOCALAPPDATA%`` (Chromium, Chrome,
    Edge). Linux: ``chromium-browser``, Edge and the snap paths among others.
    """
    system = _system(platform)
    names = _NAMES.get(system, _NAMES["linux"])
    paths: list[str] = []
    if system == "darwin":
        home = environ.get("HOME", "")
        folders = ["/Applications", *([f"{home}/Applications"] if home else [])]
        paths = [f"{folder}/{app}" for folder in folders for app in _MAC_APPS]
    elif system == "win32":
        folders = [
            environ.get(key, default)
            for key, default in (
                ("PROGRAMFILES", r"C:\Program Files"),
                ("PROGRAMFILES(X86)", r"C:\Program Files (x86)"),
                ("LOCALAPPDATA", ""),
            )
        ]
        paths = [f"{folder}\\{app}" for folder in folders if folder for app in _WINDOWS_APPS]
    else:
        paths = list(_LINUX_PATHS)
    return names, tuple(paths)


def _is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_browser(
    *,
    platform: str | None = None,
    environ: Mapping[str, str] | None = None,
    is_executable: Callable[[str], bool] = _is_executable,
) -> str:
    """Return the path of the browser to launch.

    Looks at ``CDPAGENT_CHROME``, then :func:`browser_candidates` (names on ``PATH``,
    then install paths). ``platform``, ``environ`` and ``is_executable`` default to
    this system's (tests pass others). Raises :class:`BrowserNotFound` (naming
    ``CDPAGENT_CHROME``) when none is found, or when ``CDPAGENT_CHROME`` names
    something that is not an executable file.
    """
    env = os.environ if environ is None else environ
    chosen = env.get("CDPAGENT_CHROME")
    if chosen:
        if is_executable(chosen):
            return chosen
        raise BrowserNotFound(f"CDPAGENT_CHROME={chosen!r} is not an executable file")
    names, paths = browser_candidates(platform or sys.platform, env)
    for name in names:
        found = shutil.which(name, path=env.get("PATH", os.defpath))
        if found and is_executable(found):
            return found
    for path in paths:
        if is_executable(path):
            return path
    raise BrowserNotFound(
        "no Chromium, Chrome or Edge found on PATH or in the usual install folders; install one "
        "(Debian: apt-get install chromium) or set CDPAGENT_CHROME to the browser executable"
    )


class ProcessPlan(msgspec.Struct, frozen=True):
    """How a browser is started and ended on one system (:func:`process_plan`).

    ``transport`` is what the connection uses; ``lifeline`` says whether the idle pipe
    on fds 3/4 ties a websocket browser's life to ours; ``process_group`` whether the
    browser leads a process group that is killed as a whole; ``job`` whether it runs
    in a Windows job object (:mod:`cdpagent.cdp.winjob`) instead.
    """

    transport: Literal["pipe", "websocket"]
    lifeline: bool
    process_group: bool
    job: bool


def process_plan(platform: str, transport: str) -> ProcessPlan:
    """The plan for ``transport`` (``"pipe"`` or ``"websocket"``) on ``platform``: pure.

    POSIX: as asked, in a new process group, a websocket browser with the pipe as its
    lifeline. Windows has neither inherited descriptors 3/4 nor process groups: always
    the websocket transport, in a kill-on-close job.
    """
    if _system(platform) == "win32":
        return ProcessPlan("websocket", lifeline=False, process_group=False, job=True)
    chosen: Literal["pipe", "websocket"] = "pipe" if transport == "pipe" else "websocket"
    return ProcessPlan(chosen, lifeline=chosen == "websocket", process_group=True, job=False)


def default_flags(profile: str, *, headless: bool, pipe: bool) -> list[str]:
    """The command-line flags cdpagent launches with (off the network, fresh profile)."""
    flags = [
        f"--user-data-dir={profile}",
        "--remote-debugging-pipe" if pipe else "--remote-debugging-port=0",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--disable-back-forward-cache",
        "--disable-features=BackForwardCache,Translate,MediaRouter,OptimizationHints,LoadingPredictorUseLocalPredictions",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--disable-dev-shm-usage",
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
        "--password-store=basic",
        "--use-mock-keychain",
        "--mute-audio",
        "--hide-scrollbars",
        "--window-size=1280,800",
    ]
    if headless:
        flags.append("--headless")
    if sys.platform != "win32" and os.geteuid() == 0:
        flags.append("--no-sandbox")
    flags.append("about:blank")
    return flags


#: Profile preferences a fresh temporary profile starts with: no preconnects or prefetches
#: (``net.network_prediction_options`` 2, "never"), so the browser contacts no server a page
#: or the runtime did not ask for (a storage-state load must reach no network, BR-6).
PREFERENCES: Final = {"net": {"network_prediction_options": 2}}


def write_preferences(profile: str) -> None:
    """Give the fresh profile folder ``profile`` :data:`PREFERENCES` (its ``Default/Preferences``)."""
    default = Path(profile, "Default")
    default.mkdir(parents=True, exist_ok=True)
    (default / "Preferences").write_text(json.dumps(PREFERENCES))


def devtools_url(line: bytes) -> str | None:
    """The websocket url in the browser's ``DevTools listening on ws://…`` stderr line, else ``None``."""
    prefix = b"DevTools listening on "
    return line[len(prefix) :].strip().decode() if line.startswith(prefix) else None


class BrowserProcess:
    """A running browser process with its temporary profile.

    Use :meth:`start`, then always :meth:`stop` (the :func:`cdpagent.launch`
    context manager does both). ``stderr_tail`` keeps the end of the browser's
    error output for launch error messages.
    """

    def __init__(
        self,
        process: Child | trio.Process,
        workdir: str,
        pipe_fds: tuple[int, int] | None,
        profile: str | None = None,
    ) -> None:
        self.process = process
        self.workdir = workdir
        self._profile = profile or os.path.join(workdir, "profile")
        self.pipe_fds = pipe_fds
        self.stderr_tail = b""
        self.ws_url: str | None = None
        self._ws_seen = trio.Event()
        self._stderr_done = trio.Event()
        self._lifeline: tuple[int, int] | None = None
        self._job: int | None = None

    @classmethod
    async def start(
        cls,
        executable: str | None = None,
        *,
        headless: bool = True,
        pipe: bool = True,
        extra_args: Sequence[str] = (),
        user_data_dir: str | os.PathLike[str] | None = None,
    ) -> BrowserProcess:
        """Start the browser; raises :class:`BrowserNotFound` or :class:`LaunchError`.

        ``user_data_dir`` is a profile kept across runs (logins stay); without it the
        profile is a fresh temporary one, removed by :meth:`stop`.

        The browser always gets a DevTools pipe on fds 3 and 4. With ``pipe`` it is the
        transport (:attr:`pipe_fds`); without, it is only a lifeline: nobody writes to
        it, and when its write end closes — :meth:`stop`, or this process dying in any
        way — the browser exits. A process this one forked may keep that end open, so on
        Linux the browser also gets SIGKILL when this process dies
        (:func:`cdpagent.cdp.children.spawn`): a browser never outlives its owner. Temporary
        profiles of owners that died are removed first (:func:`~cdpagent.cdp.children.remove_stale_workdirs`).
        """
        exe = executable or find_browser()
        remove_stale_workdirs()
        workdir = owned_workdir()
        profile = os.fspath(user_data_dir) if user_data_dir is not None else os.path.join(workdir, "profile")
        if user_data_dir is None:
            write_preferences(profile)
        if user_data_dir is not None:
            try:
                os.makedirs(profile, exist_ok=True)
            except OSError as exc:
                shutil.rmtree(workdir, ignore_errors=True)
                raise LaunchError(f"cannot use {profile} as the profile: {exc}") from exc
        if process_plan(sys.platform, "pipe" if pipe else "websocket").job:
            return await cls._start_in_job(exe, workdir, profile, headless, extra_args)
        argv = [exe, *default_flags(profile, headless=headless, pipe=pipe), *extra_args]
        if not pipe:
            argv.insert(1, "--remote-debugging-pipe")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        ours = (from_browser_r, to_browser_w)
        theirs = (to_browser_r, from_browser_w)
        try:
            # On this (the Trio) thread: the parent-death signal follows the forking thread.
            process: Child | trio.Process = spawn(
                argv, new_session=True, pass_fds=(3, 4), preexec=_fd_mover(theirs), env=child_environ(workdir)
            )
        except OSError as exc:
            shutil.rmtree(workdir, ignore_errors=True)
            for fd in (*ours, *theirs):
                os.close(fd)
            raise LaunchError(f"cannot start {exe}: {exc}") from exc
        for fd in theirs:
            os.close(fd)
        LAUNCH.info("started %s (pid %d, %s)", exe, process.pid, "pipe" if pipe else "websocket port")
        if pipe:
            return cls(process, workdir, ours, profile)
        browser = cls(process, workdir, None, profile)
        browser._lifeline = ours
        return browser

    @classmethod
    async def _start_in_job(
        cls, exe: str, workdir: str, profile: str, headless: bool, extra_args: Sequence[str]
    ) -> BrowserProcess:
        """Windows: a websocket browser in a kill-on-close job (no pipes, no process group)."""
        from . import winjob

        argv = [exe, *default_flags(profile, headless=headless, pipe=False), *extra_args]
        try:
            process = await trio.lowlevel.open_process(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            job = winjob.contain(process.pid)
        except OSError as exc:
            shutil.rmtree(workdir, ignore_errors=True)
            raise LaunchError(f"cannot start {exe}: {exc}") from exc
        browser = cls(process, workdir, None)
        browser._job = job
        return browser

    async def drain_stderr(self) -> None:
        """Read the browser's stderr until it closes, keeping the tail and the ws url."""
        stream = self.process.stderr
        assert stream is not None
        pending = b""
        async with stream:
            while True:
                try:
                    chunk = await stream.receive_some(65536)
                except trio.ClosedResourceError:
                    break
                if not chunk:
                    break
                self.stderr_tail = (self.stderr_tail + chunk)[-_STDERR_KEEP:]
                if self.ws_url is None:
                    pending += chunk
                    for line in pending.split(b"\n"):
                        url = devtools_url(line)
                        if url is not None:
                            self.ws_url = url
                            self._ws_seen.set()
                    pending = pending[pending.rfind(b"\n") + 1 :]
        self._ws_seen.set()
        self._stderr_done.set()

    async def wait_ws_url(self) -> str:
        """The DevTools websocket url the browser printed; raises :class:`LaunchError`
        when it exits first."""
        await self._ws_seen.wait()
        if self.ws_url is None:
            raise LaunchError(await self.exit_message())
        return self.ws_url

    async def exit_message(self) -> str:
        """Wait (briefly) for the exited browser's last output; return a launch error message."""
        with trio.move_on_after(5):
            await self.process.wait()
            await self._stderr_done.wait()
        return f"the browser exited during launch: {self.stderr_text()}"

    def stderr_text(self) -> str:
        """The last lines of the browser's error output, for messages."""
        lines = self.stderr_tail.decode(errors="replace").strip().splitlines()
        return " | ".join(lines[-5:]) or "(no output)"

    async def stop(self, grace: float = 5.0) -> None:
        """Wait up to ``grace`` seconds for the browser to exit, then kill its process group.

        Always reaps the process and removes the temporary profile; safe under cancellation.
        """
        with trio.CancelScope(shield=True):
            LAUNCH.debug("stopping the browser (pid %d)", self.process.pid)
            self._close_lifeline()
            with trio.move_on_after(grace):
                await self.process.wait()
            if self.process.returncode is None:
                self.kill()
            await self.process.wait()
            # Children of the browser (renderers, zygote) share its process group.
            self.kill()
            # A renderer may still be writing into the profile as it dies.
            for _ in range(3):
                shutil.rmtree(self.workdir, ignore_errors=True)
                if not await trio.Path(self.workdir).exists():
                    break
                await trio.sleep(0.05)

    def _close_lifeline(self) -> None:
        """Close the websocket browser's idle pipe: the browser starts shutting down."""
        for fd in self._lifeline or ():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._lifeline = None

    def kill(self) -> None:
        """Kill the browser's whole process group, or its job on Windows (no-op once it is gone)."""
        if self._job is not None:
            from . import winjob

            winjob.terminate(self._job)
            self._job = None
            return
        if sys.platform != "win32":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)

    @property
    def profile(self) -> Path:
        """The profile directory: the temporary one (removed by :meth:`stop`) or ``user_data_dir``."""
        return Path(self._profile)


def _fd_mover(theirs: tuple[int, int]) -> Callable[[], None]:
    """A ``preexec_fn`` placing the browser's pipe ends on fds 3 (read) and 4 (write)."""
    read_fd, write_fd = theirs

    def move() -> None:
        r = os.dup(read_fd)
        w = os.dup(write_fd)
        os.dup2(r, 3)
        os.dup2(w, 4)

    return move
