"""Whether test-started processes are still alive, and waiting until they have exited.

Read from ``/proc`` (Linux only, as the project is). A zombie counts as exited: it
runs nothing, and it stays a zombie only until its parent (or init, once the
parent died) reaps it. Waiting uses a pidfd, which becomes readable when its
process exits, so no test polls with a sleep; callers bound a wait with
``trio.fail_after``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import trio


def _stat(pid: int | str) -> tuple[str, int, int] | None:
    """``(state, ppid, process group)`` of ``pid`` from ``/proc/PID/stat``, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses; the fields after the last ")" cannot.
    state, ppid, group = text[text.rindex(")") + 2 :].split()[:3]
    return state, int(ppid), int(group)


def _processes() -> dict[int, tuple[str, int, int]]:
    """Every process now in ``/proc``, by pid."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(entry)) is not None:
            found[int(entry)] = stat
    return found


def alive(pids: Iterable[int]) -> set[int]:
    """Those of ``pids`` that are running now (neither gone nor zombies)."""
    return {pid for pid in pids if (stat := _stat(pid)) is not None and stat[0] != "Z"}


def live_members(group: int) -> list[int]:
    """The processes of process group ``group`` that are running now (zombies left out)."""
    return [pid for pid, (state, _, pgrp) in _processes().items() if pgrp == group and state != "Z"]


def descendants(pid: int) -> set[int]:
    """Every process now below ``pid`` in the process tree, zombies included."""
    children: dict[int, list[int]] = {}
    for child, (_, ppid, _) in _processes().items():
        children.setdefault(ppid, []).append(child)
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


async def wait_exited(pid: int) -> None:
    """Return once process ``pid`` has exited (is a zombie or gone); no timeout of its own."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        await trio.lowlevel.wait_readable(fd)
    finally:
        os.close(fd)


async def wait_group_exited(group: int) -> None:
    """Return once no process of process group ``group`` is running; no timeout of its own.

    Members are waited on one at a time and the group is listed again after each,
    so a member that outlived its parent (and is reaped by init a moment later) or
    one forked meanwhile is waited for too.
    """
    while members := live_members(group):
        await wait_exited(members[0])


async def wait_groups_exited(groups: Iterable[int]) -> None:
    """Return once no process of any of the process groups ``groups`` is running; no timeout of its own."""
    for group in groups:
        await wait_group_exited(group)
