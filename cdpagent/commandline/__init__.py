"""The ``cdpagent`` command: its parser and dispatch (:mod:`.main`), what every command
shares (:mod:`.common`) and ``cdpagent demo`` (:mod:`.demo`). Each surface keeps its own
command beside it (``agent/command.py``, ``mcp_server/command.py``, ``eval/command.py``).

Imports: every layer below.
"""
