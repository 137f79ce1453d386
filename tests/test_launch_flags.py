"""The launch flags as parsed, without a browser: every command that starts one takes them
(:mod:`cdpagent.console.flags` adds them in one place), and ``launch_options`` turns them into
``launch()`` keyword arguments. tests/test_browser_flags.py shows what they do to Chromium."""

from __future__ import annotations

import argparse
import inspect

import pytest

import cdpagent
from cdpagent import StepError
from cdpagent.commandline import main
from cdpagent.console.flags import add_browser_flags, browser_from_flags, launch_options

FLAGS = ("--headed", "--chrome-arg", "--user-data-dir", "--storage-state", "--allow-dir")


def test_every_command_that_starts_a_browser_takes_the_launch_flags(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, commands = main._parser()
    starting = [name for name in commands if name not in ("examples", "trace")]  # these only read files
    assert {"demo", "call", "script", "observe", "chat", "mcp", "eval"} <= set(starting)
    for name in starting:
        with pytest.raises(SystemExit) as done:
            main.main([name, "--help"])
        assert done.value.code == 0
        shown = capsys.readouterr().out
        for flag in FLAGS:
            assert flag in shown, (name, flag)
        assert ("--trace PATH" in shown) is (name not in ("demo", "eval")), name


def test_the_flags_become_launch_keyword_arguments() -> None:
    parser = argparse.ArgumentParser()
    add_browser_flags(parser)
    args = parser.parse_args(
        ["--headed", "--chrome-arg=--lang=de", "--chrome-arg=-x", "--user-data-dir", "p",
         "--storage-state", "s.json", "--allow-dir", "a", "--allow-dir", "b"]
    )  # fmt: skip
    options = launch_options(args)
    assert options == {
        "headless": False, "args": ("--lang=de", "-x"), "user_data_dir": "p", "storage_state": "s.json",
        "allow_dirs": ("a", "b"),
    }  # fmt: skip
    assert set(options) <= set(inspect.signature(cdpagent.launch).parameters)
    assert launch_options(parser.parse_args([]))["headless"] is True
    capped = launch_options(parser.parse_args(["--max-download-mb", "5", "--max-downloads-total-mb", "7"]))
    assert (capped["max_download_bytes"], capped["max_downloads_total_bytes"]) == (5_000_000, 7_000_000)
    assert set(capped) <= set(inspect.signature(cdpagent.launch).parameters)
    with pytest.raises(SystemExit):
        parser.parse_args(["--max-download-mb", "0"])
    # A grid's browser is not launched here: the launch flags are refused with it, by name.
    with pytest.raises(StepError, match="--headed, --storage-state need a browser cdpagent launches"):
        grid = ["--grid", "http://127.0.0.1:1", "--headed", "--storage-state", "s"]
        browser_from_flags(parser.parse_args(grid))
