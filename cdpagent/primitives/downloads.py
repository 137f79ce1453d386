"""Files the pages of a browser download: saved in one directory, listed, bounded (SPEC BR-4).

A browser launched by cdpagent saves downloads into its own directory (a
``downloads`` folder beside its temporary profile, or the ``download_dir`` given
to :func:`cdpagent.launch`); Chromium names each file by its guid while it is
written, and :class:`Downloads` renames it to the page's suggested name (made
safe, made unique) once it is complete. The last :data:`MAX_DOWNLOADS` are listed;
a tab is told of each one that starts and ends (its notices, which the receipt of
the action that started it reports).
"""

from __future__ import annotations

import collections
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal

import msgspec
import trio

from ..cdp.target import Command
from ..snapshot.receipts import Receipt

__all__ = ["MAX_DOWNLOADS", "RECEIPT_WAIT", "Download", "Downloads"]

MAX_DOWNLOADS: Final = 100
#: How long an act's receipt waits for the downloads the act started to finish (seconds).
RECEIPT_WAIT: Final = 10.0

State = Literal["in_progress", "completed", "canceled"]


class Download(msgspec.Struct, frozen=True, omit_defaults=True):
    """One download: the file it became (``path``, once completed), its size and state."""

    guid: str
    url: str
    name: str
    state: State
    size: int = 0
    path: str | None = None
    tab: str | None = None


_UNSAFE = re.compile(r"[^\w.\- ()\[\]]+")


def safe_name(suggested: str) -> str:
    """A file name from the page's suggestion: no directories, no control or special characters."""
    name = _UNSAFE.sub("_", os.path.basename(suggested.replace("\\", "/"))).strip(" .")
    return name[:120] or "download"


class Downloads:
    """The downloads of one browser, fed by its browser-level session's events.

    ``tab_of(frame_id)`` names the tab whose frame started a download,
    ``tell(tab_id, text)`` reports to that tab (its notices), and ``changed()`` is
    called after every change of the list (the browser wakes its waiters).
    """

    def __init__(
        self,
        directory: Path,
        tab_of: Callable[[str], str | None],
        tell: Callable[[str, str], None],
        changed: Callable[[], None],
    ) -> None:
        self.directory = directory
        self._changed = changed
        self._tab_of = tab_of
        self._tell = tell
        self._items: collections.OrderedDict[str, Download] = collections.OrderedDict()
        #: How many downloads ever began here (a mark for :meth:`finish_receipt`).
        self.started = 0
        self._begun: collections.deque[str] = collections.deque(maxlen=MAX_DOWNLOADS)
        self._moved = trio.Event()

    def command(self) -> Command:
        """The browser-level command that sends downloads here, with their events."""
        return (
            "Browser.setDownloadBehavior",
            {"behavior": "allowAndName", "downloadPath": str(self.directory), "eventsEnabled": True},
        )

    def handlers(self) -> dict[str, Callable[[dict[str, Any]], None]]:
        """The browser-session event handlers to register."""
        return {"Browser.downloadWillBegin": self._on_begin, "Browser.downloadProgress": self._on_progress}

    @property
    def items(self) -> list[Download]:
        """The last :data:`MAX_DOWNLOADS` downloads, oldest first."""
        return list(self._items.values())

    def _put(self, item: Download) -> None:
        self._items[item.guid] = item
        self._items.move_to_end(item.guid)
        while len(self._items) > MAX_DOWNLOADS:
            self._items.popitem(last=False)
        self._moved.set()
        self._moved = trio.Event()
        self._changed()

    def _on_begin(self, params: dict[str, Any]) -> None:
        tab = self._tab_of(str(params.get("frameId", "")))
        item = Download(
            str(params["guid"]), str(params.get("url", ""))[:500],
            safe_name(str(params.get("suggestedFilename", ""))), "in_progress", tab=tab,
        )
        self.started += 1
        self._begun.append(item.guid)
        self._put(item)
        if tab is not None:
            self._tell(tab, f"a download started: {item.name}")

    def _on_progress(self, params: dict[str, Any]) -> None:
        item = self._items.get(str(params.get("guid")))
        state = params.get("state")
        if item is None or state not in ("completed", "canceled"):
            return
        size = int(params.get("receivedBytes") or 0)
        if state == "canceled":
            done = msgspec.structs.replace(item, state="canceled", size=size)
        else:
            done = msgspec.structs.replace(item, state="completed", size=size, path=str(self._place(item)))
        self._put(done)
        if item.tab is not None:
            what = f"saved as {done.path} ({size} bytes)" if done.path else "canceled"
            self._tell(item.tab, f"the download {item.name} was {what}")

    def _since(self, mark: int, tab: str) -> list[str]:
        """The guids of ``tab``'s downloads that began after :attr:`started` was ``mark``."""
        fresh = list(self._begun)[-(self.started - mark) :] if self.started > mark else []
        return [g for g in fresh if g in self._items and self._items[g].tab == tab]

    async def finish_receipt(
        self, receipt: Receipt, tab: str, mark: int, notices: Callable[[], list[str]], deadline: float
    ) -> Receipt:
        """``receipt`` of an act on ``tab`` once the downloads it started (since ``mark``)
        have ended, at most :data:`RECEIPT_WAIT` seconds and never past ``deadline``: their
        ``notices()`` (saved where, how many bytes) join its warnings, so the receipt of the
        act that started a download says where it went. A download still running then is
        said to be. Without such downloads ``receipt`` is returned as it is, at once."""
        guids = self._since(mark, tab)
        if not guids:
            return receipt

        def running() -> list[Download]:
            return [d for g in guids if (d := self._items.get(g)) is not None and d.state == "in_progress"]

        with trio.move_on_at(min(deadline, trio.current_time() + RECEIPT_WAIT)):
            while running():
                await self._moved.wait()
        told = notices() + [f"the download {d.name} is still in progress; see downloads" for d in running()]
        if not told:
            return receipt
        warnings = [*(receipt.result.warnings or []), *told]
        return Receipt(msgspec.structs.replace(receipt.result, warnings=warnings))

    def _place(self, item: Download) -> Path:
        """Rename the guid-named file to its own name, never over another file."""
        written = self.directory / item.guid
        stem, dot, ext = item.name.rpartition(".")
        if not dot:
            stem, ext = item.name, ""
        for n in range(1000):
            suffix = f" ({n})" if n else ""
            candidate = self.directory / (f"{stem}{suffix}.{ext}" if ext else f"{stem}{suffix}")
            try:
                fd = os.open(candidate, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                continue
            os.close(fd)
            try:
                os.replace(written, candidate)
            except OSError:
                candidate.unlink(missing_ok=True)
                return written
            return candidate
        return written
