"""Budgets (OB-3): from a snapshot to a bounded observation, every omission counted.

:func:`build` screens the snapshot's record ids and folds its actions once, then
:func:`assemble` applies each budget of :class:`~cdpagent.snapshot.options.ObserveOptions`
section by section and records what it left out in
:class:`~cdpagent.snapshot.model.Omitted`; :func:`present` renders the text and
tools, and :func:`build` guarantees ``len(text) + len(tools JSON) <=
max_total_chars`` by shrinking the character budgets until it holds.

A budget never renders: it hands :func:`~.render.measure` the candidates of every
section at once (the first ``max_actions`` entries in the order they are offered room,
the first ``max_scopes`` regions, …), gets the characters each takes once rendered
(:class:`~.render.Sizes`), asks :mod:`.openai_tools` for the tools of the entries whose
lines fit, and does the arithmetic here. A section asks again only for items past its
candidates when all of them fit. So the walk from a snapshot to its text goes fold →
budget → measure → budget → render once, not back and forth per section or per line
(``scripts/observation_walk.py`` measures it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from .folding import fold_actions
from .model import (
    ActionEntry,
    Feedback,
    Identity,
    Observation,
    Omitted,
    PageText,
    Record,
    Region,
    Snapshot,
    StateItem,
)
from .openai_tools import declaration_sizes, more_tool, tool_declarations, tools_json
from .options import REFUSED_RECORD_ID, ObserveOptions
from .render import measure, more_line, render_text
from .toolnames import NameRegistry

__all__ = ["assemble", "build", "present", "screen_record_ids"]

_T = TypeVar("_T")
# How many record ids and page text blocks are measured before the room they leave is known;
# more are measured only when all of these fit (:func:`_fit`).
_FIRST_IDS = 32
_FIRST_BLOCKS = 16
_REFUSED_ID = re.compile(REFUSED_RECORD_ID, re.IGNORECASE)
# The last record id list found clean: a still page's snapshot is reused with the same
# list (snapshot.observe), so its ids are not scanned again (tens of ms at 100,000 ids).
_clean_ids: list[list[str]] = []


def _clean(text: str) -> bool:
    """Whether :data:`REFUSED_RECORD_ID` finds nothing in ``text``.

    Two scans in C decide almost every text (12-90 ms of the regular expression at 100,000
    ids, ~2 ms of these): a printable text holds none of its characters (all are control
    characters or line and paragraph separators), and its fence text ``</?page_data``,
    matched case-insensitively, needs ``page_data`` in the case-folded text. Otherwise the
    expression decides.
    """
    if text.isprintable() and "page_data" not in text.casefold():
        return True
    return not _REFUSED_ID.search(text)


def screen_record_ids(snapshot: Snapshot) -> Snapshot:
    """``snapshot`` without the records whose ids match :data:`REFUSED_RECORD_ID` (OB-10).

    The collector refuses them already; this holds for any snapshot, so no id
    can reach the text, the citation index or the tools array (samples and
    ``record`` enums) with a line break or fence text. Adds a warning when it
    removed anything.
    """
    index = snapshot.record_index
    groups = snapshot.row_actions
    known = bool(_clean_ids) and _clean_ids[0] is index.ids
    every = [r.id for r in snapshot.records] if known else [*index.ids, *(r.id for r in snapshot.records)]
    for g in groups:
        every.extend(g.sample)
        every.extend(g.available_ids or ())
    if _clean(" ".join(every)):
        _clean_ids[:] = [index.ids]
        return snapshot

    def keep(ids: list[str]) -> list[str]:
        return [i for i in ids if not _REFUSED_ID.search(i)]

    refused = {i for i in every if _REFUSED_ID.search(i)}
    return msgspec.structs.replace(
        snapshot,
        records=[r for r in snapshot.records if r.id not in refused],
        record_index=msgspec.structs.replace(index, ids=keep(index.ids), viewport=keep(index.viewport)),
        row_actions=[
            msgspec.structs.replace(
                g,
                sample=keep(g.sample),
                available_ids=None if g.available_ids is None else keep(g.available_ids),
            )
            for g in groups
        ],
        warnings=[
            *snapshot.warnings,
            f"{len(refused)} record ids were refused: they hold control characters, line breaks "
            "or fence text, so they cannot be cited or acted on",
        ],
    )


def _fit(
    items: list[_T], measured: list[int], max_chars: int, more: Callable[[list[_T]], list[int]] | None = None
) -> tuple[int, int]:
    """How many leading ``items`` fit in ``max_chars``, and the characters they take.

    ``measured`` are the sizes of the first items (of all of them when ``more`` is None),
    from the observation's one :func:`~.render.measure`. Once every measured item fits,
    ``more`` is asked for as many further items as the room left holds at the average
    size so far (on an ordinary page never; never for many items past the budget).
    """
    count = used = 0
    sizes = measured
    while True:
        for size in sizes:
            if used + size > max_chars:
                return count, used
            used += size
            count += 1
        if count >= len(items) or more is None:
            return count, used
        batch = (max_chars - used) * count // max(used, 1) + 1
        sizes = more(items[count : count + max(batch, 1)])


def _identity(identity: Identity, sizes: list[int], max_chars: int) -> Identity:
    """Drop query fields and route params that do not fit the page budget (``sizes``: its lines)."""
    if sum(sizes) + len(sizes) - 1 <= max_chars:
        return identity
    trimmed = msgspec.structs.replace(identity, route_params={}, query={})
    fields = len(identity.query)
    base = sizes[: len(sizes) - fields - (1 if identity.route_params else 0)]
    used = sum(base) + len(base) - 1
    query: dict[str, str] = {}
    for (key, value), size in zip(identity.query.items(), sizes[len(sizes) - fields :], strict=True):
        if used + size + 1 > max_chars:
            break
        query[key] = value
        used += size + 1
    return msgspec.structs.replace(trimmed, query=query)


# The landmarks around a page's content: a region of one of these roles that no other region
# holds is the page's chrome (its banner, site navigation, footer, side bar). A person looks
# at the content first, so the budgets offer it their room first. A navigation inside the
# content (a list's filters) is content, and so are a search and an application's menu bar,
# wherever they sit: they are how a person reaches what the page does not show (its other
# pages, its commands), so they are offered room first.
_CHROME_ROLES = frozenset({"banner", "navigation", "contentinfo", "complementary"})
_WAYS = frozenset({"search", "menubar"})
# Rows of small tools (a formatting toolbar) are chrome wherever they sit: the task's own
# fields and buttons come before them.
_TOOL_ROLES = frozenset({"toolbar"})
# Where a page marks its main content (a ``main`` landmark), what lies beside it (an
# application's side panels, a site's columns) comes after it, and after its own tool rows:
# a person works in the main content. Dialogs, searches and menu bars are never set aside.
_NEVER_ASIDE = frozenset({"main", "dialog", "alertdialog", *_WAYS})


def _chrome(regions: list[Region]) -> dict[str, int]:
    """The chrome regions among ``regions``, each with how far from the content it ranks:
    1 for outermost regions of a chrome role and toolbars anywhere, with the regions inside
    them; 2 for every outermost region beside the page's ``main`` landmark (where it has
    one), with what it holds. Searches and menu bars (:data:`_WAYS`), and what they hold,
    are never chrome."""
    mains = [r for r in regions if r.role == "main"]
    holding_main = {step for r in mains for step in (r.path or [r.id])}
    aside = {
        r.id
        for r in regions
        if mains and r.parent is None and r.role not in _NEVER_ASIDE and r.id not in holding_main
    }
    roots = {
        r.id for r in regions if (r.parent is None and r.role in _CHROME_ROLES) or r.role in _TOOL_ROLES
    }
    searches = {r.id for r in regions if r.role in _WAYS}
    out: dict[str, int] = {}
    for r in regions:
        path = r.path or [r.id]
        if searches.intersection(path):
            continue
        if aside.intersection(path):
            out[r.id] = 2
        elif roots.intersection(path):
            out[r.id] = 1
    return out


#: A folded entry of the chrome that stands for this many rows or more (a bar of links) is
#: ranked as content: it costs one line for all of them. Fewer rows cost about as much
#: unfolded, and stay chrome.
_BAR_ROWS = 5


#: The kinds of a form's fields: what a person fills in before pressing anything.
_FIELD_KINDS = frozenset({"type", "select", "choose", "check", "set", "upload"})


def _ranked(
    entries: list[ActionEntry],
    chrome: dict[str, int],
    searches: set[str],
    first: frozenset[str] = frozenset(),
    dialogs: frozenset[str] = frozenset(),
) -> list[ActionEntry]:
    """``entries`` in the order the action budget offers them its room, the way a person's
    attention goes: available ones before unavailable ones (whose reasons stay visible after
    them); among each, the options, menu items and dialog controls that came with the last
    act (tools named in ``first``: the menu or the list it opened, the dialog it raised, are
    why it happened), then a search's or a menu bar's (the way to what is not shown: entries
    in a region of ``searches``), then the content's before the chrome's (by how far from the content
    ``chrome`` ranks their innermost region; a folded entry of the chrome that stands for a
    whole bar of links, such as a page's next and previous, is one line for
    :data:`_BAR_ROWS` or more and counts as content), those in the viewport before those
    below it, those with words a person reads before those named only by a class or an id,
    the fields (what one fills in: an editor before the toolbar of buttons above it) before
    the rest, then the content's row actions (what one does with records) before the others,
    a folded entry of the chrome among the others. Document order otherwise."""

    def rank(e: ActionEntry) -> tuple[bool, bool, bool, int, bool, bool, bool, bool]:
        path = e.region_path
        level = chrome.get(path[-1], 0) if path else 0
        chromes = level > 0
        return (
            not e.available,
            not (e.tool in first and (e.popup or not dialogs.isdisjoint(path))),
            not searches.intersection(path),
            level if e.rows < _BAR_ROWS else 0,
            not e.visible,
            e.name_source == "attribute",
            e.folded or e.kind not in _FIELD_KINDS,
            chromes or not e.folded,
        )

    return sorted(entries, key=rank)


def _content_first(records: list[Record], regions: list[Region], chrome: dict[str, int]) -> list[Record]:
    """``records`` with those of the chrome regions last (in document order otherwise)."""
    if not chrome:
        return records
    return sorted(records, key=lambda r: r.region is not None and r.region in chrome)


def _actions(
    entries: list[ActionEntry], ranked: list[ActionEntry], sizes: _Sizes, opts: ObserveOptions
) -> tuple[list[ActionEntry], list[ActionEntry]]:
    """Entries within the entry, char and tool budgets, listed in document order, and the
    clicks named in ``click_more`` instead (:func:`_more`).

    Chosen in :func:`_ranked` order, measured by ``sizes`` (lines and tools at
    ``opts.max_description_chars``). An entry that does not fit is skipped: a shorter one
    further down may still fit. When a click is left without a line, the entries are chosen
    again with room kept for the ``click_more`` line and tool (one entry of ``max_actions``),
    so what the lines leave out is still named; that room comes out of the clicks' lines,
    never out of an entry it cannot name.
    """
    budgets = (opts.max_actions, opts.max_action_chars, opts.max_tool_chars)
    chosen, _, _ = _choose(ranked, sizes, *budgets)
    more = _more(ranked, chosen, 1 << 30, 1 << 30, opts.max_more_chars)
    if not more:
        return [e for e in entries if id(e) in chosen], []
    # The names take at most a quarter of the room the lines had: the lines stay first.
    names = min(sum(len(e.tool) + _MORE_COST for e in more), opts.max_action_chars // 4)
    # The room comes out of the clicks click_more can name: what it cannot name keeps its line.
    kept = [e for e in ranked if id(e) in chosen and not _nameable(e)]
    kept_ids = {id(e) for e in kept}
    chosen, text_used, tool_used = _choose(
        [*kept, *(e for e in ranked if id(e) not in kept_ids)],
        sizes,
        opts.max_actions - 1,
        opts.max_action_chars - _MORE_LINE - names,
        opts.max_tool_chars - _MORE_TOOL - names,
    )
    room = (opts.max_action_chars - text_used - _MORE_LINE, opts.max_tool_chars - tool_used - _MORE_TOOL)
    more = _more(ranked, chosen, *room, opts.max_more_chars) if len(chosen) < opts.max_actions else []
    return [e for e in entries if id(e) in chosen], more


class _Sizes:
    """The line and tool sizes of entries at one ``description_chars``, measured in batches
    as they are first asked for and kept (a second choice over the same entries, or the
    next assembly of :func:`build`, measures nothing again). Keyed by ``id``: the entries
    must outlive it."""

    def __init__(self, description_chars: int) -> None:
        self.line: dict[int, int] = {}
        self.tool: dict[int, int] = {}
        self.description_chars = description_chars

    def lines(self, batch: list[ActionEntry]) -> list[int]:
        missing = [e for e in batch if id(e) not in self.line]
        if missing:
            measured = measure(actions=missing, description_chars=self.description_chars).actions
            self.line.update(zip(map(id, missing), measured, strict=True))
        return [self.line[id(e)] for e in batch]

    def tools(self, offered: list[ActionEntry]) -> None:
        missing = [e for e in offered if id(e) not in self.tool]
        if missing:
            measured = declaration_sizes(missing, self.description_chars)
            self.tool.update(zip(map(id, missing), measured, strict=True))


def _choose(
    ranked: list[ActionEntry], sizes: _Sizes, max_actions: int, max_text: int, max_tools: int
) -> tuple[set[int], int, int]:
    """The ids of the entries :func:`_actions` lists within these budgets, and the characters
    their lines and tools take."""
    chosen: set[int] = set()
    text_used = 0
    tool_used = 2
    start = size = 0
    while start < len(ranked) and len(chosen) < max_actions:
        # As many as may still be chosen; more (doubling) once entries were skipped, so a long
        # list of entries too large for the room left is measured in a few asks, not one by one.
        size = max(max_actions - len(chosen), size * 2)
        batch = ranked[start : start + size]
        lines = sizes.lines(batch)
        start += len(batch)
        # Only an entry whose line fits the room left now can be chosen: only those tools are measured.
        room = max_text - text_used
        sizes.tools([e for e, line in zip(batch, lines, strict=True) if e.available and line <= room])
        for entry, line in zip(batch, lines, strict=True):
            if len(chosen) >= max_actions:
                break
            if text_used + line > max_text:
                continue
            tool = sizes.tool[id(entry)] + 1 if entry.available else 0
            if tool_used + tool > max_tools:
                continue
            chosen.add(id(entry))
            text_used += line
            tool_used += tool
    return chosen, text_used, tool_used


#: What listing one name in ``click_more`` costs beside the name, in its line and in its enum:
#: `` / `` and ``"",``.
_MORE_COST = 3


#: The characters of the ``click_more`` line and tool around their names (the count's
#: digits measured as five).
_MORE_LINE = len(more_line([])) + 1 + 4
_MORE_TOOL = len(tools_json([more_tool([])])) + 1


def _nameable(e: ActionEntry) -> bool:
    """Whether ``click_more`` may name ``e``: an available click that takes no record and
    needs no confirmation and no person."""
    return e.available and e.kind == "click" and not (e.folded or e.confirm or e.handoff)


def _more(
    ranked: list[ActionEntry], chosen: set[int], text_room: int, tool_room: int, max_chars: int
) -> list[ActionEntry]:
    """The clicks not ``chosen`` for a line, in :func:`_ranked` order, while their names fit
    ``max_chars`` (each counted twice: the ``click_more`` line and its enum) and the room
    the action lines (``text_room``) and tools (``tool_room``) leave for them. Only what
    :func:`_nameable` allows is named: it takes no argument, so its name is all a call needs."""
    out: list[ActionEntry] = []
    room = min(max_chars // 2, text_room, tool_room)
    used = 0
    for e in ranked:
        if id(e) in chosen or not _nameable(e):
            continue
        cost = len(e.tool) + _MORE_COST
        if used + cost <= room:
            out.append(e)
            used += cost
    return out


def _records(listed: list[Record], sizes: list[int], opts: ObserveOptions) -> tuple[list[Record], int]:
    """Full records within ``max_record_chars`` (``listed``: the first ``max_records``);
    also counts cut fields."""
    count, _ = _fit(listed, sizes, opts.max_record_chars)
    out = listed[:count]
    cut = sum(
        1 for r in out for v in r.fields.values() if isinstance(v, str) and len(v) > opts.max_field_chars
    )
    return out, cut


def _record_ids(ids: list[str], sizes: list[int], max_chars: int) -> list[str]:
    count, _ = _fit(ids, sizes, max_chars, lambda more: measure(record_ids=more).record_ids)
    return ids[:count]


def _state(
    items: list[StateItem], summaries: list[StateItem], sizes: list[tuple[int, int]], opts: ObserveOptions
) -> list[StateItem]:
    """The state items within ``max_state_chars`` (the object and the description lines);
    an item too large on its own is summarised rather than dropped silently.

    ``sizes`` are those of ``items``, then of ``summaries`` (:func:`_summarised`).
    """
    full, short = sizes[: len(items)], sizes[len(items) :]
    entries: dict[str, int] = {}  # name -> entry size: a later item of a name replaces its value
    described = 0
    out: list[StateItem] = []

    def object_size(name: str, size: int) -> int:
        trial = {**entries, name: size}
        return 2 + sum(trial.values()) + len(trial) - 1

    for item, summary, (entry, line), (short_entry, _) in zip(items, summaries, full, short, strict=True):
        if object_size(item.name, entry) + described + line <= opts.max_state_chars:
            out.append(item)
            entries[item.name] = entry
            described += line
        elif object_size(item.name, short_entry) <= opts.max_state_chars:
            out.append(summary)
            entries[item.name] = short_entry
            described += line  # its description is still shown
        else:
            break
    return out


def _summarised(item: StateItem) -> StateItem:
    """``item`` with its value replaced by what is shown when the value is too large."""
    value = item.value
    if isinstance(value, dict):
        summary = f"{{… {len(value)} keys, too large to show}}"
    elif isinstance(value, list):
        summary = f"[… {len(value)} items, too large to show]"
    else:
        summary = f"… {len(str(value))} characters, too large to show"
    return msgspec.structs.replace(item, value=summary)


def _page_text(text: PageText | None, sizes: list[int], max_chars: int) -> tuple[PageText | None, int]:
    """The page text within ``max_chars`` rendered characters (the last block cut by code
    point), and how many viewport blocks the page and this budget left out or cut."""
    if text is None:
        return None, 0
    count, used = _fit(text.blocks, sizes, max_chars, lambda more: measure(text=more).text)
    blocks = text.blocks[:count]
    room = max_chars - used - 3
    if count < len(text.blocks) and room > 20:
        blocks = [*blocks, text.blocks[count][: room - 1] + "…"]
    whole = count
    lost = max(text.viewport_blocks - whole, 0) + text.viewport_left
    bounded = msgspec.structs.replace(text, blocks=blocks, viewport_blocks=min(text.viewport_blocks, whole))
    return bounded, lost


def _feedback(
    listed: list[Feedback], sizes: list[int], regions: list[Region], opts: ObserveOptions
) -> list[Feedback]:
    """The feedback within ``max_feedback_chars`` (``listed``: the first ``max_feedback``),
    as rendered beside ``regions`` (the observation's); ``sizes`` are those of ``listed``."""
    out: list[Feedback] = []
    used = 0
    while len(out) < len(listed):
        rest = listed[len(out) :]
        room_left = opts.max_feedback_chars - used
        count, size = _fit(rest, sizes[len(out) :], room_left)
        out += rest[:count]
        used += size
        room = opts.max_feedback_chars - used - 80
        if count == len(rest) or room < 40:
            break
        # An item that does not fit is cut to the room left, rather than dropped.
        cut = msgspec.structs.replace(rest[count], message=rest[count].message[: room] + "…")
        out.append(cut)
        used += measure(feedback=[cut], listed_regions=regions).feedback[0]
    return out


def assemble(
    snapshot: Snapshot,
    options: ObserveOptions | None = None,
    *,
    entries: list[ActionEntry],
    warnings: list[str] | None = None,
    settle_ms: float = 0.0,
    first: frozenset[str] = frozenset(),
) -> Observation:
    """Apply every budget of ``options`` to ``snapshot``; never raises on page content.

    ``entries`` are the snapshot's folded action entries
    (:func:`~cdpagent.snapshot.folding.fold_actions` of the snapshot that
    :func:`screen_record_ids` screened): the snapshot is folded once, by the caller.
    Every other section's candidates are measured in one :func:`~.render.measure`; a section
    asks again only for items past them, and the feedback when the regions it names
    were cut. The options, menu items and dialog controls among the tools named in ``first``
    (those that came with the last act) are offered room first.
    """
    return _assemble(snapshot, options, entries, warnings, settle_ms, first, {})


def _assemble(
    snapshot: Snapshot,
    options: ObserveOptions | None,
    entries: list[ActionEntry],
    warnings: list[str] | None,
    settle_ms: float,
    first: frozenset[str],
    measured: dict[int, _Sizes],
) -> Observation:
    """:func:`assemble`, with the entries' line and tool sizes kept in ``measured`` (by
    description bound) for the next assembly of the same ``entries``."""
    opts = options or ObserveOptions()
    chrome = _chrome(snapshot.regions)
    ways = {r.id for r in snapshot.regions if r.role in _WAYS}
    dialogs = frozenset(r.id for r in snapshot.regions if r.role in ("dialog", "alertdialog"))
    ranked = _ranked(entries, chrome, ways, first, dialogs)
    listed_regions = snapshot.regions[: opts.max_scopes]
    listed_records = _content_first(snapshot.records, snapshot.regions, chrome)[: opts.max_records]
    listed_feedback = snapshot.feedback[: opts.max_feedback]
    summaries = [_summarised(item) for item in snapshot.state]
    index = snapshot.record_index
    text = snapshot.page_text
    sizes = measure(
        identity=snapshot.identity,
        regions=listed_regions,
        records=listed_records,
        record_ids=index.ids[:_FIRST_IDS],
        state=[*snapshot.state, *summaries],
        feedback=listed_feedback,
        listed_regions=listed_regions,
        text=text.blocks[:_FIRST_BLOCKS] if text is not None else None,
        field_chars=opts.max_field_chars,
        description_chars=opts.max_description_chars,
    )
    chars = opts.max_description_chars
    actions, more = _actions(entries, ranked, measured.setdefault(chars, _Sizes(chars)), opts)
    count, _ = _fit(listed_regions, sizes.regions, opts.max_scope_chars)
    regions = listed_regions[:count]
    records, fields_cut = _records(listed_records, sizes.records, opts)
    record_ids = _record_ids(index.ids, sizes.record_ids, opts.max_index_chars)
    state = _state(snapshot.state, summaries, sizes.state, opts)
    feedback_sizes = sizes.feedback
    if len(regions) < len(listed_regions) and listed_feedback:
        # A cut region's tag is no longer shown by its label: the lines naming it change.
        feedback_sizes = measure(feedback=listed_feedback, listed_regions=regions).feedback
    feedback = _feedback(listed_feedback, feedback_sizes, regions, opts)
    page_text, text_visible_lost = _page_text(text, sizes.text, opts.max_text_chars)
    declared = snapshot.actions_total + sum(g.rows for g in snapshot.row_actions)
    shown_ids = {id(e) for e in (*actions, *more)}
    visible_lost = sum(1 for e in entries if e.visible and id(e) not in shown_ids)
    visible_lost += snapshot.actions_visible_unnamed
    visible_lost += max(len(index.viewport) - sum(1 for r in records if r.in_viewport), 0)
    visible_lost += text_visible_lost
    omitted = Omitted(
        actions_declared=declared,
        action_entries=len(entries) + max(snapshot.actions_total - len(snapshot.actions), 0),
        action_entries_shown=len(actions),
        records_total=len(index.ids),
        records_shown=len(records),
        records_id_only=len(index.ids) - len(records),
        record_ids_not_listed=len(index.ids) - len(record_ids),
        records_inactive=index.inactive,
        records_hidden=index.hidden,
        regions_total=snapshot.regions_total,
        regions_not_listed=snapshot.regions_total - len(regions),
        state_total=snapshot.state_total,
        state_not_listed=snapshot.state_total - len(state),
        feedback_total=snapshot.feedback_total,
        feedback_not_listed=snapshot.feedback_total - len(feedback),
        fields_cut=fields_cut,
        text_blocks_not_shown=(
            page_text.blocks_total - len(page_text.blocks) if page_text is not None else 0
        ),
        visible_not_shown=visible_lost,
        controls_not_offered=snapshot.controls_unoffered,
        action_entries_named=len(more),
    )
    return Observation(
        identity=_identity(snapshot.identity, sizes.identity, opts.max_page_chars),
        regions=regions,
        actions=actions,
        records=records,
        record_ids=record_ids,
        state=state,
        feedback=feedback,
        omitted=omitted,
        warnings=[*snapshot.warnings, *(warnings or [])],
        modal=snapshot.modal,
        settle_ms=settle_ms,
        collect_ms=snapshot.collect_ms,
        unseen=snapshot.unseen,
        page_text=page_text,
        more=more,
    )


def present(obs: Observation, options: ObserveOptions | None = None) -> tuple[str, list[dict[str, Any]]]:
    """The rendered text and the tools array of ``obs`` (available actions only)."""
    opts = options or ObserveOptions()
    offered = [e for e in obs.actions if e.available]
    text = render_text(obs, opts.max_field_chars, opts.max_description_chars)
    return text, tool_declarations(offered, opts.max_description_chars, obs.more)


def build(
    snapshot: Snapshot,
    options: ObserveOptions | None = None,
    *,
    entries: list[ActionEntry] | None = None,
    warnings: list[str] | None = None,
    settle_ms: float = 0.0,
    names: NameRegistry | None = None,
) -> tuple[Observation, str, list[dict[str, Any]]]:
    """Observation, text and tools within ``max_total_chars`` (budgets shrink to fit).

    The snapshot's record ids are screened (:func:`screen_record_ids`) and it is folded
    once, with the tool names ``names`` keeps for the document (or ``entries`` are the
    caller's folding of the screened snapshot); the entries are reused by every
    shrinking round. ``names`` also learns which tools were shown
    (:meth:`~cdpagent.snapshot.toolnames.NameRegistry.shown`), and gives room first to the
    controls that came with the document's last act
    (:meth:`~cdpagent.snapshot.toolnames.NameRegistry.appeared`).
    """
    opts = options or ObserveOptions()
    if entries is None:
        snapshot = screen_record_ids(snapshot)
        entries = fold_actions(snapshot, names)
    first = names.appeared() if names is not None else frozenset()
    measured: dict[int, _Sizes] = {}
    for _ in range(8):
        obs = _assemble(snapshot, opts, entries, warnings, settle_ms, first, measured)
        text, tools = present(obs, opts)
        used = len(text) + len(tools_json(tools))
        if used <= opts.max_total_chars:
            built = (obs, text, tools)
            obs, text, tools = _lend(
                snapshot, opts, entries, built, used, warnings, settle_ms, first, measured
            )
            break
        opts = _shrink(opts)
    if names is not None:
        shown = [e.tool for e in obs.more]
        for tool in tools:
            shown.append(tool["function"]["name"])
        names.shown(shown)
    return obs, text, tools


#: Of the room the other sections leave, the share lent to the tools JSON (the rest to the
#: action lines): a tool's declaration takes about twice its line's characters.
_TOOL_SHARE = 0.7
#: Of the room left under the request's bound, the share lent first to a citation index that
#: left ids out; the rest (and what the index does not use) goes to the action budgets.
_INDEX_SHARE = 0.5
#: A loan is tried with this share of the room left, then the next when the request would
#: pass its bound.
_LOANS = (1.0, 0.8, 0.6)


def _lend(
    snapshot: Snapshot,
    opts: ObserveOptions,
    entries: list[ActionEntry],
    built: tuple[Observation, str, list[dict[str, Any]]],
    used: int,
    warnings: list[str] | None,
    settle_ms: float,
    first: frozenset[str],
    measured: dict[int, _Sizes],
) -> tuple[Observation, str, list[dict[str, Any]]]:
    """``built``, or, when its budgets cut what the request has room left for under
    ``max_total_chars``, the observation assembled again with that room lent: first
    :data:`_INDEX_SHARE` of it to the citation index when it left record ids out (an id
    names a record in a few characters: a link list's 129 entries), then what is still left
    to the action budgets when they cut available entries (a short page text must not starve
    the actions: a one-form page's own submit button is not cut while the request is half
    empty). A loan whose request would pass ``max_total_chars`` is tried smaller (the lines
    and tools it admits are only known once assembled; what one measured, ``measured`` keeps for
    the next). Within ``max_total_chars``."""
    for section in ("index", "actions"):
        obs = built[0]
        if section == "index" and not obs.omitted.record_ids_not_listed:
            continue
        listed = obs.omitted.action_entries_shown + bool(obs.more)  # click_more is an entry of the list
        cut = listed < min(sum(e.available for e in entries), opts.max_actions)
        if section == "actions" and not cut:
            continue
        for share in _LOANS:
            spare = int((opts.max_total_chars - used) * share)
            if spare <= 0:
                break
            if section == "index":
                wider = msgspec.structs.replace(
                    opts, max_index_chars=opts.max_index_chars + int(spare * _INDEX_SHARE)
                )
            else:
                wider = msgspec.structs.replace(
                    opts,
                    max_tool_chars=opts.max_tool_chars + int(spare * _TOOL_SHARE),
                    max_action_chars=opts.max_action_chars + int(spare * (1 - _TOOL_SHARE)),
                )
            lent = _assemble(snapshot, wider, entries, warnings, settle_ms, first, measured)
            text, tools = present(lent, wider)
            size = len(text) + len(tools_json(tools))
            if size <= opts.max_total_chars:
                built, used, opts = (lent, text, tools), size, wider
                break
    return built


def _shrink(o: ObserveOptions) -> ObserveOptions:
    def f(n: int) -> int:
        return max(int(n * 0.7), 1)

    return msgspec.structs.replace(
        o,
        max_actions=f(o.max_actions),
        max_records=f(o.max_records),
        max_scopes=f(o.max_scopes),
        max_feedback=f(o.max_feedback),
        max_state_chars=f(o.max_state_chars),
        max_record_chars=f(o.max_record_chars),
        max_feedback_chars=f(o.max_feedback_chars),
        max_page_chars=f(o.max_page_chars),
        max_action_chars=f(o.max_action_chars),
        max_scope_chars=f(o.max_scope_chars),
        max_index_chars=f(o.max_index_chars),
        max_tool_chars=f(o.max_tool_chars),
        max_more_chars=f(o.max_more_chars),
        max_field_chars=max(f(o.max_field_chars), 20),
        max_description_chars=max(f(o.max_description_chars), 20),
        max_text_chars=f(o.max_text_chars),
    )
