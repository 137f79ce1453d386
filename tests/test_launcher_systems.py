"""DR-4: where cdpagent looks for a browser on each system, and how it starts one there — pure
functions of the system and its environment, so every system's answer is tested here on Linux."""

from __future__ import annotations

import pytest

from cdpagent import BrowserNotFound
from cdpagent.cdp.launcher import browser_candidates, find_browser, process_plan


def test_dr4_macos_looks_in_both_applications_folders_for_chromium_chrome_and_edge() -> None:
    names, paths = browser_candidates("darwin", {"HOME": "/Users/ann"})
    assert "google-chrome" in names
    assert paths == (
        "/Applications/Chromium.app/Contents/MacOS/Chromium",
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
        "/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium",
        "/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        "/Users/ann/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
    )


def test_dr4_windows_looks_in_program_files_and_the_users_local_app_data() -> None:
    environ = {"PROGRAMFILES": r"D:\Apps", "LOCALAPPDATA": r"C:\Users\ann\AppData\Local"}
    names, paths = browser_candidates("win32", environ)
    assert names[:2] == ("chrome", "msedge")
    assert r"D:\Apps\Google\Chrome\Application\chrome.exe" in paths
    assert r"C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe" in paths  # the default
    assert r"C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe" in paths
    assert r"C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe" in paths


def test_dr4_linux_knows_chromium_browser_edge_and_snap() -> None:
    names, paths = browser_candidates("linux", {})
    assert names[:2] == ("chromium", "chromium-browser")
    assert "microsoft-edge" in names
    assert "/snap/bin/chromium" in paths


def test_dr4_the_first_executable_candidate_wins_and_the_variable_comes_first() -> None:
    home = "/Users/ann"
    edge = f"{home}/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"
    found = find_browser(platform="darwin", environ={"HOME": home, "PATH": "/nonexistent"},
                         is_executable=lambda path: path == edge)
    assert found == edge
    chosen = find_browser(platform="darwin", environ={"CDPAGENT_CHROME": "/x/chrome", "PATH": ""},
                          is_executable=lambda path: True)
    assert chosen == "/x/chrome"
    with pytest.raises(BrowserNotFound, match="CDPAGENT_CHROME='/x/chrome' is not an executable"):
        find_browser(
            platform="linux", environ={"CDPAGENT_CHROME": "/x/chrome"}, is_executable=lambda path: False
        )


def test_dr4_windows_always_runs_the_browser_on_a_websocket_in_a_job() -> None:
    for asked in ("pipe", "websocket"):
        plan = process_plan("win32", asked)
        assert (plan.transport, plan.job) == ("websocket", True)
        assert not plan.process_group and not plan.lifeline


def test_dr4_posix_runs_as_asked_in_a_process_group() -> None:
    for platform in ("linux", "darwin"):
        pipe, socket = process_plan(platform, "pipe"), process_plan(platform, "websocket")
        assert (pipe.transport, pipe.lifeline, pipe.process_group, pipe.job) == ("pipe", False, True, False)
        assert (socket.transport, socket.lifeline, socket.process_group) == ("websocket", True, True)
