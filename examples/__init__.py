"""The bundled example pages, shipped as the package data ``cdpagent.examples`` (see ``cdpagent.bundled``)."""
