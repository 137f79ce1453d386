"""Every budget and knob of an observation, in one Struct (SPEC OB-3, OB-6).

The first eight fields are SPEC OB-3's defaults under snake_case names
(``maxActions`` → ``max_actions`` …). The character budgets after them are
cdpagent's own and are chosen so that the rendered text plus the tools JSON
stays under ``max_total_chars`` (12,000) whatever the page size.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .kinds import PAGE_KINDS

__all__ = ["COLLECTOR_BOUNDS", "REFUSED_RECORD_ID", "CollectorBounds", "ObserveOptions"]

REFUSED_RECORD_ID = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]|</?page_data"
"""Record ids matching this (case-insensitive; the same regular expression in
Python and JavaScript) are refused: control characters, line breaks and fence
text could forge lines of the observation or the tools array (OB-10)."""


class CollectorBounds(msgspec.Struct, frozen=True, kw_only=True):
    """Fixed cuts the collector (``js/collect.js``) applies in the page before transfer.

    The script has no defaults of its own: :meth:`ObserveOptions.collector_args`
    passes these with the budgets, so each bound is defined once, here.
    """

    name_chars: int = 80
    """Region ids and labels, field, state and option names, object keys, the modal's label."""
    action_name_chars: int = 120
    """Action names and the route name."""
    label_chars: int = 200
    """Record labels, region purposes, unavailability reasons, state descriptions, query values."""
    record_id_chars: int = 200
    """Record ids (longer ones are cut)."""
    note_chars: int = 300
    """Title, path, confirmation and hand-off texts."""
    bound_chars: int = 40
    """An input's ``min`` / ``max``."""
    list_items: int = 50
    """Select options listed; array items and object keys kept in state values."""
    name_scan: int = 50
    """Records whose row action names are read before counting (more are found by query)."""
    max_row_names: int = 200
    """Distinct row action names folded."""
    sample_scan: int = 2000
    """Rows examined per folded entry for its sample ids."""
    shadow_scan: int = 200_000
    """Elements asked for an open shadow root; past this the search stops and says so."""
    closed_scan: int = 3_000
    """Documents (and shadow trees) of more elements are not checked for custom elements
    that may hold closed shadow roots (the check would double the search's cost)."""
    row_box_checks: int = 64
    """Lists up to this long have every row checked for a box (zero area,
    ``content-visibility: hidden``); longer ones only the rows in view (act
    re-checks any row before acting)."""
    click_scan: int = 3_000
    """Inferred pages: elements whose computed style is read to find clickable areas and
    scrollable boxes (``js/clickables.js``); siblings of one shape past the first few
    are judged by those few. What is not reached is counted."""
    max_clickables: int = 500
    """Inferred pages: non-semantic controls (clickables, hover menus, scrollables, popup
    items) offered per pass; more are counted."""
    listener_probe: int = 120
    """Inferred pages: elements whose event listeners are read per observation
    (``DOMDebugger.getEventListeners``); each element is read once."""
    text_scan: int = 50_000
    """DOM nodes the page text reads at most (``js/infer/pagetext.js``); past this it stops and says so."""


COLLECTOR_BOUNDS = CollectorBounds()


class ObserveOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Budgets and settle parameters; every field has the documented default."""

    # SPEC OB-3 defaults
    max_actions: int = 40
    """Folded action entries listed (available first)."""
    max_records: int = 20
    """Records with full fields."""
    max_scopes: int = 24
    """Regions listed under Page structure."""
    max_feedback: int = 8
    max_state_chars: int = 1200
    max_record_chars: int = 1500
    max_feedback_chars: int = 800
    max_page_chars: int = 500

    # cdpagent's own bounds
    max_action_chars: int = 3000
    """Characters of the available + unavailable action lines together."""
    max_scope_chars: int = 1000
    max_index_chars: int = 600
    """Characters of the citation id index (budgeted apart from full records)."""
    max_tool_chars: int = 5000
    """Characters of the tools JSON."""
    max_more_chars: int = 1000
    """Characters of the names of the clicks past the action budget that ``click_more`` lists,
    counted twice (its line and its enum)."""
    max_total_chars: int = 12000
    """Hard bound on rendered text + tools JSON; budgets shrink until it holds."""
    max_field_chars: int = 160
    """One record field or state string in the text."""
    max_description_chars: int = 160
    max_string_chars: int = 2000
    """Any string leaving the page (cut in the page before transfer)."""
    max_depth: int = 4
    """State JSON deeper than this is summarised."""
    sample_ids: int = 3
    """Row ids sampled on a folded entry."""
    enum_limit: int = 10
    """A folded tool enumerates ``record`` when at most this many rows are available."""
    include: tuple[str, ...] = ()
    """Record ids that must be collected in full (receipts, OB-8)."""

    max_text_chars: int = 2500
    """Characters of the page text section (the visible text in reading order)."""
    page_text: bool | None = None
    """Whether the observation has a page text section: ``None`` for inferred
    observations only (a declared page says what matters itself), ``True`` also on
    declared pages, ``False`` never."""

    # OB-12 inference
    infer: Literal["off", "undeclared", "all"] | None = None
    """What to infer from semantic HTML and ARIA: ``off`` (declarations only),
    ``undeclared`` (declarations plus the parts of the page they do not cover),
    ``all`` (the whole page as if it declared nothing). ``None``: ``all`` when the
    page declares nothing at all, else ``off`` (a declared page is unchanged)."""

    # OB-6 settle
    settle: bool = True
    settle_quiet_ms: int = 50
    """No DOM mutation, running animation or scroll for this long counts as settled."""
    settle_timeout_ms: int = 1500
    """Past this, snapshot anyway with a warning."""

    def collector_args(self) -> dict[str, object]:
        """Every option and bound ``collect.js`` reads (it has no defaults of its own)."""
        return {
            "full_records": self.max_records,
            "include": list(self.include),
            "sample": self.sample_ids,
            "enum_limit": self.enum_limit,
            "max_string": self.max_string_chars,
            "max_depth": self.max_depth,
            "max_regions": max(self.max_scopes * 4, 100),
            "max_page_actions": max(self.max_actions * 4, 200),
            "max_feedback": max(self.max_feedback * 4, 32),
            "max_state": 64,
            "refused_record_id": REFUSED_RECORD_ID,
            "text_chars": self.max_text_chars,
            "page_text": self.page_text,
            # What data-agent-kind may say: the page scripts list no kinds of their own.
            "kinds": PAGE_KINDS,
            **msgspec.structs.asdict(COLLECTOR_BOUNDS),
        }
