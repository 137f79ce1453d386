"""A scripted policy for MiniWoB++ tasks: the example policy of ``cdpagent eval --policy``.

The policy is what a careful reader of the observation would do, written down per task:
it reads the task's instruction from the goal and the observation's text, picks tools by
their names and descriptions, and calls them. It never looks at the DOM and never
evaluates anything in the page; the only thing read from the page itself is the
episode's reward, by the caller, after the policy is done. When the observation does
not show what a step needs (the instruction, a control, a popup's items), the policy
raises :class:`Unseen` with what it looked for: that is the failure to fix, in the
observation, never in the policy.

Two pairs of hands run the same policies (:class:`Hands`): :class:`Episode` observes and
acts on a :class:`~cdpagent.Tab` directly (``tests/test_realworld_tasks.py`` runs every
task of :data:`POLICIES` on the vendored pages, ``bench/realworld.py`` too), and
:func:`policy` is the ``cdpagent eval --policy`` plug-in, which sees only what a model
sees and acts only through the tool calls a model makes::

    cdpagent eval browsergym:miniwob --policy cdpagent.eval.policies.miniwob:policy
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ...browser.tabs import Tab
from ...snapshot.model import MORE_TOOL
from ...snapshot.observe import ObserveResult, observe_page
from ..policy import PolicyEpisode

Unseen = AssertionError
"""What a policy raises when the observation does not show what a step needs (its message
says what it looked for): the policy's expectation of the observation failed."""


# A tool description's head text and kind: "Add (click / write / region:Form) …" as a page
# declares it, "Yes (inferred click)" or "Inbox (tab) (inferred click / navigate) | …" inferred.
_KIND = re.compile(
    r"^(?P<head>.*) \((?:inferred )?(?P<kind>[a-z]+)(?: / (?P<effect>[a-z]+))?"
    r"(?: / region:[^|]*)?\)(?= \||$)",
    re.S,
)
_FENCE = re.compile(r"</?page_data>")
# What an inferred description adds after the name: a role ("(tab)") or a note
# ("(appeared after the last action; click to choose it)").
_ROLE_NOTE = re.compile(r" \([^()]*\)$")
# "- 1. id (label): fields", "- 1. id: fields" (no label) or "- 1. id (label)" (its text is its label).
_RECORD = re.compile(r"^- \d+\. (?P<id>\S+?)(?: \((?P<label>[^)]*)\))?(?:: (?P<body>.*))?$", re.M)


def squash(text: str) -> str:
    """``text`` with runs of white space made one space, ends trimmed."""
    return " ".join(text.split())


def ident(text: str) -> str:
    """``text`` as a tool-name-like identifier: accents dropped, lower case, ``_`` between words."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "_", plain.lower()).strip("_")


@dataclass(frozen=True)
class Tool:
    """One tool as the model sees it: its name, its description's head text and kind."""

    name: str
    head: str
    kind: str
    description: str
    parameters: dict[str, Any]
    via: str = ""
    """The tool that calls this one when it is named only in a list (``click_more``): the
    call is ``via`` with this tool's name as its ``control``."""

    @property
    def folded(self) -> bool:
        return "record" in self.parameters.get("properties", {})

    def takes(self, record: str) -> bool:
        """Whether this row action may be called on ``record``: its ids when the tool lists
        them (a short list is an enum), else any row (the tool says "a record id")."""
        ids = self.enum("record")
        return record in ids if ids else self.folded

    def enum(self, parameter: str) -> list[str]:
        prop = self.parameters.get("properties", {}).get(parameter, {})
        return [str(v) for v in prop.get("enum", [])]


@dataclass(frozen=True)
class Record:
    id: str
    label: str
    body: str


@dataclass
class Look:
    """One observation, as the policy may read it: the text and the tools, nothing else."""

    raw: str
    text: str  # squashed, without the page-data fences
    tools: list[Tool]

    @classmethod
    def of(cls, result: ObserveResult) -> Look:
        return cls.parse(result.text, result.tools)

    @classmethod
    def parse(cls, text: str, declarations: list[dict[str, Any]]) -> Look:
        """The look of an observation's ``text`` and its OpenAI tool ``declarations``."""
        tools: list[Tool] = []
        for declaration in declarations:
            fn = declaration["function"]
            description = _unescape(str(fn.get("description", "")))
            m = _KIND.match(description)
            tools.append(
                Tool(
                    name=str(fn["name"]),
                    head=squash(_FENCE.sub("", m["head"])) if m else "",
                    kind=m["kind"] if m else "",
                    description=description,
                    parameters=dict(fn.get("parameters") or {}),
                )
            )
        return cls(raw=text, text=squash(_FENCE.sub(" ", text)), tools=tools)

    def need(self, pattern: str, what: str, flags: int = 0) -> re.Match[str]:
        """The first match of ``pattern`` in the text; :class:`Unseen` when there is none."""
        m = re.search(pattern, self.text, flags)
        if m is None:
            raise Unseen(f"{what}: /{pattern}/ is not in the observation's text")
        return m

    def has(self, pattern: str, flags: int = 0) -> bool:
        return re.search(pattern, self.text, flags) is not None

    def options(self, tool: Tool) -> list[str]:
        """The options a select or choose tool offers: its parameter's enum, else the
        list its description or its line in the text gives ("options: a, b, c")."""
        listed = tool.enum("option")
        if listed:
            return listed
        line = re.search(rf"^- {re.escape(tool.name)}\b.*$", _FENCE.sub("", self.raw), re.M)
        for where in (tool.description, line[0] if line else ""):
            m = re.search(r"options: (.*?)(?: \||$)", where)
            if m:
                return [o.strip() for o in m[1].split(", ")]
        return []

    def of_kind(self, *kinds: str) -> list[Tool]:
        """The tools of these kinds, in the order the observation lists them."""
        return [t for t in self.tools if t.kind in kinds]

    def find(self, label: str, *kinds: str, exact: bool = False) -> Tool | None:
        """The page-level tool a reader would take for ``label``: its description's text
        is ``label`` (a trailing role note such as ``(tab)`` aside), else (unless
        ``exact``: a link's text must match as written) the same text in another case,
        its name says it, or its text contains it as a word. ``kinds`` narrow the choice."""
        pool = [t for t in self.tools if (not kinds or t.kind in kinds) and not t.folded]
        want = ident(label)
        fold = label.casefold().strip()
        tiers: list[Callable[[Tool], bool]] = [
            lambda t: t.head == label,
            lambda t: _ROLE_NOTE.sub("", t.head) == label,
        ]
        if not exact:
            tiers += [
                lambda t: _ROLE_NOTE.sub("", t.head).casefold() == fold,
                lambda t: bool(want) and t.name == want,
                lambda t: bool(want) and _qualified(t.name, want),
                lambda t: re.search(rf"(?<!\w){re.escape(fold)}(?!\w)", t.head.casefold()) is not None,
            ]
        for tier in tiers:
            hits = [t for t in pool if tier(t)]
            if hits:
                return hits[0]
        if kinds and "click" not in kinds:
            return None
        return self._named_only(want, exact)

    def _named_only(self, want: str, exact: bool) -> Tool | None:
        """The click named ``want`` among those ``click_more`` lists by name only (its
        ``control`` enum): only its name says what it is, so only the name is matched."""
        for via in self.tools:
            if via.name != MORE_TOOL:
                continue
            names = via.enum("control")
            hits = [n for n in names if n == want]
            if not exact and not hits:
                hits = [n for n in names if _qualified(n, want)]
            if want and hits:
                return Tool(hits[0], "", "click", "", {}, via=MORE_TOOL)
        return None

    def tool(self, label: str, *kinds: str, exact: bool = False) -> Tool:
        """:meth:`find`, or :class:`Unseen` naming what was looked for."""
        found = self.find(label, *kinds, exact=exact)
        if found is None:
            listed = ", ".join(f"{t.name}[{t.kind}]" for t in self.tools) or "none"
            raise Unseen(f"no tool for {label!r} ({'/'.join(kinds) or 'any kind'}); tools: {listed}")
        return found

    def folded_tool(self, label: str, *kinds: str) -> Tool | None:
        """The row action (folded tool) whose text or name is ``label``."""
        want, fold = ident(label), label.casefold()
        for t in self.tools:
            named = _ROLE_NOTE.sub("", t.head).casefold() == fold or t.name == want
            if t.folded and (not kinds or t.kind in kinds) and named:
                return t
        return None

    def row_tool(self, label: str, *kinds: str, exact: bool = False) -> tuple[Tool, str] | None:
        """A row action of ``kinds`` on the record labelled ``label``: (tool, record id)."""
        for record in self.records():
            shown = record.label == label or (not exact and record.label.casefold() == label.casefold())
            if not shown:
                continue
            for t in self.tools:
                if t.folded and (not kinds or t.kind in kinds) and t.takes(record.id):
                    return t, record.id
        return None

    def only(self, *kinds: str) -> Tool:
        """The one tool of these kinds; :class:`Unseen` when there is none or several."""
        pool = self.of_kind(*kinds)
        if len(pool) != 1:
            names = ", ".join(t.name for t in pool) or "none"
            raise Unseen(f"expected one {'/'.join(kinds)} tool, saw {names}")
        return pool[0]

    def records(self) -> list[Record]:
        found = _RECORD.finditer(_FENCE.sub("", self.raw))
        return [Record(m["id"], m["label"] or "", m["body"] or "") for m in found]

    def record(self, containing: str) -> list[Record]:
        """The records whose line shows ``containing`` (as a whole word)."""
        pat = re.compile(rf"(?<![\w@]){re.escape(containing)}(?!\w)")
        return [r for r in self.records() if pat.search(f"{r.label} {r.body}")]


def _qualified(name: str, want: str) -> bool:
    """Whether tool ``name`` is ``want`` qualified by its region (``form_go``) or numbered
    among equals (``go_2``)."""
    return re.fullmatch(rf"(?:\w+_)?{re.escape(want)}(?:_\d+)?", name) is not None


def _unescape(text: str) -> str:
    return text.replace("\\u003c", "<")


class Hands:
    """What a policy works with: :meth:`look` observes, :meth:`act` calls a tool.

    Every observation and receipt is kept in :attr:`log` for the failure message.
    """

    log: list[str]
    acts: int

    async def look(self) -> Look:
        """The current observation."""
        raise NotImplementedError

    async def act(self, tool: Tool | str, **args: Any) -> None:
        """Call ``tool`` with ``args``."""
        raise NotImplementedError


@dataclass
class Episode(Hands):
    """Hands on one tab: :func:`~cdpagent.snapshot.observe.observe_page` and :meth:`Tab.act`."""

    tab: Tab
    log: list[str] = field(default_factory=list)
    acts: int = 0

    async def look(self) -> Look:
        result = await observe_page(self.tab)
        self.log.append(
            f"--- observation\n{result.text}\ntools: {[t['function']['name'] for t in result.tools]}"
        )
        return Look.of(result)

    async def act(self, tool: Tool | str, **args: Any) -> None:
        # The library acts on a control by its name, listed on its own or not.
        name = tool.name if isinstance(tool, Tool) else tool
        self.acts += 1
        receipt = await self.tab.act(name, **args)
        summary = msgspec.json.encode(receipt).decode()
        self.log.append(f"--- act {name} {args}\n{summary[:600]}")


class ToolCalls(Hands):
    """Hands that see what a model sees (the goal, the observation text, the tools) and act
    through the tool calls a model makes (:class:`~cdpagent.eval.policy.PolicyEpisode`)."""

    def __init__(self, episode: PolicyEpisode) -> None:
        self.episode = episode
        self.log = []
        self.acts = 0

    async def look(self) -> Look:
        seen = await self.episode.observe()
        self.log.append(f"--- observation\n{seen.text}")
        # BrowserGym takes the instruction out of the page and makes it the goal; the
        # policies read it where the page showed it, first in the page's text.
        goal, text = self.episode.goal, seen.text
        page = text.find("<page_data>", max(text.find("## Page text"), 0))
        if "## Page text" in text and page >= 0:
            start = page + len("<page_data>")
            text = f"{text[:start]}\n{goal}\n{text[start:]}"
        else:
            text = f"{goal}\n{text}"
        return Look.parse(text, seen.tools)

    async def act(self, tool: Tool | str, **args: Any) -> None:
        name = tool.name if isinstance(tool, Tool) else tool
        if isinstance(tool, Tool) and tool.via:
            name, args = tool.via, {"control": tool.name, **args}
        self.acts += 1
        result = await self.episode.call(name, args)
        self.log.append(f"--- act {name} {args}\n{msgspec.json.encode(result).decode()[:600]}")


async def policy(episode: PolicyEpisode) -> str:
    """The ``--policy`` plug-in: the policy of ``episode.task`` (``miniwob.NAME`` or ``NAME``).

    Returns the final answer; raises :class:`Unseen` when the observation lacks what
    the task needs, :class:`LookupError` for a task without a policy (the runner
    records either as the episode's answer; the suite's reward scores it).
    """
    name = episode.task.removeprefix("miniwob.")
    if name not in POLICIES:
        raise LookupError(f"the MiniWoB++ example policy has no policy for {name!r}")
    hands = ToolCalls(episode)
    await POLICIES[name](hands)
    return f"done after {hands.acts} tool calls"


Policy = Callable[[Hands], Awaitable[None]]
POLICIES: dict[str, Policy] = {}


def task(*names: str) -> Callable[[Policy], Policy]:
    def register(fn: Policy) -> Policy:
        for name in names:
            POLICIES[name] = fn
        return fn

    return register


async def submit(ep: Hands, seen: Look | None = None, label: str = "Submit") -> None:
    """Click ``label``, found in ``seen`` (an observation still valid) or a new one."""
    look = seen or await ep.look()
    await ep.act(look.tool(label, "click"))


def shows(look: Look, label: str, *kinds: str, exact: bool = False) -> bool:
    """Whether ``label`` has a tool or a row action of one of ``kinds``."""
    return (
        look.find(label, *kinds, exact=exact) is not None
        or look.row_tool(label, *kinds, exact=exact) is not None
    )


async def act_on(ep: Hands, look: Look, label: str, *kinds: str, exact: bool = False) -> None:
    """Act on what shows ``label``: its own tool, else a row action of its record; the
    kinds are tried in the order given."""
    for kind in kinds:
        tool = look.find(label, kind, exact=exact)
        if tool is not None:
            await ep.act(tool)
            return
        row = look.row_tool(label, kind, exact=exact)
        if row is not None:
            await ep.act(row[0], record=row[1])
            return
    listed = ", ".join(f"{t.name}[{t.kind}]" for t in look.tools) or "none"
    raise Unseen(f"no tool or row action for {label!r} ({'/'.join(kinds)}); tools: {listed}")


# -- forms and text fields ---------------------------------------------------------------


async def _type_field(ep: Hands, label: str, text: str) -> None:
    """Type into the field labelled ``label``; a popup that blocks the form (MiniWoB's
    login-user-popup) is dismissed with its Cancel, and the field typed again."""
    for _ in range(2):
        look = await ep.look()
        if look.has(r"Exit to home page\?"):
            await ep.act(look.tool("Cancel", "click"))
            continue
        await ep.act(look.tool(label, "type"), text=text)
        after = await ep.look()
        if not after.has(r"Exit to home page\?"):
            return
        await ep.act(after.tool("Cancel", "click"))
    raise Unseen(f"the {label} field stayed blocked")


@task("login-user", "login-user-popup")
async def login_user(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Enter the username "([^"]*)" and the password "([^"]*)"', "instruction")
    await _type_field(ep, "Username", m[1])
    await _type_field(ep, "Password", m[2])
    look = await ep.look()
    # The form's own button (the popup's OK would mean "exit to home page").
    await ep.act(look.tool("Login", "click") if look.find("Login", "click") else look.tool("OK", "click"))


async def fill_one(ep: Hands, instruction: str, answer: Callable[[re.Match[str]], str]) -> None:
    """The one text field of the page gets ``answer`` of the instruction's match; then Submit."""
    look = await ep.look()
    m = look.need(instruction, "instruction")
    await ep.act(look.only("type"), text=answer(m))
    await submit(ep, look)


@task("enter-text", "enter-text-dynamic")
async def enter_text(ep: Hands) -> None:
    await fill_one(ep, r'Enter "([^"]*)" into the text field', lambda m: m[1])


@task("enter-text-2")
async def enter_text_2(ep: Hands) -> None:
    await fill_one(
        ep,
        r'Type "([^"]*)" in all (upper|lower) case letters',
        lambda m: m[1].upper() if m[2] == "upper" else m[1].lower(),
    )


@task("enter-password")
async def enter_password(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Enter the password "([^"]*)" into both text fields', "instruction")
    await ep.act(look.tool("Password", "type"), text=m[1])
    await ep.act(look.tool("Verify password", "type"), text=m[1])
    await submit(ep, look)


@task("enter-date")
async def enter_date(ep: Hands) -> None:
    # A date input takes ISO text; the instruction writes the date the US way.
    await fill_one(ep, r"Enter (\d\d)/(\d\d)/(\d{4}) as the date", lambda m: f"{m[3]}-{m[1]}-{m[2]}")


def _24h(m: re.Match[str]) -> str:
    return f"{int(m[1]) % 12 + (12 if m[3] == 'PM' else 0):02d}:{m[2]}"


@task("enter-time")
async def enter_time(ep: Hands) -> None:
    await fill_one(ep, r"Enter (\d{1,2}):(\d\d) ?([AP]M) as the time", _24h)


@task("focus-text")
async def focus_text(ep: Hands) -> None:
    look = await ep.look()
    look.need(r"Focus into the textbox", "instruction")
    # Focusing is the first thing typing does; the page ends the episode on focus.
    await ep.act(look.only("type"), text="x")


@task("focus-text-2")
async def focus_text_2(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Focus into the (\d)(?:st|nd|rd|th) input textbox", "instruction")
    fields = look.of_kind("type")
    if len(fields) < int(m[1]):
        raise Unseen(f"only {len(fields)} text fields listed")
    await ep.act(fields[int(m[1]) - 1], text="x")


def _worked(m: re.Match[str]) -> str:
    a, op, b = int(m[1]), m[2], int(m[3])
    return str(a + b if op == "+" else a - b if op == "-" else a * b)


@task("simple-arithmetic")
async def simple_arithmetic(ep: Hands) -> None:
    await fill_one(ep, r"(-?\d+) ([-+x]) (-?\d+) =", _worked)


@task("simple-algebra")
async def simple_algebra(ep: Hands) -> None:
    look = await ep.look()
    first = re.search(r"\bx ([-+]) (\d+) = (-?\d+)", look.text)
    if first:
        d, r = int(first[2]), int(first[3])
        answer = r - d if first[1] == "+" else r + d
    else:
        m = look.need(r"(\d+) ([-+]) x = (-?\d+)", "the equation")
        d, r = int(m[1]), int(m[3])
        answer = r - d if m[2] == "+" else d - r
    await ep.act(look.only("type"), text=str(answer))
    await submit(ep, look)


@task("read-table")
async def read_table(ep: Hands) -> None:
    look = await ep.look()
    key = look.need(r"Enter the value of (.+?) into the text field", "instruction")[1]
    rows = [r for r in look.records() if r.label == key]
    if rows:
        # The row's other cell: its last field, without the column's name.
        cells = rows[0].body.split("; ")
        value = re.sub(r"^column \d+ ", "", cells[-1]).strip()
    else:
        value = look.need(rf"\b{re.escape(key)}\s*[:|]?\s*(\S+)", f"the value of {key}")[1]
    await ep.act(look.only("type"), text=value)
    await submit(ep, look)


@task("find-word")
async def find_word(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(
        r"Find the (\d+)(?:st|nd|rd|th) word in the paragraph, type that into the textbox"
        r' and press "Submit"\. (.+?)(?= Submit\b|$)',
        "instruction and paragraph",
    )
    words = [w for w in m[2].split() if re.search(r"\w", w)]  # list bullets are not words
    if len(words) < int(m[1]):
        raise Unseen(f"the paragraph shown has {len(words)} words")
    word = re.sub(r"[^a-zA-Z0-9]", "", words[int(m[1]) - 1])
    await ep.act(look.only("type"), text=word)
    await submit(ep, look)


@task("guess-number")
async def guess_number(ep: Hands) -> None:
    low, high = 0, 9
    for _ in range(5):
        look = await ep.look()
        guess = (low + high) // 2
        await ep.act(look.only("type"), text=str(guess))
        await submit(ep)
        after = await ep.look()
        lower = re.search(r"The number is lower than (-?\d+)", after.text)
        higher = re.search(r"The number is higher than (-?\d+)", after.text)
        if lower:
            high = int(lower[1]) - 1
        elif higher:
            low = int(higher[1]) + 1
        else:
            return  # no hint: the guess was right (the caller reads the reward)


# -- buttons, links, checkboxes, radios, lists ---------------------------------------------


@task("click-button", "unicode-test")
async def click_button(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Click on the "(.+?)" button\.', "instruction")
    await ep.act(look.tool(m[1], "click"))


@task("click-button-sequence")
async def click_button_sequence(ep: Hands) -> None:
    look = await ep.look()
    look.need(r"Click button ONE, then click button TWO", "instruction")
    await ep.act(look.tool("ONE", "click"))
    look = await ep.look()
    await ep.act(look.tool("TWO", "click"))


@task("click-test")
async def click_test(ep: Hands) -> None:
    look = await ep.look()
    look.need(r"Click the button\.", "instruction")
    await ep.act(look.only("click"))


@task("click-test-2")
async def click_test_2(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Click button (\w+)\.", "instruction")
    await ep.act(look.tool(m[1], "click"))


@task("click-link")
async def click_link(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Click on the link "(.+?)"\.', "instruction")
    await ep.act(look.tool(m[1], "click", exact=True))


@task("click-checkboxes", "click-checkboxes-large")
async def click_checkboxes(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (.*?) and click Submit\.", "instruction")
    wanted = set() if m[1] == "nothing" else {w.strip() for w in m[1].split(",")}
    boxes = look.of_kind("check")
    if not boxes:
        raise Unseen("no checkbox tools")
    for name in wanted:
        look.tool(name, "check")  # every named box must be shown
    for box in boxes:
        if box.head in wanted:
            await ep.act(box, checked=True)
    await submit(ep, look)


async def _choose(ep: Hands, look: Look, label: str) -> None:
    """Pick the radio button ``label``: its group's ``choose`` tool, else its own check tool."""
    for group in look.of_kind("choose"):
        if label in look.options(group):
            await ep.act(group, option=label)
            return
    await ep.act(look.tool(label, "check"), checked=True)


@task("click-option")
async def click_option(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (\S+) and click Submit\.", "instruction")
    await _choose(ep, look, m[1])
    await submit(ep, look)


@task("choose-list")
async def choose_list(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (.+?) from the list and click Submit\.", "instruction")
    await ep.act(look.only("select"), option=m[1])
    await submit(ep, look)


@task("odd-or-even")
async def odd_or_even(ep: Hands) -> None:
    look = await ep.look()
    look.need(r"Mark the numbers below as odd or even", "instruction")
    odd, even = look.tool("Odd", "click"), look.tool("Even", "click")
    if odd.folded and even.folded:
        rows = [r for r in look.records() if re.search(r"-?\d+", r.body)]
        if len(rows) != 3:
            raise Unseen(f"expected 3 number rows, saw {len(rows)}")
        for row in rows:
            number = int(re.findall(r"-?\d+", row.body)[0])
            await ep.act(odd if number % 2 else even, record=row.id)
    else:
        # One Odd and one Even button per row, listed in reading order like the rows:
        # the n-th pair belongs to the n-th number shown between "Odd" and "Even".
        shown = look.need(r"press submit when done\.((?: -? ?-?\d+)+)", "the numbers below the instruction")[
            1
        ]
        numbers = [int(n) for n in re.findall(r"(?:^|\s)- (-?\d+)", shown)] or [
            int(n) for n in re.findall(r"-?\d+", shown)
        ]
        odds = [t for t in look.of_kind("click") if t.head == "Odd"]
        evens = [t for t in look.of_kind("click") if t.head == "Even"]
        if not (len(numbers) == len(odds) == len(evens) == 3):
            raise Unseen(f"expected 3 rows of Odd/number/Even, saw {numbers}, {len(odds)}, {len(evens)}")
        for number, o, e in zip(numbers, odds, evens, strict=True):
            await ep.act(o if number % 2 else e)
    await submit(ep, look)


# -- dialogs, tabs, collapsibles, menus ----------------------------------------------------


@task("click-dialog")
async def click_dialog(ep: Hands) -> None:
    look = await ep.look()
    look.need(r'Close the dialog box by clicking the "x"', "instruction")
    # The "x" of a dialog's title bar is its Close button.
    await ep.act(look.tool("Close", "click"))


@task("click-dialog-2")
async def click_dialog_2(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Click the button in the dialog box labeled "(.+?)"', "instruction")
    await ep.act(look.tool("Close" if m[1] == "x" else m[1], "click"))


@task("click-tab")
async def click_tab(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Click on (Tab #\d)\.", "instruction")
    await ep.act(look.tool(m[1], "click"))


async def _link_behind(ep: Hands, link: str, openers: str) -> None:
    """Click ``link``, opening the sections or tabs whose names match ``openers`` one by
    one until it is shown."""
    look = await ep.look()
    tried: set[str] = set()
    while True:
        target = look.find(link, "click", exact=True)
        if target is not None:
            await ep.act(target)
            return
        fresh = [
            t
            for t in look.of_kind("click")
            if re.fullmatch(openers, _ROLE_NOTE.sub("", t.head)) and _ROLE_NOTE.sub("", t.head) not in tried
        ]
        if not fresh:
            raise Unseen(f"the link {link!r} is in none of the sections shown")
        tried.add(_ROLE_NOTE.sub("", fresh[0].head))
        await ep.act(fresh[0])
        look = await ep.look()


@task("click-tab-2", "click-tab-2-easy")
async def click_tab_2(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Switch between the tabs to find and click on the link "(.+?)"\.', "instruction")
    await _link_behind(ep, m[1], r"Tab #\d")


@task("click-collapsible-nodelay")
async def click_collapsible(ep: Hands) -> None:
    look = await ep.look()
    look.need(r"Expand the section below and click submit", "instruction")
    section = look.need(r"Section #\d+", "the section header")[0]
    await ep.act(look.tool(section, "click"))
    await submit(ep)


@task("click-collapsible-2-nodelay")
async def click_collapsible_2(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Expand the sections below, to find and click on the link "(.+?)"\.', "instruction")
    await _link_behind(ep, m[1], r"Section #\d+")


@task("click-menu")
async def click_menu(ep: Hands) -> None:
    look = await ep.look()
    item = r"[A-Z][\w'-]*(?: [A-Z][\w'-]*)*"
    path = look.need(rf"Select ({item}(?:>{item})*)", "instruction")[1].split(">")
    leaf = path[-1].strip()
    for parent in path[:-1]:
        # Open each submenu the way a person does: hover its parent item (clicking a
        # parent item selects it, which ends the task wrongly).
        await act_on(ep, look, parent.strip(), "hover")
        look = await ep.look()
    await act_on(ep, look, leaf, "click", "hover")


# -- widgets: date picker, autocomplete, slider, spinner, scrolling -------------------------


MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


async def _pick_day(ep: Hands, look: Look, day: int) -> None:
    """Click ``day`` in an open month grid: its own tool, else the row action of its
    column (the grid's header, e.g. ``Th``) on the week row that shows it."""
    own = look.find(str(day), "click", exact=True)
    if own is not None:
        await ep.act(own)
        return
    for row in look.records():
        cell = re.search(rf"(?:^|; )(\w+) {day}(?:;|$)", row.body)
        column = look.folded_tool(cell[1], "click") if cell else None
        if column is not None and column.takes(row.id):
            await ep.act(column, record=row.id)
            return
    raise Unseen(f"no action picks day {day} in the month shown")


@task("choose-date-easy", "choose-date-nodelay")
async def choose_date(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (\d\d)/(\d\d)/(\d{4}) as the date", "instruction")
    month, day, year = int(m[1]), int(m[2]), int(m[3])
    # The read-only date field opens its picker when acted on; its days are then offered.
    await ep.act(look.only("type"), text=f"{m[1]}/{m[2]}/{m[3]}")
    look = await ep.look()
    for _ in range(24):
        shown = re.search(rf"\b({'|'.join(MONTHS)}) (\d{{4}})\b", look.text)
        if shown is None:
            break  # no picker shown: the field took the text itself
        at = (int(shown[2]), MONTHS.index(shown[1]) + 1)
        if at == (year, month):
            await _pick_day(ep, look, day)
            break
        await ep.act(look.tool("Prev" if at > (year, month) else "Next", "click"))
        look = await ep.look()
    await submit(ep)


@task("use-autocomplete-nodelay")
async def use_autocomplete(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'Enter an item that starts with "([^"]+)"(?: and ends with "([^"]+)")?', "instruction")
    start, end = m[1], m[2] or ""
    await ep.act(look.only("type"), text=start)
    look = await ep.look()
    heads = [
        t
        for t in look.of_kind("click")
        if (n := _ROLE_NOTE.sub("", t.head)).startswith(start) and n.endswith(end)
    ]
    options = [
        o
        for t in look.of_kind("type", "select")
        for o in look.options(t)
        if o.startswith(start) and o.endswith(end)
    ]
    if heads:
        await ep.act(heads[0])
    elif options:
        await ep.act(look.only("type", "select"), option=options[0])
    else:
        raise Unseen(f"no suggestion starting {start!r} and ending {end!r} is offered")
    await submit(ep)


async def _set(ep: Hands, look: Look, value: int) -> None:
    slider = look.of_kind("set")
    if len(slider) != 1:
        raise Unseen(f"expected one slider (set) tool, saw {[t.name for t in slider]}")
    await ep.act(slider[0], value=float(value))


@task("use-slider")
async def use_slider(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (-?\d+) with the slider", "instruction")
    await _set(ep, look, int(m[1]))
    await submit(ep)


@task("form-sequence")
async def form_sequence(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (-?\d+) with the slider, click the (\d)(?:st|nd|rd|th) checkbox", "instruction")
    await _set(ep, look, int(m[1]))
    look = await ep.look()
    boxes = look.of_kind("check")
    if len(boxes) < int(m[2]):
        raise Unseen(f"only {len(boxes)} checkboxes listed")
    await ep.act(boxes[int(m[2]) - 1], checked=True)
    await submit(ep)


@task("use-spinner")
async def use_spinner(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Select (-?\d+) with the spinner", "instruction")
    spinner = look.find("Select a value:", "set") or look.tool("Select a value:", "type")
    if spinner.kind == "set":
        await ep.act(spinner, value=float(m[1]))
    else:
        await ep.act(spinner, text=m[1])
    await submit(ep, look)


@task("scroll-text-2")
async def scroll_text_2(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r"Scroll the textarea to the (bottom|top)", "instruction")
    await ep.act(look.only("scroll"), to="end" if m[1] == "bottom" else "start")
    await submit(ep)


@task("sign-agreement")
async def sign_agreement(ep: Hands) -> None:
    look = await ep.look()
    if look.has(r"Click the cancel button\."):
        await ep.act(look.tool("Cancel", "click"))
        return
    m = look.need(
        r'Scroll to the bottom of the textarea, enter the name "([^"]+)" then press "(Agree|Cancel)"',
        "instruction",
    )
    await ep.act(look.only("scroll"), to="end")
    look = await ep.look()
    await ep.act(look.tool("Name", "type"), text=m[1])
    look = await ep.look()
    await ep.act(look.tool(m[2], "click"))


# -- search, inbox, feed, tree -----------------------------------------------------------


@task("search-engine")
async def search_engine(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(
        r'Use the textbox to enter "([^"]+)" and press "Search",'
        r" then find and click the (\d+)(?:st|nd|rd|th) search result",
        "instruction",
    )
    query, rank = m[1], int(m[2])
    await ep.act(look.only("type"), text=query)
    await ep.act(look.tool("Search", "click"))
    page, slot = (rank - 1) // 3 + 1, (rank - 1) % 3
    look = await ep.look()
    if page > 1:
        await ep.act(look.tool(str(page), "click"))
        look = await ep.look()
    # The results are the links between the search button and the page numbers.
    names = [t for t in look.of_kind("click") if t.head not in {"Search", "<", ">", "1", "2", "3"}]
    if len(names) <= slot:
        raise Unseen(f"only {len(names)} results shown on page {page}")
    await ep.act(names[slot])


async def _open_email(ep: Hands, look: Look, sender: str) -> Look:
    opener = look.find(sender, "click")
    rows: list[Record] = []
    if opener is None:
        look, rows = await _rows_showing(ep, look, sender)
        opener = look.find(sender, "click")
    if opener is not None and not opener.folded:
        await ep.act(opener)
    elif rows:
        row_openers = [
            t
            for t in look.of_kind("click")
            if t.folded and t.takes(rows[0].id) and ident(t.head) not in {"trash", "star"}
        ]
        if not row_openers:
            raise Unseen(f"no action opens the email by {sender}")
        await ep.act(row_openers[0], record=rows[0].id)
    else:
        raise Unseen(f"the email by {sender} is not shown")
    return await ep.look()


@task(
    "email-inbox",
    "email-inbox-delete",
    "email-inbox-forward",
    "email-inbox-reply",
    "email-inbox-important",
    "email-inbox-star-reply",
    "email-inbox-noscroll",
)
async def email_inbox(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(
        r'Find the email by (.+?) and (?:reply to them with the text "(.*?)"|forward that email to (.+?)\.'
        r"|click the (trash|star) icon)",
        "instruction",
    )
    sender, reply, forward, icon = m[1], m[2], m[3], m[4]
    if icon:
        look, rows = await _rows_showing(ep, look, sender)
        row_icon = look.folded_tool(icon, "click")
        if rows and row_icon is not None and row_icon.takes(rows[0].id):
            await ep.act(row_icon, record=rows[0].id)
            return
        look = await _open_email(ep, look, sender)
        await ep.act(look.tool(icon, "click"))
        return
    look = await _open_email(ep, look, sender)
    await ep.act(look.tool("Reply" if reply is not None else "Forward", "click"))
    look = await ep.look()
    if reply is not None:
        await ep.act(look.only("type"), text=reply)
        look = await ep.look()
        await ep.act(
            look.tool("send reply", "click")
            if look.find("send reply", "click")
            else look.tool("send", "click")
        )
    else:
        fields = look.of_kind("type")
        to = look.find("to:", "type") or (fields[0] if fields else None)
        if to is None:
            raise Unseen("no 'to' field in the forward form")
        await ep.act(to, text=forward)
        look = await ep.look()
        await ep.act(
            look.tool("send forward", "click")
            if look.find("send forward", "click")
            else look.tool("send", "click")
        )


SOCIAL = {"Reply": "reply", "Retweet": "retweet", "Like": "like", "Share": "share"}


async def _post_action(ep: Hands, look: Look, user: str, action: str, row: Record) -> None:
    """Click ``action`` on ``row``: a row action, else an item of the row's "more" menu."""
    direct = look.folded_tool(action, "click")
    if direct is not None and direct.takes(row.id):
        await ep.act(direct, record=row.id)
        return
    more = look.folded_tool("more", "click")
    items: list[Tool] = []
    # A person who clicks "more" and sees no menu clicks it again. The page swaps the
    # icon for a not yet loaded image on :hover, so the box collapses under the pointer
    # and the first press can land on the post behind it (a gap of act, not of the page).
    for _ in range(2):
        if more is not None and more.takes(row.id):
            await ep.act(more, record=row.id)
        else:
            await ep.act(look.tool("more", "click"))
        look = await ep.look()
        items = [t for t in look.of_kind("click") if t.head.startswith(action)]
        if items:
            break
    if not items:
        raise Unseen(f"no menu item {action!r} after opening the menu of {user}'s post")
    await ep.act(items[0])


async def _rows_showing(ep: Hands, look: Look, word: str, every: bool = False) -> tuple[Look, list[Record]]:
    """The records showing ``word`` (a feed's posts by a user, an inbox's mails from a sender),
    and, while the observation says records are not shown, those scrolling down shows (a
    person scrolls to read the rest): until one is found, or with ``every`` until a scroll
    shows no new record. In page order; with the observation after the last scroll."""
    found = {r.id: r for r in look.record(word)}
    for _ in range(8):
        scrolls = look.of_kind("scroll")
        if (found and not every) or not scrolls or not look.has(r"more records not shown"):
            break
        seen = {r.id for r in look.records()}
        await ep.act(scrolls[0], to="down")
        look = await ep.look()
        for row in look.record(word):
            found.setdefault(row.id, row)
        if {r.id for r in look.records()} <= seen:
            break
    return look, list(found.values())


@task("social-media")
async def social_media(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(r'For the user (@\S+), click on the "(.+?)" button\.', "instruction")
    look, rows = await _rows_showing(ep, look, m[1], every=False)
    if not rows:
        raise Unseen(f"no post by {m[1]} among the records")
    await _post_action(ep, look, m[1], m[2], rows[0])


@task("social-media-some", "social-media-all")
async def social_media_some(ep: Hands) -> None:
    look = await ep.look()
    m = look.need(
        r'Click the "(.+?)" button on (all|\d+) posts? by (@\S+) and then click Submit\.', "instruction"
    )
    action, amount, user = m[1], m[2], m[3]
    look, rows = await _rows_showing(ep, look, user, every=True)
    if not rows:
        raise Unseen(f"no post by {user} among the records")
    for row in rows if amount == "all" else rows[: int(amount)]:
        await _post_action(ep, look, user, action, row)
    await submit(ep)


@task("navigate-tree")
async def navigate_tree(ep: Hands) -> None:
    look = await ep.look()
    name = look.need(r'Find and click on the folder or file named "(.+?)"\.', "instruction")[1]
    opened: set[str] = set()
    for _ in range(10):
        if shows(look, name, "click", exact=True):
            await act_on(ep, look, name, "click", exact=True)
            return
        # Open a closed folder: a tree item the observation marks "expanded false", or
        # an "expand" control; files are never clicked blindly (a wrong file ends the task).
        closed = [
            r for r in look.records() if re.search(r"\bexpanded false\b", r.body) and r.id not in opened
        ]
        if closed:
            opener = next(
                (t for t in look.of_kind("click") if t.folded and t.takes(closed[0].id)), None
            )
            if opener is None:
                raise Unseen(f"no action opens the closed folder {closed[0].label!r}")
            opened.add(closed[0].id)
            await ep.act(opener, record=closed[0].id)
        else:
            # An expander, or a row's expander (folded) on a row not opened yet: a folder
            # with no state shown may be closed; the target was checked above, so an open
            # one it would close does not hide it.
            expanders = [
                (t, row)
                for t in look.of_kind("click")
                if re.search(r"\bexpand", t.head, re.I)
                for row in ([r.id for r in look.records() if t.takes(r.id)] if t.folded else [""])
                if (row or t.name) not in opened
            ]
            if not expanders:
                raise Unseen(f"{name!r} is not shown and no closed folder is left to open")
            tool, row = expanders[0]
            opened.add(row or tool.name)
            await (ep.act(tool, record=row) if row else ep.act(tool))
        look = await ep.look()
    raise Unseen(f"{name!r} not found after opening ten folders")
