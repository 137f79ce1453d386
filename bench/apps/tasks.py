"""Issue 34's corpus tasks: an instruction, the steps a person takes, and a scorer that reads
the application's own state.

The steps are the scripted policy's general vocabulary (:class:`Type`, :class:`Pick`,
:class:`Check`, :class:`Click`, :class:`Expect`): each one observes the page through
``tests/miniwob_policy.py``'s :class:`Episode`, finds its control by the words a person
reads on the page (a label, a button's text, a row's text), and acts only through
``Tab.act``. Nothing here names a control by its tool name or reads the DOM. A step that
cannot find its control among the SHOWN tools of the observation raises :class:`Unseen`;
every step records whether its control was shown (:attr:`Run.shown`).

After the policy, the scorer reads the application: Django's database through its ORM
(:meth:`servers.DjangoAdmin.state`), Shoelace's components through their own properties
(``.value``, ``.checked``, ``.selected``) by a page evaluation, Streamlit's by the state its
app writes, JupyterLab's by the notebook it saved (its contents API).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import servers
import trio
from miniwob_policy import Episode, Look, Tool, Unseen, ident

import cdpagent
from cdpagent.act.step import COVERED
from cdpagent.snapshot import tools_json
from cdpagent.snapshot.observe import observe_page
from cdpagent.snapshot.openai_tools import PRESS_FOCUSED

_TITLE = re.compile(r"^- title: (.*)$", re.M)
_CITED = re.compile(r"^Citation record ids \(.*?\): <page_data>(.*?)</page_data>", re.M)
_REGEX = re.compile(r"[\\^$.|?*+()\[\]{}]")


@dataclass
class SizedEpisode(Episode):
    """An :class:`Episode` that also keeps, per page title, the size of the request its first
    observation of that page makes (page section + tools JSON, characters)."""

    sizes: dict[str, int] = field(default_factory=dict)

    async def look(self) -> Look:
        result = await observe_page(self.tab)
        m = _TITLE.search(result.text)
        self.sizes.setdefault(m[1] if m else "?", len(result.text) + len(tools_json(result.tools)))
        self.log.append(
            f"--- observation\n{result.text}\ntools: {[t['function']['name'] for t in result.tools]}"
        )
        return Look.of(result)

    async def act(self, tool: Tool | str, **args: Any) -> None:
        """Act; when the act is refused because something covers the control (an open list
        drawn over it), follow the way out the refusal names (press Escape, which closes
        it) and act once more, as a person closes a list that is in the way."""
        name = tool.name if isinstance(tool, Tool) else tool
        receipt = await self.tab.act(name, **args)
        error = receipt.result.error
        if error is not None and error.reason == COVERED and "Escape" in error.message:
            self.log.append(f"--- act {name} {args}: covered; press_key Escape, then again")
            await self.tab.act(PRESS_FOCUSED, key="Escape")
        else:
            self.log.append(f"--- act {name} {args}\n{msgspec.json.encode(receipt).decode()[:600]}")
            return
        await super().act(tool, **args)


@dataclass
class Run:
    """One task's run: which of its steps' controls were shown, and how it ended."""

    shown: list[tuple[str, bool]] = field(default_factory=list)
    solved: bool = False
    why: str = ""
    sizes: dict[str, int] = field(default_factory=dict)

    @property
    def all_shown(self) -> bool:
        return bool(self.shown) and all(ok for _, ok in self.shown)


#: A contents entry's number ("3.", "2.1."), which a person leaves out when naming it.
_NUMBERED = re.compile(r"^\d+(?:\.\d+)*\.?\s+")


def _says(record_id: str, words: str) -> bool:
    """Whether ``record_id`` is ``words`` (any case), a contents entry's number aside."""
    return _NUMBERED.sub("", record_id).casefold() == words.casefold()


def _record_ids(look: Look, words: str) -> list[str]:
    """Ids of the records whose line shows ``words`` (as whole words, any case): those
    labelled ``words`` first, then those whose label shows them, then the rest; before all of
    them the ids that are ``words`` among those a folded tool enumerates or the citation
    index lists (a link list's items and a change list's rows are named by their links'
    words: the item itself, not a row that mentions it)."""
    pat = re.compile(rf"(?<!\w){re.escape(words)}(?!\w)", re.I)
    hits = [r for r in look.records() if pat.search(f"{r.label} {r.body}")]
    hits.sort(key=lambda r: (r.label.casefold() != words.casefold(), not pat.search(r.label)))
    named = [o for t in look.tools for o in t.enum("record") if _says(o, words)]
    # The citation index lists ids a person reads too (a change list's rows named by their
    # titles): an id that is the words is that row.
    cited = _CITED.search(look.raw)
    listed = [i for i in (cited[1].split(" / ") if cited else []) if _says(i, words)]
    return list(dict.fromkeys([*named, *listed, *(r.id for r in hits)]))


def _row_tools(look: Look, record: str, words: str, *kinds: str) -> list[Tool]:
    """Folded tools of ``kinds`` that may take ``record``: those enumerating it first, then
    those that enumerate nothing (a long list of rows); among each, a tool named by
    ``words`` first."""
    folded = [t for t in look.tools if t.folded and t.kind in kinds]
    folded.sort(key=lambda t: t.name != ident(words))
    return [t for t in folded if record in t.enum("record")] + [t for t in folded if not t.enum("record")]


async def _search_for(ep: Episode, look: Look, words: str) -> bool:
    """Narrow the page to ``words`` through its search field, as a person who does not see
    a row searches for it: the field typed, then its Search button (or Enter, when the
    field submits after typing). False when the page shows no search field."""
    field = next((t for t in look.of_kind("type") if "search" in f"{t.name} {t.head}".casefold()), None)
    if field is None:
        return False
    await ep.act(field, text=words)
    button = look.find("Search", "click")
    if button is not None and "Submits after typing" not in field.description:
        await ep.act(button)
    return True


async def _on_control(
    ep: Episode, run: Run, label: str, kinds: tuple[str, ...], searched: bool = False, **args: Any
) -> None:
    """Act with ``args`` on the control a person calls ``label``: a page tool of ``kinds``
    named by it, else a row action of ``kinds`` on the record that shows it (a refused row
    action tries the next); when neither is shown, once, the page is searched for ``label``
    and looked at again. :class:`Unseen` when the observation shows neither. A control
    reached through the search (a search result, not the page's own control) goes on, but
    is not counted as shown: the observation where it was needed did not show it."""
    look = await ep.look()
    tool = look.find(label, *kinds)
    if tool is not None:
        run.shown.append((label, not searched))
        await ep.act(tool, **args)
        return
    for record in _record_ids(look, label):
        for row in _row_tools(look, record, label, *kinds):
            try:
                await ep.act(row, record=record, **args)
            except cdpagent.CDPAgentError:
                continue
            run.shown.append((label, not searched))
            return
    if not searched and await _search_for(ep, look, label):
        await _on_control(ep, run, label, kinds, searched=True, **args)
        return
    run.shown.append((label, False))
    listed = ", ".join(f"{t.name}[{t.kind}]" for t in look.tools) or "none"
    raise Unseen(f"no {'/'.join(kinds)} control for {label!r}; tools: {listed}")


class Step:
    async def run(self, ep: Episode, run: Run) -> None:
        raise NotImplementedError


@dataclass
class Type(Step):
    label: str
    text: str

    async def run(self, ep: Episode, run: Run) -> None:
        await _on_control(ep, run, self.label, ("type",), text=self.text)


@dataclass
class Pick(Step):
    """Choose ``option`` in the select or radio group ``label``; a group not shown as one
    control is picked by its option's own radio or check control."""

    label: str
    option: str

    async def run(self, ep: Episode, run: Run) -> None:
        look = await ep.look()
        tool = look.find(self.label, "select", "choose")
        if tool is None:
            tool = next((t for t in look.of_kind("select", "choose") if self.option in look.options(t)), None)
        if tool is not None:
            run.shown.append((self.label, True))
            await ep.act(tool, option=self.option)
            return
        # A list that opens from its field: click it open (or, when typing is what it
        # offers, type the option's name into it), then click the option.
        opener = look.find(self.label, "click", "type")
        if opener is not None:
            run.shown.append((self.label, True))
            await ep.act(opener, **({"text": self.option} if opener.kind == "type" else {}))
        await _on_control(ep, run, self.option, ("check", "click"))


@dataclass
class Check(Step):
    label: str
    checked: bool = True

    async def run(self, ep: Episode, run: Run) -> None:
        await _on_control(ep, run, self.label, ("check",), checked=self.checked)


@dataclass
class Click(Step):
    label: str

    async def run(self, ep: Episode, run: Run) -> None:
        await _on_control(ep, run, self.label, ("click",))


@dataclass
class Set(Step):
    """Set the slider or range ``label`` to ``value``."""

    label: str
    value: float

    async def run(self, ep: Episode, run: Run) -> None:
        await _on_control(ep, run, self.label, ("set",), value=self.value)


@dataclass
class Press(Step):
    """Press ``key`` on whatever has the focus, as a person done with a field closes the
    calendar it opened with Escape."""

    key: str

    async def run(self, ep: Episode, run: Run) -> None:
        await ep.act(PRESS_FOCUSED, key=self.key)


@dataclass
class Upload(Step):
    """Give the file field ``label`` the file ``path`` (a person picks it in the file chooser)."""

    label: str
    path: str

    async def run(self, ep: Episode, run: Run) -> None:
        await _on_control(ep, run, self.label, ("upload",), files=[self.path])


@dataclass
class WaitFor(Step):
    """Wait, up to ``seconds``, until the page shows ``text`` (a person waits for an
    application that draws itself after loading before looking for its controls)."""

    text: str
    seconds: float = 30.0

    async def run(self, ep: Episode, run: Run) -> None:
        try:
            await ep.tab.wait_for(text=self.text, timeout=self.seconds)
        except cdpagent.CDPAgentError as exc:
            run.shown.append((f"text {self.text!r}", False))
            raise Unseen(f"the page never showed {self.text!r}: {exc}") from exc
        run.shown.append((f"text {self.text!r}", True))


@dataclass
class Expect(Step):
    """The page says ``pattern`` (as a person would check a message before going on). An
    application that answers after a round trip to its server (a rerun) is given up to
    ``seconds`` to say it, as a person waits a moment; the observation after must show it."""

    pattern: str
    seconds: float = 5.0

    async def run(self, ep: Episode, run: Run) -> None:
        look = await ep.look()
        ok = look.has(self.pattern, re.I)
        if not ok and not _REGEX.search(self.pattern):  # plain words: wait_for takes text
            try:
                await ep.tab.wait_for(text=self.pattern, timeout=self.seconds)
            except cdpagent.CDPAgentError:
                pass
            else:
                look = await ep.look()
                ok = look.has(self.pattern, re.I)
        run.shown.append((f"text /{self.pattern}/", ok))
        if not ok:
            raise Unseen(f"the page does not say /{self.pattern}/")


@dataclass
class LogIn(Step):
    """Log in through the page's login form when it shows one (a person's first step)."""

    user: str
    password: str

    async def run(self, ep: Episode, run: Run) -> None:
        look = await ep.look()
        if look.find("Password", "type") is None:
            return
        await Type("Username", self.user).run(ep, run)
        await Type("Password", self.password).run(ep, run)
        await Click("Log in").run(ep, run)


Scorer = Callable[[Any, cdpagent.Tab], Awaitable[bool]]


@dataclass
class Task:
    app: str
    name: str
    instruction: str
    start: str  # the path opened first, relative to the application's root url
    steps: list[Step]
    score: Scorer


def _db(code: str) -> Scorer:
    """A scorer true when ``code`` (leaving ``out``) computes a truthy value in the database."""

    async def score(app: servers.DjangoAdmin, tab: cdpagent.Tab) -> bool:
        return bool(app.state(code))

    return score


def _page(expression: str) -> Scorer:
    """A scorer true when ``expression``, evaluated in the page after the policy, is true."""

    async def score(app: Any, tab: cdpagent.Tab) -> bool:
        answer = await tab.session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return answer.get("result", {}).get("value") is True

    return score


_LOGIN = LogIn(*servers.ADMIN)
_SURE = "Yes, I’m sure"
_DELETE_ACTION = ("Action", "Delete selected books")

DJANGO: list[Task] = [
    Task(
        "django",
        "add-book",
        "Add the book Dune by Frank Herbert, a novel published 1965-08-01 with 412 pages.",
        "library/book/add/",
        [
            _LOGIN,
            Type("Title", "Dune"),
            Type("Author", "Frank Herbert"),
            Pick("Genre", "Novel"),
            Type("Published", "1965-08-01"),
            Type("Pages", "412"),
            Click("Save"),
        ],
        _db(
            "out = Book.objects.filter(title='Dune', author='Frank Herbert', genre='novel', "
            "published='1965-08-01', pages=412).count() == 1"
        ),
    ),
    Task(
        "django",
        "validation-error",
        "Add Cosmos by Carl Sagan (science, 1980-10-12) with 0 pages; "
        "when the form refuses that, make it 365 pages.",
        "library/book/add/",
        [
            _LOGIN,
            Type("Title", "Cosmos"),
            Type("Author", "Carl Sagan"),
            Pick("Genre", "Science"),
            Type("Published", "1980-10-12"),
            Type("Pages", "0"),
            Click("Save"),
            Expect(r"greater than or equal to 1"),
            Type("Pages", "365"),
            Click("Save"),
        ],
        _db("out = list(Book.objects.filter(title='Cosmos').values_list('pages', flat=True)) == [365]"),
    ),
    Task(
        "django",
        "date-widget-today",
        "Add the poetry book Today by Ann Author, 12 pages, published today.",
        "library/book/add/",
        [
            _LOGIN,
            Type("Title", "Today"),
            Type("Author", "Ann Author"),
            Pick("Genre", "Poetry"),
            Click("Today"),
            Type("Pages", "12"),
            Click("Save"),
        ],
        _db(
            "from django.utils import timezone\n"
            "out = Book.objects.filter(title='Today', published=timezone.localdate()).count() == 1"
        ),
    ),
    Task(
        "django",
        "search-and-edit",
        "Find Middlemarch and change its page count to 904.",
        "library/book/",
        [
            _LOGIN,
            Type("Search", "Middlemarch"),
            Click("Search"),
            Click("Middlemarch"),
            Type("Pages", "904"),
            Click("Save"),
        ],
        _db("out = Book.objects.get(title='Middlemarch').pages == 904"),
    ),
    Task(
        "django",
        "filter-bulk-delete",
        "Delete every book that is not in stock.",
        "library/book/",
        [
            _LOGIN,
            Click("No"),
            Check("Select all objects on this page for an action"),
            Pick(*_DELETE_ACTION),
            Click("Go"),
            Click(_SURE),
        ],
        _db("out = Book.objects.filter(in_stock=False).count() == 0 and Book.objects.count() == 9"),
    ),
    Task(
        "django",
        "search-bulk-delete",
        "Delete all the books by George Eliot.",
        "library/book/",
        [
            _LOGIN,
            Type("Search", "Eliot"),
            Click("Search"),
            Check("Select all objects on this page for an action"),
            Pick(*_DELETE_ACTION),
            Click("Go"),
            Click(_SURE),
        ],
        _db("out = Book.objects.filter(author='George Eliot').count() == 0 and Book.objects.count() == 10"),
    ),
    Task(
        "django",
        "delete-one",
        "Delete the book Sybil.",
        "library/book/",
        [_LOGIN, Click("Sybil"), Click("Delete"), Click(_SURE)],
        _db("out = not Book.objects.filter(title='Sybil').exists() and Book.objects.count() == 11"),
    ),
    Task(
        "django",
        "out-of-stock",
        "Mark Emma as out of stock.",
        "library/book/",
        [_LOGIN, Click("Emma"), Check("In stock", checked=False), Click("Save")],
        _db("out = Book.objects.get(title='Emma').in_stock is False"),
    ),
    Task(
        "django",
        "change-genre",
        "Walden is a novel, not history: change its genre.",
        "library/book/",
        [_LOGIN, Click("Walden"), Pick("Genre", "Novel"), Click("Save")],
        _db("out = Book.objects.get(title='Walden').genre == 'novel'"),
    ),
    Task(
        "django",
        "filter-select-delete",
        "Among the poetry books, delete Leaves of Grass.",
        "library/book/",
        [_LOGIN, Click("Poetry"), Check("Leaves of Grass"), Pick(*_DELETE_ACTION), Click("Go"), Click(_SURE)],
        _db("out = not Book.objects.filter(title='Leaves of Grass').exists() and Book.objects.count() == 11"),
    ),
    Task(
        "django",
        "edit-date",
        "Opticks was published on 1704-02-15; correct its date.",
        "library/book/",
        [_LOGIN, Click("Opticks"), Type("Published", "1704-02-15"), Click("Save")],
        _db("out = str(Book.objects.get(title='Opticks').published) == '1704-02-15'"),
    ),
    Task(
        "django",
        "add-out-of-stock",
        "Add the history book SPQR by Mary Beard, 2015-10-20, 608 pages; it is out of stock.",
        "library/book/add/",
        [
            _LOGIN,
            Type("Title", "SPQR"),
            Type("Author", "Mary Beard"),
            Pick("Genre", "History"),
            Type("Published", "2015-10-20"),
            Type("Pages", "608"),
            Check("In stock", checked=False),
            Click("Save"),
        ],
        _db(
            "out = Book.objects.filter(title='SPQR', genre='history', pages=608, in_stock=False).count() == 1"
        ),
    ),
    Task(
        "django",
        "add-two",
        "Add Beowulf (poetry, anonymous, 1000-01-01, 120 pages), then Ulysses by James Joyce "
        "(novel, 1922-02-02, 730 pages).",
        "library/book/add/",
        [
            _LOGIN,
            Type("Title", "Beowulf"),
            Type("Author", "Anonymous"),
            Pick("Genre", "Poetry"),
            Type("Published", "1000-01-01"),
            Type("Pages", "120"),
            Click("Save and add another"),
            Type("Title", "Ulysses"),
            Type("Author", "James Joyce"),
            Pick("Genre", "Novel"),
            Type("Published", "1922-02-02"),
            Type("Pages", "730"),
            Click("Save"),
        ],
        _db("out = Book.objects.filter(title__in=['Beowulf', 'Ulysses']).count() == 2"),
    ),
    Task(
        "django",
        "rename",
        "Silas Marner's full title is Silas Marner: The Weaver of Raveloe; correct it.",
        "library/book/",
        [_LOGIN, Click("Silas Marner"), Type("Title", "Silas Marner: The Weaver of Raveloe"), Click("Save")],
        _db("out = Book.objects.filter(title='Silas Marner: The Weaver of Raveloe').count() == 1"),
    ),
    Task(
        "django",
        "change-author",
        "Persuasion's author should read J. Austen.",
        "library/book/",
        [_LOGIN, Click("Persuasion"), Type("Author", "J. Austen"), Click("Save")],
        _db("out = Book.objects.get(title='Persuasion').author == 'J. Austen'"),
    ),
    Task(
        "django",
        "delete-two",
        "Delete Walden and Opticks.",
        "library/book/",
        [_LOGIN, Check("Walden"), Check("Opticks"), Pick(*_DELETE_ACTION), Click("Go"), Click(_SURE)],
        _db(
            "out = not Book.objects.filter(title__in=['Walden', 'Opticks']).exists() "
            "and Book.objects.count() == 10"
        ),
    ),
    Task(
        "django",
        "add-then-cancel-delete",
        "Open The Histories, start deleting it, and then change your mind.",
        "library/book/",
        [_LOGIN, Click("The Histories"), Click("Delete"), Click("No, take me back")],
        _db("out = Book.objects.filter(title='The Histories').exists() and Book.objects.count() == 12"),
    ),
]


def _el(selector: str) -> str:
    return f"document.querySelector({selector!r})"


SHOELACE: list[Task] = [
    Task(
        "shoelace",
        "input",
        "The traveller is Ada Lovelace.",
        "",
        [Type("Traveller name", "Ada Lovelace")],
        _page(f"{_el('#traveller')}.value === 'Ada Lovelace'"),
    ),
    Task(
        "shoelace",
        "select",
        "Travel to Kyoto.",
        "",
        [Pick("Destination", "Kyoto")],
        _page(f"{_el('#destination')}.value === 'kyoto'"),
    ),
    Task(
        "shoelace",
        "date",
        "Depart on 2027-03-14.",
        "",
        [Type("Departure date", "2027-03-14")],
        _page(f"{_el('#departure')}.value === '2027-03-14'"),
    ),
    Task(
        "shoelace",
        "radio-group",
        "Fly business class.",
        "",
        [Pick("Cabin class", "Business")],
        _page(f"{_el('#cabin')}.value === 'business'"),
    ),
    Task(
        "shoelace",
        "checkbox",
        "Add travel insurance.",
        "",
        [Check("Add travel insurance")],
        _page(f"{_el('#insurance')}.checked === true"),
    ),
    Task(
        "shoelace",
        "switch",
        "Turn price alerts on.",
        "",
        [Check("Price alerts")],
        _page(f"{_el('#alerts')}.checked === true"),
    ),
    Task(
        "shoelace",
        "textarea",
        "Tell the agent: aisle seat please.",
        "",
        [Type("Notes for the agent", "aisle seat please")],
        _page(f"{_el('#notes')}.value === 'aisle seat please'"),
    ),
    Task(
        "shoelace",
        "menu",
        "Ask for a window seat among the extras.",
        "",
        [Click("Extras"), Click("Window seat")],
        _page(f"{_el('sl-menu-item[value=seat]')}.checked === true"),
    ),
    Task(
        "shoelace",
        "tab-and-number",
        "Check in 2 bags.",
        "",
        [Click("Baggage"), Type("Checked bags", "2")],
        _page(f"{_el('#bags')}.value === '2'"),
    ),
    Task(
        "shoelace",
        "tab-and-email",
        "The contact email is ada@example.org.",
        "",
        [Click("Contact"), Type("Contact email", "ada@example.org")],
        _page(f"{_el('#email')}.value === 'ada@example.org'"),
    ),
    Task(
        "shoelace",
        "tree",
        "Among the sights, pick the botanical garden.",
        "",
        [Click("Botanical garden")],
        _page(
            "[...document.querySelectorAll('sl-tree-item')].filter(i => i.selected)"
            ".map(i => i.textContent.trim()).join() === 'Botanical garden'"
        ),
    ),
    Task(
        "shoelace",
        "dialog",
        "Send the request with booking reference TR-1234.",
        "",
        [Click("Review and send"), Type("Booking reference", "TR-1234"), Click("Send request")],
        _page(f"{_el('#review')}.dataset.sent === 'TR-1234' && !{_el('#review')}.open"),
    ),
    Task(
        "shoelace",
        "whole-trip",
        "Ada Lovelace flies first class to Oslo.",
        "",
        [Type("Traveller name", "Ada Lovelace"), Pick("Destination", "Oslo"), Pick("Cabin class", "First")],
        _page(
            f"{_el('#traveller')}.value === 'Ada Lovelace' && {_el('#destination')}.value === 'oslo' "
            f"&& {_el('#cabin')}.value === 'first'"
        ),
    ),
    Task(
        "shoelace",
        "two-extras",
        "Ask for a vegetarian meal and lounge access.",
        "",
        [Click("Extras"), Click("Vegetarian meal"), Click("Extras"), Click("Lounge access")],
        _page(
            f"{_el('sl-menu-item[value=meal]')}.checked && {_el('sl-menu-item[value=lounge]')}.checked "
            f"&& !{_el('sl-menu-item[value=seat]')}.checked"
        ),
    ),
    Task(
        "shoelace",
        "tree-collapsed",
        "Among the sights, pick the art museum.",
        "",
        [Click("Museums"), Click("Art museum")],
        _page(
            "[...document.querySelectorAll('sl-tree-item')].filter(i => i.selected)"
            ".map(i => i.textContent.trim()).join() === 'Art museum'"
        ),
    ),
    Task(
        "shoelace",
        "dialog-cancel",
        "Open the review, but do not send the request.",
        "",
        [Click("Review and send"), Click("Cancel")],
        _page(f"!{_el('#review')}.open && !('sent' in {_el('#review')}.dataset)"),
    ),
    Task(
        "shoelace",
        "date-and-bags",
        "Leave on 2027-07-01 with one checked bag.",
        "",
        [Type("Departure date", "2027-07-01"), Click("Baggage"), Type("Checked bags", "1")],
        _page(f"{_el('#departure')}.value === '2027-07-01' && {_el('#bags')}.value === '1'"),
    ),
]


def _at(path: str, extra: str = "true") -> Scorer:
    """A scorer true when the browser shows the page ``path`` (relative to the site's root)
    and ``extra`` holds there."""
    return _page(f"location.pathname.endsWith({'/' + path!r}) && ({extra})")


def _search_results(path: str) -> Scorer:
    """A scorer true when the site's own search page lists a result linking to ``path``
    (its results come from its offline index, written into the page by its script: the
    scorer waits up to 10 s for them, the policy does not)."""
    wait = (
        "new Promise((done) => { const t0 = Date.now(); const look = () => {"
        "  if (!location.pathname.endsWith('/search.html')) return done(false);"
        "  const hit = [...document.querySelectorAll('#search-results a')]"
        f"    .some((a) => new URL(a.href).pathname.endsWith({'/' + path!r}));"
        "  if (hit || Date.now() - t0 > 10000) done(hit && location.pathname.endsWith('/search.html'));"
        "  else setTimeout(look, 100); }; look(); })"
    )

    async def score(app: Any, tab: cdpagent.Tab) -> bool:
        answer = await tab.session.send(
            "Runtime.evaluate", {"expression": wait, "awaitPromise": True, "returnByValue": True}
        )
        return answer.get("result", {}).get("value") is True

    return score


DOCS: list[Task] = [
    Task(
        "python-docs",
        "tutorial",
        "Open the Python tutorial.",
        "index.html",
        [Click("Tutorial")],
        _at("tutorial/index.html"),
    ),
    Task(
        "python-docs",
        "library",
        "Open the library reference.",
        "index.html",
        [Click("Library Reference")],
        _at("library/index.html"),
    ),
    Task(
        "python-docs",
        "glossary",
        "Look at the glossary.",
        "index.html",
        [Click("Glossary")],
        _at("glossary.html"),
    ),
    Task(
        "python-docs",
        "whatsnew",
        "What is new in Python 3.11? Open that page.",
        "index.html",
        [Click("What's new in Python 3.11?")],
        _at("whatsnew/3.11.html"),
    ),
    Task(
        "python-docs",
        "search",
        "Search the documentation for groupby.",
        "index.html",
        [Type("Quick search", "groupby")],
        _search_results("library/itertools.html"),
    ),
    Task(
        "python-docs",
        "search-and-open",
        "Find the json module's documentation and open it.",
        "index.html",
        [Type("Quick search", "json"), Click("json")],
        _at("library/json.html"),
    ),
    Task(
        "python-docs",
        "tutorial-chapter",
        "In the tutorial, open the informal introduction to Python.",
        "tutorial/index.html",
        [Click("An Informal Introduction to Python")],
        _at("tutorial/introduction.html"),
    ),
    Task(
        "python-docs",
        "next-topic",
        "Go on to the topic after json.",
        "library/json.html",
        [Click("next")],
        _at("library/mailbox.html"),
    ),
    Task(
        "python-docs",
        "builtin",
        "Show the documentation of the built-in function len().",
        "library/functions.html",
        [Click("len()")],
        _at("library/functions.html", "location.hash === '#len'"),
    ),
    Task(
        "python-docs",
        "module-index",
        "From the module index, open the documentation of the csv module.",
        "py-modindex.html",
        [Click("csv")],
        _at("library/csv.html"),
    ),
    Task(
        "python-docs",
        "language-reference",
        "Open the language reference.",
        "index.html",
        [Click("Language Reference")],
        _at("reference/index.html"),
    ),
    Task(
        "python-docs",
        "howtos",
        "Open the HOWTOs.",
        "index.html",
        [Click("Python HOWTOs")],
        _at("howto/index.html"),
    ),
    Task("python-docs", "faq", "Open the FAQs.", "index.html", [Click("FAQs")], _at("faq/index.html")),
    Task(
        "python-docs",
        "general-index",
        "Open the general index.",
        "index.html",
        [Click("General Index")],
        _at("genindex.html"),
    ),
    Task(
        "python-docs",
        "search-dataclass",
        "Search the documentation for dataclass.",
        "index.html",
        [Type("Quick search", "dataclass")],
        _search_results("library/dataclasses.html"),
    ),
    Task(
        "python-docs",
        "previous-topic",
        "Go back to the topic before json.",
        "library/json.html",
        [Click("previous")],
        _at("library/email.iterators.html"),
    ),
]


def _written(read: Callable[[Any], Any], check: Callable[[Any], bool]) -> Scorer:
    """A scorer true when what ``read(app)`` reads of the application's state (None while
    there is none) satisfies ``check``. An application may write its state after the policy's
    last act (at the end of the run it started, a save it started): the scorer waits up to
    10 s for it, the policy does not."""

    async def score(app: Any, tab: cdpagent.Tab) -> bool:
        with trio.move_on_after(10):
            while True:
                state = await trio.to_thread.run_sync(read, app)
                if state is not None and check(state):
                    return True
                await trio.sleep(0.1)  # a file or an API read has no event to wait on
        return False

    return score


def _state(check: Callable[[dict[str, Any]], bool]) -> Scorer:
    """A scorer true when the state the Streamlit app last wrote (at the end of each of its
    runs) satisfies ``check``."""
    return _written(lambda app: app.state(), check)


READY = WaitFor("Talk abstract (text file)")
UPLOADS = Path(__file__).resolve().parent / "streamlit"
"""The folder a task's files are uploaded from: the browser that runs the tasks allows it."""
ABSTRACT = str(UPLOADS / "abstract.txt")

STREAMLIT: list[Task] = [
    Task(
        "streamlit",
        "text",
        "Your name is Ada Lovelace.",
        "",
        [READY, Type("Full name", "Ada Lovelace")],
        _state(lambda s: s["name"] == "Ada Lovelace"),
    ),
    Task(
        "streamlit",
        "number",
        "You need 3 tickets.",
        "",
        [READY, Type("Tickets", "3")],
        _state(lambda s: s["tickets"] == 3),
    ),
    Task(
        "streamlit",
        "slider",
        "Your hotel budget is 250 euros a night.",
        "",
        [READY, Set("Hotel budget per night (EUR)", 250)],
        _state(lambda s: s["budget"] == 250),
    ),
    Task(
        "streamlit",
        "selectbox",
        "The conference is in Oslo.",
        "",
        [READY, Pick("Venue city", "Oslo")],
        _state(lambda s: s["city"] == "Oslo"),
    ),
    Task(
        "streamlit",
        "multiselect",
        "Attend the Security and Accessibility workshops.",
        "",
        [READY, Pick("Workshops", "Security"), Pick("Workshops", "Accessibility")],
        _state(lambda s: sorted(s["workshops"]) == ["Accessibility", "Security"]),
    ),
    Task(
        "streamlit",
        "radio",
        "You eat vegan.",
        "",
        [READY, Pick("Meal", "Vegan")],
        _state(lambda s: s["meal"] == "Vegan"),
    ),
    Task(
        "streamlit",
        "checkbox",
        "Subscribe to the newsletter.",
        "",
        [READY, Check("Subscribe to the newsletter")],
        _state(lambda s: s["newsletter"] is True),
    ),
    Task(
        "streamlit",
        "date",
        "You arrive on 2027-06-01.",
        "",
        # The date field is three spin buttons, each named by its part and the field's label.
        [
            READY,
            Set("year, Arrival date", 2027),
            Set("month, Arrival date", 6),
            Set("day, Arrival date", 1),
            Press("Escape"),
        ],
        _state(lambda s: s["arrival"] == "2027-06-01"),
    ),
    Task(
        "streamlit",
        "file-upload",
        f"Attach your talk abstract ({ABSTRACT}).",
        "",
        [READY, Upload("Talk abstract (text file)", ABSTRACT)],
        _state(lambda s: (s["abstract"] or {}).get("name") == "abstract.txt"),
    ),
    Task(
        "streamlit",
        "register",
        "Register Ada Lovelace for 2 tickets in Berlin.",
        "",
        [
            READY,
            Type("Full name", "Ada Lovelace"),
            Type("Tickets", "2"),
            Pick("Venue city", "Berlin"),
            Click("Register"),
            Expect("Registered Ada Lovelace"),
        ],
        _state(
            lambda s: (
                s["registration"]
                == {**(s["registration"] or {}), "name": "Ada Lovelace", "tickets": 2, "city": "Berlin"}
            )
        ),
    ),
    Task(
        "streamlit",
        "register-without-name",
        "Press Register without a name; when the app asks for it, give Grace Hopper and register.",
        "",
        [
            READY,
            Click("Register"),
            Expect("Please enter your full name"),
            Type("Full name", "Grace Hopper"),
            Click("Register"),
        ],
        _state(lambda s: (s["registration"] or {}).get("name") == "Grace Hopper" and s["error"] is None),
    ),
    Task(
        "streamlit",
        "whole-form",
        "Register Grace Hopper, vegetarian, for the Testing workshop, with the newsletter.",
        "",
        [
            READY,
            Type("Full name", "Grace Hopper"),
            Pick("Meal", "Vegetarian"),
            Pick("Workshops", "Testing"),
            Check("Subscribe to the newsletter"),
            Click("Register"),
        ],
        _state(
            lambda s: (
                s["meal"] == "Vegetarian"
                and s["workshops"] == ["Testing"]
                and s["newsletter"] is True
                and (s["registration"] or {}).get("name") == "Grace Hopper"
            )
        ),
    ),
]


def _saved(check: Callable[[list[dict[str, Any]]], bool], path: str = "analysis.ipynb") -> Scorer:
    """A scorer true when the cells of notebook ``path``, as JupyterLab saved it (its contents
    API), satisfy ``check``."""
    return _written(lambda app: app.notebook(path), lambda notebook: check(notebook["cells"]))


def _output(cell: dict[str, Any]) -> str:
    """What a code cell's saved outputs show as text (a result's plain text, a stream's)."""
    texts = [o.get("data", {}).get("text/plain", o.get("text", "")) for o in cell.get("outputs", [])]
    return "".join("".join(t) if isinstance(t, list) else str(t) for t in texts)


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


NOTEBOOK_READY = WaitFor("sum(values)", seconds=60)
#: A person waits for the kernel to say it is idle before running code: a Run pressed while it
#: still connects can be lost.
KERNEL_READY = WaitFor("Idle", seconds=60)
_RUN = "Run this cell and advance"
_SAVE = "Save and create checkpoint"
_SIXTEEN = r"(?<![\d.])16(?![\d.])"  # the cell's result, 3 + 5 + 8
#: A person waits for the cell to have run (its prompt numbered) before reading its output:
#: the kernel may still be starting when Run is pressed.
RAN = WaitFor("[1]:", seconds=60)

JUPYTER: list[Task] = [
    Task(
        "jupyter",
        "run-cell",
        "Run the notebook's cell, check its result, and save the notebook.",
        "lab/tree/analysis.ipynb",
        [NOTEBOOK_READY, KERNEL_READY, Click(_RUN), RAN, Expect(_SIXTEEN), Click(_SAVE)],
        _saved(lambda cells: "16" in _output(cells[0])),
    ),
    Task(
        "jupyter",
        "edit-and-run",
        "Replace the cell's code with print(6 * 7), run it, read its output and save the notebook.",
        "lab/tree/analysis.ipynb",
        [
            NOTEBOOK_READY,
            KERNEL_READY,
            Type("Code Cell Content", "print(6 * 7)"),
            Click(_RUN),
            RAN,
            Expect(r"(?<![\d.])42(?![\d.])"),
            Click(_SAVE),
        ],
        _saved(lambda cells: _source(cells[0]).strip() == "print(6 * 7)" and "42" in _output(cells[0])),
    ),
    Task(
        "jupyter",
        "run-all-from-the-menu",
        "Run all the notebook's cells from the Run menu, then save the notebook.",
        "lab/tree/analysis.ipynb",
        [
            NOTEBOOK_READY,
            KERNEL_READY,
            Click("Run"),
            Click("Run All Cells"),
            RAN,
            Expect(_SIXTEEN),
            Click(_SAVE),
        ],
        _saved(lambda cells: "16" in _output(cells[0])),
    ),
    Task(
        "jupyter",
        "cell-type",
        "Make the notebook's cell a Markdown cell and save the notebook.",
        "lab/tree/analysis.ipynb",
        [NOTEBOOK_READY, Pick("Cell type", "Markdown"), Click(_SAVE)],
        _saved(lambda cells: cells[0]["cell_type"] == "markdown"),
    ),
]

TASKS: list[Task] = DJANGO + SHOELACE + DOCS + STREAMLIT + JUPYTER


async def run_task(browser: cdpagent.Browser, task: Task, app: Any, root: str) -> tuple[Run, list[str]]:
    """Run ``task``'s steps in a fresh tab opened at ``root + task.start``, then score it
    from the application's state; the run and the episode's log."""
    run = Run()
    tab = await browser.open(root + task.start)
    episode = SizedEpisode(tab)
    try:
        for step in task.steps:
            await step.run(episode, run)
    except Unseen as exc:
        run.why = f"unseen: {exc}"
    except Exception as exc:  # any failure of the run is a task not solved, with its cause
        run.why = f"{type(exc).__name__}: {exc}"
    try:
        run.solved = await task.score(app, tab)
    finally:
        await tab.close()
    run.sizes = episode.sizes
    if not run.solved and not run.why:
        run.why = "the application's state is not the task's"
    return run, episode.log
