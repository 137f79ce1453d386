"""What the command line's surfaces share at the terminal: the flags that choose a browser
(:mod:`.flags`), checked argument types (:mod:`.argtypes`), progress for slow steps
(:mod:`.slow_steps`), confirmations (:mod:`.terminal`) and ending on a signal
(:mod:`.stopping`).

Imports: :mod:`cdpagent.remote` and below.
"""
