"""The isolated world's page scripts as files (``js/``): one script per install, each file's
imports resolved in install order.

The collector and the inference are split by their sections into files of ``js/collect/``
and ``js/infer/``; each file adds what it defines to its collector's namespace
(``Object.assign(C, {...})``) and takes, as it is installed, what earlier files added
(``const {...} = C;``). A name taken before it is added would be ``undefined`` at the
first call, so the order of :data:`~cdpagent.cdp.pagescripts.WORLD_SCRIPTS` is checked
here without a browser. That error stacks name the file a frame is in is Chromium's to
format: tests/test_observation_browser.py checks it.
"""

from __future__ import annotations

import re
from pathlib import Path

from cdpagent.cdp.pagescripts import WORLD_SCRIPTS, WORLD_URL, source, world_source
from cdpagent.cdp.world import WORLD, install_commands

JS = Path(__file__).resolve().parent.parent / "js"
_SPACE = re.compile(r"const C = P\.space\('(\w+)'\);")
_TAKES = re.compile(r"^  const \{([^}]*)\} = C;", re.M)
_ADDS = re.compile(r"^  Object\.assign\(C, \{([^}]*)\}\);", re.M)


def _names(group: str) -> list[str]:
    return [name.strip() for name in group.split(",") if name.strip()]


def test_every_name_a_world_file_takes_was_added_by_an_earlier_file_of_its_collector() -> None:
    added: dict[str, dict[str, str]] = {}
    taken: set[tuple[str, str]] = set()
    for name in WORLD_SCRIPTS:
        text = source(name)
        space = _SPACE.search(text)
        if space is None:
            continue
        mine = added.setdefault(space.group(1), {"clock": "prelude.js"})
        for group in _TAKES.findall(text):
            for want in _names(group):
                assert want in mine, f"{name} takes {want!r} before any file of {space.group(1)} adds it"
                taken.add((space.group(1), want))
        for group in _ADDS.findall(text):
            for give in _names(group):
                assert give not in mine, f"{name} adds {give!r}, which {mine[give]} added already"
                mine[give] = name
    assert set(added) == {"__cdpagentObserve", "__cdpagentInfer"}
    unused = {(space, give) for space, gives in added.items() for give in gives} - taken
    assert not unused, f"added but never taken: {sorted(unused)}"


def test_the_world_files_are_all_of_js_collect_and_js_infer_and_ship_as_one_script() -> None:
    sections = {f"{folder}/{p.name}" for folder in ("collect", "infer") for p in (JS / folder).glob("*.js")}
    assert sections <= set(WORLD_SCRIPTS)
    assert WORLD_SCRIPTS[0] == "prelude.js"
    whole = world_source()
    assert whole.endswith(f"//# sourceURL={WORLD_URL}\n")
    at = 0
    for name in WORLD_SCRIPTS:
        at = whole.index(source(name), at)
    sources = [params["source"] for _, params in install_commands() if params.get("worldName") == WORLD]
    assert whole in sources
