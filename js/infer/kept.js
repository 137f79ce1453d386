// cdpagent inference, the inferred index: what is kept between observations (OB-12).
//
// A page that declares nothing is inferred from scratch once per document; later passes
// keep what is expensive per record row and cannot have changed, and read again what can.
//
//   kept    the model: the attribute scan, the label map, the clickables pass, the
//           elements that can be regions (their names and states are read again), the
//           record containers and their rows, the page's controls outside rows (and whether
//           they are in document order); per row
//           (its entry) its id, whether it is rendered and inert, its controls with their
//           roles, kinds, columns and whether they are disabled, the row's shape, its
//           in-place edit, and its controls' names once a pass read them (a long container's
//           rows are counted from a sample, their names unread: see js/infer/rowactions.js).
//           A container's per-name row counts are kept while every row's names were read.
//           Also kept: whether the document holds sensitive or aria-hidden elements (the
//           two queries of P.pass; a row's change can only add a sensitive field, and is
//           checked for one). (plan(null) keeps its answer by its own observer.)
//   read    on every pass: regions (from the kept elements), page actions, state,
//           feedback, page text (the page side), the record ids in order (duplicates
//           numbered; sent only when they changed), which rows are in the viewport, the
//           fold's counts and groups (from the entries, cheap), what exact rows show
//           (fields, values, availability): values, because a value set by script fires
//           no event and no mutation.
//   dropped a MutationObserver on the document and its open shadow roots, events in the
//           capture phase and prints compared on every pass decide:
//           - a change below one row of a table or list (text, controls added or removed,
//             an attribute of ROW_ATTRS on an element inside it) drops that row's entry;
//             the row must not be entangled (a label or an id reference ties it to another
//             row or to the page), nest or sit in another row, be a card, hold an element
//             of the clickables pass, and the change must add or remove nothing of
//             KEEP_STRUCTURAL (roles, ids, labels, lists, cells, headings...) nor name a
//             landmark inside it (an aria-label: it may make a region); a row the
//             clickables pass looked at runs that pass again (bounded by click_scan), and
//             the model stands only if it finds the same elements; the overflow of the
//             scrollable boxes around the row (which that pass offers) must not change;
//           - anything else drops everything: a change outside every row or on a row's
//             element itself; an event that can change style or layout without a
//             mutation (KEEP_EVENTS, KEEP_LOADS); a style sheet whose rules changed in
//             number; any animation that moved; the URL; the viewport's size; a listener
//             verdict or an act (the clickables epoch); a popup; a custom element
//             upgraded; other options or mode; fresh === true. With :has() or a container
//             query in a readable sheet every change drops everything (a row's change
//             can restyle another); with a rule on a value's pseudo-class (:checked,
//             :placeholder-shown...) that can hide or restyle, nothing is kept at all (a
//             value a script sets restyles without a trace).
//           Scrolling drops nothing: what it moves (the viewport, in_viewport, the page
//           text's order) is read on every pass.
//   limits  not seen: a rule edited through the CSSOM that keeps its sheet's rule count,
//           the rules of sheets this world cannot read (another origin), and changes
//           inside closed shadow roots.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { squash, isElement, WATCH, optionsKey, sheetLists, rulesOf, sheetsPrint, lastingAnimations, sameList } = P;
  const { CONTROL_TAG, TAG_CONTROLS, SLIDER_HANDLES, isControl, isSliderHandle, passLabels, hasOwnControls, LANDMARK, isLandmark } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // Attributes whose change on an element inside a row re-reads only that row.
  const ROW_ATTRS = new Set(['value', 'checked', 'selected', 'disabled', 'readonly', 'required', 'aria-label', 'title',
    'placeholder', 'alt', 'src', 'srcset', 'href', 'class', 'style', 'hidden', 'type', 'name', 'min', 'max', 'step',
    'maxlength', 'minlength', 'pattern', 'width', 'height']);
  // What a row's own change must not add or remove: what the page side, the containers,
  // the attribute scan or another row can read.
  const KEEP_STRUCTURAL = ['table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption', 'colgroup', 'ul', 'ol', 'li',
    'dl', 'menu', 'label', 'dialog', 'main', 'nav', 'header', 'footer', 'aside', 'form', 'search', 'section', 'article',
    'fieldset', 'legend', 'output', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'iframe', 'frame', 'object', 'embed', 'style',
    'link', 'slot', 'template', 'details', 'summary', 'datalist', 'meta', 'base', '[role]', '[id]', '[contenteditable]',
    '[tabindex]', '[onclick]', '[popover]', '[inert]', '[class*="slider" i]', '[aria-live]', '[aria-invalid]',
    '[aria-current]', '[aria-selected]', '[aria-pressed]', '[aria-checked]', '[aria-expanded]', '[aria-sort]',
    '[aria-hidden]', '[aria-disabled]', '[aria-modal]', '[aria-labelledby]', '[aria-describedby]', '[aria-errormessage]',
    '[aria-haspopup]', '[aria-controls]', '[aria-owns]', '[aria-activedescendant]', '[list]', '[for]',
    '[data-agent-region]', '[data-agent-action]', '[data-agent-record]', '[data-agent-state]', '[data-agent-feedback]'].join(',');
  // Events after which style, values or layout may differ without a mutation.
  const KEEP_EVENTS = ['resize', 'input', 'change', 'focusin', 'focusout', 'pointerover', 'pointerout', 'pointerdown',
    'pointerup', 'transitionrun', 'animationstart', 'hashchange', 'popstate', 'toggle', 'invalid', 'reset',
    'fullscreenchange'];
  // Loads that change layout (an image that gets its size): they reach the document, never
  // the window.
  const KEEP_LOADS = ['load', 'error'];
  // Idrefs that tie an element to another (its name, description, owner).
  const IDREFS = ['aria-labelledby', 'aria-describedby', 'aria-errormessage', 'aria-controls', 'aria-owns',
    'aria-activedescendant', 'aria-details', 'aria-flowto', 'list', 'for'];
  // Rules that make a row's entry unsafe to keep (see "dropped" above).
  const LOOKS_AROUND = /:has\(/;
  const VALUE_PSEUDO = /:(checked|indeterminate|default|valid|invalid|user-valid|user-invalid|placeholder-shown|in-range|out-of-range|autofill|blank|required|optional|read-only|read-write|enabled|disabled)\b/;
  const RESTYLES = /^(display|visibility|opacity|content-visibility|cursor|overflow|overflow-x|overflow-y|content|background|background-image|width|height|max-height|max-width)$/;
  const KEPT_PENDING_MAX = 20000;

  let kept = null; // the model, or null: the next pass infers from scratch
  // What the last pass did with the model (model(): "built", "kept" or "patched"; rows re-read).
  let lastModel = { model: 'built', rows: 0, clickables: false };
  let keptChanges = [];
  const keptObserver = new MutationObserver((records) => {
    if (!kept) return;
    if (keptChanges.length + records.length > KEPT_PENDING_MAX) { dropKept(); droppedBy = 'mutations'; return; }
    for (const r of records) keptChanges.push(r);
  });
  function dropKept() {
    if (kept) keptObserver.disconnect();
    kept = null;
    keptChanges = [];
  }
  // Why the model was dropped between passes (model().why).
  let droppedBy = '';
  const dropOn = (type) => () => {
    if (!kept) return;
    dropKept();
    droppedBy = type;
  };
  for (const type of KEEP_EVENTS) addEventListener(type, dropOn(type), true);
  for (const type of KEEP_LOADS) document.addEventListener(type, dropOn(type), true);
  if (document.fonts) document.fonts.addEventListener('loadingdone', dropOn('fonts'));

  // Whether mutation record m may add or remove a declaration (an element, or a data-agent-*
  // attribute, came or went).
  const declaresMaybe = (m) => (m.type === 'attributes' ? m.attributeName.startsWith('data-agent-')
    : m.type === 'childList' && (Array.prototype.some.call(m.addedNodes, isElement) ||
      Array.prototype.some.call(m.removedNodes, isElement)));

  const keptKey = (opts, mode) => mode + optionsKey(opts);


  // What must stay the same for the model to stand (see "dropped" above).
  function keptPrint(roots) {
    let print = `${location.href}\u0000${innerWidth}x${innerHeight}\u0000${CLICK ? CLICK.epoch() : 0}\u0000`;
    print += sheetsPrint(roots);
    for (const a of lastingAnimations(roots)) print += `${a.playState}@${a.currentTime};`;
    return print;
  }
  const popupPrint = () => {
    const p = CLICK && CLICK.popup();
    return p ? [p.near, ...p.items] : [];
  };

  // What the readable sheets allow: 'none' (keep nothing), 'page' (keep, but every change
  // drops everything: :has() or a container query can carry a row's change elsewhere),
  // 'rows' (a row's change re-reads that row).
  function sheetsAllow(roots) {
    let allow = 'rows';
    const visit = (rules) => {
      for (const rule of rules) {
        if (allow === 'none') return;
        if (typeof CSSContainerRule !== 'undefined' && rule instanceof CSSContainerRule) allow = 'page';
        if (rule instanceof CSSStyleRule) {
          const sel = rule.selectorText;
          if (LOOKS_AROUND.test(sel)) allow = 'page';
          if (VALUE_PSEUDO.test(sel)) {
            for (let i = 0; i < rule.style.length; i++) if (RESTYLES.test(rule.style[i])) { allow = 'none'; break; }
          }
        }
        if (rule instanceof CSSImportRule) {
          const inner = rule.styleSheet && rulesOf(rule.styleSheet);
          if (inner) visit(inner);
        }
        if (rule.cssRules) visit(rule.cssRules);
      }
    };
    for (const sheets of sheetLists(roots)) {
      for (const sheet of sheets) {
        const rules = rulesOf(sheet);
        if (rules) visit(rules);
      }
    }
    return allow;
  }

  // A row's controls, read from the row alone: what allControls and the partition into rows
  // give it (for a row that nests no other row and holds no floating popup item).
  function controlsInRow(row, clickables) {
    const out = clickables.filter((el) => row.contains(el)); // clicks
    const within = (selector) => [row, ...row.querySelectorAll(selector)].filter((el) => el.matches(selector));
    for (const el of within(TAG_CONTROLS)) if (el.tagName !== 'a') out.push(el);
    for (const el of within('[role]')) {
      if (CONTROL_TAG.test(el.tagName) ? !el.matches(TAG_CONTROLS) && isControl(el) : isControl(el)) out.push(el);
    }
    for (const el of within('[contenteditable]')) {
      if (!CONTROL_TAG.test(el.tagName) && !el.hasAttribute('role') && isControl(el)) out.push(el);
    }
    for (const el of within(SLIDER_HANDLES)) if (!CONTROL_TAG.test(el.tagName) && isSliderHandle(el) && !out.includes(el)) out.push(el);
    return out;
  }
  // A row's in-place edit label, read from the row alone (see IN_PLACE).
  function inPlaceIn(row) {
    for (const l of row.getElementsByTagName('label')) if (!l.control && !l.htmlFor && squash(l.textContent)) return l;
    return null;
  }

  // The model of this pass (K), built from what the pass found, and watching the page and the
  // open shadow roots the pass read (pageContext searched them). What the first answer does
  // not need (which rows can be read alone) is done when the page is idle after it, or by
  // the pass that needs it first.
  function keepModel(ctx, opts, mode, parts) {
    const roots = ctx.scan.roots;
    const allow = sheetsAllow(roots);
    if (allow === 'none') return null;
    const K = {
      key: keptKey(opts, mode), opts, allow, roots, print: keptPrint(roots), popup: popupPrint(),
      ...passLabels(), scan: ctx.scan, ...parts, recordOf: ctx.recordOf, rowAbove: ctx.rowAbove,
      alone: null, overflow: boxesAround(parts.containers),
      // What P.pass asks the whole document each pass (factsNow): null until known.
      facts: null,
      undefinedEls: Array.from(document.querySelectorAll(':not(:defined)')),
    };
    keptChanges = [];
    keptObserver.observe(document, WATCH);
    for (const r of roots || []) keptObserver.observe(r, WATCH);
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(() => {
        if (kept !== K) return;
        if (!K.alone) aloneRows(K);
        if (!K.facts) K.facts = factsNow();
      });
    }
    return K;
  }

  // P.pass's two document-wide questions, answered now: kept with the model (by the idle
  // time after its first pass, or by the next pass that keeps it), patched by a row's change.
  const factsNow = () => ({ sensitive: !!document.querySelector(P.SENSITIVE), hidden: !!document.querySelector('[aria-hidden="true"]') });

  // The scrollable boxes around the rows of containers, and whether each overflows now.
  function boxesAround(containers) {
    const overflow = new Map();
    for (const c of containers) {
      let last = null;
      for (const row of c.rows) {
        if (row.parentElement === last) continue;
        last = row.parentElement;
        for (let p = last; p && p !== document.body && !overflow.has(p); p = p.parentElement) overflow.set(p, overflows(p));
      }
    }
    return overflow;
  }

  // The rows of model K a change inside can be read alone for (K.alone): not nested or
  // nesting, not cards, holding no clickable, tied to no other row and to nothing outside by
  // a label or an id reference.
  function aloneRows(K) {
    const { containers, clickables, recordOf, rowAbove } = K;
    const rowOf = (el) => (recordOf.has(el) ? el : rowAbove(el));
    const alone = new Set();
    for (const c of containers) if (!c.card) for (const row of c.rows) if (recordOf.get(row).container === c) alone.add(row);
    for (const row of recordOf.keys()) {
      const above = rowAbove(row);
      if (above) { alone.delete(row); alone.delete(above); }
    }
    for (const c of containers) if (c.card) for (const row of c.rows) alone.delete(row);
    for (const el of clickables) alone.delete(rowOf(el));
    const tie = (a, b) => { if (a !== b) { alone.delete(a); alone.delete(b); } };
    for (const [control, list] of K.labels) for (const l of list) tie(rowOf(control), rowOf(l));
    for (const el of document.querySelectorAll(IDREFS.map((a) => `[${a}]`).join(','))) {
      const from = rowOf(el);
      for (const id of IDREFS.flatMap((a) => (el.getAttribute(a) || '').split(/\s+/))) {
        const target = id && document.getElementById(id);
        if (target) tie(from, rowOf(target));
      }
    }
    K.alone = alone;
  }

  // Whether box p scrolls (js/clickables.js offers such boxes): null when it cannot.
  function overflows(p) {
    const cs = getComputedStyle(p);
    const y = cs.overflowY;
    const x = cs.overflowX;
    const sy = y === 'auto' || y === 'scroll';
    const sx = x === 'auto' || x === 'scroll';
    if (!sx && !sy) return null;
    return `${sy && p.scrollHeight > p.clientHeight + 2},${sx && p.scrollWidth > p.clientWidth + 2}`;
  }

  // The row a mutation record is confined to (its entry is what it changes), or null when
  // it may change more than one row (see "dropped" above).
  function rowOfChange(K, m) {
    let t = m.target;
    let elements = false;
    if (m.type === 'characterData') {
      t = t.parentNode;
      if (!t || t.nodeType !== Node.ELEMENT_NODE || /^(STYLE|SCRIPT|TITLE)$/.test(t.tagName)) return null;
    } else if (m.type === 'attributes') {
      const name = m.attributeName;
      if (!ROW_ATTRS.has(name)) return null;
      if (name === 'class' && (t.hasAttribute('tabindex') || t.querySelector(':scope > [tabindex]'))) return null; // slider handles
      if (name === 'aria-label' && t.matches(LANDMARK) && isLandmark(t)) return null; // it may become a region (K.landmarks)
    } else {
      for (const list of [m.addedNodes, m.removedNodes]) {
        for (const node of list) {
          if (node.nodeType !== Node.ELEMENT_NODE) continue;
          elements = true;
          if (node.matches(KEEP_STRUCTURAL) || node.querySelector(KEEP_STRUCTURAL)) return null;
          if (node.shadowRoot || node.localName.includes('-')) return null;
          for (const el of node.getElementsByTagName('*')) if (el.shadowRoot || el.localName.includes('-')) return null;
        }
      }
    }
    if (t.nodeType !== Node.ELEMENT_NODE) return null;
    for (let p = t; p; p = p.parentElement) {
      if (K.entries.has(p)) {
        if (p === t && m.type === 'attributes') return null; // the row element itself: its siblings' styles, its id
        return K.alone.has(p) ? p : null;
      }
      if (elements && p.tagName === 'LABEL') return null; // what the label names may change
    }
    return null;
  }

  // The kept model, patched from what changed since the last pass, or null (then the pass
  // infers from scratch). click is the clickables pass when it had to run again.
  function keptModel(opts, mode) {
    const K = kept;
    lastModel = { model: 'built', rows: 0, clickables: false, why: droppedBy || 'none kept' };
    droppedBy = '';
    if (!K) return { K: null, click: null };
    const records = keptChanges;
    keptChanges = [];
    for (const r of keptObserver.takeRecords()) records.push(r);
    let click = null;
    const drop = (why) => {
      dropKept();
      lastModel = { model: 'built', rows: 0, clickables: !!click, why };
      return { K: null, click };
    };
    if (K.key !== keptKey(opts, mode)) return drop('options');
    if (K.print !== keptPrint(K.roots)) return drop('print');
    if (!sameList(popupPrint(), K.popup)) return drop('popup');
    if (K.undefinedEls.some((el) => el.matches(':defined'))) return drop('upgrade'); // a shadow root, maybe
    if (!records.length) {
      if (!K.facts) K.facts = factsNow();
      lastModel = { model: 'kept', rows: 0, clickables: false };
      return { K, click };
    }
    if (K.allow !== 'rows') return drop('sheets');
    if (!K.alone) aloneRows(K);
    const dirty = new Set();
    for (const m of records) {
      const row = rowOfChange(K, m);
      if (!row) return drop(`${m.type} ${m.type === 'attributes' ? m.attributeName : ''} at ${m.target.nodeName}`);
      dirty.add(row);
    }
    let rerun = false;
    for (const row of dirty) {
      const c = K.entries.get(row).container;
      // A list stays a record list while one of its items holds controls.
      if (c.links) return drop('list'); // a changed item may no longer be one link
      if (!c.table && dirty.has(c.owner) && !hasOwnControls(c.owner)) {
        c.owner = c.rows.find(hasOwnControls);
        if (!c.owner) return drop('list');
      }
      for (let p = row.parentElement; p && p !== document.body; p = p.parentElement) {
        if (K.overflow.has(p) && overflows(p) !== K.overflow.get(p)) return drop('overflow');
      }
      // The clickables pass runs again when it looked at the row, at what is inside it, or
      // took one of the row's ancestors as a candidate (whose text holds the row's).
      if (CLICK && !rerun) {
        for (let p = row; p && !rerun; p = p.parentElement) rerun = CLICK.reached(p) === 2 || (p === row && CLICK.reached(p) === 1);
        for (const el of row.getElementsByTagName('*')) if (!rerun) rerun = CLICK.reached(el) > 0;
      }
    }
    if (rerun) {
      click = CLICK.pass(opts);
      if (!sameList(click, K.clickables) || !sameList(popupPrint(), K.popup)) return drop('clickables');
    }
    for (const row of dirty) {
      const e = K.entries.get(row);
      const counts = e.container.counts;
      if (counts && e.named) {
        for (const k of e.controls) {
          if (!k.label) continue;
          const n = counts.get(k.label) - 1;
          if (n) counts.set(k.label, n);
          else counts.delete(k.label);
        }
      }
      K.entries.delete(row);
    }
    // A row's change can add a sensitive field (its type); aria-hidden never (it drops all).
    if (!K.facts) K.facts = factsNow();
    else if (!K.facts.sensitive) {
      for (const row of dirty) if (row.matches(P.SENSITIVE) || row.querySelector(P.SENSITIVE)) K.facts.sensitive = true;
    }
    lastModel = { model: 'patched', rows: dirty.size, clickables: !!click };
    return { K, click };
  }

  // Keeps the model of this pass (see keepModel).
  function keep(ctx, opts, mode, parts) {
    kept = keepModel(ctx, opts, mode, parts);
  }

  // The kept model, or null.
  const heldModel = () => kept;

  // JSON {model, rows, clickables, unread} of the last pass (see model() in js/infer.js).
  const modelJson = () => JSON.stringify(lastModel);
  // Notes the rows the last pass's fold counted from a sample (see js/infer/rowactions.js).
  const noteUnread = (n) => { lastModel.unread = n; };

  Object.assign(C, { dropKept, declaresMaybe, keptModel, keep, heldModel, modelJson, noteUnread, controlsInRow, inPlaceIn });
})();
