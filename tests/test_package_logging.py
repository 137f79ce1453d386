"""SF-2: cdpagent says what it does through :mod:`logging`, shows progress on a terminal, and a
closed stdout ends a command quietly."""

from __future__ import annotations

import argparse
import io
import logging
import os
import subprocess

import pytest
import trio
import trio.testing
from mcp_support import CDPAGENT

import cdpagent
from cdpagent.cdp.logs import ENV, level_from
from cdpagent.commandline.main import _parser
from cdpagent.console.slow_steps import slow_step


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_sf2_levels_from_flags_and_environment() -> None:
    assert level_from(0, False, {}) == logging.WARNING
    assert level_from(1, False, {}) == logging.INFO
    assert level_from(2, False, {}) == logging.DEBUG
    assert level_from(0, True, {}) == logging.DEBUG
    assert level_from(0, False, {ENV: "debug"}) == logging.DEBUG
    assert level_from(2, False, {ENV: "warning"}) == logging.DEBUG  # the more verbose wins
    with pytest.raises(ValueError, match="CDPAGENT_LOG='loud' is not a log level"):
        level_from(0, False, {ENV: "loud"})


async def test_sf2_a_slow_step_shows_its_seconds_on_a_terminal(
    autojump_clock: trio.testing.MockClock,
) -> None:
    out = Terminal()
    async with slow_step("launching the browser", stream=out):
        await trio.sleep(3.5)
    shown = out.getvalue()
    assert "\rcdpagent: launching the browser… 1 s" in shown
    assert "\rcdpagent: launching the browser… 3 s" in shown
    assert shown.endswith("\rcdpagent: launching the browser: done in 3.5 s\n")


async def test_sf2_a_quick_step_or_a_pipe_shows_nothing(autojump_clock: trio.testing.MockClock) -> None:
    quick, piped = Terminal(), io.StringIO()
    async with slow_step("observing", stream=quick):
        await trio.sleep(0.9)
    async with slow_step("observing", stream=piped):
        await trio.sleep(5)
    assert quick.getvalue() == piped.getvalue() == ""


async def test_sf2_a_failing_slow_step_raises_its_own_error(autojump_clock: trio.testing.MockClock) -> None:
    out = Terminal()
    with pytest.raises(KeyError):
        async with slow_step("observing", stream=out):
            await trio.sleep(2)
            raise KeyError("x")
    assert out.getvalue().endswith("observing: failed in 2.0 s\n")


async def test_sf2_cdp_traffic_is_logged_without_page_data(
    recorded_browser: cdpagent.Browser, caplog: pytest.LogCaptureFixture
) -> None:
    tab = await recorded_browser.open("example:hello")
    with caplog.at_level(logging.INFO, logger="cdpagent"):
        reply = await tab.session.send("Runtime.evaluate", {"expression": "'page' + '-data-' + 'xyz'"})
        await tab.observe()
    assert reply["result"]["value"] == "page-data-xyz"
    traffic = [r.getMessage() for r in caplog.records if r.name == "cdpagent.cdp"]
    line = next(m for m in traffic if m.startswith("Runtime.evaluate ["))
    assert " B → " in line and line.endswith(" ms")
    assert not any("data-xyz" in r.getMessage() for r in caplog.records)
    observed = [r.getMessage() for r in caplog.records if r.name == "cdpagent.observe"]
    assert len(observed) == 1 and observed[0].startswith(f"{tab.id}: settled ")


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: argparse.ArgumentParser = action.choices[name]
    return found


def _cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CDPAGENT), *argv], capture_output=True, text=True, timeout=120, env=env)


def test_sf2_verbose_and_debug_on_every_command() -> None:
    parser, commands = _parser()
    assert "-v, --verbose" in parser.format_help()
    for name in commands:
        shown = _subparser(parser, name).format_help()
        assert "-v, --verbose" in shown and "--debug" in shown, name
        command = _subparser(parser, name)
        assert command.description and len(command.description) > 40, name
        assert command.epilog and command.epilog.startswith("examples:\n  "), name
        assert f"cdpagent {name}" in command.epilog, name
    # A failure before any browser starts: no browser where CDPAGENT_CHROME points. (A missing
    # steps file is a usage error now, exit 2 naming the file, before this point.)
    env = {**os.environ, "CDPAGENT_CHROME": "/nonexistent/chrome"}
    failed = _cli("observe", "example:todos", "--debug", env=env)
    assert failed.returncode == 1
    assert "Traceback (most recent call last)" in failed.stderr
    last = failed.stderr.splitlines()[-1]
    assert last == "cdpagent: CDPAGENT_CHROME='/nonexistent/chrome' is not an executable file"
    quiet = _cli("observe", "example:todos", env=env)
    assert quiet.returncode == 1 and "Traceback" not in quiet.stderr
    assert quiet.stderr.startswith("cdpagent: CDPAGENT_CHROME=")


def test_sf2_a_closed_stdout_ends_quietly_with_status_0() -> None:
    """``cdpagent … | head``: the reader went away before the output; cdpagent stops without a word."""
    listing = subprocess.Popen([str(CDPAGENT), "examples"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert listing.stdout is not None and listing.stderr is not None
    listing.stdout.close()
    status = listing.wait(timeout=60)
    errors = listing.stderr.read().decode()
    assert (status, errors) == (0, ""), errors
