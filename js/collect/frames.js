// cdpagent collector, frames (OB-11): what a frame's owner element says about it.
//
// Each frame's document is collected by its own copy of the collector (Python
// merges the snapshots); a frame's owner element, asked here, tells where its
// content goes and where it is drawn.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { VIS, clip, ariaName, inViewport, closestAcross, containsAcross } = P;
  const { MODAL, queryAll, parentAcross, regionIds, regionLabel, modalAndInert } = C;

  // The region-path step of a frame: its data-agent-region, else its name, title
  // or id made legal (lower case, runs of other characters as one "_", at most 40
  // characters), else "frame".
  function frameStep(el, max) {
    const declared = el.getAttribute('data-agent-region');
    if (declared) return clip(declared, max);
    const named = el.getAttribute('name') || el.getAttribute('title') || el.id || '';
    return named.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'frame';
  }

  // What the owner element (iframe, frame) el says about its frame: the step, a
  // label, its region path in this document, whether it is itself a declared
  // region (then the frame's content is that region's), whether it is inert or
  // behind this document's open dialog (its label), whether it is shown, and where its
  // content box starts in this document's viewport (CSS pixels). Names are cut at max.
  function frameOwner(el, max) {
    const parent = parentAcross(el);
    const path = parent ? regionIds(parent).map((id) => clip(id, max) || 'region') : [];
    const step = frameStep(el, max);
    // A frame behind this document's open dialog, or inert, cannot be used: say why.
    const [modal] = modalAndInert(queryAll(document, MODAL));
    const inert = !!closestAcross(el, '[inert]');
    const coveredBy = !inert && modal && !containsAcross(modal, el) ? regionLabel(modal, max) : null;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    const visible = el.checkVisibility(VIS) && r.width > 0 && r.height > 0;
    return {
      step, path, declared: el.hasAttribute('data-agent-region'), inert, covered_by: coveredBy,
      label: ariaName(el, max) || clip(el.getAttribute('title') || '', max) || step,
      visible, in_viewport: visible && inViewport(r, window.innerWidth, window.innerHeight),
      left: r.left + el.clientLeft + parseFloat(style.paddingLeft),
      top: r.top + el.clientTop + parseFloat(style.paddingTop),
    };
  }

  Object.assign(C, { frameOwner });
})();
