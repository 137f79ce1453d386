"""WebMCP: the tools a page registers with ``document.modelContext``, and calling them.

:mod:`.bridge` keeps each tab's tool table and makes one call; :mod:`.validation`
applies a tool's input schema on a linear-time regular expression engine.

Imports: :mod:`cdpagent.cdp` and below.
"""
