"""The data model of observations: the raw snapshot and the bounded observation.

Two layers, both msgspec Structs:

* :class:`Snapshot` is what ``js/collect.js`` returns from the page's isolated
  world (one JSON string, decoded with :data:`SNAPSHOT_DECODER`). It already
  contains only business-level facts — no markup, selectors, styles or
  coordinates — and sensitive values are masked in the page. It is *bounded*:
  full detail (fields, per-row action state) only for the records the budgets
  can show plus any ids the caller asked for; every other active record is an
  id in :attr:`RecordIndex.ids`. Row actions arrive already grouped per
  ``(name, region path)`` as :class:`RowActionGroup`.
* :class:`Observation` is the snapshot after the budgets (OB-3) and folding
  (OB-4): what the renderers turn into the Markdown page section and the
  ``tools`` array. Every omission is counted in :class:`Omitted`.

Notes for acting and receipts (OB-5, OB-7, OB-8):

* Every declared action is addressable by an :class:`ActionLocator`
  (``name``, ``record``, ``region_path``, ``ordinal``); ``collect.js`` exports
  ``find(locator)`` in the ``cdpagent-observe`` world that returns the element
  again at execution time. ``ActionLocator.id`` is the seed's action id
  (``add_todo``, ``toggle@t9``).
* Each :class:`ActionEntry` of an observation carries its ``tool`` name and the
  locator parts, so a tool call maps back to the original action id
  (:func:`cdpagent.snapshot.openai_tools.resolve_tool_call`).
* Records are keyed by stable id and carry ``fields`` as a dict and the state of
  their row actions as a dict, so two snapshots diff by id without scanning.
  ``collect.js`` accepts ``include`` (record ids that must be in full) so a
  receipt can capture its target before and after.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from ..cdp.surrogates import replace_lone_surrogates
from .kinds import InputSpec, Kind

__all__ = [
    "MORE_TOOL",
    "ROW_PLACEHOLDER",
    "SNAPSHOT_DECODER",
    "ActionEntry",
    "ActionLocator",
    "ActionState",
    "Feedback",
    "FieldValue",
    "FrameRef",
    "Identity",
    "InputSpec",
    "NameSource",
    "Observation",
    "Omitted",
    "PageAction",
    "PageText",
    "Record",
    "RecordIndex",
    "Region",
    "RegionPath",
    "RowActionGroup",
    "Snapshot",
    "Source",
    "StateItem",
    "Unseen",
    "action_id",
    "decode_snapshot",
    "inferred_paths",
    "split_action_id",
]

FieldValue = str | bool | int | float | None
"""A readable record field: checkbox → bool, form control → its value, else text."""

ROW_PLACEHOLDER = "{record}"
MORE_TOOL = "click_more"
"""The tool that clicks, by its name, one of the controls the action budget left without a
line and a tool of their own (:attr:`Observation.more`): ``click_more(control="glossary")``."""
"""The record part of a folded entry's id (``toggle@{record}``)."""


def action_id(name: str, record: str | None = None) -> str:
    """The seed's action id: ``name`` for a page action, ``name@record`` for a row action.

    The one place the id is spelled; every receipt, locator and entry uses it.
    """
    return name if record is None else f"{name}@{record}"


def split_action_id(text: str) -> tuple[str, str | None]:
    """``(name, record)`` of an action id: ``toggle@t9`` → ``("toggle", "t9")``, ``add`` →
    ``("add", None)``."""
    name, at, record = text.partition("@")
    return (name, record) if at else (text, None)


NameSource = Literal["label", "placeholder", "title", "header", "attribute", "position"]
"""Where an inferred action's weak name came from (OB-12): an untied label or caption next to
the control, its placeholder, its title, its column header or row caption, its humanised
``name``/``id`` attribute, or its position ("text field 2 in Login"). Absent: its accessible name."""
Effect = Literal["read", "write", "navigate"]
Source = Literal["declared", "inferred"]
"""``inferred``: read from the page's semantic HTML and ARIA, not declared by its author (OB-12)."""
RegionState = Literal["active", "hidden", "inert", "covered"]
"""``covered``: rendered, but behind an open modal dialog that is not inside it."""


class Identity(msgspec.Struct, frozen=True):
    """Where the page is: never the full URL (its query may hold tokens)."""

    title: str = ""
    path: str = ""
    route: str | None = None
    route_params: dict[str, Any] = {}
    query: dict[str, str] = {}
    """Only the query fields the page allows with ``<meta name="agent-query">``."""


class Region(msgspec.Struct, frozen=True):
    """A ``data-agent-region``: what it is, where it sits, whether it is usable now."""

    id: str
    label: str
    role: str
    purpose: str = ""
    parent: str | None = None
    path: list[str] = []
    """Region ids from the outermost ancestor to this region (inclusive)."""
    state: RegionState = "active"
    covered_by: str | None = None
    in_viewport: bool = False
    modal: bool = False
    actions_total: int = 0
    actions_visible: int = 0
    records_total: int = 0
    records_visible: int = 0
    source: Source = "declared"


RegionPath = tuple[str, ...]
"""Region ids from the outermost region in, as :attr:`Region.path` (a hashable key)."""


def inferred_paths(regions: list[Region]) -> frozenset[RegionPath]:
    """The paths of ``regions`` that are inferred, or lie inside an inferred region (OB-12):
    their labels are the page's text, so a renderer fences them."""
    inferred = {tuple(r.path) for r in regions if r.source == "inferred"}
    return frozenset(
        tuple(r.path) for r in regions if any(tuple(r.path[: i + 1]) in inferred for i in range(len(r.path)))
    )


class ActionLocator(msgspec.Struct, frozen=True):
    """Enough to find a declared action's element again (``collect.js`` ``find``).

    ``ordinal`` is the index among page-level elements sharing ``name`` and
    ``region_path`` in document order (always 0 for row actions, which the record
    id makes unique).
    """

    name: str
    record: str | None = None
    region_path: tuple[str, ...] = ()
    ordinal: int = 0
    source: Source = "declared"
    """Which page script finds it again: ``collect.js`` or ``infer.js``."""

    @property
    def id(self) -> str:
        """The seed's action id: ``name`` or ``name@record``."""
        return action_id(self.name, self.record)


class PageAction(msgspec.Struct, frozen=True):
    """A declared action outside any record, with its availability and reason."""

    name: str
    kind: Kind
    effect: Effect
    description: str
    region: str | None = None
    region_path: list[str] = []
    ordinal: int = 0
    available: bool = True
    reason: str | None = None
    confirm: str | None = None
    handoff: str | None = None
    submit: bool = False
    input: InputSpec | None = None
    in_viewport: bool = False
    order: int = 0
    """Position among declared actions and row-action groups (document order)."""
    source: Source = "declared"
    name_source: NameSource | None = None
    """Where an inferred name came from when it is not the accessible name."""
    uid: int = 0
    """An inferred control's number in its document, the same on every observation of it
    (0: none); :mod:`cdpagent.snapshot.toolnames` keeps its tool name by it."""
    popup: bool = False
    """An inferred option or menu item: an item of a list or menu that opens (the budget
    offers room first to those an act opened)."""

    @property
    def locator(self) -> ActionLocator:
        return ActionLocator(self.name, None, tuple(self.region_path), self.ordinal, self.source)


class RowActionGroup(msgspec.Struct, frozen=True):
    """All row actions of one name in one region, folded in the page (OB-4).

    Shape fields (kind, effect, description, input, confirm, handoff) come from
    the first row. ``available_ids`` lists every available row id only when there
    are at most ``enum_limit`` of them (for a ``record`` enum), else it is None.
    """

    name: str
    kind: Kind
    effect: Effect
    description: str
    region: str | None = None
    region_path: list[str] = []
    confirm: str | None = None
    handoff: str | None = None
    submit: bool = False
    input: InputSpec | None = None
    rows: int = 0
    available: int = 0
    offscreen: int = 0
    visible: int = 0
    sample: list[str] = []
    available_ids: list[str] | None = None
    reasons: dict[str, int] = {}
    """Unavailability reason → number of rows it applies to."""
    order: int = 0
    source: Source = "declared"


class ActionState(msgspec.Struct, frozen=True):
    """The availability of one row action of a fully collected record."""

    available: bool
    reason: str | None = None


class Record(msgspec.Struct, frozen=True):
    """A record collected in full: fields by name, its row actions by name."""

    id: str
    label: str = ""
    region: str | None = None
    in_viewport: bool = False
    fields: dict[str, FieldValue] = {}
    actions: dict[str, ActionState] = {}
    source: Source = "declared"


class RecordIndex(msgspec.Struct, frozen=True):
    """Every active record by id (document order), budgeted apart from full records."""

    ids: list[str] = []
    viewport: list[str] = []
    """Ids of active records intersecting the viewport."""
    inactive: int = 0
    """Records in hidden or inert regions (not addressable now)."""
    hidden: int = 0
    """Records in usable regions that are hidden or inert themselves (not addressable now)."""
    duplicates: list[str] = []
    """Ids declared by more than one element; only the first is used."""


class StateItem(msgspec.Struct, frozen=True):
    """A declared read-only view (filter, paging, selection, totals)."""

    name: str
    value: Any = None
    description: str = ""
    region: str | None = None


class PageText(msgspec.Struct, frozen=True):
    """The visible text of the page in reading order, viewport first, already bounded (OB-12).

    One string per block (heading, paragraph, list item, cell, caption…; a heading
    starts with ``# ``); text the observation shows elsewhere (records, labels that
    name controls, field values) is left out. Everything cut is counted.
    """

    blocks: list[str] = []
    blocks_total: int = 0
    """Blocks of visible text found (those in ``blocks`` included)."""
    chars_total: int = 0
    """Characters of all those blocks."""
    viewport_blocks: int = 0
    """How many of ``blocks`` (the first ones) are in the viewport."""
    viewport_left: int = 0
    """Blocks in the viewport left out or cut by the budget."""
    scanned_all: bool = True
    """False when reading stopped before the end of the page: past ``text_scan`` nodes, or once
    four budgets of text were read and the walk was below the viewport."""


class Feedback(msgspec.Struct, frozen=True):
    """A validation error, warning or status message, with its field and region path."""

    level: Literal["error", "warning", "info"]
    message: str
    field: str | None = None
    region_path: list[str] = []
    source: Literal["declared", "alert", "status", "invalid", "dialog", "live", "validation"] = "declared"
    """``live``: an ``aria-live`` region; ``validation``: the browser's constraint validation."""


class Unseen(msgspec.Struct, frozen=True):
    """Parts of the page whose content is not in the observation (OB-11), counted to be said."""

    frames: int = 0
    """Rendered frames (iframe, frame) whose content is not observed."""
    frame_reasons: dict[str, int] = {}
    """Why, as reason → number of frames (``from another origin``, ``did not answer in time`` …)."""
    shadow_searched: bool = True
    """False when the page was too large to search for open shadow roots (whose content
    is otherwise collected like the rest of the page)."""
    closed_shadow_roots: int = 0
    """Closed shadow roots found (:mod:`cdpagent.snapshot.shadow`): no script sees inside them."""
    components: int = 0
    """Custom elements without an open shadow root the collector met (the hosts worth
    checking for closed roots; not counted on documents over ``closed_scan`` elements)."""


class FrameRef(msgspec.Struct, frozen=True):
    """A frame whose declarations a snapshot holds: CDP's frame id and the region path its
    content sits under (the frame's own step last), so an action finds its frame again."""

    frame_id: str
    path: tuple[str, ...]


class Snapshot(msgspec.Struct, frozen=True):
    """The raw, already bounded snapshot returned by ``js/collect.js``."""

    identity: Identity
    regions: list[Region] = []
    regions_total: int = 0
    actions: list[PageAction] = []
    actions_total: int = 0
    """Page-level actions declared (``actions`` may hold fewer when capped)."""
    controls_unoffered: int = 0
    """Inferred pages: shown, enabled controls in the viewport that are not offered (aria-hidden)."""
    actions_visible_unnamed: int = 0
    """Inferred pages: page controls in the viewport past the budget of named actions
    (counted in ``actions_total``, never named)."""
    row_actions: list[RowActionGroup] = []
    records: list[Record] = []
    record_index: RecordIndex = RecordIndex()
    state: list[StateItem] = []
    state_total: int = 0
    feedback: list[Feedback] = []
    feedback_total: int = 0
    modal: str | None = None
    """Label of the open modal dialog, if any."""
    warnings: list[str] = []
    unseen: Unseen = Unseen()
    collect_ms: float = 0.0
    token: int = 0
    """The collector's number for this snapshot's text in its document (0: none); a
    caller holding it is told when the next text would be the same (:mod:`.observe`)."""
    ids_from: int = 0
    """On the wire only: the record ids were left out, being those of the snapshot of
    this token, which the caller holds (:mod:`.observe` puts them back)."""
    frames: list[FrameRef] = []
    """Frames merged into this snapshot (:mod:`cdpagent.snapshot.frames`), outermost first."""
    page_text: PageText | None = None
    """The page's visible text (inferred observations, or declared ones that opt in)."""


SNAPSHOT_DECODER = msgspec.json.Decoder(Snapshot)


# A JSON text is scanned token by token so that an escaped backslash is never
# read as the start of a \u escape.
def decode_snapshot(text: str) -> Snapshot:
    """Decode the collector's JSON; a lone surrogate escape becomes U+FFFD, never an error.

    Raises :class:`msgspec.DecodeError` / :class:`msgspec.ValidationError` only
    for text that is not a snapshot at all.
    """
    try:
        return SNAPSHOT_DECODER.decode(text)
    except msgspec.DecodeError:
        data = text.encode()
        repaired = replace_lone_surrogates(data)
        if repaired == data:
            raise
        return SNAPSHOT_DECODER.decode(repaired)


class ActionEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    """One line of the action list and (when available) one tool.

    ``tool`` is the legal, unique function name; ``action`` the original id
    (``toggle@{record}`` for a folded entry). ``name``, ``region_path`` and
    ``ordinal`` form the :class:`ActionLocator` (with the call's record).
    """

    tool: str
    action: str
    name: str
    kind: Kind
    effect: Effect
    description: str
    region: str = ""
    """Region labels from outer to inner, as shown in the ``region:`` tag."""
    region_path: list[str] = []
    ordinal: int = 0
    available: bool = True
    reason: str | None = None
    confirm: str | None = None
    handoff: str | None = None
    submit: bool = False
    input: InputSpec | None = None
    folded: bool = False
    rows: int = 0
    rows_available: int = 0
    offscreen: int = 0
    visible: int = 0
    sample: list[str] = []
    record_enum: list[str] | None = None
    reasons: dict[str, int] = {}
    covers: int = 1
    """How many declared actions this entry stands for."""
    source: Source = "declared"
    name_source: NameSource | None = None
    """Where an inferred name came from when it is not the accessible name."""
    popup: bool = False
    """An option or a menu item (:attr:`PageAction.popup`)."""

    def locator(self, record: str | None = None) -> ActionLocator:
        """The locator of this entry's element (for a folded entry, of ``record``'s row)."""
        return ActionLocator(self.name, record, tuple(self.region_path), self.ordinal, self.source)


class Omitted(msgspec.Struct, frozen=True):
    """Everything the budgets left out, counted (OB-3)."""

    actions_declared: int = 0
    action_entries: int = 0
    action_entries_shown: int = 0
    records_total: int = 0
    records_shown: int = 0
    records_id_only: int = 0
    record_ids_not_listed: int = 0
    records_inactive: int = 0
    records_hidden: int = 0
    regions_total: int = 0
    regions_not_listed: int = 0
    state_total: int = 0
    state_not_listed: int = 0
    feedback_total: int = 0
    feedback_not_listed: int = 0
    fields_cut: int = 0
    strings_cut: int = 0
    text_blocks_not_shown: int = 0
    """Blocks of page text left out (over the page text budget, or not read)."""
    controls_not_offered: int = 0
    """Controls a person sees in the viewport that are not offered as actions (aria-hidden ones
    of a page that declares nothing): "all currently visible content is shown" is said only when
    this is 0 too."""
    visible_not_shown: int = 0
    """Things in the viewport the budgets left out (action entries, records, page text
    blocks): "all currently visible content is shown" is said only when this is 0."""
    action_entries_named: int = 0
    """Action entries without a line of their own, named in :data:`MORE_TOOL`'s list instead."""


class Observation(msgspec.Struct, frozen=True):
    """The bounded observation; both renderers read only this."""

    identity: Identity
    regions: list[Region]
    actions: list[ActionEntry]
    records: list[Record]
    record_ids: list[str]
    state: list[StateItem]
    feedback: list[Feedback]
    omitted: Omitted
    warnings: list[str] = []
    modal: str | None = None
    settle_ms: float = 0.0
    collect_ms: float = 0.0
    unseen: Unseen = Unseen()
    """Frames and shadow roots whose content is not in this observation."""
    page_text: PageText | None = None
    """The page text within its budget (:attr:`ObserveOptions.max_text_chars`)."""
    more: list[ActionEntry] = []
    """Clicks past the action budget, named in one :data:`MORE_TOOL` entry
    (:attr:`ObserveOptions.max_more_chars`): a person's link or button a model can still press
    by its tool name."""
