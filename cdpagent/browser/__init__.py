"""The composition root: :func:`launch` and :func:`connect` (:mod:`.launch`) give a
:class:`Browser` and its :class:`Tab` objects (:mod:`.tabs`); :mod:`.bundled` names
the bundled example pages.

Imports: every layer below (:mod:`cdpagent.trace`, :mod:`cdpagent.act`, the primitives,
the cores, the driver).
"""

from .launch import connect, launch, standard_extensions
from .tabs import Browser, Tab, to_url

__all__ = ["Browser", "Tab", "connect", "launch", "standard_extensions", "to_url"]
