"""Page-side scripts, shipped as the package data ``cdpagent.js`` (see ``cdpagent.pagescripts``)."""
