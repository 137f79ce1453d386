"""One failure, one code: the one translation (:func:`cdpagent.cdp.failures.code_of`), without a browser.

Every driver exception has its row of ``FAILURES``, the same on every surface, and the
Page Agent API's contract reads the row's ``invoke`` column; a coded error keeps its
own code; what is no failure of ours (a bug) has none. The surfaces only format what
the translation returns: an act's receipt, an MCP tool error, a ``script`` line.
What Chromium does on a crash or a close is tested against Chromium
(``tests/test_failures_across_surfaces.py``).
"""

from __future__ import annotations

import pytest
import trio
from mcp_types import CallToolResult

import cdpagent
import cdpagent.codes
from cdpagent.cdp.failures import FAILURES, code_of, failure
from cdpagent.errors import CDPAgentError
from cdpagent.mcp_server.results import guarded
from cdpagent.ops.script import ScriptContext, run_step
from cdpagent.snapshot.receipts import ActionRef, failure_receipt

#: One driver exception of each row, and the row it must find.
RAISED: list[tuple[BaseException, str]] = [
    (cdpagent.TargetCrashed("Runtime.evaluate: the target crashed"), "crash"),
    (cdpagent.SessionClosed("Runtime.evaluate: the target was closed or detached"), "closed tab"),
    (cdpagent.CallTimeout("no answer before the deadline"), "timeout"),
    (trio.TooSlowError(), "timeout"),
    (cdpagent.ConnectionClosed("the browser closed its end of the pipe"), "closed connection"),
    (cdpagent.BrowserNotFound("CDPAGENT_CHROME is not set"), "no browser"),
    (cdpagent.NavigationError("net::ERR_FILE_NOT_FOUND"), "navigation failed"),
    (cdpagent.ProtocolError("DOM.resolveNode", -32000, "No node with given id found"), "protocol refusal"),
    (cdpagent.PageFunctionError("TypeError: boom"), "other driver failure"),
    (cdpagent.SubscriptionOverflow("fell behind"), "other driver failure"),
]


@pytest.mark.parametrize(("error", "event"), RAISED, ids=[e for _, e in RAISED])
def test_every_driver_failure_has_its_row_on_both_contracts(error: BaseException, event: str) -> None:
    row = failure(event)
    code, message = code_of(error) or ("", "")
    assert code == row.code and message.startswith(row.message)
    assert (code_of(error, "invoke") or ("",))[0] == row.invoke
    detail = " ".join(str(error).split())
    assert message == (f"{row.message}: {detail}" if detail else row.message)


def test_every_row_is_met_and_every_code_has_a_meaning() -> None:
    raised = {event for _, event in RAISED}
    assert raised == {row.event for row in FAILURES if row.raised_as}
    meanings = cdpagent.codes.MEANINGS
    assert all(row.code in meanings and row.invoke in meanings for row in FAILURES)


def test_a_coded_error_keeps_its_code_and_a_bug_has_none() -> None:
    coded = cdpagent.PageApiError("PAGE_API_TIMEOUT", "m")
    assert code_of(coded) == code_of(coded, "invoke") == ("PAGE_API_TIMEOUT", "m")
    assert code_of(cdpagent.ObservationError("COLLECT_FAILED", "x")) == ("COLLECT_FAILED", "x")
    assert code_of(ValueError("a bug")) is None
    assert code_of(KeyError("a bug"), "invoke") is None


def test_a_crash_is_tab_crashed_and_page_api_tab_crashed() -> None:
    """One event, one code: the Page Agent API has its own code for a crash, not CALL_FAILED."""
    crashed = cdpagent.TargetCrashed("x")
    assert code_of(crashed) == ("TAB_CRASHED", "the tab's renderer crashed: x")
    assert (code_of(crashed, "invoke") or ("",))[0] == "PAGE_API_TAB_CRASHED"
    assert "PAGE_API_TAB_CRASHED" in cdpagent.codes.MEANINGS


# -- the surfaces only format it ----------------------------------------------------------


@pytest.mark.parametrize(("error", "event"), RAISED, ids=[e for _, e in RAISED])
def test_an_acts_receipt_carries_the_code(error: BaseException, event: str) -> None:
    assert isinstance(error, CDPAgentError | trio.TooSlowError)
    if not isinstance(error, CDPAgentError):
        return  # an act's deadline is its own receipt, not a driver failure
    if isinstance(error, cdpagent.ConnectionClosed):
        with pytest.raises(cdpagent.ConnectionClosed):  # it ends every tab, not one action
            failure_receipt(ActionRef("toggle@t1"), error)
        return
    receipt = failure_receipt(ActionRef("toggle@t1"), error, ["toggle"])
    assert receipt.code == failure(event).code
    assert receipt.result.error is not None and receipt.result.error.available == ["toggle"]


@pytest.mark.parametrize(("error", "event"), RAISED, ids=[e for _, e in RAISED])
async def test_an_mcp_tool_error_carries_the_code(error: BaseException, event: str) -> None:
    async def body() -> None:
        raise error

    result = await guarded(body())
    assert isinstance(result, CallToolResult) and result.is_error
    assert (result.structured_content or {})["error"]["code"] == failure(event).code


async def test_a_script_step_that_fails_names_the_code_in_its_line() -> None:
    class _Gone:
        """A current tab whose every use fails as a crashed tab does."""

        def __getattr__(self, name: str) -> object:
            raise cdpagent.TargetCrashed("Page.reload: the target crashed")

    result, go_on = await run_step(ScriptContext(_Gone(), None), '{"op": "reload"}')  # type: ignore[arg-type]
    assert go_on is False and result["error"]["code"] == "SCRIPT_STEP_FAILED"
    assert result["error"]["message"].startswith("TAB_CRASHED: the tab's renderer crashed")
