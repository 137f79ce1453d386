"""DR-6: the document state machine, replayed on recorded Chromium traces (no browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cdpagent.cdp.documents import DocumentTracker

TRACES = Path(__file__).resolve().parent / "traces"


def replay(name: str) -> tuple[DocumentTracker, int, list[int]]:
    """Seed a tracker from the trace's frame tree, replay its events.

    Returns the tracker, the main document's serial before the events, and
    the serial after each event.
    """
    trace: dict[str, Any] = json.loads((TRACES / f"{name}.json").read_text())
    tracker = DocumentTracker()
    tracker.load_frame_tree(trace["frameTree"])
    assert tracker.main is not None
    before = tracker.main.serial
    serials = []
    for method, params in trace["events"]:
        tracker.apply(method, params)
        serials.append(tracker.main.serial if tracker.main else -1)
    return tracker, before, serials


@pytest.mark.parametrize("name", ["reload", "navigate", "back"])
def test_dr6_cross_document_navigation_makes_a_new_document(name: str) -> None:
    tracker, before, _ = replay(name)
    main = tracker.main
    assert main is not None
    assert main.serial != before
    assert main.loaded
    ctx = tracker.context("")
    assert ctx is not None, "the new document's main world context is tracked"
    assert tracker.frame_of_context(ctx.id) is tracker.frames[main.frame_id]


@pytest.mark.parametrize("name", ["hash", "pushstate"])
def test_dr6_same_document_navigation_keeps_the_document(name: str) -> None:
    tracker, before, serials = replay(name)
    main = tracker.main
    assert main is not None
    assert set(serials) == {before}
    expected = "#section" if name == "hash" else "?state=1"
    assert main.url.endswith(expected)


def test_dr6_iframes_are_tracked_with_their_parent() -> None:
    tracker, _, _ = replay("reload")
    main = tracker.main
    assert main is not None
    children = [f for f in tracker.frames.values() if f.parent_id == main.frame_id]
    assert len(children) == 1
    child_doc = children[0].document
    assert child_doc is not None and child_doc.url.endswith("child.html")
    assert child_doc.loaded


def test_dr6_reload_with_the_same_loader_still_changes_serial() -> None:
    """A back/forward-cache restore may reuse a loader id; the serial must still move."""
    tracker = DocumentTracker()
    frame = {"id": "F", "loaderId": "L1", "url": "file:///a.html"}
    tracker.apply("Page.frameNavigated", {"frame": frame, "type": "Navigation"})
    first = tracker.main
    assert first is not None
    tracker.apply("Page.lifecycleEvent", {"frameId": "F", "loaderId": "L1", "name": "load"})
    tracker.apply("Page.frameNavigated", {"frame": frame, "type": "BackForwardCacheRestore"})
    second = tracker.main
    assert second is not None
    assert second.serial != first.serial
    assert not second.loaded


def test_dr6_contexts_follow_create_destroy_and_clear() -> None:
    tracker = DocumentTracker()
    tracker.apply("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "L", "url": "u"}})
    aux = {"frameId": "F", "isDefault": True}
    tracker.apply("Runtime.executionContextCreated", {"context": {"id": 1, "auxData": aux, "uniqueId": "u1"}})
    iso = {"frameId": "F", "isDefault": False, "type": "isolated"}
    tracker.apply(
        "Runtime.executionContextCreated", {"context": {"id": 2, "name": "w", "auxData": iso}}
    )
    main_ctx, world_ctx = tracker.context(""), tracker.context("w")
    assert main_ctx is not None and main_ctx.id == 1 and main_ctx.unique_id == "u1"
    assert world_ctx is not None and world_ctx.id == 2
    tracker.apply("Runtime.executionContextDestroyed", {"executionContextId": 2})
    assert tracker.context("w") is None
    tracker.apply("Runtime.executionContextsCleared", {})
    assert tracker.context("") is None
    assert tracker.frame_of_context(1) is None


def test_dr6_detached_frames_and_their_children_are_forgotten() -> None:
    tracker = DocumentTracker()
    tracker.apply("Page.frameNavigated", {"frame": {"id": "M", "loaderId": "L", "url": "u"}})
    tracker.apply("Page.frameAttached", {"frameId": "C", "parentFrameId": "M"})
    tracker.apply("Page.frameAttached", {"frameId": "G", "parentFrameId": "C"})
    assert tracker.apply("Page.frameDetached", {"frameId": "C", "reason": "remove"})
    assert set(tracker.frames) == {"M"}
    # A "swap" detach means the frame moved to another process: it still exists.
    tracker.apply("Page.frameAttached", {"frameId": "S", "parentFrameId": "M"})
    assert not tracker.apply("Page.frameDetached", {"frameId": "S", "reason": "swap"})
    assert "S" in tracker.frames


def test_dr6_lifecycle_of_an_old_loader_is_ignored() -> None:
    tracker = DocumentTracker()
    tracker.apply("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "new", "url": "u"}})
    assert not tracker.apply("Page.lifecycleEvent", {"frameId": "F", "loaderId": "old", "name": "load"})
    main = tracker.main
    assert main is not None and not main.loaded


def test_dr6_a_main_document_replaced_right_after_its_load_is_still_known_loaded() -> None:
    """A page that navigates on right after its load: the load of the document a navigation
    waits for and the commit of the next one can reach the tab in one burst, and the waiter
    wakes after both. The replaced document is kept, loaded (Tab.navigate's wait reads it)."""
    tracker = DocumentTracker()
    tracker.load_frame_tree({"frame": {"id": "F", "loaderId": "L0", "url": "about:blank"}})
    for n in range(1, 12):
        frame = {"id": "F", "loaderId": f"L{n}", "url": f"file:///page{n}.html"}
        tracker.apply("Page.frameNavigated", {"frame": frame})
        tracker.apply("Page.lifecycleEvent", {"frameId": "F", "loaderId": f"L{n}", "name": "load"})
    tracker.apply("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "L12", "url": "file:///next.html"}})
    main = tracker.main
    assert main is not None and main.loader_id == "L12" and not main.loaded
    kept = list(tracker.main_documents)
    assert [d.loader_id for d in kept] == [f"L{n}" for n in range(5, 13)]  # the last eight
    assert all(d.loaded for d in kept[:-1]) and [d.serial for d in kept] == sorted(d.serial for d in kept)


def test_dr6_the_memo_holds_only_what_the_current_state_computed() -> None:
    """Readers keep answers in ``memo`` (Tab.invoke its call target): every change of the state
    empties it, an event that changes nothing keeps it."""
    tracker = DocumentTracker()
    tracker.load_frame_tree({"frame": {"id": "F", "loaderId": "L", "url": "file:///a.html"}})
    aux = {"frameId": "F", "isDefault": True}
    changes: list[tuple[str, dict[str, Any]]] = [
        ("Runtime.executionContextCreated", {"context": {"id": 1, "auxData": aux}}),
        ("Page.lifecycleEvent", {"frameId": "F", "loaderId": "L", "name": "load"}),
        ("Page.navigatedWithinDocument", {"frameId": "F", "url": "file:///a.html#b"}),
        ("Page.frameAttached", {"frameId": "C", "parentFrameId": "F"}),
        ("Page.frameDetached", {"frameId": "C", "reason": "remove"}),
        ("Runtime.executionContextDestroyed", {"executionContextId": 1}),
        ("Runtime.executionContextsCleared", {}),
        ("Page.frameNavigated", {"frame": {"id": "F", "loaderId": "L2", "url": "file:///c.html"}}),
    ]
    for method, params in changes:
        tracker.memo["key"] = "answer"
        assert tracker.apply(method, params), method
        assert tracker.memo == {}, method
    tracker.memo["key"] = "answer"
    assert not tracker.apply("Page.lifecycleEvent", {"frameId": "F", "loaderId": "old", "name": "load"})
    assert not tracker.apply("Page.frameDetached", {"frameId": "F", "reason": "swap"})
    assert tracker.memo == {"key": "answer"}
    main = tracker.main
    assert main is not None
    assert tracker.mark_ready(main, "complete") and tracker.memo == {}
    tracker.memo["key"] = "answer"
    assert not tracker.mark_ready(main, "complete") and tracker.memo == {"key": "answer"}
    tracker.load_frame_tree({"frame": {"id": "F", "loaderId": "L2", "url": "file:///c.html"}})
    assert tracker.memo == {}
