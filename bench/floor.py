"""The floor for CDP round trips: a minimal blocking client over the browser's pipe.

No framework, no event loop: ``os.write`` a NUL-terminated command, ``os.readv``
into one buffer until the reply with that id arrives. ``bench/roundtrip.py`` and
``bench/invoke.py`` measure cdpagent against it in the same run.

The buffer is allocated once: a plain ``os.read(fd, 1 << 20)`` allocates 1 MiB per
read, which glibc serves with ``mmap`` and shrinks with ``mremap`` — three system calls
and page faults per reply, 60–180 µs on a loaded 2-core machine, which an earlier
floor carried (and cdpagent's transports with it), flattering every ratio to it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from typing import Any

from cdpagent.cdp.launcher import default_flags, find_browser

__all__ = ["BlockingPipeClient"]


class BlockingPipeClient:
    """Launches its own browser and talks to it with blocking reads and writes."""

    def __init__(self) -> None:
        self.workdir = tempfile.mkdtemp(prefix="cdpagent-floor-")
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()

        def move() -> None:
            r, w = os.dup(to_r), os.dup(from_w)
            os.dup2(r, 3)
            os.dup2(w, 4)

        argv = [find_browser(), *default_flags(os.path.join(self.workdir, "p"), headless=True, pipe=True)]
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4),
            preexec_fn=move,
            start_new_session=True,
        )
        os.close(to_r)
        os.close(from_w)
        self.rfd, self.wfd = from_r, to_w
        self.buf = b""
        self.chunk = bytearray(1 << 20)
        self.next_id = 1
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        self.call("Runtime.enable", session=self.session)

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        """Send one command and block until its reply; returns the ``result`` object."""
        call_id = self.next_id
        self.next_id += 1
        msg: dict[str, Any] = {"id": call_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.wfd, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                size = os.readv(self.rfd, (self.chunk,))
                if not size:
                    raise OSError("the browser closed its end of the pipe")
                self.buf += self.chunk[:size]
            raw, _, self.buf = self.buf.partition(b"\0")
            reply = json.loads(raw)
            if reply.get("id") == call_id:
                return reply.get("result")

    def close(self) -> None:
        """Close the browser and remove its profile."""
        with contextlib.suppress(OSError):
            self.call("Browser.close")
        self.proc.wait(timeout=10)
        os.close(self.rfd)
        os.close(self.wfd)
        shutil.rmtree(self.workdir, ignore_errors=True)
