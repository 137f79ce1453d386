"""Files the pages of a browser download: saved in one directory, listed, bounded (SPEC BR-4).

A browser launched by cdpagent saves downloads into its own directory (a
``downloads`` folder beside its temporary profile, or the ``download_dir`` given
to :func:`cdpagent.launch`); Chromium names each file by its guid while it is
written, and :class:`Downloads` renames it to the page's suggested name (made
safe, made unique) once it is complete. The last :data:`MAX_DOWNLOADS` are listed;
a tab is told of each one that starts and ends (its notices, which the receipt of
the action that started it reports).

Downloads are bounded in bytes: one past :attr:`Downloads.max_bytes` (default
:data:`MAX_DOWNLOAD_BYTES`), or one that takes the browser's downloads past
:attr:`Downloads.max_total` (default :data:`MAX_TOTAL_BYTES`), is canceled as soon as
its progress says so (or its announced size does), its partial file removed, and it is
listed and told with :data:`DOWNLOAD_TOO_LARGE`. A page streaming without end therefore
writes at most the cap plus what arrives before Chromium stops it.
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

__all__ = [
    "DOWNLOAD_TOO_LARGE", "MAX_DOWNLOADS", "MAX_DOWNLOAD_BYTES", "MAX_TOTAL_BYTES", "RECEIPT_WAIT",
    "Download", "Downloads",
]

#: A download grew past its cap (one download's, or the browser's for all its downloads): it was canceled
#: and its partial file removed.
DOWNLOAD_TOO_LARGE: Final = "DOWNLOAD_TOO_LARGE"

MAX_DOWNLOADS: Final = 100
#: The default cap of one download, in bytes (``launch(max_download_bytes=…)``, ``--max-download-mb``).
MAX_DOWNLOAD_BYTES: Final = 500_000_000
#: The default cap of all of a browser's downloads together (``max_downloads_total_bytes``,
#: ``--max-downloads-total-mb``).
MAX_TOTAL_BYTES: Final = 2_000_000_000
#: How long an act's receipt waits for the downloads the act started to finish (seconds).
RECEIPT_WAIT: Final = 10.0

State = Literal["in_progress", "completed", "canceled"]


class Download(msgspec.Struct, frozen=True, omit_defaults=True):
    """One download: the file it became (``path``, once completed), its size and state;
    ``code`` says why a download cdpagent stopped was canceled (:data:`DOWNLOAD_TOO_LARGE`)."""

    guid: str
    url: str
    name: str
    state: State
    size: int = 0
    path: str | None = None
    tab: str | None = None
    code: str | None = None


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
    ``cancel(guid)`` asks the browser to cancel a download that passed ``max_bytes``
    or took the total past ``max_total`` (see the module doc).
    """

    def __init__(
        self,
        directory: Path,
        tab_of: Callable[[str], str | None],
        tell: Callable[[str, str], None],
        changed: Callable[[], None],
        cancel: Callable[[str], None] = lambda guid: None,
        *,
        max_bytes: int = MAX_DOWNLOAD_BYTES,
        max_total: int = MAX_TOTAL_BYTES,
    ) -> None:
        if max_bytes <= 0 or max_total <= 0:
            raise ValueError("download caps must be positive numbers of bytes")
        self.directory = directory
        self.max_bytes = max_bytes
        self.max_total = max_total
        self._cancel = cancel
        #: Bytes of the downloads that completed here, and of those still being written (by guid).
        self._finished_bytes = 0
        self._receiving: dict[str, int] = {}
        #: Why each download cdpagent canceled was canceled (by guid).
        self._stopped: dict[str, str] = {}
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

    def _too_large(self, guid: str, received: int, announced: int) -> str | None:
        """Why the download ``guid`` must stop, or None while it is within both caps."""
        if max(received, announced) > self.max_bytes:
            return f"it passed the cap of {self.max_bytes} bytes for one download"
        others = sum(size for g, size in self._receiving.items() if g != guid)
        if self._finished_bytes + others + max(received, announced) > self.max_total:
            return f"it took this browser's downloads past their cap of {self.max_total} bytes"
        return None

    def _on_progress(self, params: dict[str, Any]) -> None:
        guid = str(params.get("guid"))
        item = self._items.get(guid)
        state = params.get("state")
        size = int(params.get("receivedBytes") or 0)
        if item is None:
            return
        if state == "inProgress":
            if guid in self._stopped:
                return
            why = self._too_large(guid, size, int(params.get("totalBytes") or 0))
            self._receiving[guid] = size
            if why is not None:
                self._stopped[guid] = why
                self._cancel(guid)
            return
        if state not in ("completed", "canceled"):
            return
        self._receiving.pop(guid, None)
        why = self._stopped.pop(guid, None)
        if state == "completed" and why is None:
            why = self._too_large(guid, size, 0)  # finished before a progress event passed a cap
        if why is not None:
            # The partial (or over-cap) file is never kept: a page must not fill the disk. The
            # browser writes to "<guid>.crdownload" and may remove it itself, later.
            for leftover in (guid, f"{guid}.crdownload"):
                (self.directory / leftover).unlink(missing_ok=True)
            done = msgspec.structs.replace(item, state="canceled", size=size, code=DOWNLOAD_TOO_LARGE)
            self._put(done)
            if item.tab is not None:
                self._tell(item.tab, f"the download {item.name} was canceled ({DOWNLOAD_TOO_LARGE}): {why}; "
                           "its partial file was removed")  # fmt: skip
            return
        if state == "canceled":
            done = msgspec.structs.replace(item, state="canceled", size=size)
        else:
            self._finished_bytes += size
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
