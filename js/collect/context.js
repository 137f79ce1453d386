// cdpagent collector, the page context: the viewport, the open modal dialog and inert
// content, which every later phase reads (SPEC OB-1).
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { VIS, clip, textOf, ariaName, containsAcross } = P;
  const { FEEDBACK, MODAL, STATE, REGION, queryAll, up } = C;

  function regionLabel(el, max) {
    const named = ariaName(el, max);
    if (named) return named;
    const own = el.getAttribute('data-agent-label');
    if (own) return clip(own, max);
    const h = el.querySelector('h1,h2,h3,h4,h5,h6,legend,caption');
    if (h) return textOf(h, max);
    return el.getAttribute('data-agent-region');
  }

  // Modal candidates, state and feedback elements, regions and undefined custom
  // elements are few: one walk of the document finds them all, each list in
  // (composed) document order.
  function fewElements() {
    const few = { modal: [], state: [], feedback: [], regions: [], undefined: [] };
    for (const el of queryAll(document, `${MODAL},${STATE},${FEEDBACK},${REGION},:not(:defined)`)) {
      if (el.matches(MODAL)) few.modal.push(el);
      if (el.matches(STATE)) few.state.push(el);
      if (el.matches(FEEDBACK)) few.feedback.push(el);
      if (el.matches(REGION)) few.regions.push(el);
      if (el.matches(':not(:defined)')) few.undefined.push(el);
    }
    return few;
  }

  // The open modal dialog and whether anything is inert.
  function modalAndInert(candidates) {
    let modal = null;
    let aria = null;
    let inert = false;
    for (const d of candidates) {
      if (d.hasAttribute('inert')) inert = true;
      if (d.tagName === 'DIALOG' && d.matches(':modal')) modal = d;
      else if (d.getAttribute('aria-modal') === 'true' && d.checkVisibility(VIS)) aria = d;
    }
    return [modal || aria, inert];
  }

  // What every later phase reads: the options, the viewport, the open modal, the base.
  function pageContext(opts, B) {
    const [modal, hasInert] = modalAndInert(B.few.modal);
    return {
      opts, few: B.few, modal, hasInert, vw: window.innerWidth, vh: window.innerHeight, warnings: [],
      shadowRoots: B.shadowRoots, stats: B.stats,
      inert: (el) => hasInert && !!up(el, '[inert]'),
      covered: (el) => !!modal && !containsAcross(modal, el) && !containsAcross(el, modal),
      modalLabel: modal ? regionLabel(modal, opts.name_chars) : null,
    };
  }

  Object.assign(C, { regionLabel, fewElements, modalAndInert, pageContext });
})();
