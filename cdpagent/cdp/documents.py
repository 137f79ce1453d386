"""Frames, their documents and their execution contexts, as a pure state machine (DR-6).

A :class:`DocumentTracker` is fed the ``Page.*`` and ``Runtime.*`` events of one
tab with :meth:`DocumentTracker.apply` (and, once, the result of
``Page.getFrameTree``) and answers: which frames exist, what is each frame's
current document, is it loaded, and which execution context belongs to which
world of it. It does no IO and can be driven by recorded event traces.

Theory of operation:

* A *document* is one committed cross-document navigation of a frame:
  ``frameId`` + ``loaderId``, numbered with a ``serial`` that only grows. Every
  ``Page.frameNavigated`` starts a new document, including a back/forward-cache
  restore (which may reuse a loader id: the serial still changes, so an old
  document can never come back unnoticed).
* A new document of a frame drops the frames the old document contained.
* ``Page.navigatedWithinDocument`` (``#hash``, ``pushState``) changes the URL
  and keeps the document.
* The main frame's last documents are kept (:attr:`DocumentTracker.main_documents`), so
  that "this navigation's document loaded" holds even when the next navigation committed
  in the same burst of events as that load: a waiter wakes once per burst, not per event.
* Execution contexts are created and destroyed by Runtime events and belong to
  a frame and a world (``""`` for the page's main world, else the isolated
  world's name). Chromium destroys a document's contexts before its
  replacement's are created, so a frame's live contexts are the new
  document's.
* :attr:`DocumentTracker.memo` holds what readers computed from the state (the Page
  Agent API's call target, read on every ``Tab.invoke``); every change empties it, so
  a reader finds there only what still holds, and only this class changes the state.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, Final

import msgspec

__all__ = ["Context", "Document", "DocumentTracker", "Frame"]

#: The main frame's documents kept, the current one included (a page that navigates every
#: few milliseconds replaces more between two wake-ups of a waiter only under extreme load).
MAIN_DOCUMENTS_KEPT: Final = 8


class Document(msgspec.Struct):
    """One document of one frame. ``serial`` identifies it across the whole tab."""

    frame_id: str
    loader_id: str
    url: str
    serial: int
    dom_ready: bool = False
    loaded: bool = False


class Context(msgspec.Struct, frozen=True):
    """A live execution context: CDP's id, its ``uniqueId`` (when given), its world."""

    id: int
    unique_id: str
    world: str


class Frame(msgspec.Struct):
    """A frame, its parent (``None`` for the main frame), document and contexts."""

    id: str
    parent_id: str | None
    document: Document | None = None
    contexts: dict[str, Context] = msgspec.field(default_factory=dict)


class DocumentTracker:
    """Tracks the frame tree of one tab; see the module docstring."""

    def __init__(self, on_change: Callable[[], None] | None = None) -> None:
        #: Called after an event changed the tracked state (the tab wakes its waiters).
        self.on_change = on_change
        self.frames: dict[str, Frame] = {}
        self.main_frame_id: str | None = None
        self._serial = 0
        self._context_frame: dict[int, str] = {}
        #: The main frame's last documents, oldest first, the current one last.
        self.main_documents: deque[Document] = deque(maxlen=MAIN_DOCUMENTS_KEPT)
        #: Answers computed from the current state by its readers, each under a key of its
        #: own; emptied by every change of the state (see the module docstring).
        self.memo: dict[object, Any] = {}

    @property
    def main(self) -> Document | None:
        """The main frame's current document, or ``None`` before one is known."""
        if self.main_frame_id is None:
            return None
        frame = self.frames.get(self.main_frame_id)
        return frame.document if frame is not None else None

    def context(self, world: str = "", frame_id: str | None = None) -> Context | None:
        """The live context of ``world`` in ``frame_id`` (default: the main frame)."""
        fid = frame_id if frame_id is not None else self.main_frame_id
        frame = self.frames.get(fid) if fid is not None else None
        return frame.contexts.get(world) if frame is not None else None

    def world_ready(self, world: str, loaded: bool = False) -> bool:
        """Whether the current main document has a live context of ``world`` (and, with ``loaded``,
        fired ``load``)."""
        document = self.main
        return document is not None and (document.loaded or not loaded) and self.context(world) is not None

    def frame_of_context(self, context_id: int) -> Frame | None:
        """The frame that owns live context ``context_id``, if any."""
        fid = self._context_frame.get(context_id)
        return self.frames.get(fid) if fid is not None else None

    def load_frame_tree(self, tree: dict[str, Any]) -> None:
        """Seed the state from a ``Page.getFrameTree`` result's ``frameTree``."""
        self.memo.clear()
        self._load(tree, None)

    def _load(self, node: dict[str, Any], parent_id: str | None) -> None:
        info = node["frame"]
        known = self.frames.get(info["id"])
        if known is None or known.document is None:
            self._navigated(info, parent_id)
        for child in node.get("childFrames", ()):
            self._load(child, info["id"])

    def mark_ready(self, document: Document, ready_state: object) -> bool:
        """Record a ``document.readyState`` read from the page for a document
        that was already there when tracking began; returns whether it changed."""
        if ready_state == "complete" and not document.loaded:
            document.dom_ready = document.loaded = True
        elif ready_state == "interactive" and not document.dom_ready:
            document.dom_ready = True
        else:
            return False
        self.memo.clear()
        return True

    def apply(self, method: str, params: dict[str, Any]) -> bool:
        """Apply one event; returns whether the tracked state changed (then ``on_change()`` was
        called)."""
        handler = _HANDLERS.get(method)
        changed = handler(self, params) if handler is not None else False
        if changed:
            self.memo.clear()
            if self.on_change is not None:
                self.on_change()
        return changed

    # -- event handlers ---------------------------------------------------

    def _frame_attached(self, p: dict[str, Any]) -> bool:
        fid = p["frameId"]
        if fid in self.frames:
            return False
        self.frames[fid] = Frame(fid, p.get("parentFrameId"))
        return True

    def _frame_navigated(self, p: dict[str, Any]) -> bool:
        info = p["frame"]
        self._navigated(info, info.get("parentId"))
        return True

    def _navigated(self, info: dict[str, Any], parent_id: str | None) -> None:
        fid = info["id"]
        frame = self.frames.get(fid)
        if frame is None:
            frame = self.frames[fid] = Frame(fid, parent_id)
        frame.parent_id = parent_id
        # Child frames belonged to the old document; Chromium does not always detach them.
        for child in [f.id for f in self.frames.values() if f.parent_id == fid]:
            self._remove(child)
        if parent_id is None:
            self.main_frame_id = fid
        self._serial += 1
        url = info.get("url", "") + info.get("urlFragment", "")
        frame.document = Document(fid, info.get("loaderId", ""), url, self._serial)
        if parent_id is None:
            self.main_documents.append(frame.document)

    def _within_document(self, p: dict[str, Any]) -> bool:
        frame = self.frames.get(p["frameId"])
        if frame is None or frame.document is None:
            return False
        frame.document.url = p["url"]
        return True

    def _frame_detached(self, p: dict[str, Any]) -> bool:
        if p.get("reason") == "swap":
            return False
        return self._remove(p["frameId"])

    def _remove(self, fid: str) -> bool:
        frame = self.frames.pop(fid, None)
        if frame is None:
            return False
        for ctx in frame.contexts.values():
            self._context_frame.pop(ctx.id, None)
        for child in [f.id for f in self.frames.values() if f.parent_id == fid]:
            self._remove(child)
        return True

    def _lifecycle(self, p: dict[str, Any]) -> bool:
        frame = self.frames.get(p["frameId"])
        doc = frame.document if frame is not None else None
        if doc is None or doc.loader_id != p.get("loaderId"):
            return False
        name = p["name"]
        if name == "DOMContentLoaded":
            doc.dom_ready = True
        elif name == "load":
            doc.dom_ready = doc.loaded = True
        else:
            return False
        return True

    def _context_created(self, p: dict[str, Any]) -> bool:
        ctx = p["context"]
        aux = ctx.get("auxData") or {}
        fid = aux.get("frameId")
        if fid is None:
            return False
        frame = self.frames.get(fid)
        if frame is None:
            frame = self.frames[fid] = Frame(fid, None)
        world = "" if aux.get("isDefault") else ctx.get("name", "")
        old = frame.contexts.get(world)
        if old is not None:
            self._context_frame.pop(old.id, None)
        frame.contexts[world] = Context(ctx["id"], ctx.get("uniqueId", ""), world)
        self._context_frame[ctx["id"]] = fid
        return True

    def _context_destroyed(self, p: dict[str, Any]) -> bool:
        cid = p["executionContextId"]
        fid = self._context_frame.pop(cid, None)
        frame = self.frames.get(fid) if fid is not None else None
        if frame is None:
            return False
        for world, ctx in list(frame.contexts.items()):
            if ctx.id == cid:
                del frame.contexts[world]
        return True

    def _contexts_cleared(self, _: dict[str, Any]) -> bool:
        for frame in self.frames.values():
            frame.contexts.clear()
        self._context_frame.clear()
        return True


_HANDLERS = {
    "Page.frameAttached": DocumentTracker._frame_attached,
    "Page.frameNavigated": DocumentTracker._frame_navigated,
    "Page.navigatedWithinDocument": DocumentTracker._within_document,
    "Page.frameDetached": DocumentTracker._frame_detached,
    "Page.lifecycleEvent": DocumentTracker._lifecycle,
    "Runtime.executionContextCreated": DocumentTracker._context_created,
    "Runtime.executionContextDestroyed": DocumentTracker._context_destroyed,
    "Runtime.executionContextsCleared": DocumentTracker._contexts_cleared,
}

#: The events a tracker needs (subscribe the tab's session to all of them).
TRACKED_EVENTS = tuple(_HANDLERS)
