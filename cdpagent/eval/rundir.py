"""The run folder: ``run.json``, ``results.jsonl`` (appended as episodes finish), ``episodes/``,
``summary.json`` and ``report.html``.

An interrupted run keeps every line it wrote; ``resume`` reads them back, drops a
last line cut off mid-write, and the run continues with the episodes that have no
line. Without ``resume``, a folder that already holds results is refused, so two
runs never mix in one file. A resumed run must use the same model.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from ..errors import RunDirError
from .records import EpisodeRecord, Transcript

__all__ = ["RESULTS", "RUN", "SUMMARY", "RunDir", "RunDirError", "read_results"]

RESULTS = "results.jsonl"
RUN = "run.json"
SUMMARY = "summary.json"
REPORT = "report.html"

_decode_record = msgspec.json.Decoder(EpisodeRecord)


def read_results(folder: str | os.PathLike[str]) -> list[EpisodeRecord]:
    """The records of ``folder/results.jsonl``; a last line cut off mid-write is skipped.

    Raises :class:`RunDirError` when the file is missing or a line other than the
    last is not a record.
    """
    path = Path(folder) / RESULTS
    try:
        lines = path.read_bytes().splitlines()
    except OSError as error:
        raise RunDirError(f"{path}: cannot read the results ({error.strerror})") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(_decode_record.decode(line))
        except msgspec.DecodeError as error:
            if number == len(lines):
                break
            raise RunDirError(f"{path}:{number}: not an episode record ({error})") from None
    return records


class RunDir:
    """The files of one run in ``folder``; :meth:`open` checks it, the rest write as the run goes."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    def open(self, meta: dict[str, Any], *, resume: bool) -> list[EpisodeRecord]:
        """Prepare the folder for a run described by ``meta``; returns the records to keep.

        Raises :class:`RunDirError` when results exist and ``resume`` is false, or when
        resuming a run of another model.
        """
        results = self.folder / RESULTS
        kept: list[EpisodeRecord] = []
        if results.exists() and results.stat().st_size:
            if not resume:
                raise RunDirError(
                    f"{self.folder} already holds a run; pass --resume to continue it or choose another --out"
                )
            before = self._meta()
            if before.get("model") not in (None, meta.get("model")):
                raise RunDirError(
                    f"{self.folder} holds a run of model {before.get('model')!r}, not {meta.get('model')!r}"
                )
            kept = read_results(self.folder)
            # Rewrite without a line cut off mid-write, so appends start on a fresh line.
            results.write_bytes(b"".join(msgspec.json.encode(r) + b"\n" for r in kept))
        (self.folder / "episodes").mkdir(parents=True, exist_ok=True)
        (self.folder / RUN).write_bytes(msgspec.json.format(msgspec.json.encode(meta)) + b"\n")
        return kept

    def _meta(self) -> dict[str, Any]:
        try:
            value = msgspec.json.decode((self.folder / RUN).read_bytes())
        except (OSError, msgspec.DecodeError):
            return {}
        return value if isinstance(value, dict) else {}

    def append(self, record: EpisodeRecord, transcript: Transcript) -> None:
        """Write the episode's transcript, then its line (flushed, so an interruption keeps it)."""
        (self.folder / record.transcript).write_bytes(msgspec.json.encode(transcript))
        with (self.folder / RESULTS).open("ab") as out:
            out.write(msgspec.json.encode(record) + b"\n")
            out.flush()

    def write(self, name: str, data: bytes) -> Path:
        """Write ``data`` to ``folder/name``; returns the path."""
        path = self.folder / name
        path.write_bytes(data)
        return path

    def transcripts(self, records: Sequence[EpisodeRecord]) -> dict[tuple[str, int], Transcript]:
        """The transcripts of ``records`` that are on disk (a missing or unreadable one is left out)."""
        found = {}
        for record in records:
            try:
                found[record.key()] = msgspec.json.decode(
                    (self.folder / record.transcript).read_bytes(), type=Transcript
                )
            except (OSError, msgspec.DecodeError, msgspec.ValidationError):
                continue
        return found
