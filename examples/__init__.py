"""The bundled example pages, shipped as the package data ``cdpagent.examples``.

See ``cdpagent.browser.bundled``.
"""
