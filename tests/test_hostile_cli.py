"""The command line against bad input (issue 22, item 14), without a browser.

Bad numbers and unreadable files are refused by ``cdpagent.commandline.main.main`` itself
(exit 2, the flag or file named) before anything starts. The signal tests (item 15) start
Chromium and live in tests/test_actions_cli.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import EXAMPLES

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
