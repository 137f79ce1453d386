"""Which files a page may be given: the upload policy of ``Tab.act(..., files=[paths])`` (SPEC BR-4).

A browser allows uploads only from the directories it was given
(``launch(allow_dirs=…)``, ``connect(…, allow_dirs=…)``, ``--allow-dir DIR``);
by default none, so every upload is refused and the message says how to allow one.
A path counts once it is resolved (``..`` and symlinks followed) to a regular file
under one of those directories: a link inside an allowed directory that points out
of it is refused. Whether a path outside every allowed directory exists is never
said. The check is pure apart from reading file metadata, so it is unit-tested
on a temporary tree. An act consults it as a policy object (:class:`UploadPolicy`, one of
the act's hooks, :class:`cdpagent.act.roundtrip.Hooks`): the ``upload`` performer
(:mod:`cdpagent.act.upload`) asks it before the page sees a path.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Sequence
from typing import Final

import msgspec

from ..cdp.failures import FILE_NOT_ALLOWED
from ..errors import OperationError
from ..snapshot.codes import INVALID_ARGUMENT

__all__ = ["MAX_FILES", "UploadPolicy", "allowed_files", "upload_dirs"]

#: At most this many files in one upload.
MAX_FILES: Final = 50

HOW_TO_ALLOW: Final = (
    "uploads are allowed only from directories the user allows: "
    "launch(allow_dirs=[DIR]) / connect(..., allow_dirs=[DIR]) in Python, --allow-dir DIR on the command line"
)


def upload_dirs(dirs: Iterable[str | os.PathLike[str]] | None) -> tuple[str, ...]:
    """The allowed directories, resolved (symlinks followed) once, as the browser keeps them."""
    return tuple(os.path.realpath(os.fspath(d)) for d in dirs or ())


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def allowed_files(paths: Sequence[str], allow_dirs: Sequence[str]) -> list[str]:
    """``paths`` resolved, once every one is a regular file under one of ``allow_dirs`` (resolved).

    Raises :class:`~cdpagent.errors.OperationError`: ``INVALID_ARGUMENT`` for no
    path, more than :data:`MAX_FILES` or an empty one; ``FILE_NOT_ALLOWED`` when no
    directory is allowed, or a path resolves outside them, is missing or is not a
    regular file. Nothing is opened.
    """
    if not paths:
        raise OperationError(INVALID_ARGUMENT, "files is empty: give at least one path")
    if len(paths) > MAX_FILES:
        raise OperationError(INVALID_ARGUMENT, f"files: at most {MAX_FILES} paths, not {len(paths)}")
    if not allow_dirs:
        raise OperationError(FILE_NOT_ALLOWED, f"no directory allows uploads; {HOW_TO_ALLOW}")
    resolved = []
    for given in paths:
        if not given:
            raise OperationError(INVALID_ARGUMENT, "files: a path is empty")
        path = os.path.realpath(given)
        if not any(_inside(path, d) for d in allow_dirs):
            raise OperationError(
                FILE_NOT_ALLOWED, f"{given!r} is not under an allowed directory; {HOW_TO_ALLOW}"
            )
        try:
            mode = os.stat(path).st_mode
        except OSError:
            raise OperationError(FILE_NOT_ALLOWED, f"{given!r}: no such file") from None
        if not stat.S_ISREG(mode):
            raise OperationError(FILE_NOT_ALLOWED, f"{given!r} is not a regular file")
        resolved.append(path)
    return resolved


class UploadPolicy(msgspec.Struct, frozen=True):
    """The files a page may be given: regular files under ``dirs`` (resolved, :func:`upload_dirs`);
    none when ``dirs`` is empty."""

    dirs: tuple[str, ...] = ()

    def allowed(self, paths: Sequence[str]) -> list[str]:
        """:func:`allowed_files` of ``paths`` under this policy's directories (same errors)."""
        return allowed_files(paths, self.dirs)
