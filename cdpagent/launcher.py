"""Finding, starting and reaping a Chromium (DR-4).

:func:`find_browser` looks at ``CDPAGENT_CHROME``, then the usual executable
names on ``PATH``, then the usual macOS and Windows install paths.
:class:`BrowserProcess` starts one with a fresh temporary profile and flags that
keep it off the network, and always reaps it and removes the profile.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import trio

from .errors import BrowserNotFound, LaunchError

__all__ = ["BrowserProcess", "default_flags", "devtools_url", "find_browser"]

_NAMES = ("chromium", "chromium-headless-shell", "google-chrome", "google-chrome-stable", "chrome")
_INSTALL_PATHS = (
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    r"C:\Program Files\Google\Chrome\Application\chrome.exe",
    r"C:\Program Files (x86)\Google\Chrome\Application\chrome.exe",
)

_STDERR_KEEP = 64 * 1024


def find_browser() -> str:
    """Return the path of the browser to launch.

    Raises :class:`BrowserNotFound` (naming ``CDPAGENT_CHROME``) when none is found,
    or when ``CDPAGENT_CHROME`` names something that is not an executable file.
    """
    env = os.environ.get("CDPAGENT_CHROME")
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env
        raise BrowserNotFound(f"CDPAGENT_CHROME={env!r} is not an executable file")
    for name in _NAMES:
        found = shutil.which(name)
        if found:
            return found
    for path in _INSTALL_PATHS:
        if os.path.isfile(path):
            return path
    raise BrowserNotFound(
        "no Chromium or Chrome found on PATH; install one (Debian: apt-get install chromium) "
        "or set CDPAGENT_CHROME to the browser executable"
    )


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
        "--disable-features=BackForwardCache,Translate,MediaRouter,OptimizationHints",
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
        process: trio.Process,
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
        way — the browser exits, so a browser on a websocket port never outlives its owner.
        """
        exe = executable or find_browser()
        workdir = tempfile.mkdtemp(prefix="cdpagent-")
        profile = os.fspath(user_data_dir) if user_data_dir is not None else os.path.join(workdir, "profile")
        if user_data_dir is not None:
            try:
                os.makedirs(profile, exist_ok=True)
            except OSError as exc:
                shutil.rmtree(workdir, ignore_errors=True)
                raise LaunchError(f"cannot use {profile} as the profile: {exc}") from exc
        argv = [exe, *default_flags(profile, headless=headless, pipe=pipe), *extra_args]
        if not pipe:
            argv.insert(1, "--remote-debugging-pipe")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        ours = (from_browser_r, to_browser_w)
        theirs = (to_browser_r, from_browser_w)
        try:
            process = await trio.lowlevel.open_process(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
                pass_fds=(3, 4),
                preexec_fn=_fd_mover(theirs),
            )
        except OSError as exc:
            shutil.rmtree(workdir, ignore_errors=True)
            for fd in (*ours, *theirs):
                os.close(fd)
            raise LaunchError(f"cannot start {exe}: {exc}") from exc
        for fd in theirs:
            os.close(fd)
        if pipe:
            return cls(process, workdir, ours, profile)
        browser = cls(process, workdir, None, profile)
        browser._lifeline = ours
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
        """Kill the browser's whole process group (no-op once it is gone)."""
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
