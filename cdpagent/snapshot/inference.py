"""Inferred observations (OB-12): how ``js/infer.js``'s snapshot joins the declared one.

``js/infer.js`` reads a page's semantic HTML and ARIA into the same
:class:`~cdpagent.snapshot.model.Snapshot` shape that ``js/collect.js`` builds
from declarations, with ``source="inferred"`` on every region, action, row-action
group and record. :attr:`ObserveOptions.infer <cdpagent.snapshot.options.ObserveOptions.infer>`
chooses which of the two the page answers with (``js/infer.js`` ``plan``):

========== ==================================================================
``None``   the inferred snapshot when the page declares nothing, else the declared one
``off``    the declared snapshot only
``undeclared`` both, joined by :func:`combine` (inference skips declared parts)
``all``    the inferred snapshot only (declarations ignored)
========== ==================================================================

Declared parts keep precedence: they come first, so budgets that cut from the
end cut inferred parts first and tool names of declared actions never change.
"""

from __future__ import annotations

import msgspec

from .model import Snapshot

__all__ = ["combine"]


def combine(declared: Snapshot | None, inferred: Snapshot | None) -> Snapshot:
    """One snapshot of the page from what the two scripts returned (at least one of them).

    Raises :class:`ValueError` when both are ``None``.
    """
    if inferred is None or declared is None:
        only = declared or inferred
        if only is None:
            raise ValueError("neither a declared nor an inferred snapshot")
        return only
    start = max([a.order for a in declared.actions] + [g.order for g in declared.row_actions] + [-1]) + 1
    actions = [msgspec.structs.replace(a, order=a.order + start) for a in inferred.actions]
    groups = [msgspec.structs.replace(g, order=g.order + start) for g in inferred.row_actions]
    d_index, i_index = declared.record_index, inferred.record_index
    index = msgspec.structs.replace(
        d_index,
        ids=[*d_index.ids, *i_index.ids],
        viewport=[*d_index.viewport, *i_index.viewport],
        inactive=d_index.inactive + i_index.inactive,
    )
    return msgspec.structs.replace(
        declared,
        regions=[*declared.regions, *inferred.regions],
        regions_total=declared.regions_total + inferred.regions_total,
        actions=[*declared.actions, *actions],
        actions_total=declared.actions_total + inferred.actions_total,
        controls_unoffered=declared.controls_unoffered + inferred.controls_unoffered,
        actions_visible_unnamed=declared.actions_visible_unnamed + inferred.actions_visible_unnamed,
        row_actions=[*declared.row_actions, *groups],
        records=[*declared.records, *inferred.records],
        record_index=index,
        state=[*declared.state, *inferred.state],
        state_total=declared.state_total + inferred.state_total,
        feedback=[*declared.feedback, *inferred.feedback],
        feedback_total=declared.feedback_total + inferred.feedback_total,
        modal=declared.modal or inferred.modal,
        page_text=inferred.page_text or declared.page_text,
        collect_ms=declared.collect_ms + inferred.collect_ms,
    )
