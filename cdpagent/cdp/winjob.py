"""Windows job objects: every process of a launched browser ends with its job (Windows only).

On Windows there are no inherited pipe descriptors 3 and 4 and no process groups, so
:func:`cdpagent.launch` runs the browser on a websocket port and puts it into a job
that kills every process in it when the job is terminated or its last handle closes
(``JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE``) — also when cdpagent's own process dies.
The browser's renderers and helpers join the job as they start.

Not exercised by the test suite, which runs on Linux; :func:`cdpagent.cdp.launcher.process_plan`
(which system gets which plan) is unit-tested on every system.
"""

from __future__ import annotations

import ctypes
import sys
from ctypes import wintypes

__all__ = ["contain", "terminate"]

_KILL_ON_JOB_CLOSE = 0x2000
_EXTENDED_LIMIT_INFORMATION = 9
_PROCESS_SET_QUOTA = 0x0100
_PROCESS_TERMINATE = 0x0001


class _BasicLimits(ctypes.Structure):
    _fields_ = [
        ("PerProcessUserTimeLimit", ctypes.c_int64),
        ("PerJobUserTimeLimit", ctypes.c_int64),
        ("LimitFlags", wintypes.DWORD),
        ("MinimumWorkingSetSize", ctypes.c_size_t),
        ("MaximumWorkingSetSize", ctypes.c_size_t),
        ("ActiveProcessLimit", wintypes.DWORD),
        ("Affinity", ctypes.c_size_t),
        ("PriorityClass", wintypes.DWORD),
        ("SchedulingClass", wintypes.DWORD),
    ]


class _IoCounters(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount",
    )]


class _ExtendedLimits(ctypes.Structure):
    _fields_ = [
        ("BasicLimitInformation", _BasicLimits),
        ("IoInfo", _IoCounters),
        ("ProcessMemoryLimit", ctypes.c_size_t),
        ("JobMemoryLimit", ctypes.c_size_t),
        ("PeakProcessMemoryUsed", ctypes.c_size_t),
        ("PeakJobMemoryUsed", ctypes.c_size_t),
    ]


def contain(pid: int) -> int:
    """Put process ``pid`` into a new kill-on-close job; return the job's handle.

    Raises :class:`OSError` (with Windows' error) when the job cannot be made, and on
    any other system.
    """
    if sys.platform != "win32":
        raise OSError("job objects exist on Windows only")
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    job = kernel32.CreateJobObjectW(None, None)
    if not job:
        raise ctypes.WinError(ctypes.get_last_error())
    limits = _ExtendedLimits()
    limits.BasicLimitInformation.LimitFlags = _KILL_ON_JOB_CLOSE
    if not kernel32.SetInformationJobObject(
        job, _EXTENDED_LIMIT_INFORMATION, ctypes.byref(limits), ctypes.sizeof(limits)
    ):
        raise ctypes.WinError(ctypes.get_last_error())
    process = kernel32.OpenProcess(_PROCESS_SET_QUOTA | _PROCESS_TERMINATE, False, pid)
    if not process:
        raise ctypes.WinError(ctypes.get_last_error())
    try:
        if not kernel32.AssignProcessToJobObject(job, process):
            raise ctypes.WinError(ctypes.get_last_error())
    finally:
        kernel32.CloseHandle(process)
    return int(job)


def terminate(job: int) -> None:
    """Kill every process of ``job`` and close it (no-op off Windows)."""
    if sys.platform != "win32":
        return
    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
    kernel32.TerminateJobObject(job, 1)
    kernel32.CloseHandle(job)
