"""cdpagent's one version number, read from the installed package's metadata.

``pyproject.toml`` is the only place the number is written; ``cdpagent --version``,
``cdpagent.__version__``, the MCP server's ``serverInfo.version`` and the model
client's ``User-Agent`` all read :data:`VERSION`.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["USER_AGENT", "VERSION"]


def _installed_version() -> str:
    try:
        return version("cdpagent")
    except PackageNotFoundError:
        # Imported from a source tree that was never installed (not even with -e): say so
        # rather than invent a number.
        return "0+unknown"


#: The version of the installed distribution, e.g. ``"0.1.0"``.
VERSION: str = _installed_version()

#: What cdpagent calls itself over HTTP (the model client).
USER_AGENT: str = f"cdpagent/{VERSION}"
