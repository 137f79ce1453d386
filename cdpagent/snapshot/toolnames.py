"""Tool names that stay put: one registry per document, kept across its observations (issue 34).

A model acts on the names of the observation it was given; if the page adds a control
before it acts, a name given by position (``press_5``, ``delete_2``, ``button_3``) would
now name another control, and the act would click it. So a document's tool names are
assigned once and kept:

Rule 1: a control keeps the tool name it was first given for as long as it is on the page
(the same element: :attr:`cdpagent.snapshot.model.PageAction.uid`; a folded row action is
its name and region; a declared action its name, region and ordinal), whatever is added,
removed or re-rendered around it. An element whose words change to other words (a list
that recycles its option elements: the first one said "Testing", now "Select all") is
another control to a person: it takes a new name, and its old one is retired.

Rule 2: a new control takes the name today's rules give it
(:func:`assign_tool_names`: its words, qualified by its
region when another region has the same words, ``_2``… for duplicates) when no other
control of the document ever had that name; else the next free ``_2``, ``_3``… (a
positional name, ``button_2_in_login``, takes the next free number instead).

Rule 3: a name is never given to another control of the same document, with one
exception that is the same control to a person: a control with words that went from the
page since the last observation, while exactly one new element with the same words, kind
and fold came (a page that re-renders a button), hands its name to that element. When two
such controls went, or two such elements came, nobody can tell which is which: the new
ones get new names. A positional name (no words) is never handed on.

Rule 4: a name shown to the model (:meth:`NameRegistry.shown`) that no longer names a
control on the page is refused with ``STALE_ACTION`` when called
(:meth:`NameRegistry.stale`), never resolved to something else.

Pure: the registry is a plain object fed action entries; :func:`registry_of` keeps one per
tab and main document (a new document starts afresh).
"""

from __future__ import annotations

import re
import weakref
import zlib
from collections.abc import Callable, Hashable, Sequence
from typing import Final

import msgspec

from .model import MORE_TOOL, ActionEntry

__all__ = [
    "MAX_CONTROLS",
    "RESERVED_TOOL_NAMES",
    "TOOL_NAME",
    "NameRegistry",
    "assign_tool_names",
    "legal_name",
    "registry_of",
]

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
#: The runtime's own tool names: they win, and a page action of the same name is renamed (``_2``…)
#: so that names stay unique in every request (strict providers refuse duplicates).
#: ``press_key`` is the built-in press on whatever has the focus
#: (:data:`cdpagent.snapshot.openai_tools.PRESS_FOCUSED`); ``click_more`` clicks a control
#: the action budget named only in its list (:data:`~cdpagent.snapshot.model.MORE_TOOL`).
RESERVED_TOOL_NAMES: Final = frozenset({"invoke_page_method", "press_key", MORE_TOOL})
_ILLEGAL = re.compile(r"[^a-zA-Z0-9_-]+")

#: Element keys remembered per document; past it the keys of controls not on the page at the
#: last assignment are forgotten (a page that re-renders thousands of controls on every act).
#: Names are never forgotten: a forgotten control that comes back gets a new one.
MAX_CONTROLS: Final = 20_000

_SUFFIX = re.compile(r"_\d+$")
_NUMBER = re.compile(r"^(?P<head>.*?)(?P<n>\d+)(?P<tail>(?:_in_.*)?)$")

#: What a control is to a person, for Rule 3: its name's words, its kind, folded or not.
_Shape = tuple[str, str, bool]


def legal_name(text: str, limit: int = 64) -> str:
    """A legal function name for ``text``; non-ASCII names get a stable hash.

    Never empty, at most ``limit`` characters, matches :data:`TOOL_NAME`.
    """
    base = _ILLEGAL.sub("_", text).strip("_")
    if len(base) < len(text) / 2 or not base:
        # Mostly non-ASCII (e.g. 删除): keep what is legible, add a hash for uniqueness.
        digest = f"{zlib.crc32(text.encode()):08x}"[:6]
        base = f"{base}_{digest}" if base else f"action_{digest}"
    if len(base) > limit:
        digest = f"{zlib.crc32(text.encode()):08x}"[:6]
        base = base[: limit - 7] + "_" + digest
    return base


def assign_tool_names(entries: list[ActionEntry]) -> list[ActionEntry]:
    """Entries with ``tool`` set: legal, unique, and stable for a given page.

    Every entry whose base name is shared by entries in different regions is
    qualified with its innermost region id (so no entry keeps the bare name by
    accident of order); remaining duplicates, and names of :data:`RESERVED_TOOL_NAMES`,
    get ``_2``, ``_3``… in order.
    """
    bases = [legal_name(e.name) for e in entries]
    paths_by_base: dict[str, set[tuple[str, ...]]] = {}
    for base, e in zip(bases, entries, strict=True):
        paths_by_base.setdefault(base, set()).add(tuple(e.region_path))
    names: list[str] = []
    for base, e in zip(bases, entries, strict=True):
        if len(paths_by_base[base]) > 1:
            region = e.region_path[-1] if e.region_path else "page"
            base = legal_name(f"{region}_{e.name}")
        names.append(base)
    used: set[str] = set(RESERVED_TOOL_NAMES)
    out: list[ActionEntry] = []
    for name, e in zip(names, entries, strict=True):
        unique = name
        n = 2
        while unique in used:
            suffix = f"_{n}"
            unique = name[: 64 - len(suffix)] + suffix
            n += 1
        used.add(unique)
        out.append(msgspec.structs.replace(e, tool=unique))
    return out


class NameRegistry:
    """The tool names of one document's controls (see the module's rules)."""

    def __init__(self) -> None:
        self._next = 0
        self._control_of_key: dict[Hashable, int] = {}
        self._name_of: dict[int, str] = {}
        self._owner: dict[str, int] = {}
        self._shape: dict[int, _Shape | None] = {}
        """A worded control's shape (Rule 3); None for a positional one (never handed on)."""
        self._present: set[str] = set()
        """The names on the page at the last assignment."""
        self._here: set[int] = set()
        """The controls on the page at the last assignment."""
        self._order: list[int] = []
        """They in document order."""
        self._shown: set[str] = set()
        self._from: dict[str, int] = {}
        """Per family of names (:func:`_family`), the number a new name is looked for from."""
        self._before_act: set[int] | None = None
        """The controls on the page when the last act began (:meth:`acting`)."""

    def assign(self, entries: Sequence[ActionEntry], keys: Sequence[Hashable]) -> list[ActionEntry]:
        """``entries`` (in document order, each identified by its key in ``keys``) with their
        tool names: kept for known controls, new ones for the rest (Rules 1-3). Unique."""
        preferred = assign_tool_names(list(entries))
        if len(self._control_of_key) > MAX_CONTROLS:
            self._control_of_key = {k: c for k, c in self._control_of_key.items() if c in self._here}
        taken: set[str] = set(RESERVED_TOOL_NAMES)
        here: set[int] = set()
        names: list[str | None] = [None] * len(entries)
        for i, key in enumerate(keys):  # Rule 1
            known = self._control_of_key.get(key)
            if known is None:
                continue
            name = self._name_of[known]
            if name in taken or known in here or _reworded(self._shape.get(known), entries[i]):
                continue
            names[i] = name
            taken.add(name)
            here.add(known)
        order = [self._control_of_key.get(k) if names[i] is not None else None for i, k in enumerate(keys)]
        back = self._rerendered(entries, names, order, here)
        for i, entry in enumerate(entries):  # Rules 2 and 3
            if names[i] is not None:
                continue
            shape = _shape(entry)
            if i in back and self._name_of[back[i]] not in taken:
                control = back[i]  # the same words back on a new element: the same control
                candidate = self._name_of[control]
            else:
                family, n, make = _family(preferred[i].tool, entry)
                n = max(n, self._from.get(family, n))
                candidate = make(n)
                while candidate in taken or candidate in self._owner:
                    n += 1
                    candidate = make(n)
                self._from[family] = n + 1  # every name before it is given for good
                self._next += 1
                control = self._next
                self._name_of[control] = candidate
                self._owner[candidate] = control
                self._shape[control] = shape
            self._control_of_key[keys[i]] = control
            names[i] = candidate
            taken.add(candidate)
            here.add(control)
            order[i] = control
        self._present = {name for name in names if name is not None}
        self._here = here
        self._order = [control for control in order if control is not None]
        return [
            msgspec.structs.replace(entry, tool=name) if entry.tool != name else entry
            for entry, name in zip(entries, names, strict=True)
            if name is not None
        ]

    def _rerendered(
        self, entries: Sequence[ActionEntry], names: list[str | None], order: list[int | None], here: set[int]
    ) -> dict[int, int]:
        """Rule 3: new entries (index → the control they are) that are a control with words gone
        since the last assignment, back on a new element: the only one of its shape that went
        and the only one that came, or else the one that came between the same neighbours
        (the controls still on the page just before and after it) as the one that went."""
        went: dict[_Shape, list[int]] = {}
        for control in self._here - here:
            shape = self._shape.get(control)
            if shape is not None:
                went.setdefault(shape, []).append(control)
        if not went:
            return {}
        came: dict[_Shape, list[int]] = {}
        for i, entry in enumerate(entries):
            shape = _shape(entry)
            if names[i] is None and shape in went:
                came.setdefault(shape, []).append(i)
        old = _neighbours(self._order, lambda c: c in here)
        before = {control: old[i] for i, control in enumerate(self._order)}
        now = _neighbours(order, lambda c: c is not None)
        back: dict[int, int] = {}
        for shape, gone in went.items():
            new = came.get(shape, [])
            if len(gone) == 1 and len(new) == 1:
                back[new[0]] = gone[0]
                continue
            for control in gone:
                at = [i for i in new if now[i] == before[control]]
                if len(at) == 1 and sum(before[g] == now[at[0]] for g in gone) == 1:
                    back[at[0]] = control
        return back

    def acting(self) -> None:
        """Remember the controls on the page now, as an act on this document begins: what
        comes after them came because of the act (:meth:`appeared`)."""
        self._before_act = set(self._here)

    def appeared(self) -> frozenset[str]:
        """The names of the controls on the page at the last assignment that were not there
        when the last act on this document began (a menu it opened, a list of suggestions, a
        dialog); empty before any act."""
        if self._before_act is None:
            return frozenset()
        return frozenset(self._name_of[c] for c in self._here - self._before_act)

    def shown(self, names: Sequence[str]) -> None:
        """Remember that the model was given ``names`` (an observation's tools)."""
        self._shown.update(names)

    def stale(self, name: str) -> bool:
        """Whether ``name`` was shown to the model for a control the page no longer has
        (Rule 4): a call with it must be refused, not resolved."""
        return name in self._shown and name in self._owner and name not in self._present


_Pair = tuple[int | None, int | None]


def _neighbours(order: Sequence[int | None], kept: Callable[[int | None], bool]) -> list[_Pair]:
    """For each position of ``order``, the nearest controls before and after it that ``kept``
    holds for (None at either end)."""
    out: list[_Pair] = [(None, None)] * len(order)
    last: int | None = None
    for i, control in enumerate(order):
        out[i] = (last, None)
        if kept(control):
            last = control
    last = None
    for i in range(len(order) - 1, -1, -1):
        out[i] = (out[i][0], last)
        if kept(order[i]):
            last = order[i]
    return out


def _reworded(shape: _Shape | None, entry: ActionEntry) -> bool:
    """Whether a worded control of ``shape`` now says other words as ``entry`` (Rule 1: another
    control on the same element). Words that only change case or spacing are the same."""
    if shape is None or entry.name_source == "position":
        return False
    return _words(shape[0]) != _words(entry.name)


def _words(name: str) -> str:
    return " ".join(name.casefold().split())


def _shape(entry: ActionEntry) -> _Shape | None:
    if entry.name_source == "position":
        return None
    return (entry.name, entry.kind, entry.folded)


def _family(preferred: str, entry: ActionEntry) -> tuple[str, int, Callable[[int], str]]:
    """The names a new control may take (Rule 2), as a family, the number to start from and
    the n-th name: ``preferred``, ``preferred_2``, ``preferred_3``…; a positional name counts
    its own number on instead (``button_2_in_login``, ``button_3_in_login``…)."""
    match = _NUMBER.match(preferred) if entry.name_source == "position" else None
    if match is not None:
        head, tail = match["head"], match["tail"]
        # The number kept within the 64 characters, so that each n is a name of its own.
        first = int(match["n"])
        return (
            f"{head}\u0000{tail}",
            first,
            lambda n: preferred if n == first else f"{head[:40]}{n}{tail}"[:64],
        )
    # Counting on from the words, not from today's suffix (delete_3 after delete_2, not delete_2_2).
    suffixed = _SUFFIX.search(preferred)
    if suffixed is not None and not legal_name(entry.name).endswith(suffixed[0]):
        preferred = preferred[: suffixed.start()]
    stem = preferred
    return stem, 1, lambda n: stem if n == 1 else stem[: 64 - len(f"_{n}")] + f"_{n}"


_registries: weakref.WeakKeyDictionary[object, tuple[int, NameRegistry]] = weakref.WeakKeyDictionary()


def registry_of(tab: object, document_serial: int) -> NameRegistry:
    """The registry of ``tab``'s main document ``document_serial``: kept while it stays the
    tab's document, a new one for each new document."""
    held = _registries.get(tab)
    if held is None or held[0] != document_serial:
        held = (document_serial, NameRegistry())
        _registries[tab] = held
    return held[1]
