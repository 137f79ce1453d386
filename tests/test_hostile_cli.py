"""The command line against bad input and signals (issue 22, items 14 and 15).

Bad numbers and unreadable files are refused by ``cdpagent.commandline.main.main`` itself
(exit 2, the flag or file named) before anything starts; the signal tests run
``cdpagent`` as a subprocess with its own Chromium and a private ``TMPDIR``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import trio
from conftest import EXAMPLES
from scripted_model import Reply, ScriptedModel

from cdpagent.commandline.main import main

TODOS = str(EXAMPLES / "todos" / "index.html")


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["chat", "--timeout", "-3", TODOS, "hi"], "--timeout"),
        (["chat", "--timeout", "nan", TODOS, "hi"], "--timeout"),
        (["chat", "--max-steps", "0", TODOS, "hi"], "--max-steps"),
        (["observe", "--max-records", "-5", TODOS], "--max-records"),
        (["observe", "--timeout", "0", TODOS], "--timeout"),
        (["observe", "--timeout", "inf", TODOS], "--timeout"),
        (["call", "--timeout", "x", TODOS, "m"], "--timeout"),
        (["mcp", "--max-tabs", "0"], "--max-tabs"),
    ],
)
def test_sf2_bad_numbers_exit_2_naming_the_flag_before_anything_starts(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert f"argument {named}" in capsys.readouterr().err


def test_sf2_unreadable_or_non_utf8_files_exit_2_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    role = tmp_path / "role.toml"
    role.write_bytes(b'name = "x"\npage = "p.html"\napplication = "\xff\xfe"\n')
    assert main(["chat", "--role", str(role), "--base-url", "http://127.0.0.1:9/v1", "hi"]) == 2
    err = capsys.readouterr().err
    assert str(role) in err and "UTF-8" in err and "UnicodeDecodeError" not in err
    steps = tmp_path / "steps.jsonl"
    steps.write_bytes(b'{"op": "observe"}\n\xff\n')
    assert main(["script", TODOS, str(steps)]) == 2
    assert str(steps) in capsys.readouterr().err
    assert main(["script", TODOS, str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err


def _profiles(tmp: Path) -> list[Path]:
    return [p for p in tmp.iterdir() if p.name.startswith("cdpagent-")]


async def _stopped_cleanly(argv: list[str], tmp: Path, ready: bytes, number: int) -> None:
    # A short folder of its own, not pytest's tmp_path: Chromium puts its singleton socket in
    # TMPDIR, and a Unix socket path may not exceed 107 bytes (an xdist worker's tmp_path is long).
    tmp = Path(tempfile.mkdtemp(prefix="sig-", dir="/tmp"))
    try:
        await _stop_in(tmp, argv, ready, number)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


async def _stop_in(tmp: Path, argv: list[str], ready: bytes, number: int) -> None:
    env = {**os.environ, "TMPDIR": str(tmp)}
    process = await trio.lowlevel.open_process(
        [sys.executable, "-m", "cdpagent", *argv],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        seen = b""
        with trio.fail_after(60):
            while ready not in seen:
                chunk = await (process.stdout if ready.startswith(b"{") else process.stderr).receive_some()
                assert chunk, seen
                seen += chunk
            assert _profiles(tmp), "the command runs with a temporary profile"
            process.send_signal(number)
            await process.wait()
        assert process.returncode == 128 + number
        assert _profiles(tmp) == [], "the temporary profile was left behind"
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


@pytest.mark.browser
async def test_sf2_sigterm_during_chat_removes_the_temporary_profile(tmp_path: Path) -> None:
    """Before: SIGTERM ended chat at once and its 2.4 MB profile stayed in the temporary folder."""
    server = ScriptedModel([Reply(hang=True)])
    with server.running():
        argv = ["chat", "--base-url", server.url, "--model", "scripted", TODOS, "hi"]
        await _stopped_cleanly(argv, tmp_path, b"request 1:", signal.SIGTERM)


@pytest.mark.browser
async def test_sf2_sighup_during_a_script_removes_the_temporary_profile(tmp_path: Path) -> None:
    steps = tmp_path / "steps.jsonl"
    steps.write_text('{"op": "wait", "ms": 1}\n{"op": "wait", "ms": 60000}\n', encoding="utf-8")
    await _stopped_cleanly(["script", TODOS, str(steps)], tmp_path, b'{"op"', signal.SIGHUP)
