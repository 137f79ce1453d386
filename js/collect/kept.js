// cdpagent collector, the index (issue 12): what is kept between observations.
//
// An observation costs what changed, not what exists: the declarations are kept
// in three tiers, each recomputed only when something it depends on may have
// changed.
//
//   base  what the DOM alone decides: the open shadow roots, the modal, state
//         and feedback candidates, the region, record and page-action elements,
//         record ids and regions, each record's row actions with their declared
//         unavailability. Built once per document (this world dies with it), then
//         patched from a MutationObserver: a change inside a record re-reads that
//         record, a page action or candidate added, removed or renamed patches its
//         list; anything else (records or regions added or removed, an id, region or
//         inert attribute, a shadow host) builds it again.
//   style what style decides: which records are active (rendered, in an active
//         region, not inert), which are behind the open dialog, the folded row
//         action totals. Recomputed after any mutation other than text, a user
//         event that may change pseudo-classes (input, focus, pointer), a resize, a
//         style sheet whose rules changed in number, or an animation of opacity,
//         visibility or display that moved since the last collect; else kept. A mutation or event strictly inside a record
//         cannot change whether any record is rendered unless a style rule that
//         hides or shows looks down or at the pointer (:has, :hover, :focus-within,
//         :active, :target) or at a container's size: when the page's sheets hold
//         none (and all are readable), such changes only re-read their record's
//         row actions.
//   view  what the viewport, values and text decide: computed on every collect, for
//         what is shown only (records in view or included, actions, state, feedback).
//
// collect(options, true) drops the index first and reads every record's row actions
// (no counting by query): the reference the agreement test compares the index with.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { cutLong, closestAcross, isElement, WATCH, MAY_HOST, openShadowRoots, sheetsPrint, optionsKey } = P;
  const {
    clock, ACTION, RECORD, REGION, FEEDBACK, MODAL, STATE, useShadowRoots, hasShadowRoots, queryAll, up, parentAcross,
    composedCompare, fewElements, sheetsSafe, animationsPrint,
  } = C;

  // Attributes whose change rebuilds the base; those that move an element in or out of
  // a candidate list; those that change a row action.
  const BASE_ATTRS = new Set(['data-agent-record', 'data-agent-region', 'inert']);
  const LIST_ATTRS = new Set(['data-agent-action', 'data-agent-state', 'data-agent-feedback', 'role', 'aria-modal', 'aria-invalid']);
  const ROW_ATTRS = new Set(['data-agent-action', 'disabled', 'aria-disabled', 'data-agent-unavailable']);
  const BASE_ELEMENTS = `${RECORD},${REGION},[inert]`;
  const LISTED = `${ACTION},${MODAL},${STATE},${FEEDBACK}`;
  const BLOCKED = ':disabled,[aria-disabled="true"],[data-agent-unavailable]';
  // Past this many unread mutation records the base is dropped instead of patched.
  const PENDING_MAX = 20000;

  let base = null; // the base tier, or null: build on the next collect
  let styled = null; // the style tier, or null: recompute
  let pending = [];

  const indexObserver = new MutationObserver((records) => {
    if (!base) return;
    if (pending.length + records.length > PENDING_MAX) {
      base = null;
      pending = [];
      return;
    }
    for (const r of records) pending.push(r);
  });
  // A change at el: the style tier goes unless it cannot matter (see above).
  const restyle = (el) => {
    if (styled && !(base && base.sheetsSafe && isElement(el) && insideRecord(el))) styled = null;
  };
  const insideRecord = (el) => {
    const rec = closestAcross(el, RECORD);
    return !!rec && rec !== el;
  };
  for (const type of ['resize', 'input', 'change', 'focusin', 'focusout', 'pointerover', 'pointerout',
    'transitionrun', 'animationstart', 'hashchange', 'toggle']) {
    addEventListener(type, (e) => restyle(e.composedPath()[0] || e.target), true);
  }

  // The base tier from scratch (see above); starts watching the document and its open
  // shadow roots. reference: never count row actions by query (see tallyNative, rowactions.js).
  function buildBase(opts, reference) {
    indexObserver.disconnect();
    pending = [];
    const stats = { limit: opts.closed_scan, budget: opts.shadow_scan, components: 0, elements: 0, shadowElements: 0 };
    const shadowRoots = openShadowRoots(opts.shadow_scan, stats);
    useShadowRoots(shadowRoots);
    indexObserver.observe(document, WATCH);
    for (const root of shadowRoots || []) indexObserver.observe(root, WATCH);
    clock.mark('base: shadow roots');
    const few = fewElements();
    clock.mark('base: few');
    const B = {
      key: optionsKey(opts), reference, shadowRoots, stats, few, hasInert: few.modal.some((d) => d.hasAttribute('inert')),
      regionEls: few.regions, recs: [], recOf: null, refused: 0,
      duplicates: new Set(), skipped: [], nested: hasShadowRoots(), flat: false, pageEls: null, undefinedEls: few.undefined,
      sheets: sheetsPrint(shadowRoots), sheetsSafe: sheetsSafe(shadowRoots), animations: animationsPrint(shadowRoots),
      dirty: new Set(), touched: new Set(),
    };
    clock.mark('base: sheets');
   
    const refuse = new RegExp(opts.refused_record_id, 'i');
    const parentFacts = new Map();
    const els = queryAll(document, RECORD);
    const n = els.length;
    const raws = new Array(n);
    for (let i = 0; i < n; i++) raws[i] = els[i].getAttribute('data-agent-record');
    // OB-10: an id is cited and enumerated verbatim, so one that could break a line or
    // a fence is refused (its row is left out, with a warning). The pattern is not
    // anchored, so the ids joined match it whenever one id does: one test says
    // whether any id must be tested alone.
    const screen = refuse.test(raws.join(' '));
    let lastParent;
    let facts = null;
    const ids = new Array(n);
    for (let i = 0; i < n; i++) ids[i] = cutLong(raws[i], opts.record_id_chars);
    const twice = repeated(ids);
    const seen = twice.size ? new Set() : null;
    for (let i = 0; i < n; i++) {
      const el = els[i];
      // Records that share a parent share their region and whether they sit inside
      // another record: one closest() per distinct parent.
      const p = parentAcross(el);
      if (p !== lastParent) {
        lastParent = p;
        facts = p ? parentFacts.get(p) : null;
        if (p && !facts) {
          facts = [up(p, REGION), !!up(p, RECORD)];
          if (facts[1]) B.nested = true;
          parentFacts.set(p, facts);
        }
      }
      const raw = raws[i];
      if (screen && refuse.test(raw)) {
        B.refused++;
        B.skipped.push(el);
        continue;
      }
      const id = ids[i];
      if (seen && twice.has(id)) {
        if (seen.has(id)) {
          B.duplicates.add(id);
          B.skipped.push(el);
          continue;
        }
        seen.add(id);
      }
      const rec = {
        el, id, parent: p, regionEl: facts ? facts[0] : null, inert: false, acts: null,
        active: false, covered: false, visible: false, full: null,
      };
      B.recs.push(rec);
    }
   
    clock.mark('base: records');
    for (const r of B.regionEls) {
      if (B.nested) break;
      const p = parentAcross(r);
      B.nested = !!(p && up(p, RECORD));
    }
    if (B.hasInert) for (const rec of B.recs) rec.inert = !!closestAcross(rec.el, '[inert]');
    B.flat = !reference && !B.nested && B.recs.every((rec) => rec.regionEl === B.recs[0].regionEl);
    B.pageEls = hasShadowRoots() ? queryAll(document, ACTION).filter((el) => !closestAcross(el, RECORD))
      : Array.from(document.querySelectorAll(`${ACTION}:not(${RECORD} *)`));
    return B;
  }

  // The ids that occur more than once in ids (sorted, not hashed: a 100,000-entry
  // table on the first observation's path starts V8's major GC of the whole DOM).
  function repeated(ids) {
    const twice = new Set();
    const sorted = ids.slice().sort();
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) twice.add(sorted[i]);
    return twice;
  }

  // The index entry of record id, or undefined: one pass over the entries (a lookup is
  // rare: an included id, an act's record check), not a table of every id (see repeated).
  const recordById = (B, id) => B.recs.find((rec) => rec.id === id);

  // The index entry of record element el (undefined: none). The element → entry map
  // is not on the first observation's path: it is built when first needed (a
  // mutation inside a record, a blocked row action) or in idle time after it.
  function recordOf(B, el) {
    if (!B.recOf) {
      B.recOf = new Map();
      for (const rec of B.recs) B.recOf.set(rec.el, rec);
    }
    return B.recOf.get(el);
  }

  // The rest of the index, built when the page is idle after an answer.
  function finishInIdle(B) {
    if (B.recOf || typeof requestIdleCallback !== 'function') return;
    requestIdleCallback(() => { if (base === B) recordOf(B, null); });
  }

  // The row actions of one record: element, name, the region they fold in (a region
  // inside the record when records nest) and the declared reason they are unavailable.
  function recordActs(B, rec, opts) {
    const acts = [];
    for (const el of queryAll(rec.el, ACTION)) {
      let regionEl = rec.regionEl;
      if (B.nested) {
        const owner = up(el, `${RECORD},${REGION}`);
        if (owner !== rec.el && owner.hasAttribute('data-agent-record')) continue; // a nested record's own
        if (owner !== rec.el) regionEl = owner;
      }
      acts.push(rowAct(B, el, regionEl, opts, el.matches(BLOCKED)));
    }
    return acts;
  }

  function rowAct(B, el, regionEl, opts, blocked) {
    const raw = el.getAttribute('data-agent-action');
    let reason = null;
    if (blocked) reason = blockedReason(el, opts);
    else if (B.hasInert && closestAcross(el, '[inert]')) reason = 'inert';
    return { el, raw, name: rowActionName(raw, opts), regionEl, reason };
  }

  // A row action's name as folded (cut when long; "action" when empty).
  const rowActionName = (raw, opts) => cutLong(raw, opts.action_name_chars) || 'action';

  // Why a disabled or declared-unavailable row action cannot be used.
  const blockedReason = (el, opts) => cutLong(el.getAttribute('data-agent-unavailable') || 'disabled', opts.label_chars);

  // A record's row actions, read when first needed (see tallyNative, rowactions.js).
  const actsOf = (B, rec, opts) => rec.acts || (rec.acts = recordActs(B, rec, opts));

  // Elements in one of the index's trees (the document or a known open shadow root).
  function indexed(B, el) {
    if (!el.isConnected) return false;
    const root = el.getRootNode();
    return root === document || (!!B.shadowRoots && B.shadowRoots.includes(root));
  }

  // Notes one added or removed element; false when the base must be built again.
  function absorbNode(B, node, added, tree) {
    if (node.matches(BASE_ELEMENTS) || node.querySelector(BASE_ELEMENTS)) return false;
    const inside = node.getElementsByTagName('*');
    if (added) {
      if (node.shadowRoot) return false;
      for (const el of node.querySelectorAll(MAY_HOST)) if (el.shadowRoot) return false;
      if (node.matches(':not(:defined)')) B.undefinedEls.push(node);
      for (const el of node.querySelectorAll(':not(:defined)')) B.undefinedEls.push(el);
    } else if (B.shadowRoots && B.shadowRoots.some((r) => node === r.host || node.contains(r.host))) {
      return false;
    }
    // Element counts decide whether the closed-root check and the shadow search run.
    if (tree !== document) return false;
    const st = B.stats;
    const before = st.elements;
    st.elements += (added ? 1 : -1) * (inside.length + 1);
    if (before <= st.limit || st.elements <= st.limit) return false;
    if (B.shadowRoots ? st.elements + st.shadowElements > st.budget : st.elements <= st.budget) return false;
    if (node.matches(LISTED)) B.touched.add(node);
    for (const el of node.querySelectorAll(LISTED)) B.touched.add(el);
    return true;
  }

  // Reads mutation records into the base; false when it must be built again.
  function absorb(B, records) {
    for (const m of records) {
      const t = m.target;
      if (m.type === 'characterData') {
        if (t.parentNode && t.parentNode.nodeName === 'STYLE') styled = null;
        continue;
      }
      restyle(t);
      if (isElement(t) && t.shadowRoot && !(B.shadowRoots && B.shadowRoots.includes(t.shadowRoot))) return false;
      if (m.type === 'attributes') {
        const name = m.attributeName;
        if (BASE_ATTRS.has(name)) return false;
        if (LIST_ATTRS.has(name)) B.touched.add(t);
        if (ROW_ATTRS.has(name)) {
          const rec = closestAcross(t, RECORD);
          if (rec) B.dirty.add(rec);
          else if (name === 'disabled' && t.querySelector(RECORD)) return false; // a fieldset around records
        }
        continue;
      }
      const tree = t.nodeType === Node.DOCUMENT_NODE ? t : t.getRootNode();
      let elements = false;
      for (const node of m.addedNodes) {
        if (!isElement(node)) continue;
        elements = true;
        if (!absorbNode(B, node, true, tree)) return false;
      }
      for (const node of m.removedNodes) {
        if (!isElement(node)) continue;
        elements = true;
        if (!absorbNode(B, node, false, tree)) return false;
      }
      // Text nodes added or removed (textContent, innerText) change no row action:
      // the record's folded totals stand (they are read again only for elements).
      if (elements && isElement(t)) {
        const rec = closestAcross(t, RECORD);
        if (rec) B.dirty.add(rec);
      }
    }
    return true;
  }

  // list (in composed order) with the touched elements that now pass keep, in order.
  function patchList(B, list, keep) {
    const out = [];
    let moved = false;
    for (const el of list) {
      if (!B.touched.has(el)) out.push(el);
      else moved = true;
    }
    for (const el of B.touched) {
      if (indexed(B, el) && keep(el)) {
        out.push(el);
        moved = true;
      }
    }
    if (moved) out.sort(composedCompare);
    return out;
  }

  // The base tier, current: patched from what changed, or built again.
  function currentBase(opts, fresh) {
    const records = pending;
    pending = [];
    for (const r of indexObserver.takeRecords()) records.push(r);
    if (fresh || (base && base.key !== optionsKey(opts))) base = null;
    if (base && records.length && !absorb(base, records)) base = null;
    if (base && base.undefinedEls.some((el) => el.matches(':defined'))) base = null; // upgraded: a shadow root, maybe
    if (!base) {
      styled = null;
      base = buildBase(opts, fresh);
      return base;
    }
    const B = base;
    useShadowRoots(B.shadowRoots);
    const print = sheetsPrint(B.shadowRoots);
    if (print !== B.sheets) {
      B.sheets = print;
      B.sheetsSafe = sheetsSafe(B.shadowRoots);
      styled = null;
    }
    const animations = animationsPrint(B.shadowRoots);
    if (animations !== B.animations) {
      B.animations = animations;
      styled = null;
    }
    if (B.touched.size) {
      B.few = {
        modal: patchList(B, B.few.modal, (el) => el.matches(MODAL)),
        state: patchList(B, B.few.state, (el) => el.matches(STATE)),
        feedback: patchList(B, B.few.feedback, (el) => el.matches(FEEDBACK)),
      };
      B.pageEls = patchList(B, B.pageEls, (el) => el.matches(ACTION) && !closestAcross(el, RECORD));
      B.touched.clear();
    }
    for (const el of B.dirty) {
      const rec = recordOf(B, el);
      if (rec) rec.acts = null;
    }
    // A kept style tier folds the row actions again.
    if (B.dirty.size && styled) styled.fold = null;
    B.dirty.clear();
    return B;
  }

  // The open shadow roots now: the index's while nothing was added or removed since it
  // was read (an added element may host a new root), else searched within `budget`
  // elements (none past it: such a page is not searched by the index either).
  function currentShadowRoots(budget) {
    for (const r of indexObserver.takeRecords()) pending.push(r);
    const known = base && base.shadowRoots;
    const changed = pending.some((m) => m.type === 'childList');
    if (base && !changed && (!known || known.every((r) => r.host.isConnected))) return known || [];
    return openShadowRoots(budget) || [];
  }

  // The open shadow roots the index holds (none when the index is not built).
  const heldShadowRoots = () => base && base.shadowRoots;

  // The index's entry of record id while nothing changed since the index was read, else
  // a falsy value.
  function heldRecord(id) {
    for (const r of indexObserver.takeRecords()) pending.push(r);
    return base && !pending.length && recordById(base, id);
  }

  // The kept style tier when it stands for the open dialog `modal`, else null.
  const styleFor = (modal) => (styled && styled.modal === modal ? styled : null);

  // Keeps S as the style tier; returns it.
  const keepStyle = (S) => (styled = S);

  Object.assign(C, {
    BLOCKED, currentBase, recordById, finishInIdle, actsOf, rowActionName, blockedReason, currentShadowRoots,
    heldShadowRoots, heldRecord, styleFor, keepStyle,
  });
})();
