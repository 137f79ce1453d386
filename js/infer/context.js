// cdpagent inference, the page context (OB-12): the pass's document-wide scan, the
// open modal dialog, and why a control is unavailable.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { VIS, ariaName, docOrder, containsComposed } = P;
  const { SLIDER_HANDLES, headingOf, opensPicker, useComposedOrder } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // The open modal dialog of the page (the last one), given the [aria-modal=true] elements.
  function openModal(ariaModal, composed) {
    let modal = null;
    const dialogs = [...document.getElementsByTagName('dialog'), ...ariaModal];
    for (const d of dialogs.sort(composed ? P.composedOrder : docOrder)) {
      if (d.tagName === 'DIALOG' ? d.matches(':modal') : d.checkVisibility(VIS)) modal = d;
    }
    return modal;
  }

  const ARIA_HIDDEN = '[aria-hidden="true"]';
  const POPUP_ROLE = /^(listbox|menu|tree|grid|dialog|alertdialog)$/;

  // The registry's key of an inferred action's locator (see find in js/infer.js).
  const keyOf = (name, record, path, ordinal) => JSON.stringify([name, record == null ? null : record, path, ordinal || 0]);

  // The document-wide questions of a pass, each answered once by the browser's own
  // selector matching: a JS walk over every element (tried) is cheaper on a document this
  // world has read before, but on a freshly loaded one it makes a wrapper for each of its
  // 90,000 elements, which cost more than all these scans on the first observation.
  // One querySelectorAll for all of them: each selector of its own walked the whole
  // document (ten walks of 900,000 elements on a 100,000-row table); the hits, few on most
  // pages, are sorted into their lists by attribute reads, each list in document order.
  const SCANNED = `[role],[contenteditable],${SLIDER_HANDLES},[aria-hidden="true"],[inert],[aria-disabled="true"],` +
    '[aria-modal="true"],[aria-current],[aria-selected],[aria-pressed],[aria-checked],[aria-expanded],[aria-sort],' +
    '[aria-live],[aria-invalid],output';
  const STATE_ATTRS = ['aria-current', 'aria-selected', 'aria-pressed', 'aria-checked', 'aria-expanded'];
  // The open shadow roots of the document, searched only up to opts.shadow_scan elements
  // (null: not searched, too large).
  const openRoots = (opts) => (document.getElementsByTagName('*').length > opts.shadow_scan ? null : P.openShadowRoots(Infinity));
  // The elements of the document and of the open shadow roots roots matching selector: the
  // document's in document order, then each tree's (ordered where order matters).
  function queryTrees(selector, roots) {
    const hits = document.querySelectorAll(selector);
    if (!roots || !roots.length) return hits;
    const out = Array.from(hits);
    for (const r of roots) for (const el of r.querySelectorAll(selector)) out.push(el);
    return out;
  }
  // The pass's scan (roots: the open shadow roots it reads too, kept with it as scan.roots).
  function scanAttributes(roots) {
    const scan = {
      roled: [], editable: [], sliderHandles: [], ariaHidden: [], inert: [], ariaDisabled: [], ariaModal: [],
      stated: [], sorted: [], live: [], outputs: [], roots: roots && roots.length ? roots : null,
    };
    for (const el of queryTrees(SCANNED, scan.roots)) {
      const roled = el.hasAttribute('role');
      if (roled) scan.roled.push(el);
      if (el.hasAttribute('contenteditable')) scan.editable.push(el);
      if (!roled && el.hasAttribute('tabindex') && el.matches(SLIDER_HANDLES)) scan.sliderHandles.push(el);
      if (!scan.ariaHidden.length && el.getAttribute('aria-hidden') === 'true') scan.ariaHidden.push(el);
      if (!scan.inert.length && el.hasAttribute('inert')) scan.inert.push(el);
      if (!scan.ariaDisabled.length && el.getAttribute('aria-disabled') === 'true') scan.ariaDisabled.push(el);
      if (el.getAttribute('aria-modal') === 'true') scan.ariaModal.push(el);
      if (STATE_ATTRS.some((a) => el.hasAttribute(a))) scan.stated.push(el);
      if (el.hasAttribute('aria-sort')) scan.sorted.push(el);
      if (el.hasAttribute('aria-live') || el.hasAttribute('aria-invalid')) scan.live.push(el);
      if (el.localName === 'output') scan.outputs.push(el);
    }
    return scan;
  }
  const valued = (list, attr, value) => list.some((el) => el.getAttribute(attr) === value);

  function pageContext(opts, mode, keptScan) {
    const skipDeclared = mode === 'undeclared';
    // inferindex: the kept model's scan (see "the inferred index"). Open shadow roots are
    // read as the declared collector reads them (OB-11): their controls, landmarks and text
    // are the page's, in the flat tree a person sees (a slotted element is where its slot is).
    const scan = keptScan || scanAttributes(openRoots(opts));
    const roots = scan.roots;
    useComposedOrder(roots);
    const anyAriaHidden = valued(scan.ariaHidden, 'aria-hidden', 'true');
    const modal = openModal(scan.ariaModal.filter((el) => el.getAttribute('aria-modal') === 'true'), !!roots);
    const ctx = {
      opts, mode, skipDeclared, scan, roots,
      // Elements with a role, found once: landmarks, widgets and controls are picked from them.
      roled: scan.roled,
      vw: window.innerWidth, vh: window.innerHeight,
      modal, modalLabel: modal ? (ariaName(modal, 80) || headingOf(modal) || 'dialog') : null,
      hasInert: scan.inert.length > 0,
      hasAriaDisabled: valued(scan.ariaDisabled, 'aria-disabled', 'true'),
      anyAriaHidden,
      registry: new Map(), revealers: new WeakMap(), groups: new WeakMap(),
      // Elements whose text the observation shows already (labels used as names).
      named: [],
    };
    ctx.declared = (el) => skipDeclared && !!el.closest('[data-agent-action],[data-agent-record]');
    ctx.holdsDeclared = (el) => skipDeclared && !!el.querySelector('[data-agent-record]');
    ctx.inert = (el) => ctx.hasInert && !!el.closest('[inert]');
    ctx.covered = roots
      ? (el) => !!modal && !containsComposed(modal, el) && !containsComposed(el, modal)
      : (el) => !!modal && !modal.contains(el) && !el.contains(modal);
    // aria-hidden that an open popup set on everything outside it and its trigger (a
    // listbox, a menu, a non-modal dialog: the element is a sibling of a branch that holds
    // the popup or the expanded control that opened it) hides nothing from a person: the
    // page stays painted and usable around the popup, and a click there closes it. A modal
    // dialog keeps the rest behind it (ctx.covered).
    const shownOpen = (el) => !el.closest(ARIA_HIDDEN) && el.checkVisibility(VIS);
    const popups = anyAriaHidden ? scan.roled.filter((el) => POPUP_ROLE.test(P.firstRole(el) || '') &&
      el.getAttribute('aria-modal') !== 'true' && shownOpen(el)) : [];
    const anchors = popups.length
      ? [...popups, ...Array.from(queryTrees('[aria-expanded="true"]', roots)).filter(shownOpen)]
      : [];
    const outside = new Map();
    ctx.ariaHides = (h) => {
      if (!anchors.length) return true;
      let hides = outside.get(h);
      if (hides === undefined) {
        const up = h.parentElement;
        hides = !anchors.some((a) => !!up && containsComposed(up, a) && !containsComposed(h, a));
        outside.set(h, hides);
      }
      return hides;
    };
    ctx.hidden = (el) => {
      if (!anyAriaHidden) return false;
      for (let h = el.closest(ARIA_HIDDEN); h; h = h.parentElement && h.parentElement.closest(ARIA_HIDDEN)) {
        if (ctx.ariaHides(h)) return true;
      }
      return false;
    };
    // Unavailability: disabled (also through an aria-disabled container), inert, hidden,
    // behind the open dialog, read-only.
    ctx.reasonOf = (el, shown, kind) => {
      if (el.disabled === true || el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true' ||
          (ctx.hasAriaDisabled && el.closest('[aria-disabled="true"]'))) return 'disabled';
      if (ctx.inert(el)) return 'inert';
      // files: a file input hidden behind its styled label still takes files (no click needed).
      if (!shown && kind !== 'upload' && !(CLICK && CLICK.hoverPath(el).length)) return 'hidden'; // clicks: hover-then-click
      if (ctx.covered(el)) return P.behindDialog(ctx.modalLabel);
      if (kind === 'type' && el.readOnly && !opensPicker(el)) return 'read-only';
      return null;
    };
    return ctx;
  }

  Object.assign(C, { keyOf, pageContext });
})();
