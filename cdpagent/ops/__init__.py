"""The operations: every agent operation declared once (:mod:`.operations`), run on a
current tab (:mod:`.current_tab`), as ``script`` steps (:mod:`.script`), and a simulated
person's clicks and keys (:mod:`.harness`).

Imports: :mod:`cdpagent.browser` and below.
"""
