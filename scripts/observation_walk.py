"""How an observation walks through cdpagent's modules: one observe and one act, measured.

    .venv/bin/python scripts/observation_walk.py [--pairs N]

Replays the recorded CDP sessions of ``tests/traces/sessions/`` (``observe_todos``,
``act_todos``) under a real :class:`cdpagent.Tab` on the fake target of
``tests/fake_target.py`` — no browser, so the figures do not depend on the machine's
load — and follows control with :func:`sys.setprofile`: every call and return (a
coroutine's resume and suspension included) moves control to the function's module.
The *walk* is the sequence of cdpagent modules control is in; a *stay* is one run of
it in one module. Printed, per phase:

* ``stays`` — how many times control entered a module (the walk's length);
* ``modules`` — how many different modules it entered;
* ``returns`` — stays in a module control had already left once (``stays - modules``):
  the back-and-forth a reader follows through the code;
* ``walk (first calls)`` — the same three figures over the walk of each function's
  *first* call only, in order: the path through the code a reader follows once,
  with no loop counted twice;
* the module pairs control moved between most often.

The presentation phases (fold, budget, render, diff) are pure functions of a
snapshot, so the figures change only when the code does.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import FrameType
from typing import Any

import trio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_target import load, replay_tab  # noqa: E402

from cdpagent.snapshot.budget import build  # noqa: E402
from cdpagent.snapshot.observe import collect_snapshot, observe_page  # noqa: E402
from cdpagent.snapshot.options import ObserveOptions  # noqa: E402

_COROUTINE_FLAGS = 0x80 | 0x20 | 0x200  # CO_COROUTINE, CO_GENERATOR, CO_ASYNC_GENERATOR


class Walk:
    """The modules control passes through while it is recorded (see the module doc)."""

    def __init__(self) -> None:
        self.stack: list[str | None] = []
        self.current: str | None = None
        self.modules: list[str] = []
        self.first_calls: list[str] = []
        self._seen_code: set[int] = set()
        self._started: dict[int, FrameType] = {}

    def _move(self) -> None:
        here = next((m for m in reversed(self.stack) if m is not None), None)
        if here is not None and here != self.current:
            self.current = here
            self.modules.append(here)

    def profile(self, frame: FrameType, event: str, _: Any) -> None:
        """The :func:`sys.setprofile` hook."""
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            module = name if isinstance(name, str) and name.startswith("cdpagent") else None
            self.stack.append(module)
            code = frame.f_code
            fresh = True
            if code.co_flags & _COROUTINE_FLAGS:
                fresh = id(frame) not in self._started
                self._started[id(frame)] = frame  # held, so its id is not reused
            if module is not None and fresh and id(code) not in self._seen_code:
                self._seen_code.add(id(code))
                self.first_calls.append(module)
            self._move()
        elif event == "return" and self.stack:
            self.stack.pop()
            self._move()


def _figures(walk: list[str]) -> tuple[int, int, int]:
    stays = [m for i, m in enumerate(walk) if i == 0 or walk[i - 1] != m]
    return len(stays), len(set(stays)), len(stays) - len(set(stays))


def _short(module: str) -> str:
    return module.removeprefix("cdpagent.")


def report(name: str, walk: Walk, pairs: int, verbose: bool = False) -> None:
    """Print the figures of one recorded phase."""
    stays, modules, returns = _figures(walk.modules)
    f_stays, f_modules, f_returns = _figures(walk.first_calls)
    print(f"{name}: {stays} stays in {modules} modules, {returns} returns to a module already left")
    print(
        f"{name} walk (first calls): {f_stays} stays in {f_modules} modules, "
        f"{f_returns} returns to a module already left"
    )
    moves = Counter(
        tuple(sorted((_short(a), _short(b)))) for a, b in zip(walk.modules, walk.modules[1:], strict=False)
    )
    for (a, b), n in moves.most_common(pairs):
        print(f"  {n:6d}  {a} <-> {b}")
    if verbose:
        path = [m for i, m in enumerate(walk.first_calls) if i == 0 or walk.first_calls[i - 1] != m]
        print("  first calls: " + " > ".join(_short(m) for m in path))


async def _measure(
    name: str,
    run: Callable[[Any], Awaitable[Any]],
    pairs: int,
    verbose: bool,
    phase: str,
    prepare: Callable[[Any], Awaitable[Any]] | None = None,
) -> None:
    """Replay recording ``name``; ``prepare(tab)`` runs unrecorded, then ``run`` on what it gave."""
    async with trio.open_nursery() as nursery:
        tab, _ = replay_tab(nursery, load(name))
        subject = tab if prepare is None else await prepare(tab)
        walk = Walk()
        sys.setprofile(walk.profile)
        try:
            await run(subject)
        finally:
            sys.setprofile(None)
        report(phase, walk, pairs, verbose)
        nursery.cancel_scope.cancel()


async def _snapshot(tab: Any) -> Any:
    return (await collect_snapshot(tab, ObserveOptions()))[0]


async def _present(snapshot: Any) -> None:
    build(snapshot)


async def main(pairs: int, verbose: bool) -> None:
    """Measure one observe and one act (the recordings of ``tests/record_session.py``)."""
    await _measure("observe_todos", observe_page, pairs, verbose, "observe")
    await _measure("act_todos", lambda tab: tab.act("toggle", record="t9"), pairs, verbose, "act")
    await _measure("observe_todos", _present, pairs, verbose, "present (fold, budget, render)", _snapshot)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=6, help="module pairs to list per phase")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the first-call walk")
    args = parser.parse_args()
    trio.run(main, args.pairs, args.verbose)
