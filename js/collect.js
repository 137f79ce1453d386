// cdpagent observation collector (SPEC OB-1, OB-2, OB-5, OB-6).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the isolated world
// "cdpagent-observe", so page scripts can neither see nor patch it. It defines
// globalThis.__cdpagentObserve with:
//
//   collect(optionsJson) -> string   one JSON snapshot (cdpagent.snapshot.model.Snapshot)
//   settle(quietMs, timeoutMs) -> Promise<{settled, waited_ms, reason}>
//   find(locator) -> Element | null  the element of an ActionLocator, for acting
//
// collect() takes every bound from optionsJson (ObserveOptions.collector_args()
// in Python owns them all); it runs in phases, one function each: page context
// (viewport, open modal, inert), regions, records (index, viewport, full
// fields), actions (page actions and row actions folded per name and region),
// state, feedback and identity. Masking is one rule (isSensitive) applied by
// every phase that reads a value.
//
// The snapshot carries business facts only: never markup, selectors, styles or
// coordinates; sensitive values are replaced by "[masked]" before they leave.
// Cost is bounded by one querySelectorAll per declaration kind plus constant work
// per declared element; fields and per-row action state are read only for the
// records that will be shown in full.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const MASK = '[masked]';
  const ACTION = '[data-agent-action]';
  const RECORD = '[data-agent-record]';
  const REGION = '[data-agent-region]';
  const FEEDBACK = '[data-agent-feedback],[role="alert"],[role="status"],[aria-invalid="true"]';
  const MODAL = 'dialog,[aria-modal="true"],[inert]';
  const STATE = '[data-agent-state]';
  const SEP = '\u0000';
  const now = () => performance.now();
  // visibility:hidden controls cannot be used either, so they count as hidden.
  const VIS = { visibilityProperty: true };
  // A row nobody can see is hidden, also when only its opacity says so; a control
  // may be transparent itself (a styled checkbox behind its label) and still work.
  const ROW_VIS = { visibilityProperty: true, opacityProperty: true };
  // OB-2: values of these are masked wherever they are read, and so is the text
  // of every such element inside something whose text is read.
  const SENSITIVE = ['input[type="password"]', 'input[type="hidden"]', '[data-agent-sensitive]']
    .concat(['cc-number', 'cc-csc', 'one-time-code', 'current-password', 'new-password']
      .map((t) => `[autocomplete~="${t}" i]`)).join(',');

  // --- strings --------------------------------------------------------------------

  // Lone surrogates become U+FFFD here, so no string leaves the page half a character.
  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim().toWellFormed();
  // Cut by code point: never between the two halves of a surrogate pair.
  function clip(s, max) {
    s = squash(s);
    if (s.length <= max) return s;
    const high = s.charCodeAt(max - 1);
    const end = high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
    return s.slice(0, end) + `… (cut, ${s.length} chars)`;
  }

  // el's text with the text of each sensitive element inside it masked (OB-2).
  function pageText(el) {
    if (!el.querySelector(SENSITIVE)) return el.textContent;
    let out = '';
    const walk = (node) => {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === Node.TEXT_NODE) out += c.data;
        else if (c.nodeType !== Node.ELEMENT_NODE) continue;
        else if (isSensitive(c)) out += squash(c.textContent) ? ` ${MASK} ` : '';
        else walk(c);
      }
    };
    walk(el);
    return out;
  }

  function textOf(el, max) {
    return clip(pageText(el), max);
  }

  // The text of the elements ids names, looked up in tree (el's document or shadow root).
  function byIdText(ids, max, tree) {
    const parts = [];
    for (const id of String(ids || '').split(/\s+/)) {
      const ref = id && tree.getElementById(id);
      if (ref) parts.push(squash(isSensitive(ref) ? MASK : pageText(ref)));
    }
    return clip(parts.join(' '), max);
  }

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (_) {
      return text;
    }
  }

  // Cut deep or long JSON before transfer; the summary says what was left out.
  function prune(value, depth, opts) {
    if (typeof value === 'string') return clip(value, opts.max_string);
    if (value === null || typeof value !== 'object') return value;
    const items = opts.list_items;
    if (Array.isArray(value)) {
      if (depth >= opts.max_depth) return `[… ${value.length} items]`;
      const out = value.slice(0, items).map((v) => prune(v, depth + 1, opts));
      if (value.length > items) out.push(`… ${value.length - items} more items`);
      return out;
    }
    const keys = Object.keys(value);
    if (depth >= opts.max_depth) return `{… ${keys.length} keys}`;
    const out = {};
    for (const k of keys.slice(0, items)) out[clip(k, opts.name_chars)] = prune(value[k], depth + 1, opts);
    if (keys.length > items) out['…'] = `${keys.length - items} more keys`;
    return out;
  }

  // --- names, kinds and masking of one element ---------------------------------------

  // aria-label, then aria-labelledby: the start of every name and label below.
  function ariaName(el, max) {
    const aria = el.getAttribute('aria-label');
    if (aria) return clip(aria, max);
    const by = el.getAttribute('aria-labelledby');
    return by ? byIdText(by, max, el.getRootNode()) : '';
  }

  function accessibleName(el, max) {
    const named = ariaName(el, max);
    if (named) return named;
    if (el.labels && el.labels.length) {
      const t = clip(Array.from(el.labels, pageText).join(' '), max);
      if (t) return t;
    }
    if (el.placeholder) return clip(el.placeholder, max);
    if (el.title) return clip(el.title, max);
    if (el.tagName === 'INPUT' && /^(button|submit|reset)$/.test(el.type)) return clip(el.value, max);
    return textOf(el, max);
  }

  // The masking rule (OB-2): every phase that reads a value asks this first.
  function isSensitive(el) {
    return (el.tagName === 'INPUT' && (el.type === 'password' || el.type === 'hidden')) ||
      el.matches(SENSITIVE) || !!up(el, '[data-agent-sensitive]');
  }

  // Whether a record's row can be seen at all: rendered, not transparent, with
  // an area, its content not skipped (content-visibility: hidden). act.js asks
  // the same before acting on a row, so observation and act agree.
  function rowShown(el) {
    return el.checkVisibility(ROW_VIS) && rowHasBox(el);
  }

  // The costly half of rowShown (layout and style reads), asked only of the rows
  // markRecordViewport looks at.
  function rowHasBox(el) {
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) return false;
    // A rendered child proves the content is not skipped; only otherwise is the
    // style read (getComputedStyle is the costly call here).
    const child = el.firstElementChild;
    return !child || child.checkVisibility() || getComputedStyle(el).contentVisibility !== 'hidden';
  }

  function kindOf(el) {
    const declared = el.getAttribute('data-agent-kind');
    if (declared && /^(click|type|select|check)$/.test(declared)) return declared;
    const tag = el.tagName;
    if (tag === 'SELECT') return 'select';
    if (tag === 'TEXTAREA') return 'type';
    if (tag === 'INPUT') {
      if (/^(checkbox|radio)$/.test(el.type)) return 'check';
      if (/^(button|submit|reset|image|file|color|range)$/.test(el.type)) return 'click';
      return 'type';
    }
    if (el.isContentEditable) return 'type';
    const role = el.getAttribute('role');
    if (role === 'checkbox' || role === 'switch' || role === 'radio') return 'check';
    if (role === 'textbox' || role === 'searchbox' || role === 'combobox') return 'type';
    return 'click';
  }

  function effectOf(el) {
    const e = el.getAttribute('data-agent-effect');
    if (e === 'read' || e === 'write' || e === 'navigate') return e;
    return el.tagName === 'A' && el.hasAttribute('href') ? 'navigate' : 'write';
  }

  function selectOptions(el, opts) {
    const options = [];
    for (const o of el.options) {
      if (options.length >= opts.list_items) break;
      if (!o.disabled) options.push(clip(o.label || o.text, opts.name_chars));
    }
    return options;
  }

  function currentValue(el, kind, sensitive, opts) {
    if (kind === 'check') return ['checked', !!el.checked];
    if (el.tagName === 'SELECT') {
      const o = el.selectedOptions && el.selectedOptions[0];
      return ['value', sensitive ? MASK : (o ? clip(o.label || o.text, opts.name_chars) : '')];
    }
    if ('value' in el) return ['value', sensitive ? (el.value ? MASK : '') : clip(el.value, opts.max_string)];
    if (el.isContentEditable) return ['value', sensitive ? MASK : textOf(el, opts.max_string)];
    return null;
  }

  function inputSpec(el, kind, opts, withValue) {
    if (kind === 'click') return null;
    const spec = {};
    const doc = el.getAttribute('data-agent-input');
    if (doc) spec.doc = clip(doc, opts.max_string);
    const sensitive = isSensitive(el);
    if (sensitive) spec.sensitive = true;
    if (el.tagName === 'INPUT') spec.input_type = el.type;
    else if (el.tagName === 'SELECT') spec.input_type = 'select';
    else if (el.tagName === 'TEXTAREA') spec.input_type = 'textarea';
    if (el.required || el.getAttribute('aria-required') === 'true') spec.required = true;
    if (el.readOnly) spec.read_only = true;
    const pattern = el.getAttribute('pattern');
    if (pattern) spec.pattern = clip(pattern, opts.label_chars);
    for (const k of ['min', 'max']) {
      const v = el.getAttribute(k);
      if (v) spec[k] = clip(v, opts.bound_chars);
    }
    if (el.maxLength > 0) spec.maxlength = el.maxLength;
    if (el.minLength > 0) spec.minlength = el.minLength;
    // A sensitive select's options would tell its value: never listed.
    if (el.tagName === 'SELECT' && !sensitive) spec.options = selectOptions(el, opts);
    const value = withValue ? currentValue(el, kind, sensitive, opts) : null;
    if (value) spec[value[0]] = value[1];
    return spec;
  }

  function fieldValue(el, opts) {
    if (isSensitive(el)) return MASK;
    const tag = el.tagName;
    if (tag === 'INPUT' && /^(checkbox|radio)$/.test(el.type)) return !!el.checked;
    if (tag === 'INPUT' || tag === 'TEXTAREA') return clip(el.value, opts.max_string);
    if (tag === 'SELECT') {
      const o = el.selectedOptions[0];
      return o ? clip(o.label || o.text, opts.max_string) : '';
    }
    const control = el.querySelector('input,select,textarea');
    if (control && !squash(el.textContent)) return fieldValue(control, opts);
    const a = el.getAttribute('aria-checked');
    if (a === 'true' || a === 'false') return a === 'true';
    return textOf(el, opts.max_string);
  }

  // The declared attributes an action entry and a folded group share.
  function actionDeclaration(el, name, kind, opts, withValue) {
    return {
      name, kind, effect: effectOf(el),
      description: clip(el.getAttribute('data-agent-description') || accessibleName(el, opts.label_chars), opts.max_string),
      confirm: el.hasAttribute('data-agent-confirm') ? clip(el.getAttribute('data-agent-confirm') || 'Confirm?', opts.note_chars) : null,
      handoff: el.hasAttribute('data-agent-handoff')
        ? clip(el.getAttribute('data-agent-handoff') || 'a person must do this', opts.note_chars) : null,
      submit: el.hasAttribute('data-agent-submit'),
      input: inputSpec(el, kind, opts, withValue),
    };
  }

  // --- geometry ----------------------------------------------------------------------

  function inViewport(r, vw, vh) {
    return (r.width > 0 || r.height > 0) && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  }

  // Viewport membership of records in document order. Lists are laid out top to
  // bottom almost always, so a binary search finds the window with O(log n)
  // layout reads; 33 probes check that order first, else every record is read.
  function markViewport(list, vw, vh) {
    const n = list.length;
    const rectOf = (i) => list[i].el.getBoundingClientRect();
    let ordered = n > 64;
    if (ordered) {
      let prev = -Infinity;
      for (let k = 0; k <= 32; k++) {
        const top = rectOf(Math.floor((k * (n - 1)) / 32)).top;
        if (top < prev - 0.5) {
          ordered = false;
          break;
        }
        prev = top;
      }
    }
    if (!ordered) {
      for (let i = 0; i < n; i++) list[i].visible = inViewport(rectOf(i), vw, vh);
      return;
    }
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (rectOf(mid).bottom > 0) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < n; i++) {
      const r = rectOf(i);
      if (r.top >= vh) break;
      list[i].visible = inViewport(r, vw, vh);
    }
  }

  // --- shadow roots (OB-11) ------------------------------------------------------------
  //
  // Declarations inside open shadow roots are collected like those of the light
  // DOM, in composed order (a shadow tree's content right after its host). Each
  // collect() and find() first lists the open shadow roots; when there are none
  // (almost every page) every query below is the plain DOM one, at no extra cost.

  // Every open shadow root (nested ones included) in document order, or null
  // when the page has more than `budget` elements to ask (hosts have no selector).
  // stats, when given, counts the custom elements without an open root (the usual
  // hosts of closed ones, OB-11) of a tree of at most stats.limit elements: the
  // check would double the cost of this walk on a large page.
  function openShadowRoots(budget, stats) {
    const roots = [];
    const search = (root) => {
      const all = root.querySelectorAll('*');
      budget -= all.length;
      if (budget < 0) return false;
      const check = !!stats && all.length <= stats.limit;
      for (let i = 0; i < all.length; i++) {
        const shadow = all[i].shadowRoot;
        if (shadow) {
          roots.push(shadow);
          if (!search(shadow)) return false;
        } else if (check && all[i].localName.includes('-')) {
          stats.components++;
        }
      }
      return true;
    };
    return search(document) ? roots : null;
  }

  // The hosts of the open shadow roots in use, by the tree (document or shadow
  // root) each host is in, in document order; null when there are none.
  let hostsIn = null;

  function useShadowRoots(roots) {
    hostsIn = null;
    if (!roots || !roots.length) return;
    hostsIn = new Map();
    for (const root of roots) {
      const tree = root.host.getRootNode();
      if (!hostsIn.has(tree)) hostsIn.set(tree, []);
      hostsIn.get(tree).push(root.host);
    }
  }

  // scope.querySelectorAll(selector), continued into the open shadow trees inside
  // scope (an element, the document or a shadow root), in composed order.
  function queryAll(scope, selector) {
    const hits = scope.querySelectorAll(selector);
    const element = scope.nodeType === Node.ELEMENT_NODE;
    const hosts = hostsIn && hostsIn.get(element ? scope.getRootNode() : scope);
    if (!hosts) return hits;
    const out = [];
    let i = 0;
    for (const h of hosts) {
      if (element && h !== scope && !scope.contains(h)) continue;
      while (i < hits.length && (hits[i] === h || h.compareDocumentPosition(hits[i]) & Node.DOCUMENT_POSITION_PRECEDING)) {
        out.push(hits[i++]);
      }
      for (const el of queryAll(h.shadowRoot, selector)) out.push(el);
    }
    while (i < hits.length) out.push(hits[i++]);
    return out;
  }

  // el.closest(selector), continued through the hosts of the shadow trees el is in.
  function closestAcross(el, selector) {
    for (let node = el; node;) {
      const hit = node.closest(selector);
      if (hit) return hit;
      node = node.getRootNode().host || null;
    }
    return null;
  }

  // closest() across shadow boundaries when the page has open shadow roots.
  const up = (el, selector) => (hostsIn ? closestAcross(el, selector) : el.closest(selector));

  // The parent element, or the host for the top element of a shadow tree.
  const parentAcross = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;

  // The data-agent-region values of the regions el is in, outermost first.
  function regionIds(el) {
    const out = [];
    for (let r = closestAcross(el, REGION); r; r = parentAcross(r) && closestAcross(parentAcross(r), REGION)) {
      out.unshift(String(r.getAttribute('data-agent-region')));
    }
    return out;
  }

  // outer.contains(el), across shadow boundaries.
  function containsAcross(outer, el) {
    for (let node = el; node; node = node.getRootNode().host || null) {
      if (outer.contains(node)) return true;
    }
    return false;
  }

  // el and the hosts of the shadow trees it is in, outermost first.
  function hostChain(el) {
    const chain = [el];
    for (let host = el.getRootNode().host; host; host = host.getRootNode().host) chain.unshift(host);
    return chain;
  }

  // Composed order of two elements: a host before its shadow tree's content.
  function composedCompare(a, b) {
    const x = hostChain(a);
    const y = hostChain(b);
    for (let i = 0; i < x.length && i < y.length; i++) {
      if (x[i] !== y[i]) return x[i].compareDocumentPosition(y[i]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    }
    return x.length - y.length;
  }

  // --- phase: page context (viewport, open modal, inert) -------------------------------

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

  function regionLabel(el, max) {
    const named = ariaName(el, max);
    if (named) return named;
    const own = el.getAttribute('data-agent-label');
    if (own) return clip(own, max);
    const h = el.querySelector('h1,h2,h3,h4,h5,h6,legend,caption');
    if (h) return textOf(h, max);
    return el.getAttribute('data-agent-region');
  }

  // Modal candidates, state and feedback elements are few: one walk of the
  // document finds all three, each list in document order.
  function fewElements() {
    const modal = [];
    const state = [];
    const feedback = [];
    for (const el of queryAll(document, `${MODAL},${STATE},${FEEDBACK}`)) {
      if (el.matches(MODAL)) modal.push(el);
      if (el.matches(STATE)) state.push(el);
      if (el.matches(FEEDBACK)) feedback.push(el);
    }
    return { modal, state, feedback };
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

  // What every later phase reads: the options, the viewport, the open modal.
  function pageContext(opts) {
    const stats = { limit: opts.closed_scan, components: 0 };
    const shadowRoots = openShadowRoots(opts.shadow_scan, stats);
    useShadowRoots(shadowRoots);
    const few = fewElements();
    const [modal, hasInert] = modalAndInert(few.modal);
    return {
      opts, few, modal, hasInert, vw: window.innerWidth, vh: window.innerHeight, warnings: [],
      shadowRoots, stats,
      covered: (el) => !!modal && !containsAcross(modal, el) && !containsAcross(el, modal),
      modalLabel: modal ? regionLabel(modal, opts.name_chars) : null,
    };
  }

  // --- phase: regions ------------------------------------------------------------------

  function regionState(ctx, el, parent) {
    let state = 'active';
    if (!el.checkVisibility(VIS)) state = 'hidden';
    else if (ctx.hasInert && up(el, '[inert]')) state = 'inert';
    else if (ctx.covered(el)) state = 'covered';
    if (parent && parent.state !== 'active' && parent.state !== 'covered') state = parent.state;
    return state;
  }

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
  function collectRegions(ctx) {
    const opts = ctx.opts;
    const els = queryAll(document, REGION);
    const info = new Map();
    const list = [];
    for (const el of els) {
      const id = clip(el.getAttribute('data-agent-region'), opts.name_chars) || 'region';
      const p = parentAcross(el);
      const parentEl = p && up(p, REGION);
      const parent = parentEl ? info.get(parentEl) : null;
      const state = regionState(ctx, el, parent);
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
    const of = (el) => {
      const r = closestAcross(el, REGION);
      return r ? info.get(r) : null;
    };
    return { els, info, list, byPath, of };
  }

  // --- phase: records ------------------------------------------------------------------

  // Records: ids, activity and viewport membership for all; details later.
  // Records that share a parent share their region and whether they sit inside
  // another record, so both come from one closest() per distinct parent.
  function indexRecords(ctx, R) {
    const opts = ctx.opts;
    const D = {
      els: queryAll(document, RECORD), info: new Map(), ids: [], active: [], viewport: [], uncounted: [],
      inactive: 0, hidden: 0, refused: 0, duplicates: new Set(), holders: new Set(), nested: false, regionOf: null,
    };
    const refuse = new RegExp(opts.refused_record_id, 'i');
    const parentFacts = new Map();
    D.regionOf = (el) => {
      const p = parentAcross(el);
      if (!p) return null;
      let f = parentFacts.get(p);
      if (!f) {
        const r = up(p, REGION);
        f = [r ? R.info.get(r) : null, !!up(p, RECORD)];
        if (f[1]) D.nested = true;
        parentFacts.set(p, f);
      }
      return f[0];
    };
    let inertSet = null;
    if (ctx.hasInert) {
      inertSet = hostsIn ? new Set(Array.from(D.els).filter((el) => closestAcross(el, '[inert]')))
        : new Set(document.querySelectorAll('[inert] ' + RECORD + ',[inert]' + RECORD));
    }
    const seen = new Set();
    for (const el of D.els) {
      const raw = el.getAttribute('data-agent-record');
      const region = D.regionOf(el);
      // OB-10: an id is cited and enumerated verbatim, so one that could break a
      // line or a fence is refused (its row is left out, with a warning).
      if (refuse.test(raw)) {
        D.refused++;
        D.uncounted.push(el);
        continue;
      }
      const id = raw.length > opts.record_id_chars ? clip(raw, opts.record_id_chars) : raw;
      // Regions holding records, ordered as the per-region walks used to find them.
      if (region) D.holders.add(region);
      if (seen.has(id)) {
        D.duplicates.add(id);
        D.uncounted.push(el);
        continue;
      }
      seen.add(id);
      const inRegion = !region || region.state === 'active' || region.state === 'covered';
      let active = inRegion && el.checkVisibility(ROW_VIS);
      if (active && inertSet && inertSet.has(el)) active = false;
      const info = { id, region, active, visible: false, covered: active && !!ctx.modal && ctx.covered(el), full: null, el };
      D.info.set(el, info);
      if (!active) {
        D.uncounted.push(el);
        if (inRegion) D.hidden++;
        else D.inactive++;
        continue;
      }
      if (region && region.out) region.out.records_total++;
      D.ids.push(id);
      D.active.push(info);
    }
    return D;
  }

  // Viewport membership; rows without a box (zero area, content skipped) are
  // hidden: all rows of a short list are checked, of a long one those in view.
  function markRecordViewport(ctx, D) {
    markViewport(D.active, ctx.vw, ctx.vh);
    const all = D.active.length <= ctx.opts.row_box_checks;
    let demoted = 0;
    for (const info of D.active) {
      if ((all || info.visible) && !rowHasBox(info.el)) {
        info.active = false;
        info.visible = false;
        demoted++;
        D.uncounted.push(info.el);
        if (info.region && info.region.out) info.region.out.records_total--;
      }
    }
    if (demoted) {
      D.hidden += demoted;
      D.active = D.active.filter((info) => info.active);
      D.ids = D.active.map((info) => info.id);
    }
    for (const info of D.active) {
      if (!info.visible) continue;
      D.viewport.push(info.id);
      if (info.region && info.region.out) info.region.out.records_visible++;
    }
    if (D.refused) {
      ctx.warnings.push(`${D.refused} records were left out: their ids hold control characters, line breaks or ` +
        'fence text, so they cannot be cited or acted on');
    }
    if (D.duplicates.size) {
      const some = Array.from(D.duplicates).slice(0, 10).join(', ');
      ctx.warnings.push(
        `duplicate record ids (only the first element of each is used): ${some}${D.duplicates.size > 10 ? ', …' : ''}`);
    }
  }

  // The records collected in full: requested ids, then those in the viewport
  // (the seed: offscreen rows are ids only). Marks each chosen info.full = true.
  function chooseFullRecords(ctx, D) {
    const opts = ctx.opts;
    const chosen = [];
    const byId = new Map();
    for (const [el, info] of D.info) byId.set(info.id, [el, info]);
    for (const id of opts.include) {
      const hit = byId.get(id);
      if (hit && !hit[1].full) {
        hit[1].full = true;
        chosen.push(hit);
      }
    }
    let picked = 0;
    for (const [el, info] of D.info) {
      if (picked >= opts.full_records) break;
      if (!info.full && info.active && info.visible) {
        info.full = true;
        picked++;
        chosen.push([el, info]);
      }
    }
    return chosen;
  }

  // Fields and label of each chosen record; info.full becomes its snapshot entry.
  function recordDetails(ctx, chosen) {
    const opts = ctx.opts;
    const records = [];
    for (const [el, info] of chosen) {
      const fields = {};
      let firstText = '';
      for (const f of queryAll(el, '[data-agent-field]')) {
        if (up(f, RECORD) !== el) continue;
        const name = clip(f.getAttribute('data-agent-field'), opts.name_chars);
        if (name in fields) continue;
        const v = fieldValue(f, opts);
        fields[name] = v;
        if (!firstText && typeof v === 'string' && v && v !== MASK) firstText = v;
      }
      const label = el.getAttribute('data-agent-label') || el.getAttribute('aria-label') || firstText;
      info.full = {
        id: info.id, label: clip(label, opts.label_chars), region: info.region ? info.region.id : null,
        in_viewport: info.visible, fields, actions: {},
      };
      records.push(info.full);
    }
    return records;
  }

  // --- phase: actions and folding ------------------------------------------------------

  // Page actions and blocked row actions are disjoint and few: one walk finds both.
  function actionElements(ctx, R, D) {
    if (hostsIn) return actionElementsAcross(ctx);
    const PAGE_ACTION = `${ACTION}:not(${RECORD} *)`;
    const pageEls = [];
    const rowBlockedEls = [];
    for (const el of document.querySelectorAll(
      `${PAGE_ACTION},${RECORD} ${ACTION}:is(:disabled,[aria-disabled="true"],[data-agent-unavailable])`)) {
      if (el.matches(PAGE_ACTION)) pageEls.push(el);
      else rowBlockedEls.push(el);
    }
    let nested = D.nested;
    for (const el of R.els) {
      if (nested) break;
      nested = !!(el.parentElement && el.parentElement.closest(RECORD));
    }
    return {
      pageEls, nested, rowBlocked: new Set(rowBlockedEls),
      rowInert: ctx.hasInert
        ? new Set(document.querySelectorAll(`[inert] ${RECORD} ${ACTION},${RECORD} [inert] ${ACTION},${RECORD} ${ACTION}[inert]`))
        : null,
    };
  }

  // actionElements on a page with open shadow roots: descendant selectors stop at
  // shadow boundaries, so each action asks for its record, and row actions are
  // folded by visiting each (foldEach).
  function actionElementsAcross(ctx) {
    const pageEls = [];
    const rowBlocked = new Set();
    const rowInert = ctx.hasInert ? new Set() : null;
    for (const el of queryAll(document, ACTION)) {
      if (!closestAcross(el, RECORD)) pageEls.push(el);
      else if (el.matches(':disabled,[aria-disabled="true"],[data-agent-unavailable]')) rowBlocked.add(el);
      else if (rowInert && closestAcross(el, '[inert]')) rowInert.add(el);
    }
    return { pageEls, nested: true, rowBlocked, rowInert };
  }

  // The fold's working state: groups by (name, region path) key, in creation order.
  function newFold(ctx, R, D, A) {
    return { ctx, opts: ctx.opts, R, D, A, groups: new Map(), list: [] };
  }

  const groupKey = (name, region) => (region ? name + SEP + region.path.join(SEP) : name);

  function rowReason(F, el, rec) {
    let reason = null;
    if (F.A.rowBlocked.has(el)) {
      reason = el.getAttribute('data-agent-unavailable') || 'disabled';
    } else if (F.A.rowInert && F.A.rowInert.has(el)) {
      reason = 'inert';
    } else if (rec.covered) {
      reason = `behind the open dialog "${F.ctx.modalLabel}"`;
    } else if (rec.full && !el.checkVisibility(VIS)) {
      reason = 'hidden';
    }
    const max = F.opts.label_chars;
    return reason && reason.length > max ? clip(reason, max) : reason;
  }

  function newGroup(F, el, name, region) {
    const g = Object.assign(actionDeclaration(el, name, kindOf(el), F.opts, false), {
      region: region ? region.id : null, region_path: region ? region.path : [],
      rows: 0, available: 0, offscreen: 0, visible: 0, sample: [], available_ids: [], reasons: {},
      order: 0, first: el,
    });
    F.list.push(g);
    return g;
  }

  function actionName(F, raw) {
    const max = F.opts.action_name_chars;
    return raw.length > max ? clip(raw, max) : raw;
  }

  function countRowAction(F, g, rec, region, reason) {
    g.rows++;
    if (rec.visible) g.visible++;
    else g.offscreen++;
    if (region && region.out) {
      region.out.actions_total++;
      if (rec.visible) region.out.actions_visible++;
    }
    if (reason) {
      g.reasons[reason] = (g.reasons[reason] || 0) + 1;
    } else {
      g.available++;
      if (g.sample.length < F.opts.sample) g.sample.push(rec.id);
      if (g.available_ids && g.available_ids.length <= F.opts.enum_limit) g.available_ids.push(rec.id);
    }
  }

  // With nested records or regions inside records: every row action is visited.
  function foldEach(F) {
    for (const [recEl, rec] of F.D.info) {
      if (!rec.active) continue;
      for (const el of queryAll(recEl, ACTION)) {
        let region = rec.region;
        if (F.A.nested) {
          const owner = up(el, RECORD + ',' + REGION);
          if (owner !== recEl && owner.hasAttribute('data-agent-record')) continue; // a nested record's own
          if (owner !== recEl) region = F.R.info.get(owner);
        }
        const raw = el.getAttribute('data-agent-action');
        const name = raw.length > F.opts.action_name_chars ? clip(raw, F.opts.action_name_chars) : (raw || 'action');
        const key = groupKey(name, region);
        let g = F.groups.get(key);
        if (!g) {
          g = newGroup(F, el, name, region);
          F.groups.set(key, g);
        }
        const reason = rowReason(F, el, rec);
        countRowAction(F, g, rec, region, reason);
        if (rec.full) rec.full.actions[name] = reason ? { available: false, reason } : { available: true };
      }
    }
  }

  // Without nested records, rows are counted per (name, region) by native queries;
  // only rows that are unavailable, visible, inactive or shown in full are visited.
  function foldByQuery(F) {
    const scopes = foldScopes(F);
    const [names, totals] = rowActionNames(F, scopes);
    seedGroups(F, scopes, names, totals);
    discountInactiveRows(F);
    const marked = markBlockedRows(F);
    visitShownRows(F, marked);
    for (const g of F.list) finishGroup(F, g, marked);
  }

  // Regions holding records, each with its nearest holding ancestor, and the
  // scopes counted: those regions, plus the document when some records sit
  // outside every region. Sets F.parentHolder and F.outside.
  function foldScopes(F) {
    const holders = new Set(Array.from(F.D.holders).sort((a, b) => a.root.index - b.root.index));
    const parentHolder = new Map();
    for (const h of holders) {
      let p = null;
      for (let i = h.path.length - 2; i >= 0 && !p; i--) {
        for (const o of holders) if (o.path.length === i + 1 && o.path.every((x, j) => x === h.path[j])) p = o;
      }
      parentHolder.set(h, p);
    }
    let outside = false;
    for (const rec of F.D.info.values()) if (!rec.region) { outside = true; break; }
    const scopes = outside ? [[null, document]] : [];
    for (const [el, info] of F.R.info) if (holders.has(info)) scopes.push([info, el]);
    F.parentHolder = parentHolder;
    F.outside = outside;
    return scopes;
  }

  // Names: those of the first rows, then one walk per name not seen there,
  // needed only when the known names do not account for every row action.
  // Returns the names and, per name, per scope, [row count, first element].
  function rowActionNames(F, scopes) {
    const names = [];
    const known = new Set();
    let nots = '';
    const learn = (name) => {
      if (known.has(name)) return;
      known.add(name);
      names.push(name);
      nots += `:not([data-agent-action="${CSS.escape(name)}"])`;
    };
    const totals = new Map();
    let counted = 0;
    const countNames = () => {
      for (let i = totals.size; i < names.length; i++) {
        const sel = `${RECORD} [data-agent-action="${CSS.escape(names[i])}"]`;
        const total = new Map();
        for (const [info, el] of scopes) {
          const list = el.querySelectorAll(sel);
          total.set(info, [list.length, list[0]]);
          // Top scopes are disjoint and hold every record, so they count each row action once.
          if (F.outside ? !info : F.parentHolder.get(info) === null) counted += list.length;
        }
        totals.set(names[i], total);
      }
    };
    let looked = 0;
    for (const recEl of F.D.info.keys()) {
      if (++looked > F.opts.name_scan) break;
      for (const a of recEl.querySelectorAll(ACTION)) learn(a.getAttribute('data-agent-action'));
    }
    countNames();
    const limit = F.opts.max_row_names;
    if (names.length < limit && counted < document.querySelectorAll(ACTION).length - F.A.pageEls.length) {
      while (names.length < limit) {
        const el = document.querySelector(`${RECORD} ${ACTION}${nots}`);
        if (!el) break;
        learn(el.getAttribute('data-agent-action'));
      }
      countNames();
    }
    return [names, totals];
  }

  // One group per (name, scope) with the rows that scope holds itself (not its
  // holding descendants); every row starts counted as available.
  function seedGroups(F, scopes, names, totals) {
    for (const name of names) {
      const total = totals.get(name);
      for (const [info] of scopes) {
        let own = total.get(info)[0];
        for (const [c] of scopes) {
          if (c && F.parentHolder.get(c) === info) own -= total.get(c)[0];
        }
        if (own <= 0) continue;
        const first = scopes.length > 1 ? firstActiveRowAction(F, info, name) : total.get(info)[1];
        if (!first) continue;
        const g = newGroup(F, first, actionName(F, name), info);
        g.rows = own;
        g.available = own;
        F.groups.set(groupKey(name, info), g);
      }
    }
  }

  function firstActiveRowAction(F, info, name) {
    for (const [recEl, rec] of F.D.info) {
      if (rec.region === info && rec.active) {
        const first = recEl.querySelector(`[data-agent-action="${CSS.escape(name)}"]`);
        if (first) return first;
      }
    }
    return null;
  }

  const groupOf = (F, el, region) => F.groups.get(groupKey(el.getAttribute('data-agent-action'), region));

  // Rows that do not count: inactive records, refused and duplicate ids (the
  // few indexRecords and markRecordViewport set aside, not every record).
  function discountInactiveRows(F) {
    for (const el of F.D.uncounted) {
      const rec = F.D.info.get(el);
      for (const a of el.querySelectorAll(ACTION)) {
        const g = groupOf(F, a, rec ? rec.region : F.D.regionOf(el));
        if (g) { g.rows--; g.available--; }
      }
    }
  }

  function unavailable(F, el, rec, reason) {
    const g = groupOf(F, el, rec.region);
    if (!g) return;
    g.available--;
    g.reasons[reason] = (g.reasons[reason] || 0) + 1;
  }

  // Disabled, declared-unavailable and inert row actions of active records.
  function markBlockedRows(F) {
    const marked = new Set();
    for (const el of F.A.rowBlocked) {
      const rec = F.D.info.get(el.closest(RECORD));
      if (!rec || !rec.active) continue;
      marked.add(el);
      unavailable(F, el, rec, rowReason(F, el, rec));
    }
    if (F.A.rowInert) {
      for (const el of F.A.rowInert) {
        const rec = F.D.info.get(el.closest(RECORD));
        if (!rec || !rec.active || marked.has(el)) continue;
        marked.add(el);
        unavailable(F, el, rec, 'inert');
      }
    }
    return marked;
  }

  // Visible, covered and full records: viewport counts, covered reasons and the
  // per-record action states shown with full records.
  function visitShownRows(F, marked) {
    for (const [recEl, rec] of F.D.info) {
      if (!rec.active || !(rec.visible || rec.covered || rec.full)) continue;
      for (const el of recEl.querySelectorAll(ACTION)) {
        const g = groupOf(F, el, rec.region);
        if (!g) continue;
        if (rec.visible) g.visible++;
        const reason = marked.has(el) ? rowReason(F, el, rec) : (rec.covered || rec.full ? rowReason(F, el, rec) : null);
        if (reason && !marked.has(el)) unavailable(F, el, rec, reason);
        if (rec.full) rec.full.actions[g.name] = reason ? { available: false, reason } : { available: true };
      }
    }
  }

  // Offscreen count, region counts and sample ids: viewport rows first, then
  // document order, available rows only.
  function finishGroup(F, g, marked) {
    const opts = F.opts;
    g.offscreen = g.rows - g.visible;
    const region = g.region_path.length ? F.R.byPath.get(g.region_path.join(SEP)) : null;
    if (region && region.out) {
      region.out.actions_total += g.rows;
      region.out.actions_visible += g.visible;
    }
    const sel = `[data-agent-action="${CSS.escape(g.name)}"]`;
    const want = Math.max(opts.sample, g.available <= opts.enum_limit ? g.available : 0);
    let budget = opts.sample_scan; // rows examined for samples: bounded even when few rows qualify
    const pick = (pred) => {
      for (const [recEl, rec] of F.D.info) {
        if (g.available_ids.length >= want || --budget < 0) return;
        if (!rec.active || rec.region !== region || !pred(rec) || g.available_ids.includes(rec.id)) continue;
        const el = recEl.querySelector(sel);
        if (el && !marked.has(el) && !(rec.covered)) g.available_ids.push(rec.id);
      }
    };
    pick((r) => r.visible);
    pick(() => true);
    g.sample = g.available_ids.slice(0, opts.sample);
    if (g.available > opts.enum_limit) g.available_ids = null;
  }

  // Row actions folded per (name, region path); empty groups dropped.
  function foldRowActions(F) {
    if (F.A.nested) foldEach(F);
    else foldByQuery(F);
    const list = F.list;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i].rows <= 0) list.splice(i, 1);
    }
    for (const g of list) {
      if (g.available_ids && g.available_ids.length > F.opts.enum_limit) g.available_ids = null;
    }
    return list;
  }

  function pageActionReason(ctx, el, kind, shown) {
    let reason = el.getAttribute('data-agent-unavailable');
    if (!reason && (el.disabled === true || el.matches(':disabled'))) reason = 'disabled';
    if (!reason && el.getAttribute('aria-disabled') === 'true') reason = 'disabled';
    if (!reason && ctx.hasInert && up(el, '[inert]')) reason = 'inert';
    if (!reason && !shown) reason = 'hidden';
    if (!reason && ctx.covered(el)) reason = `behind the open dialog "${ctx.modalLabel}"`;
    if (!reason && kind === 'type' && el.readOnly) reason = 'read-only';
    return reason;
  }

  // Page-level actions in full, each with its ordinal among same-named actions
  // of its region; returns [entries, their elements].
  function collectPageActions(ctx, R, A) {
    const opts = ctx.opts;
    const list = [];
    const els = [];
    const ordinals = new Map();
    for (const el of A.pageEls) {
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
      const kind = kindOf(el);
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
  function orderActions(pageActions, pageEls, groupList) {
    const entries = pageActions.map((a, i) => [pageEls[i], a]).concat(groupList.map((g) => [g.first, g]));
    const before = (a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
    entries.sort((x, y) => (x[0] === y[0] ? 0 : hostsIn ? composedCompare(x[0], y[0]) : before(x[0], y[0])));
    entries.forEach((e, i) => { e[1].order = i; });
    for (const g of groupList) delete g.first;
  }

  // --- phase: state --------------------------------------------------------------------

  function stateValue(el, opts) {
    if (isSensitive(el)) return MASK;
    if (el.hasAttribute('data-agent-value')) return parseJson(el.getAttribute('data-agent-value'));
    if (el.tagName === 'SCRIPT') return parseJson(el.textContent);
    const script = el.querySelector('script[type="application/json"]');
    if (script) return parseJson(script.textContent);
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) return fieldValue(el, opts);
    return textOf(el, opts.max_string);
  }

  function collectState(ctx, R) {
    const opts = ctx.opts;
    const state = [];
    for (const el of ctx.few.state) {
      if (state.length >= opts.max_state) break;
      const region = R.of(el);
      state.push({
        name: clip(el.getAttribute('data-agent-state'), opts.name_chars),
        value: prune(stateValue(el, opts), 0, opts),
        description: clip(el.getAttribute('data-agent-description') || '', opts.label_chars),
        region: region ? region.id : null,
      });
    }
    return state;
  }

  // --- phase: feedback -----------------------------------------------------------------

  const fieldNameOf = (el, opts) => el.getAttribute('data-agent-action') || el.getAttribute('data-agent-field') ||
    el.getAttribute('name') || accessibleName(el, opts.name_chars) || null;

  // Messages name their field through the invalid control that points at them.
  function describedByMap(feedbackEls) {
    const describedBy = new Map();
    for (const el of feedbackEls) {
      if (el.getAttribute('aria-invalid') !== 'true') continue;
      for (const attr of ['aria-errormessage', 'aria-describedby']) {
        for (const id of (el.getAttribute(attr) || '').split(/\s+/)) if (id) describedBy.set(id, el);
      }
    }
    return describedBy;
  }

  // One feedback item {level, source, message, field} of el, or null when hidden.
  function feedbackItem(el, opts, describedBy) {
    if (el.getAttribute('aria-invalid') === 'true') {
      const tree = el.getRootNode();
      const message = byIdText(el.getAttribute('aria-errormessage'), opts.max_string, tree) ||
        byIdText(el.getAttribute('aria-describedby'), opts.max_string, tree) ||
        (el.validationMessage ? clip(el.validationMessage, opts.max_string) : 'invalid value');
      const field = fieldNameOf(el, opts);
      if (!el.checkVisibility(VIS)) return null;
      return { level: 'error', source: 'invalid', message, field };
    }
    if (!el.checkVisibility(VIS)) return null;
    const declared = el.getAttribute('data-agent-feedback');
    const role = el.getAttribute('role');
    const source = declared ? 'declared' : (role === 'alert' ? 'alert' : 'status');
    const level = declared && /^(error|warning|info)$/.test(declared) ? declared : (role === 'alert' ? 'error' : 'info');
    const message = isSensitive(el) ? MASK : textOf(el, opts.max_string);
    let field = null;
    const f = el.getAttribute('data-agent-for');
    if (f) field = clip(f, opts.name_chars);
    else if (el.id && describedBy.has(el.id)) field = fieldNameOf(describedBy.get(el.id), opts);
    return { level, source, message, field };
  }

  // Declared feedback, live regions, invalid fields with their messages; returns [items, total].
  function collectFeedback(ctx, R) {
    const opts = ctx.opts;
    const feedback = [];
    let total = 0;
    const seen = new Set();
    const describedBy = describedByMap(ctx.few.feedback);
    for (const el of ctx.few.feedback) {
      const item = feedbackItem(el, opts, describedBy);
      if (!item || !item.message) continue;
      const key = item.message + SEP + (item.field || '');
      if (seen.has(key)) continue;
      seen.add(key);
      total++;
      if (feedback.length >= opts.max_feedback) continue;
      const region = R.of(el);
      feedback.push({
        level: item.level, message: item.message, field: item.field ? clip(item.field, opts.name_chars) : null,
        region_path: region ? region.path : [], source: item.source,
      });
    }
    return [feedback, total];
  }

  // --- phase: identity -----------------------------------------------------------------

  // Identity: never the full URL.
  function collectIdentity(opts) {
    const meta = (name) => {
      // Head only: a missing meta must not cost a walk of a large body.
      const m = document.head && document.head.querySelector(`meta[name="${name}"]`);
      return m ? m.getAttribute('content') : null;
    };
    const query = {};
    const allowed = (meta('agent-query') || '').split(',').map((s) => s.trim()).filter(Boolean);
    const params = new URLSearchParams(location.search);
    for (const k of allowed) if (params.has(k)) query[clip(k, opts.name_chars)] = clip(params.get(k), opts.label_chars);
    const routeParams = meta('agent-route-params');
    const identity = {
      title: clip(document.title, opts.note_chars), path: clip(location.pathname, opts.note_chars),
      route: meta('agent-route') ? clip(meta('agent-route'), opts.action_name_chars) : null,
      route_params: routeParams ? prune(parseJson(routeParams), 0, opts) : {},
      query,
    };
    if (typeof identity.route_params !== 'object' || Array.isArray(identity.route_params) || identity.route_params === null) {
      identity.route_params = {};
    }
    return identity;
  }

  // --- frames (OB-11) -------------------------------------------------------------------
  //
  // Each frame's document is collected by its own copy of this script (Python
  // merges the snapshots); a frame's owner element, asked here, tells where its
  // content goes and where it is drawn.

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

  // --- collect ---------------------------------------------------------------------------

  function collect(optionsJson) {
    const t0 = now();
    const ctx = pageContext(JSON.parse(optionsJson));
    const R = collectRegions(ctx);
    const D = indexRecords(ctx, R);
    markRecordViewport(ctx, D);
    const records = recordDetails(ctx, chooseFullRecords(ctx, D));
    const A = actionElements(ctx, R, D);
    const groupList = foldRowActions(newFold(ctx, R, D, A));
    const [pageActions, pageEls] = collectPageActions(ctx, R, A);
    orderActions(pageActions, pageEls, groupList);
    const state = collectState(ctx, R);
    const [feedback, feedbackTotal] = collectFeedback(ctx, R);
    const identity = collectIdentity(ctx.opts);
    lastShadowRoots = ctx.shadowRoots;
    return JSON.stringify({
      identity, regions: R.list, regions_total: R.els.length,
      actions: pageActions, actions_total: A.pageEls.length, row_actions: groupList,
      records,
      record_index: {
        ids: D.ids, viewport: D.viewport, inactive: D.inactive, hidden: D.hidden, duplicates: Array.from(D.duplicates),
      },
      state, state_total: ctx.few.state.length, feedback, feedback_total: feedbackTotal,
      modal: ctx.modalLabel, warnings: ctx.warnings, unseen: {
        shadow_searched: !!ctx.shadowRoots, components: ctx.stats.components,
      },
      collect_ms: now() - t0,
    });
  }

  // OB-6 settle measures instead of waiting. From the document's start this world
  // notes when the page last moved (a DOM mutation, a scroll, a load), so a page that
  // has been still for quietMs settles after one task, in a few milliseconds.
  // Quietness is judged at each check's *due* time, not the time it ran: page
  // timers due earlier have run before the check (one timer queue), so a renderer
  // the OS stalled cannot pass for a still page.
  let lastMove = now();
  const moved = () => { lastMove = now(); };
  new MutationObserver(moved).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
  addEventListener('scroll', moved, true);
  // Pages start rendering from their load handlers: the moment of load (and of
  // every resource load, caught on the way down) counts as a move.
  addEventListener('load', moved, true);

  function busyAnimations() {
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running') continue;
      const end = a.effect && a.effect.getComputedTiming().endTime;
      if (Number.isFinite(end)) return true; // infinite spinners never settle; ignore them
    }
    return false;
  }

  // Resolve once the document is loaded, nothing moved for quietMs and no finite
  // animation runs; at timeoutMs resolve anyway with the reason it did not settle.
  // With fresh (right after an input) the quiet window starts now: what the input
  // set off may begin a little later, so past stillness proves nothing.
  function settle(quietMs, timeoutMs, fresh) {
    const start = now();
    const period = Math.max(5, Math.min(quietMs, 25));
    return new Promise((resolve) => {
      const check = (due) => {
        const t = now();
        const still = due - (fresh ? Math.max(lastMove, start) : lastMove) >= quietMs;
        if (document.readyState === 'complete' && still && !busyAnimations()) {
          resolve({ settled: true, waited_ms: t - start, reason: null });
          return;
        }
        if (t - start >= timeoutMs) {
          const why = document.readyState !== 'complete' ? 'document still loading'
            : !still ? 'page kept changing' : 'animations still running';
          resolve({ settled: false, waited_ms: t - start, reason: why });
          return;
        }
        const next = now() + period;
        setTimeout(() => check(next), period);
      };
      const first = now();
      setTimeout(() => check(first), 0);
    });
  }

  // The open shadow roots of the last collect(): acting collects a snapshot just
  // before it finds its element, so a second walk of a large page is spared.
  let lastShadowRoots = null;

  // OB-7 helper for acting: the element an ActionLocator names, or null. Elements
  // are visited in the collector's order, so an ordinal means the same element.
  function find(locator) {
    const fresh = !lastShadowRoots || lastShadowRoots.some((r) => !r.host.isConnected);
    useShadowRoots(fresh ? openShadowRoots(Infinity) : lastShadowRoots);
    const name = String(locator.name);
    const path = (locator.region_path || []).join(SEP);
    const sel = `[data-agent-action="${CSS.escape(name)}"]`;
    const pathOf = (el) => regionIds(el).join(SEP);
    if (locator.record != null) {
      for (const rec of queryAll(document, `[data-agent-record="${CSS.escape(String(locator.record))}"]`)) {
        for (const el of queryAll(rec, sel)) if (up(el, RECORD) === rec) return el;
        return null; // only the first element of a duplicate id is addressable
      }
      return null;
    }
    let n = 0;
    for (const el of queryAll(document, sel)) {
      if (up(el, RECORD) || pathOf(el) !== path) continue;
      if (n++ === (locator.ordinal || 0)) return el;
    }
    return null;
  }

  Object.defineProperty(globalThis, '__cdpagentObserve', {
    value: Object.freeze({
      collect, settle, find, frameOwner, isSensitive, rowShown, inputSpec, fieldValue, closestAcross, containsAcross,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
