"""Acting: one declared action performed with trusted input, answered by a change receipt.

The act's input is one Struct (:mod:`.inputs`); its whole sequence is one round trip
(:mod:`.roundtrip`), whose middle is a delivery: a declared action (:mod:`.perform`, which
hands it to the performer of its kind: :mod:`.pointer`, :mod:`.keys`, :mod:`.text`,
:mod:`.slider`, :mod:`.choices`, :mod:`.upload`, :mod:`.webmcp_calls`, each working on the
element through :mod:`.step`) or a point of the viewport (:mod:`.coordinates`). A dialog
the act raises ends it with a receipt that says what the page asks; while a JavaScript
dialog blocks the page, an act answers it (:mod:`.dialog_answers`).

Imports: :mod:`cdpagent.primitives`, :mod:`cdpagent.snapshot`, :mod:`cdpagent.runtime`,
:mod:`cdpagent.webmcp`, :mod:`cdpagent.cdp` and below.
"""
