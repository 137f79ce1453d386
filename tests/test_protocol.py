"""DR-2 / DR-5: the sans-IO protocol core, driven with bytes in and events out."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cdpagent import ConnectionClosed, ProtocolError, SessionClosed, TargetCrashed
from cdpagent.cdp.protocol import CallFailed, Event, ProtocolCore, Reply, SessionEnded


def msg(**fields: Any) -> bytes:
    return json.dumps(fields).encode()


def attach(core: ProtocolCore, session: str = "S1") -> None:
    core.receive(
        msg(method="Target.attachedToTarget", params={"sessionId": session, "targetInfo": {}})
    )


def test_dr2_command_encodes_envelope_and_allocates_ids() -> None:
    core = ProtocolCore()
    first, data = core.command("Runtime.evaluate", {"expression": "1"})
    second, data2 = core.command("Browser.getVersion")
    assert (first, second) == (1, 2)
    assert json.loads(data) == {"id": 1, "method": "Runtime.evaluate", "params": {"expression": "1"}}
    assert json.loads(data2) == {"id": 2, "method": "Browser.getVersion", "params": {}}
    assert core.pending_count == 2


def test_dr2_reply_resolves_its_call_with_raw_result() -> None:
    core = ProtocolCore()
    call_id, _ = core.command("Browser.getVersion")
    (reply,) = core.receive(msg(id=call_id, result={"product": "x"}))
    assert isinstance(reply, Reply) and reply.id == call_id
    assert msgspec.json.decode(reply.result) == {"product": "x"}
    assert core.pending_count == 0


def test_dr2_error_reply_becomes_protocol_error_with_cdp_code() -> None:
    core = ProtocolCore()
    call_id, _ = core.command("Runtime.evaluate", {})
    (failed,) = core.receive(msg(id=call_id, error={"code": -32602, "message": "Invalid parameters"}))
    assert isinstance(failed, CallFailed)
    assert isinstance(failed.error, ProtocolError)
    assert failed.error.code == -32602
    assert failed.error.method == "Runtime.evaluate"
    assert "Invalid parameters" in str(failed.error)


def test_dr5_reply_for_unknown_or_cancelled_id_is_dropped() -> None:
    core = ProtocolCore()
    assert core.receive(msg(id=999, result={})) == []
    call_id, _ = core.command("Runtime.evaluate", {})
    core.cancel(call_id)
    assert core.receive(msg(id=call_id, result={})) == []
    assert core.dropped == 2


def test_dr2_events_are_routed_by_session() -> None:
    core = ProtocolCore()
    attach(core)
    events = core.receive(msg(method="Page.loadEventFired", params={"timestamp": 1}, sessionId="S1"))
    assert events == [Event("S1", "Page.loadEventFired", msgspec.Raw(b'{"timestamp": 1}'))]
    (browser_event,) = core.receive(msg(method="Target.targetCreated", params={}))
    assert isinstance(browser_event, Event) and browser_event.session_id is None


def test_dr5_event_for_closed_session_is_dropped() -> None:
    core = ProtocolCore()
    attach(core)
    core.receive(msg(method="Target.detachedFromTarget", params={"sessionId": "S1"}))
    assert core.receive(msg(method="Page.loadEventFired", params={}, sessionId="S1")) == []
    assert core.receive(msg(method="Page.loadEventFired", params={}, sessionId="never")) == []
    with pytest.raises(SessionClosed):
        core.command("Page.enable", None, "S1")


def test_dr5_detach_fails_only_that_sessions_calls() -> None:
    core = ProtocolCore()
    attach(core, "S1")
    attach(core, "S2")
    on_s1, _ = core.command("Runtime.evaluate", {}, "S1")
    on_s2, _ = core.command("Runtime.evaluate", {}, "S2")
    out = core.receive(msg(method="Target.detachedFromTarget", params={"sessionId": "S1"}))
    failed = [e for e in out if isinstance(e, CallFailed)]
    assert [f.id for f in failed] == [on_s1]
    assert isinstance(failed[0].error, SessionClosed)
    assert core.pending_count == 1
    (reply,) = core.receive(msg(id=on_s2, result={}, sessionId="S2"))
    assert isinstance(reply, Reply)


def test_dr5_sessions_attached_through_a_session_end_with_it() -> None:
    """A tab's frame sessions end with the tab's, even when the browser sends no detach for them."""
    core = ProtocolCore()
    attach(core, "TAB")
    attach(core, "OTHER")
    for child, parent in (("FRAME", "TAB"), ("NESTED", "FRAME")):
        core.receive(
            msg(
                method="Target.attachedToTarget",
                params={"sessionId": child, "targetInfo": {}},
                sessionId=parent,
            )
        )
    on_nested, _ = core.command("Runtime.evaluate", {}, "NESTED")
    out = core.receive(msg(method="Target.detachedFromTarget", params={"sessionId": "TAB"}))
    (failed,) = [e for e in out if isinstance(e, CallFailed)]
    assert failed.id == on_nested and isinstance(failed.error, SessionClosed)
    assert [e for e in out if isinstance(e, SessionEnded)] == [
        SessionEnded("TAB"),
        SessionEnded("FRAME"),
        SessionEnded("NESTED"),
    ]
    assert core.attached == {"OTHER"} and core.pending_count == 0
    # A detach for a session already gone reports nothing more.
    again = core.receive(msg(method="Target.detachedFromTarget", params={"sessionId": "FRAME"}))
    assert not [e for e in again if isinstance(e, SessionEnded)]


def test_dr5_crash_fails_pending_and_new_calls_until_reload() -> None:
    core = ProtocolCore()
    attach(core)
    call_id, _ = core.command("Runtime.evaluate", {}, "S1")
    out = core.receive(msg(method="Inspector.targetCrashed", params={}, sessionId="S1"))
    failed = [e for e in out if isinstance(e, CallFailed)]
    assert [f.id for f in failed] == [call_id]
    assert isinstance(failed[0].error, TargetCrashed)
    with pytest.raises(TargetCrashed):
        core.command("Runtime.evaluate", {}, "S1")
    core.receive(msg(method="Inspector.targetReloadedAfterCrash", params={}, sessionId="S1"))
    core.command("Runtime.evaluate", {}, "S1")


def test_dr5_connection_lost_fails_everything_and_refuses_new_calls() -> None:
    core = ProtocolCore()
    attach(core)
    ids = [core.command("Runtime.evaluate", {}, "S1")[0], core.command("Browser.getVersion")[0]]
    failed = core.connection_lost("browser died")
    assert sorted(f.id for f in failed) == ids
    assert all(isinstance(f.error, ConnectionClosed) for f in failed)
    assert "browser died" in str(failed[0].error)
    with pytest.raises(ConnectionClosed):
        core.command("Browser.getVersion")


def test_dr2_garbage_is_a_decode_error() -> None:
    core = ProtocolCore()
    with pytest.raises(msgspec.DecodeError):
        core.receive(b"<html>not cdp</html>")


OPS = st.sampled_from(["send", "reply", "error", "cancel", "detach"])


@given(st.lists(st.tuples(OPS, st.integers(0, 20))))
def test_dr5_every_call_ends_exactly_once(ops: list[tuple[str, int]]) -> None:
    """Whatever the interleaving, a call is resolved at most once and none is left behind."""
    core = ProtocolCore()
    attach(core)
    live: set[int] = set()
    ended: set[int] = set()
    for op, n in ops:
        if op == "send":
            try:
                call_id, _ = core.command("X.y", {}, "S1")
            except SessionClosed:
                continue
            live.add(call_id)
        elif op == "detach":
            out = core.receive(msg(method="Target.detachedFromTarget", params={"sessionId": "S1"}))
            for ev in out:
                if isinstance(ev, CallFailed):
                    assert ev.id not in ended
                    ended.add(ev.id)
                    live.discard(ev.id)
            attach(core)
        elif op == "cancel":
            core.cancel(n)
            live.discard(n)
        else:
            body = {"result": {}} if op == "reply" else {"error": {"code": 1, "message": "m"}}
            for ev in core.receive(msg(id=n, sessionId="S1", **body)):
                assert isinstance(ev, Reply | CallFailed)
                assert ev.id in live and ev.id not in ended
                ended.add(ev.id)
                live.discard(ev.id)
    assert core.pending_count == len(live)
    failed = core.connection_lost()
    assert {f.id for f in failed} == live
