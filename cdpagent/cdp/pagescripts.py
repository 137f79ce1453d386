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

__all__ = ["CONFIG_TOKEN", "WORLD_SCRIPTS", "configured", "source"]

#: Where :func:`configured` puts a script's configuration object.
CONFIG_TOKEN: Final = "__AGOTALK_CONFIG__"

#: The scripts of the observation's isolated world, in install order: the shared
#: prelude (strings, masking, naming, geometry) first, then the collectors that use it,
#: then the acting helper.
WORLD_SCRIPTS: Final = ("prelude.js", "collect.js", "clickables.js", "infer.js", "act.js", "capture.js")

_encoder = msgspec.json.Encoder()


@cache
def source(name: str) -> str:
    """The text of ``js/<name>``. Raises :class:`FileNotFoundError` for an unknown script."""
    return files("cdpagent.js").joinpath(name).read_text(encoding="utf-8")


def configured(name: str, config: dict[str, Any]) -> str:
    """The text of ``js/<name>`` with its configuration token replaced by ``config`` as JSON.

    Raises :class:`RuntimeError` when the script has no configuration token.
    """
    head, token, tail = source(name).rpartition(CONFIG_TOKEN)
    if not token:
        raise RuntimeError(f"js/{name} has lost its configuration token")
    return head + _encoder.encode(config).decode() + tail
