"""Acting: one declared action performed with trusted input, answered by a change receipt.

Imports: :mod:`cdpagent.primitives`, :mod:`cdpagent.snapshot`, :mod:`cdpagent.runtime`,
:mod:`cdpagent.webmcp`, :mod:`cdpagent.cdp` and below.
"""
