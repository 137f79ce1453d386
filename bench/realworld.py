"""Issue 20's figures on the MiniWoB++ corpus (``tests/realworld/miniwob``, 54 task pages).

For the first observation of every task page (episode seeded, so every run sees the
same page), in one run:

- visible enabled controls (counted from the DOM here, never by cdpagent) that the
  observation offers as an action, counts in ``omitted`` without offering, or neither,
  by category (text fields, selects, buttons, ...);
- the share of the visible words of the page's main content (MiniWoB's task area,
  ``#wrap``: the instruction and the widgets) that reach the observation's text or tools;
- the observation's size (text + tools JSON characters), median over the pages, beside
  Playwright's ``page.aria_snapshot(mode="ai")`` of the same pages with the same
  Chromium (``executable_path``; Playwright is optional, ``pip install -e '.[bench]'``);
- the scripted policy's success rate (``tests/miniwob_policy.py``, every task of the
  corpus, the page's own reward).

    .venv/bin/python bench/realworld.py        (also printed by bench/observe.py --only inferred)

``--corpus apps`` runs issue 34's corpus of real applications instead (``bench/apps/``:
the Django admin, a Shoelace page, Python's documentation (Debian's python3-doc) and a
Streamlit app, installed (into ``.realworld/``, python3-doc by apt-get as root, Streamlit
only here, on first use) by ``bench/apps/install.py``): every task of
``bench/apps/tasks.py`` through the scripted policy, scored by the application's own
state, and prints tasks solved, needed controls shown, and per page the request size
(page section + tools) beside Playwright's.

    .venv/bin/python bench/realworld.py --corpus apps [--task NAME ...]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import trio

import cdpagent
from cdpagent.cdp.world import WORLD
from cdpagent.snapshot import ActionEntry, Observation, tools_json
from cdpagent.snapshot.observe import observe_page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import observe  # noqa: E402
from miniwob_policy import POLICIES, REWARD, Episode, Unseen, task_url  # noqa: E402
from observe import Figures  # noqa: E402

COUNT_CONTROLS = (Path(__file__).resolve().parent / "realworld.js").read_text()
MAIN_CONTENT = "#wrap"
_WORD = re.compile(r"[^\W_]+")


class Control(msgspec.Struct):
    category: str
    offered: bool
    what: str = ""


class Seen(msgspec.Struct):
    controls: list[Control]
    words: list[str]


class PageFigures(msgspec.Struct):
    task: str
    url: str
    controls: list[Control]
    counted: int
    """Controls the observation counts without offering (``omitted`` control counts and
    action entries the budget left out), at most the controls it did not offer."""
    words: int
    words_reached: int
    chars: int
    pw_chars: int | None = None
    solved: bool = False
    why: str = ""


def _locators(obs: Observation) -> list[dict[str, Any]]:
    """Every element the observation's actions target: one locator per page action (those
    ``click_more`` names too), one per row of a folded row action."""
    out: list[dict[str, Any]] = []

    def add(entry: ActionEntry, record: str | None) -> None:
        out.append({**msgspec.to_builtins(entry.locator(record)), "kind": entry.kind})

    for entry in obs.actions:
        if not entry.available:
            continue
        if entry.folded:
            for record in entry.record_enum or obs.record_ids:
                add(entry, record)
        else:
            add(entry, None)
    for entry in obs.more:
        add(entry, None)
    return out


def _counted(obs: Observation) -> int:
    """What the observation says it left out of its controls: any ``omitted`` count of
    controls, and the action entries not listed for the budget."""
    om = msgspec.to_builtins(obs.omitted)
    controls = sum(v for k, v in om.items() if k.startswith("controls") and isinstance(v, int))
    return controls + max(obs.omitted.action_entries - obs.omitted.action_entries_shown, 0)


def reached(page_words: list[str], observed: str) -> int:
    """How many of ``page_words`` (with repeats) the observed text contains, case-folded."""
    have = Counter(w.casefold() for w in _WORD.findall(observed))
    want = Counter(w.casefold() for w in page_words)
    return sum(min(n, have[w]) for w, n in want.items())


async def measure_page(browser: cdpagent.Browser, task: str) -> PageFigures:
    address = task_url(task)
    tab = await browser.open(address)
    result = await observe_page(tab)
    obs = result.observation
    context = await tab.context_id(WORLD)
    answer = await tab.session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": COUNT_CONTROLS,
            "executionContextId": context,
            "arguments": [{"value": _locators(obs)}, {"value": MAIN_CONTENT}],
            "returnByValue": True,
        },
    )
    assert "exceptionDetails" not in answer, answer["exceptionDetails"]
    seen = msgspec.convert(answer["result"]["value"], Seen)
    observed = result.text + tools_json(result.tools)
    not_offered = sum(1 for c in seen.controls if not c.offered)
    await tab.close()
    return PageFigures(
        task=task,
        url=address,
        controls=seen.controls,
        counted=min(_counted(obs), not_offered),
        words=len(seen.words),
        words_reached=reached(seen.words, observed),
        chars=len(observed),
    )


async def solve(browser: cdpagent.Browser, fig: PageFigures) -> None:
    """Run the task's policy in a fresh tab; the page's own reward says whether it solved it."""
    tab = await browser.open(fig.url)
    episode = Episode(tab)
    try:
        with trio.fail_after(60):
            await POLICIES[fig.task](episode)
    except Unseen as exc:
        fig.why = f"unseen: {exc}"
    except Exception as exc:  # any failure of the run is a task not solved, with its cause
        fig.why = f"{type(exc).__name__}: {exc}"
    answer = await tab.session.send("Runtime.evaluate", {"expression": REWARD, "returnByValue": True})
    done, reward, reason = answer["result"]["value"]
    fig.solved = bool(done) and reward == 1
    if not fig.solved and not fig.why:
        fig.why = f"reward {reward} ({reason})"
    await tab.close()


async def measure_ours(tasks: list[str]) -> list[PageFigures]:
    out: list[PageFigures] = []
    async with cdpagent.launch() as browser:
        for task in tasks:
            fig = await measure_page(browser, task)
            await solve(browser, fig)
            out.append(fig)
    return out


def measure_playwright(figures: list[PageFigures]) -> bool:
    """Playwright's ``ai`` snapshot size of the same pages (bench/observe.py's driver, one
    sample each); False when Playwright is missing."""
    pages = {fig.task: Figures(size=fig.task, url=fig.url) for fig in figures}
    if not observe.measure_playwright(pages, 1):
        return False
    for fig in figures:
        fig.pw_chars = pages[fig.task].pw_chars
    return True


def report(figures: list[PageFigures], have_pw: bool, seconds: float) -> None:
    pages = len(figures)
    where = "tests/realworld/miniwob"
    print(f"MiniWoB++ corpus: {pages} task pages ({where}), first observation of each ({seconds:.0f} s)")
    print(f"{'visible enabled controls':>26} {'total':>6} {'offered':>8} {'counted':>8} {'neither':>8}")
    by: dict[str, list[int]] = {}
    for fig in figures:
        missing = fig.counted
        for c in fig.controls:
            row = by.setdefault(c.category, [0, 0, 0, 0])
            row[0] += 1
            if c.offered:
                row[1] += 1
            elif missing:
                row[2] += 1
                missing -= 1
            else:
                row[3] += 1
    total = [sum(col) for col in zip(*by.values(), strict=True)] if by else [0, 0, 0, 0]
    for name, row in [*sorted(by.items()), ("all", total)]:
        print(f"{name:>26} {row[0]:>6} {row[1]:>8} {row[2]:>8} {row[3]:>8}")
    if total[0]:
        print(
            f"{'':>26} offered {100 * total[1] / total[0]:.0f} %, offered or counted "
            f"{100 * (total[1] + total[2]) / total[0]:.0f} % (targets: >= 95 %, 100 %)"
        )
    for fig in figures:
        missed = [c for c in fig.controls if not c.offered]
        if missed:
            print(f"    not offered on {fig.task}: " + ", ".join(f"{c.category} {c.what}" for c in missed))
    solved = [f for f in figures if f.solved]
    rate = 100 * len(solved) / pages
    print(f"scripted policy: {len(solved)}/{pages} tasks solved ({rate:.0f} %; target >= 90 %)")
    for fig in figures:
        if not fig.solved:
            print(f"    not solved: {fig.task}: {fig.why[:120]}")
    words = sum(f.words for f in figures)
    got = sum(f.words_reached for f in figures)
    print(
        f"page text: {got}/{words} visible words of the main content ({MAIN_CONTENT}) reach the observation "
        f"({100 * got / max(words, 1):.0f} %; target >= 90 %)"
    )
    ours = statistics.median(f.chars for f in figures)
    line = f"observation size (text + tools chars), median of {pages} pages: {ours:.0f}"
    compared = [f for f in figures if f.pw_chars]
    if compared:
        pw = statistics.median(f.pw_chars or 0 for f in compared)
        ratio = statistics.median(f.chars / (f.pw_chars or 1) for f in compared)
        line += f"; Playwright aria_snapshot(mode='ai') {pw:.0f}"
        line += f" (per-page ratio median {ratio:.2f}x; target <= 1x)"
    elif not have_pw:
        line += " (Playwright not installed: pip install -e '.[bench]')"
    print(line)


def corpus_report() -> None:
    """Measure and print the corpus figures (the hook bench/observe.py calls)."""
    t0 = time.perf_counter()
    figures = trio.run(measure_ours, sorted(POLICIES))
    have_pw = measure_playwright(figures)
    report(figures, have_pw, time.perf_counter() - t0)


async def measure_apps(only: list[str], left_out: set[str]) -> list[tuple[Any, Any]]:
    """Run the corpus's tasks (all, or those named in ``only``; none of the applications
    in ``left_out``), each on a fresh application; (task, run) pairs in the corpus's order."""
    import servers
    import tasks as app_tasks

    out: list[tuple[Any, Any]] = []
    # The user lets the browser upload the files a task attaches (the Streamlit app's abstract).
    async with cdpagent.launch(allow_dirs=[app_tasks.UPLOADS]) as browser:
        for task in app_tasks.TASKS:
            if (only and task.name not in only) or task.app in left_out:
                continue
            with servers.serve(task.app) as (handle, root):
                run, _ = await app_tasks.run_task(browser, task, handle, root)
            out.append((task, run))
    return out


class PageSize(msgspec.Struct):
    app: str
    page: str
    ours: int
    """Our request for the page: its observation's page section + tools JSON, characters."""
    snapshot: int | None = None
    """Playwright's ``aria_snapshot(mode="ai")`` of the same page, characters."""


async def _our_size(app: str, url: str) -> int:
    """Our request's size on the page at ``url`` once a person could start working there
    (logged in; the app drawn): the same measure as the tasks' :class:`SizedEpisode`."""
    import servers
    import tasks as app_tasks

    async with cdpagent.launch() as browser:
        tab = await browser.open(url)
        episode = Episode(tab)
        if app == "django":
            await app_tasks.LogIn(*servers.ADMIN).run(episode, app_tasks.Run())
        elif app == "streamlit":
            await app_tasks.READY.run(episode, app_tasks.Run())
        elif app == "jupyter":
            await app_tasks.NOTEBOOK_READY.run(episode, app_tasks.Run())
        result = await observe_page(tab)
        await tab.close()
        return len(result.text) + len(tools_json(result.tools))


def _prepare(app: str) -> Any:
    """What Playwright does on a page before its snapshot, as :func:`_our_size` does: the
    admin's login form filled, the Streamlit app's last field drawn."""
    import servers

    def log_in(page: Any) -> None:
        if page.get_by_label("Password").count():
            page.get_by_label("Username").fill(servers.ADMIN[0])
            page.get_by_label("Password").fill(servers.ADMIN[1])
            page.get_by_role("button", name="Log in").click()
            page.wait_for_load_state()

    def drawn(page: Any) -> None:
        page.get_by_text("Talk abstract (text file)").wait_for()

    def notebook(page: Any) -> None:
        page.get_by_text("sum(values)").wait_for(timeout=60_000)

    return {"django": log_in, "streamlit": drawn, "jupyter": notebook}.get(app)


def measure_sizes(left_out: set[str]) -> tuple[list[PageSize], int | None, str]:
    """Per start page of the corpus's tasks: our request's size, and Playwright's snapshot of
    the same page; with Playwright MCP's tool list size (None, and why, when unavailable)."""
    import install
    import playwright_mcp
    import servers
    import tasks as app_tasks

    from cdpagent.cdp.launcher import find_browser

    pages = list(dict.fromkeys((t.app, t.start) for t in app_tasks.TASKS if t.app not in left_out))
    why = ""
    try:
        tools: int | None = playwright_mcp.tools_chars()
    except (install.InstallError, RuntimeError, OSError) as exc:
        tools, why = None, f"Playwright MCP's tool list unavailable: {exc}"
    out: list[PageSize] = []
    with playwright_mcp.snapshotter(str(find_browser())) as snapshot:
        if snapshot is None:
            why = why or "Playwright for Python is not installed: pip install -e '.[bench]'"
        for app, start in pages:
            with servers.serve(app) as (_, root):
                size = PageSize(app=app, page=start or "/", ours=trio.run(_our_size, app, root + start))
                if snapshot is not None:
                    size.snapshot = snapshot(root + start, _prepare(app))
            out.append(size)
    return out, tools, why


def sizes_report(sizes: list[PageSize], tools: int | None, why: str) -> None:
    print(
        "request size per page (characters): ours = page section + tools JSON of the observation; "
        "Playwright MCP = its tools/list JSON + aria_snapshot(mode='ai') of the same page"
    )
    if why:
        print(f"    {why}")
    within = 0
    for size in sizes:
        line = f"    {size.app:>11} {size.page:<24} ours {size.ours:>7}"
        if tools is not None and size.snapshot is not None:
            theirs = tools + size.snapshot
            within += size.ours <= theirs
            line += f"  Playwright MCP {theirs:>7} ({tools} tools + {size.snapshot} snapshot)"
            line += f"  {size.ours / theirs:.2f}x"
        print(line)
    if tools is not None and all(s.snapshot is not None for s in sizes):
        print(f"    ours no larger on {within}/{len(sizes)} pages (target: all)")


def apps_report(results: list[tuple[Any, Any]], seconds: float) -> None:
    print(f"Real applications corpus (bench/apps, issue 34): {len(results)} tasks ({seconds:.0f} s)")
    apps = sorted({t.app for t, _ in results})
    for app in [*apps, "all"]:
        mine = [(t, r) for t, r in results if app in ("all", t.app)]
        solved = sum(r.solved for _, r in mine)
        shown = sum(r.all_shown for _, r in mine)
        steps = [ok for _, r in mine for _, ok in r.shown]
        print(
            f"{app:>10}: solved {solved}/{len(mine)}; needed controls shown (every step of the task) "
            f"{shown}/{len(mine)}; steps whose control was shown {sum(steps)}/{len(steps)} "
            "(reached steps only)"
        )
    for task, run in results:
        if not run.solved:
            print(f"    not solved: {task.app} {task.name}: {run.why[:160]}")
    for task, run in results:
        unseen = [label for label, ok in run.shown if not ok]
        if run.solved and unseen:
            print(f"    solved, a needed control not shown: {task.app} {task.name}: {unseen}")
    sizes: dict[str, int] = {}
    for _, run in results:
        for page, chars in run.sizes.items():
            sizes.setdefault(page, chars)
    print("request size of the first observation of every page the tasks reached (page section + tools JSON)")
    for page, chars in sizes.items():
        print(f"    {chars:>6}  {page}")


def apps_corpus(only: list[str]) -> None:
    """Install the applications when missing, run the corpus and print its figures."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "apps"))
    import install

    install.install_all()
    left_out: set[str] = set()
    missing = install.install_optional()
    if missing:
        left_out.add("python-docs")
    try:
        install.install_streamlit()  # not by scripts/setup.sh: about 90 s of wheels
    except install.InstallError as exc:
        missing.append(str(exc))
        left_out.add("streamlit")
    try:
        install.install_jupyter()  # first use too, as Streamlit
    except install.InstallError as exc:
        missing.append(str(exc))
        left_out.add("jupyter")
    for why in missing:
        print(f"left out: {why}")
    t0 = time.perf_counter()
    results = trio.run(measure_apps, only, left_out)
    apps_report(results, time.perf_counter() - t0)
    sizes_report(*measure_sizes(left_out))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=["miniwob", "apps"], default="miniwob")
    parser.add_argument("--task", action="append", default=[], help="only this task of the apps corpus")
    args = parser.parse_args()
    if args.corpus == "apps":
        apps_corpus(args.task)
    else:
        corpus_report()
