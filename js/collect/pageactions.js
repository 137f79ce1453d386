// cdpagent collector, page actions (SPEC OB-1): the declared actions outside records, in
// full, and the document order of every action entry.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { VIS, clip, inViewport } = P;
  const { SEP, hasShadowRoots, composedCompare, actionDeclaration } = C;

  function pageActionReason(ctx, el, kind, shown) {
    let reason = el.getAttribute('data-agent-unavailable');
    if (!reason && (el.disabled === true || el.matches(':disabled'))) reason = 'disabled';
    if (!reason && el.getAttribute('aria-disabled') === 'true') reason = 'disabled';
    if (!reason && ctx.inert(el)) reason = 'inert';
    if (!reason && !shown) reason = 'hidden';
    if (!reason && ctx.covered(el)) reason = P.behindDialog(ctx.modalLabel);
    if (!reason && kind === 'type' && el.readOnly) reason = 'read-only';
    return reason;
  }

  // Page-level actions in full, each with its ordinal among same-named actions
  // of its region; returns [entries, their elements].
  function collectPageActions(ctx, R, pageActionEls) {
    const opts = ctx.opts;
    const list = [];
    const els = [];
    const ordinals = new Map();
    for (const el of pageActionEls) {
      const name = clip(el.getAttribute('data-agent-action'), opts.action_name_chars) || 'action';
      const region = R.of(el);
      const path = region ? region.path : [];
      const okey = name + SEP + path.join(SEP);
      const ordinal = ordinals.get(okey) || 0;
      ordinals.set(okey, ordinal + 1);
      const r = el.getBoundingClientRect();
      const shown = el.checkVisibility(VIS);
      if (region && region.out) {
        region.out.actions_total++;
        if (shown && inViewport(r, ctx.vw, ctx.vh)) region.out.actions_visible++;
      }
      if (list.length >= opts.max_page_actions) continue;
      const kind = P.kindOf(el, 'declared', undefined, opts.kinds);
      const reason = pageActionReason(ctx, el, kind, shown);
      els.push(el);
      const entry = actionDeclaration(el, name, kind, opts, true);
      list.push({
        name, kind, effect: entry.effect, description: entry.description,
        region: region ? region.id : null, region_path: path, ordinal,
        available: !reason, reason: reason ? clip(reason, opts.label_chars) : null,
        confirm: entry.confirm, handoff: entry.handoff, submit: entry.submit, input: entry.input,
        in_viewport: shown && inViewport(r, ctx.vw, ctx.vh), order: 0,
      });
    }
    return [list, els];
  }

  // Document order across page actions and groups (few entries: compare positions).
  const orderActions = (pageActions, pageEls, groupList) =>
    P.orderActions(pageActions, pageEls, groupList, hasShadowRoots() ? composedCompare : P.docOrder);

  Object.assign(C, { collectPageActions, orderActions });
})();
