"""The trace of a run: its records and writer (:mod:`.records`, sans-IO), the recorder a
browser holds (:mod:`.recorder`) and the viewer page (:mod:`.viewer`).

Imports: :mod:`cdpagent.act`, :mod:`cdpagent.primitives`, the cores and below.
"""
