"""The page-side scripts in ``js/`` (shipped as package data ``cdpagent.js``), loaded once each.

Every value a script shares with Python is owned by Python and handed to the
script: either in its configuration object (:func:`configured`, for scripts that
must know it before any call, like the Page Agent API shim) or as an argument of
each call (the collector's options).
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import Any, Final

import msgspec

__all__ = ["CONFIG_TOKEN", "WORLD_SCRIPTS", "WORLD_URL", "configured", "source", "world_source"]

#: Where :func:`configured` puts a script's configuration object.
CONFIG_TOKEN: Final = "__AGOTALK_CONFIG__"

#: The files of the observation's isolated world, in install order: the shared prelude
#: (strings, masking, naming, kinds, geometry) first; then the collector's sections and
#: its entry ``collect.js``, which publishes ``__cdpagentObserve``; the clickables pass;
#: the inference's sections and its entry ``infer.js``; the acting helper; the capture
#: helper. The sections of one collector share a namespace (``space`` in ``prelude.js``)
#: and take, as they are installed, what earlier files added to it: the order matters.
WORLD_SCRIPTS: Final = (
    "prelude.js",
    "collect/declarations.js",
    "collect/shadow.js",
    "collect/context.js",
    "collect/regions.js",
    "collect/sheets.js",
    "collect/kept.js",
    "collect/records.js",
    "collect/rowactions.js",
    "collect/pageactions.js",
    "collect/state.js",
    "collect/feedback.js",
    "collect/identity.js",
    "collect/frames.js",
    "collect/settle.js",
    "collect.js",
    "clickables.js",
    "infer/controls.js",
    "infer/naming.js",
    "infer/inputs.js",
    "infer/regions.js",
    "infer/context.js",
    "infer/cards.js",
    "infer/records.js",
    "infer/rowactions.js",
    "infer/pageactions.js",
    "infer/pagetext.js",
    "infer/state.js",
    "infer/kept.js",
    "infer.js",
    "act.js",
    "capture.js",
)

#: The name of the one script that carries :data:`WORLD_SCRIPTS` (``js/stacks.js`` maps
#: its lines back to the files in error stacks).
WORLD_URL: Final = "cdpagent-world.js"

_encoder = msgspec.json.Encoder()


@cache
def source(name: str) -> str:
    """The text of ``js/<name>`` (``name`` may name a folder: ``collect/kept.js``).

    Raises :class:`FileNotFoundError` for an unknown script.
    """
    return files("cdpagent.js").joinpath(*name.split("/")).read_text(encoding="utf-8")


def configured(name: str, config: dict[str, Any]) -> str:
    """The text of ``js/<name>`` with its configuration token replaced by ``config`` as JSON.

    Raises :class:`RuntimeError` when the script has no configuration token.
    """
    head, token, tail = source(name).rpartition(CONFIG_TOKEN)
    if not token:
        raise RuntimeError(f"js/{name} has lost its configuration token")
    return head + _encoder.encode(config).decode() + tail


@cache
def world_source() -> str:
    """:data:`WORLD_SCRIPTS` as one script, after ``js/stacks.js``: one install command
    carries the whole isolated world (a command per file costs each tab a round of
    the browser's), and error stacks still name each frame's file and line.

    Raises :class:`FileNotFoundError` when a file is missing.
    """
    texts = [_ended(source(name)) for name in WORLD_SCRIPTS]
    first = _ended(source("stacks.js")).count("\n") + 1
    files = []
    for name, text in zip(WORLD_SCRIPTS, texts, strict=True):
        files.append((first, name))
        first += text.count("\n")
    # The configuration is one line of JSON: the table's line numbers stay true.
    stacks = _ended(configured("stacks.js", {"url": WORLD_URL, "files": files}))
    return "".join([stacks, *texts, f"//# sourceURL={WORLD_URL}\n"])


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"
