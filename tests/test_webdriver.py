"""The WebDriver wire of a Selenium Grid hub without IO: answers in, values or typed errors out (SC-1).

The answers are shaped like Selenium Grid 4.48's (checked against a real hub in test_grid.py).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from cdpagent import GridCapabilitiesRefused, GridError, GridNoFreeSlot, GridNotAHub
from cdpagent.remote.webdriver import (
    JSON_UTF8,
    Answer,
    new_session_body,
    offers,
    read_deleted,
    read_new_session,
    read_status,
)

HUB = "http://127.0.0.1:4444"
CHROME = {"browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium"}}


def json_answer(value: Any, status: int = 200) -> Answer:
    return Answer(status, JSON_UTF8, msgspec.json.encode({"value": value}))


def error_answer(error: str, message: str, status: int = 500) -> Answer:
    return json_answer({"error": error, "message": message, "stacktrace": ""}, status)


def test_sc1_new_session_body_uses_always_match() -> None:
    body = msgspec.json.decode(new_session_body({"browserName": "chrome"}))
    assert body == {"capabilities": {"alwaysMatch": {"browserName": "chrome"}, "firstMatch": [{}]}}


def test_sc1_status_lists_slots_sessions_and_the_shortest_timeout() -> None:
    node = {
        "availability": "UP",
        "sessionTimeout": 15000,
        "slots": [
            {"stereotype": CHROME, "session": {"sessionId": "s1"}},
            {"stereotype": CHROME, "session": None},
        ],
    }
    idle = [{"stereotype": CHROME, "session": None}]
    down = {"availability": "DOWN", "sessionTimeout": 1000, "slots": idle}
    status = read_status(HUB, json_answer({"ready": True, "message": "ok", "nodes": [node, down]}))
    assert status.sessions() == {"s1"} and status.session_timeout == 15
    assert status.free_slots({"browserName": "chrome"}) == 1
    assert status.offering({"browserName": "CHROME"}) == 2
    assert status.offering({"browserName": "firefox"}) == 0


def test_sc1_capability_matching() -> None:
    assert offers(CHROME, {})
    assert offers(CHROME, {"browserName": "chrome", "platformName": "linux"})
    assert not offers({"platformName": "linux"}, {"browserName": "chrome"})
    assert not offers({"browserName": "chrome", "browserVersion": "120"}, {"browserVersion": "121"})


def test_sc1_new_session_reads_se_cdp() -> None:
    caps = {"browserName": "chrome", "se:cdp": "ws://127.0.0.1:4444/session/abc/se/cdp"}
    session = read_new_session(HUB, json_answer({"sessionId": "abc", "capabilities": caps}))
    assert (session.session_id, session.cdp_url) == ("abc", caps["se:cdp"])


@pytest.mark.parametrize(
    ("answer", "error", "words"),
    [
        (
            error_answer("session not created", "New session request timed out"),
            GridNoFreeSlot,
            "no slot",
        ),
        (error_answer("session not created", "cannot find Chrome binary"), GridCapabilitiesRefused, "binary"),
        (error_answer("invalid argument", "bad capability", 400), GridCapabilitiesRefused, "bad capability"),
        (error_answer("unknown error", "Content-Type header does not indicate utf-8"), GridError, "utf-8"),
        (
            json_answer({"sessionId": "x", "capabilities": {"browserName": "firefox"}}),
            GridCapabilitiesRefused,
            "se:cdp",
        ),
        (Answer(200, "text/html", b"<html>hello</html>"), GridNotAHub, "text/html"),
        (Answer(200, JSON_UTF8, b"{not json"), GridNotAHub, "malformed"),
        (Answer(200, JSON_UTF8, b"[1, 2]"), GridNotAHub, "value"),
    ],
)
def test_sc1_refused_session_is_a_typed_error_naming_the_cause(
    answer: Answer, error: type[GridError], words: str
) -> None:
    with pytest.raises(error, match=words) as raised:
        read_new_session(HUB, answer)
    assert raised.value.hub == HUB


def test_sc1_status_of_something_else_is_not_a_hub() -> None:
    with pytest.raises(GridNotAHub, match="nodes"):
        read_status(HUB, json_answer({"ready": True, "message": "a standalone driver"}))


def test_sc1_deleting_a_session_already_gone_succeeds() -> None:
    read_deleted(HUB, "abc", json_answer(None))
    read_deleted(HUB, "abc", error_answer("invalid session id", "Unable to find session with ID: abc", 404))
    with pytest.raises(GridError, match="could not delete session abc"):
        read_deleted(HUB, "abc", error_answer("unknown error", "Connection error"))
