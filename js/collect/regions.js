// cdpagent collector, regions: every declared region's facts (state, path, labels,
// counts) and the listed ones (SPEC OB-1).
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { clip, inViewport, closestAcross } = P;
  const { REGION, SEP, up, parentAcross, regionLabel } = C;

  const regionRole = (el) => {
    const role = el.getAttribute('role');
    if (role) return role;
    const byTag = {
      UL: 'list', OL: 'list', NAV: 'navigation', MAIN: 'main', FORM: 'form', TABLE: 'table',
      DIALOG: 'dialog', ASIDE: 'complementary', HEADER: 'banner', FOOTER: 'contentinfo',
      SECTION: 'region', TBODY: 'table', FIELDSET: 'group',
    };
    return byTag[el.tagName] || 'group';
  };

  function regionOut(ctx, el, info, parent, label) {
    const r = el.getBoundingClientRect();
    const modal = ctx.modal;
    return {
      id: info.id, label, role: regionRole(el),
      purpose: clip(el.getAttribute('data-agent-purpose') || '', ctx.opts.label_chars),
      parent: parent ? parent.id : null, path: info.path, state: info.state,
      covered_by: info.state === 'covered' ? ctx.modalLabel : null,
      in_viewport: info.state !== 'hidden' && inViewport(r, ctx.vw, ctx.vh),
      modal: el === modal || (!!modal && el.contains(modal) && el.tagName === 'DIALOG'),
      actions_total: 0, actions_visible: 0, records_total: 0, records_visible: 0,
    };
  }

  // Every region's facts (info per element), the listed ones (list) and lookups.
  function collectRegions(ctx, B) {
    const opts = ctx.opts;
    const els = B.regionEls;
    const info = new Map();
    const list = [];
    for (const el of els) {
      const id = clip(el.getAttribute('data-agent-region'), opts.name_chars) || 'region';
      const p = parentAcross(el);
      const parentEl = p && up(p, REGION);
      const parent = parentEl ? info.get(parentEl) : null;
      const state = P.regionState(el, parent && parent.state, ctx.inert, ctx.covered);
      const facts = {
        id, state, path: parent ? parent.path.concat([id]) : [id],
        labels: null, out: null, index: info.size, root: null,
      };
      facts.root = parent ? parent.root : facts;
      const label = regionLabel(el, opts.name_chars);
      facts.labels = parent ? parent.labels.concat([label]) : [label];
      info.set(el, facts);
      if (list.length < opts.max_regions) {
        facts.out = regionOut(ctx, el, facts, parent, label);
        list.push(facts.out);
      }
    }
    const byPath = new Map();
    for (const facts of info.values()) byPath.set(facts.path.join(SEP), facts);
    // The facts of region element r (null: none), and of the region el is in.
    const at = (r) => (r ? info.get(r) : null);
    const of = (el) => at(closestAcross(el, REGION));
    return { els, info, list, byPath, at, of };
  }

  Object.assign(C, { collectRegions });
})();
