"""The browser primitives over the seam: screenshots and PDFs, history, waiting, page logs,
downloads, storage state, uploads and the URL policy.

Imports: :mod:`cdpagent.snapshot`, :mod:`cdpagent.runtime`, :mod:`cdpagent.webmcp`,
:mod:`cdpagent.cdp` and below.
"""
