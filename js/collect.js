// cdpagent observation collector (SPEC OB-1, OB-2, OB-5, OB-6).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the isolated world
// "cdpagent-observe", so page scripts can neither see nor patch it. It defines
// globalThis.__cdpagentObserve with:
//
//   collect(optionsJson, fresh, have) -> string   one JSON snapshot (cdpagent.snapshot.model.Snapshot;
//       fresh: drop the index first; have: the token of the snapshot the caller holds)
//   settle(quietMs, timeoutMs, fresh, shadowScan) -> Promise<{settled, waited_ms, reason}>
//       (shadowScan: the element budget of the search for open shadow roots)
//   find(locator) -> Element | null  the element of an ActionLocator, for acting
//   phases() -> string   JSON {phase: ms} of the last collect (bench/observe.py)
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
// Cost follows what changed: the index (see "the index" below) keeps what the DOM
// and style decide between calls; fields and per-row action state are read only
// for the records that will be shown in full.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const {
    MASK, VIS, squash, clip, cutLong, textOf, byIdText, ariaName, accessibleName, isSensitive, inViewport,
    closestAcross, containsAcross,
  } = P;
  const ACTION = '[data-agent-action]';
  const RECORD = '[data-agent-record]';
  const REGION = '[data-agent-region]';
  const FEEDBACK = '[data-agent-feedback],[role="alert"],[role="status"],[aria-invalid="true"]';
  const MODAL = 'dialog,[aria-modal="true"],[inert]';
  const STATE = '[data-agent-state]';
  const SEP = '\u0000';
  const now = () => performance.now();
  // A row nobody can see is hidden, also when only its opacity says so; a control
  // may be transparent itself (a styled checkbox behind its label) and still work.
  const ROW_VIS = { visibilityProperty: true, opacityProperty: true };

  // --- strings (squash, clip, masking and names come from js/prelude.js) --------------

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
    if (declared && /^(click|type|select|check|hover|press|scroll|set|choose|upload)$/.test(declared)) return declared;
    const tag = el.tagName;
    if (tag === 'SELECT') return 'select';
    if (tag === 'TEXTAREA') return 'type';
    if (tag === 'INPUT') {
      if (/^(checkbox|radio)$/.test(el.type)) return 'check';
      if (el.type === 'range') return 'set';
      if (el.type === 'file') return 'upload'; // files: act(..., files=[paths])
      if (/^(button|submit|reset|image|color)$/.test(el.type)) return 'click';
      return 'type';
    }
    if (el.isContentEditable) return 'type';
    const role = el.getAttribute('role');
    if (role === 'checkbox' || role === 'switch' || role === 'radio') return 'check';
    if (role === 'slider') return 'set';
    if (role === 'radiogroup') return 'choose';
    if (role === 'textbox' || role === 'searchbox' || role === 'combobox') return 'type';
    return 'click';
  }

  // A choose group's spec: its radios' labels as options, the chosen one as value (js/act.js).
  function groupSpec(el, opts, withValue) {
    const group = globalThis.__cdpagentAct.groupOptions(el, opts.name_chars, opts.list_items);
    const spec = { input_type: 'radio', options: group.options };
    if (isSensitive(el)) spec.sensitive = true;
    if (withValue) spec.value = isSensitive(el) ? MASK : (group.value || '');
    return spec;
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
    if (kind === 'set' && el.tagName !== 'INPUT') return ['value', clip(el.getAttribute('aria-valuenow') || '', opts.bound_chars)];
    if (el.tagName === 'SELECT') {
      const o = el.selectedOptions && el.selectedOptions[0];
      return ['value', sensitive ? MASK : (o ? clip(o.label || o.text, opts.name_chars) : '')];
    }
    if ('value' in el) return ['value', sensitive ? (el.value ? MASK : '') : clip(el.value, opts.max_string)];
    if (el.isContentEditable) return ['value', sensitive ? MASK : textOf(el, opts.max_string)];
    return null;
  }

  // files: what an upload takes, in words (the tool's `files` description).
  function fileDoc(el, opts) {
    const input = el.tagName === 'INPUT' ? el : el.querySelector('input[type=file]');
    const several = input && input.multiple;
    const accept = input && input.accept ? `; accepts ${clip(input.accept, opts.label_chars)}` : '';
    return (several ? 'one or more files' : 'one file') + accept;
  }

  function inputSpec(el, kind, opts, withValue) {
    if (kind === 'click' || kind === 'hover' || kind === 'press' || kind === 'scroll') return null;
    if (kind === 'choose') return groupSpec(el, opts, withValue);
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
      const v = el.getAttribute(kind === 'set' && el.tagName !== 'INPUT' ? `aria-value${k}` : k);
      if (v) spec[k] = clip(v, opts.bound_chars);
    }
    if (el.maxLength > 0) spec.maxlength = el.maxLength;
    if (el.minLength > 0) spec.minlength = el.minLength;
    // A sensitive select's options would tell its value: never listed.
    if (el.tagName === 'SELECT' && !sensitive) spec.options = selectOptions(el, opts);
    if (kind === 'upload') { // files
      if (!spec.doc) spec.doc = fileDoc(el, opts);
      const input = el.tagName === 'INPUT' ? el : el.querySelector('input[type=file]');
      if (input && input.multiple) spec.multiple = true;
    }
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

  // --- shadow roots (OB-11) ------------------------------------------------------------
  //
  // Declarations inside open shadow roots are collected like those of the light
  // DOM, in composed order (a shadow tree's content right after its host). The
  // index (below) lists the open shadow roots when it is built and find() reuses
  // them; when there are none (almost every page) every query below is the plain
  // DOM one, at no extra cost.

  // Only these HTML elements can host a shadow root (DOM Standard, attachShadow;
  // declarative roots alike): article, aside, blockquote, body, div, footer, h1-h6,
  // header, main, nav, p, section, span and custom elements (names with a dash, not
  // selectable). So the search asks the complement of the other known names, most
  // frequent first: a table or list of 10,000 rows is skipped by one selector
  // instead of being asked element by element.
  const NO_HOST = ['td', 'tr', 'a', 'li', 'input', 'button', 'img', 'i', 'b', 'th', 'option', 'label', 'svg',
    'path', 'g', 'use', 'rect', 'circle', 'ul', 'ol', 'table', 'tbody', 'thead', 'tfoot', 'caption', 'col',
    'colgroup', 'select', 'optgroup', 'textarea', 'form', 'fieldset', 'legend', 'em', 'strong', 'small', 'code',
    'pre', 'br', 'hr', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'picture', 'source', 'video', 'audio', 'track',
    'canvas', 'iframe', 'embed', 'object', 'param', 'html', 'head', 'title', 'meta', 'link', 'style', 'script',
    'noscript', 'template', 'slot', 'abbr', 'address', 'area', 'map', 'bdi', 'bdo', 'cite', 'data', 'datalist',
    'del', 'ins', 'details', 'summary', 'dialog', 'dfn', 'kbd', 'mark', 'menu', 'meter', 'progress', 'output',
    'q', 'rp', 'rt', 'ruby', 's', 'samp', 'search', 'sub', 'sup', 'time', 'u', 'var', 'wbr', 'hgroup', 'base',
    'tt', 'big', 'center', 'font', 'nobr', 'strike', 'marquee', 'frame', 'frameset', 'noframes', 'acronym',
    'text', 'tspan', 'line', 'polyline', 'polygon', 'ellipse', 'defs', 'symbol', 'mask', 'pattern', 'image',
    'stop', 'desc', 'metadata', 'filter', 'marker', 'math', 'mi', 'mn', 'mo', 'mrow', 'msup', 'msub', 'mfrac',
    'msqrt', 'mtext', 'mspace'];
  const MAY_HOST = `:not(${NO_HOST.join(',')})`;

  // Every open shadow root (nested ones included) in document order, or null
  // when the page has more than `budget` elements (the elements of the trees
  // searched count, hosts or not). stats, when given, counts the custom elements
  // without an open root (the usual hosts of closed ones, OB-11) of a tree of at
  // most stats.limit elements, and notes the elements of the document
  // (stats.elements) and of the shadow trees searched.
  function openShadowRoots(budget, stats) {
    const roots = [];
    const search = (root) => {
      const size = (root === document ? document.getElementsByTagName('*') : root.querySelectorAll('*')).length;
      budget -= size;
      if (stats) stats[root === document ? 'elements' : 'shadowElements'] += size;
      if (budget < 0) return false;
      const check = !!stats && size <= stats.limit;
      const hosts = root.querySelectorAll(MAY_HOST);
      for (let i = 0; i < hosts.length; i++) {
        const shadow = hosts[i].shadowRoot;
        if (shadow) {
          roots.push(shadow);
          if (!search(shadow)) return false;
        } else if (check && hosts[i].localName.includes('-')) {
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
    // The facts of region element r (null: none), and of the region el is in.
    const at = (r) => (r ? info.get(r) : null);
    const of = (el) => at(closestAcross(el, REGION));
    return { els, info, list, byPath, at, of };
  }

  // --- the index (issue 12): what is kept between observations -------------------------
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

  // The clock of the running collect's phases (see phases()).
  let phase = () => {};

  const WATCH = { subtree: true, childList: true, attributes: true, characterData: true };
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
  // Properties whose animation can change which rows are rendered.
  const SHOWING = new Set(['opacity', 'visibility', 'display', 'contentVisibility', 'content-visibility']);

  let base = null; // the base tier, or null: build on the next collect
  let styled = null; // the style tier, or null: recompute
  let pending = [];
  // The records the last view marked in view or in full (the next view clears them).
  let viewed = [];

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

  // The style sheet lists of the index's trees (the document and its open shadow roots).
  function sheetLists(roots) {
    const lists = [document.styleSheets, document.adoptedStyleSheets];
    for (const root of roots || []) lists.push(root.styleSheets, root.adoptedStyleSheets);
    return lists;
  }

  // A sheet's rules, or null for another origin's sheet (the page cannot edit it either).
  function rulesOf(sheet) {
    try {
      return sheet.cssRules;
    } catch (_) {
      return null;
    }
  }

  // Rule counts of every style sheet the index's trees use: a rule added or removed
  // through the CSSOM changes style without a mutation.
  function sheetsPrint(roots) {
    let print = '';
    for (const sheets of sheetLists(roots)) {
      for (const sheet of sheets) {
        const rules = rulesOf(sheet);
        print += `${rules ? rules.length : -1}${sheet.disabled ? 'd' : ''},`;
      }
      print += '|';
    }
    return print;
  }

  // Selectors whose match at an element depends on its descendants or the pointer.
  const LOOKS_DOWN = /:has\(|:hover|:focus-within|:active|:target/;
  const HIDES = ['display', 'visibility', 'opacity', 'content-visibility'];

  // Whether no rule of the sheets can make a change inside a record hide or show a
  // record (see the style tier above); a sheet that cannot be read is not safe.
  function sheetsSafe(roots) {
    const safe = (rules) => {
      for (const rule of rules) {
        if (rule instanceof CSSContainerRule) return false;
        if (rule instanceof CSSStyleRule && LOOKS_DOWN.test(rule.selectorText) &&
          HIDES.some((p) => rule.style.getPropertyValue(p))) return false;
        if (rule.cssRules && !safe(rule.cssRules)) return false;
      }
      return true;
    };
    return everySheet(roots, safe);
  }

  // Whether every style sheet of the index's trees can be read and passes test(rules).
  function everySheet(roots, test) {
    for (const sheets of sheetLists(roots)) {
      for (const sheet of sheets) {
        const rules = rulesOf(sheet);
        if (!rules || !test(rules)) return false;
      }
    }
    return true;
  }

  // The state of every animation that can change which rows are rendered (its play
  // state and time): script animations (element.animate) fire no event and no
  // mutation, so a change of this text is what says they moved.
  function animationsPrint(shadowRoots) {
    let print = '';
    for (const a of showingAnimations(shadowRoots)) print += `${a.playState}@${a.currentTime},`;
    return print;
  }

  // The animations of properties that can change which rows are rendered, in the
  // document and in its open shadow roots (document.getAnimations() leaves those out).
  function showingAnimations(shadowRoots) {
    const all = document.getAnimations();
    for (const root of shadowRoots || []) all.push(...root.getAnimations());
    return all.filter((a) => a.effect && a.effect.getKeyframes &&
      a.effect.getKeyframes().some((frame) => Object.keys(frame).some((key) => SHOWING.has(key))));
  }

  const optionsKey = (opts) => JSON.stringify(Object.assign({}, opts, { include: null }));

  // The base tier from scratch (see above); starts watching the document and its open
  // shadow roots. reference: never count row actions by query (see tallyNative).
  function buildBase(opts, reference) {
    indexObserver.disconnect();
    pending = [];
    const stats = { limit: opts.closed_scan, budget: opts.shadow_scan, components: 0, elements: 0, shadowElements: 0 };
    const shadowRoots = openShadowRoots(opts.shadow_scan, stats);
    useShadowRoots(shadowRoots);
    indexObserver.observe(document, WATCH);
    for (const root of shadowRoots || []) indexObserver.observe(root, WATCH);
    phase('base: shadow roots');
    const few = fewElements();
    phase('base: few');
    const B = {
      key: optionsKey(opts), reference, shadowRoots, stats, few, hasInert: few.modal.some((d) => d.hasAttribute('inert')),
      regionEls: few.regions, recs: [], recOf: null, byId: new Map(), refused: 0,
      duplicates: new Set(), skipped: [], nested: !!hostsIn, flat: false, pageEls: null, undefinedEls: few.undefined,
      sheets: sheetsPrint(shadowRoots), sheetsSafe: sheetsSafe(shadowRoots), animations: animationsPrint(shadowRoots),
      dirty: new Set(), touched: new Set(),
    };
    phase('base: sheets');
   
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
      const id = cutLong(raw, opts.record_id_chars);
      if (B.byId.has(id)) {
        B.duplicates.add(id);
        B.skipped.push(el);
        continue;
      }
      const rec = {
        el, id, parent: p, regionEl: facts ? facts[0] : null, inert: false, acts: null,
        active: false, covered: false, visible: false, full: null,
      };
      B.recs.push(rec);
      B.byId.set(id, rec);
    }
   
    phase('base: records');
    for (const r of B.regionEls) {
      if (B.nested) break;
      const p = parentAcross(r);
      B.nested = !!(p && up(p, RECORD));
    }
    if (B.hasInert) for (const rec of B.recs) rec.inert = !!closestAcross(rec.el, '[inert]');
    B.flat = !reference && !B.nested && B.recs.every((rec) => rec.regionEl === B.recs[0].regionEl);
    B.pageEls = hostsIn ? queryAll(document, ACTION).filter((el) => !closestAcross(el, RECORD))
      : Array.from(document.querySelectorAll(`${ACTION}:not(${RECORD} *)`));
    return B;
  }

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

  // A record's row actions, read when first needed (see tallyNative).
  const actsOf = (B, rec, opts) => rec.acts || (rec.acts = recordActs(B, rec, opts));

  const isElement = (node) => node && node.nodeType === Node.ELEMENT_NODE;

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

  // --- phase: records ------------------------------------------------------------------

  // Which rows can be hidden, asked in bulk. A row is hidden only when it or an
  // element around it is matched by a declaration that can hide (display,
  // visibility, opacity, content-visibility with a value that may hide), by the
  // user agent's hiding rules, or has a style attribute, or when an animation of
  // those properties runs. hidingSelector() is that set of selectors, read from
  // the page's sheets, or null when a sheet cannot be read or decided (another
  // origin, CSS nesting, @scope, pseudo-elements, open shadow roots): then every
  // row is asked (checkVisibility), as from scratch.
  // (Elements inside replaced or fallback-content elements are not rendered either.)
  const UA_HIDES = ['[hidden]', '[style]', '[slot]', 'details:not([open])', 'dialog:not([open])', 'template',
    'noscript', 'datalist', 'rp', '[popover]', 'input[type="hidden"]', 'head', 'script', 'style', 'select',
    'canvas', 'video', 'audio', 'iframe', 'object', 'embed', 'picture', 'meter', 'progress', 'textarea', 'svg',
    'frameset', 'noembed', 'noframes'];
  const SAFE_VALUE = {
    display: (v) => !/none|contents|var\(|inherit|unset|revert/.test(v),
    visibility: (v) => v === 'visible',
    'content-visibility': (v) => v === 'visible' || v === 'auto',
    opacity: (v) => /^\d*\.?\d+%?$/.test(v) && parseFloat(v) > 0,
  };

  function hidingSelector(B) {
    if (B.shadowRoots && B.shadowRoots.length) return null;
    const found = UA_HIDES.slice();
    const visit = (rules) => {
      for (const rule of rules) {
        if (rule instanceof CSSImportRule) {
          const inner = rule.styleSheet && rulesOf(rule.styleSheet);
          if (!inner || !visit(inner)) return false;
          continue;
        }
        if (typeof CSSScopeRule !== 'undefined' && rule instanceof CSSScopeRule) return false;
        if (rule instanceof CSSStyleRule) {
          if (rule.cssRules && rule.cssRules.length) return false;
          const hides = Object.keys(SAFE_VALUE).some((p) => {
            const v = rule.style.getPropertyValue(p).trim();
            return v && !SAFE_VALUE[p](v);
          });
          if (!hides) continue;
          if (rule.selectorText.includes('::')) return false;
          found.push(rule.selectorText);
          continue;
        }
        if (rule.cssRules && !visit(rule.cssRules)) return false;
      }
      return true;
    };
    if (!everySheet(null, visit) || showingAnimations(B.shadowRoots).length) return null;
    phase('style: sheets');
    return `:is(${found.join(',')})`;
  }

  // Which records may be hidden (see hidingSelector): a test of a record, or null (ask
  // every row). A record's own match is one query; what is around it is asked once
  // per parent, up its ancestors (rows share their parents), never per row.
  function mayBeHidden(B) {
    if (B.reference) return null;
    const sel = hidingSelector(B);
    if (!sel) return null;
    let own;
    try {
      own = new Set(document.querySelectorAll(`${RECORD}${sel}`));
    } catch (_) {
      return null; // a selector this engine reads in a sheet but not in a query
    }
    phase('style: own');
    const memo = new Map();
    const around = (el) => {
      if (!el) return false;
      let hides = memo.get(el);
      if (hides === undefined) {
        hides = el.matches(sel) || around(el.parentElement);
        memo.set(el, hides);
      }
      return hides;
    };
    // A custom element may hold a closed shadow root whose ::slotted() rules hide some
    // of its children: rows right under one are always asked.
    const parents = new Set();
    let last;
    for (const rec of B.recs) {
      if (rec.parent === last) continue;
      last = rec.parent;
      if (last && (last.localName.includes('-') || around(last))) parents.add(last);
    }
    return (rec) => own.has(rec.el) || parents.has(rec.parent);
  }

  // Whether each record is rendered, by index in B.recs: asked of the rows that may
  // be hidden only, and of one row per parent as a proof that the bulk answer holds
  // (a shadow root that does not slot its light children hides them without any
  // declaration). null (a proof failed, or no bulk answer): ask every row.
  function rowsShown(B) {
    const maybe = mayBeHidden(B);
    if (!maybe) return null;
    const shown = new Array(B.recs.length);
    let proven;
    for (let i = 0; i < B.recs.length; i++) {
      const rec = B.recs[i];
      if (maybe(rec)) {
        shown[i] = rec.el.checkVisibility(ROW_VIS);
      } else if (rec.parent !== proven) {
        proven = rec.parent;
        if (!rec.el.checkVisibility(ROW_VIS)) return null;
        shown[i] = true;
      } else {
        shown[i] = true;
      }
    }
    return shown;
  }

  // The style tier: which records are active and behind the dialog, the ids of the
  // active ones, hidden and inactive counts, active records per region and the folded
  // row action totals.
  function styleTier(ctx, B, R) {
    const S = {
      modal: ctx.modal, active: [], ids: [], hidden: 0, inactive: 0, perRegion: new Map(), fold: null,
    };
    const shown = rowsShown(B);
    phase('style: shown');
    // Records come in runs of one region: its state and count are looked up per run.
    let runRegion;
    let inRegion = true;
    let run = 0;
    const endRun = () => {
      if (runRegion && run) S.perRegion.set(runRegion, (S.perRegion.get(runRegion) || 0) + run);
      run = 0;
    };
    for (let i = 0; i < B.recs.length; i++) {
      const rec = B.recs[i];
      if (rec.regionEl !== runRegion || i === 0) {
        endRun();
        runRegion = rec.regionEl;
        const region = R.at(runRegion);
        inRegion = !region || region.state === 'active' || region.state === 'covered';
      }
      rec.active = inRegion && !rec.inert && (shown ? shown[i] : rec.el.checkVisibility(ROW_VIS));
      rec.covered = rec.active && !!ctx.modal && ctx.covered(rec.el);
      if (!rec.active) {
        if (inRegion) S.hidden++;
        else S.inactive++;
        continue;
      }
      S.active.push(rec);
      S.ids.push(rec.id);
      run++;
    }
    endRun();
    return S;
  }

  // The folded row action totals of the style tier (counted natively when records
  // are flat and in one region, else from each record's row actions).
  function foldTotals(B, S, opts) {
    return (B.flat && tallyNative(B, S, opts)) || tally(B, S.active, opts);
  }

  // tally() for flat records in one region, without reading every row: each name's
  // rows are counted by a query, less those of records that do not count (inactive,
  // refused, duplicate ids); declared-unavailable and inert row actions are the only
  // ones visited. Names come from the first records, then from queries for names not
  // seen yet. Returns null (use tally) past max_row_names names.
  function tallyNative(B, S, opts) {
    const regionEl = B.recs.length ? B.recs[0].regionEl : null;
    const raws = [];
    const known = new Set();
    let nots = '';
    const learn = (raw) => {
      if (known.has(raw)) return;
      known.add(raw);
      raws.push(raw);
      nots += `:not([data-agent-action="${CSS.escape(raw)}"])`;
    };
    for (let i = 0; i < S.active.length && i < opts.name_scan; i++) {
      for (const a of actsOf(B, S.active[i], opts)) learn(a.raw);
    }
    for (;;) {
      if (raws.length > opts.max_row_names) return null;
      const el = document.querySelector(`${RECORD} ${ACTION}${nots}`);
      if (!el) break;
      learn(el.getAttribute('data-agent-action'));
    }
    const sel = (raw) => `${RECORD} [data-agent-action="${CSS.escape(raw)}"]`;
    const groups = new Map();
    const byName = new Map();
    groups.set(regionEl, byName);
    const groupOf = (raw) => {
      const name = rowActionName(raw, opts);
      let g = byName.get(name);
      if (!g) {
        g = { name, regionEl, first: null, rows: 0, available: 0, reasons: {} };
        byName.set(name, g);
      }
      return g;
    };
    for (const raw of raws) {
      const g = groupOf(raw);
      const n = document.querySelectorAll(sel(raw)).length;
      g.rows += n;
      g.available += n;
    }
    if (byName.size > opts.max_row_names) return null;
    const discount = (raw) => {
      const g = groupOf(raw);
      g.rows--;
      g.available--;
    };
    for (const rec of B.recs) {
      if (!rec.active) for (const a of actsOf(B, rec, opts)) discount(a.raw);
    }
    for (const el of B.skipped) {
      for (const a of el.querySelectorAll(ACTION)) discount(a.getAttribute('data-agent-action'));
    }
    // Whether el's record counts. The first rows are asked first: a group's first row
    // action is almost always in one of them, and the element -> entry map is then not
    // built on the first observation's path (recordOf).
    const early = S.active.slice(0, opts.name_scan);
    const counted = (el) => {
      const owner = el.closest(RECORD);
      if (early.some((rec) => rec.el === owner)) return true;
      const rec = recordOf(B, owner);
      return !!rec && rec.active;
    };
    const unavailable = (el, reason) => {
      const g = groupOf(el.getAttribute('data-agent-action'));
      g.available--;
      g.reasons[reason] = (g.reasons[reason] || 0) + 1;
    };
    const blocked = new Set();
    for (const el of document.querySelectorAll(`${RECORD} ${ACTION}:is(${BLOCKED})`)) {
      if (!counted(el)) continue;
      blocked.add(el);
      unavailable(el, blockedReason(el, opts));
    }
    if (B.hasInert) {
      for (const el of document.querySelectorAll(
        `[inert] ${RECORD} ${ACTION},${RECORD} [inert] ${ACTION},${RECORD} ${ACTION}[inert]`)) {
        if (!blocked.has(el) && counted(el)) unavailable(el, 'inert');
      }
    }
    // Each group's first row action of a counted record, in document order.
    const list = [];
    for (const raw of raws) {
      const g = groupOf(raw);
      if (g.rows <= 0) continue;
      let first = document.querySelector(sel(raw));
      if (first && !counted(first)) {
        first = null;
        for (const rec of S.active) {
          const a = actsOf(B, rec, opts).find((x) => x.raw === raw);
          if (a) {
            first = a.el;
            break;
          }
        }
      }
      if (first && (!g.first || composedCompare(first, g.first) < 0)) g.first = first;
      if (!list.includes(g)) list.push(g);
    }
    for (const [name, g] of byName) if (!list.includes(g)) byName.delete(name);
    return { groups, list };
  }

  // Row actions of the active records per (name, region): rows, available rows,
  // reasons the others are not, and the first element (it describes the group).
  function tally(B, active, opts) {
    const groups = new Map();
    const list = [];
    const names = new Set();
    for (const rec of active) {
      for (const a of actsOf(B, rec, opts)) {
        let byName = groups.get(a.regionEl);
        if (!byName) {
          byName = new Map();
          groups.set(a.regionEl, byName);
        }
        let g = byName.get(a.name);
        if (!g) {
          if (!names.has(a.name)) {
            if (names.size >= opts.max_row_names) continue;
            names.add(a.name);
          }
          g = { name: a.name, regionEl: a.regionEl, first: a.el, rows: 0, available: 0, reasons: {} };
          byName.set(a.name, g);
          list.push(g);
        }
        g.rows++;
        if (a.reason) g.reasons[a.reason] = (g.reasons[a.reason] || 0) + 1;
        else g.available++;
      }
    }
    return { groups, list };
  }

  // Per collect: viewport membership, rows without a box (zero area, content skipped:
  // hidden; all rows of a short list are checked, of a long one those in view), the
  // record index and the region counts. Returns the view's facts.
  function recordView(ctx, B, S, R) {
    for (const rec of viewed) {
      rec.visible = false;
      rec.full = null;
    }
    const shown = P.markViewport(S.active, ctx.vw, ctx.vh, (r) => r.el);
    viewed = shown.slice();
    const all = S.active.length <= ctx.opts.row_box_checks;
    const demoted = new Set();
    for (const rec of all ? S.active : shown) {
      if (!rowHasBox(rec.el)) {
        demoted.add(rec);
        rec.visible = false;
      }
    }
    const V = {
      shown: demoted.size ? shown.filter((rec) => !demoted.has(rec)) : shown, demoted,
      ids: demoted.size ? S.active.filter((rec) => !demoted.has(rec)).map((rec) => rec.id) : S.ids,
    };
    const count = (regionEl, key, n) => {
      const f = R.at(regionEl);
      if (f && f.out) f.out[key] += n;
    };
    for (const [regionEl, n] of S.perRegion) count(regionEl, 'records_total', n);
    for (const rec of demoted) count(rec.regionEl, 'records_total', -1);
    for (const rec of V.shown) count(rec.regionEl, 'records_visible', 1);
    if (B.refused) {
      ctx.warnings.push(`${B.refused} records were left out: their ids hold control characters, line breaks or ` +
        'fence text, so they cannot be cited or acted on');
    }
    if (B.duplicates.size) {
      const some = Array.from(B.duplicates).slice(0, 10).join(', ');
      ctx.warnings.push(
        `duplicate record ids (only the first element of each is used): ${some}${B.duplicates.size > 10 ? ', …' : ''}`);
    }
    return V;
  }

  // The records collected in full: requested ids, then those in the viewport
  // (the seed: offscreen rows are ids only). Marks each chosen rec.full = true.
  function chooseFullRecords(ctx, B, V) {
    const chosen = [];
    for (const id of ctx.opts.include) {
      const rec = B.byId.get(id);
      if (rec && !rec.full) {
        rec.full = true;
        chosen.push(rec);
        viewed.push(rec);
      }
    }
    let picked = 0;
    for (const rec of V.shown) {
      if (picked >= ctx.opts.full_records) break;
      if (!rec.full) {
        rec.full = true;
        picked++;
        chosen.push(rec);
      }
    }
    return chosen;
  }

  // Fields and label of each chosen record; rec.full becomes its snapshot entry.
  function recordDetails(ctx, R, chosen) {
    const opts = ctx.opts;
    const records = [];
    for (const rec of chosen) {
      const el = rec.el;
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
      const region = R.at(rec.regionEl);
      rec.full = {
        id: rec.id, label: clip(label, opts.label_chars), region: region ? region.id : null,
        in_viewport: rec.visible, fields, actions: {},
      };
      records.push(rec.full);
    }
    return records;
  }

  // --- phase: row actions, folded ------------------------------------------------------

  // The folded row actions of this view: the style tier's totals less the rows
  // without a box, with the rows in view counted, the reasons of rows behind the
  // dialog and of hidden controls of full records, each full record's action
  // states and the sample ids. Groups left without rows are dropped.
  function foldRowActions(ctx, B, S, V, R, chosen) {
    const opts = ctx.opts;
    const views = new Map();
    for (const g of S.fold.list) {
      views.set(g, { g, rows: g.rows, available: g.available, visible: 0, reasons: Object.assign({}, g.reasons) });
    }
    const viewOf = (a) => {
      const byName = S.fold.groups.get(a.regionEl);
      const g = byName && byName.get(a.name);
      return g ? views.get(g) : null;
    };
    for (const rec of V.demoted) {
      for (const a of actsOf(B, rec, opts)) {
        const v = viewOf(a);
        if (!v) continue;
        v.rows--;
        if (!a.reason) v.available--;
        else if (--v.reasons[a.reason] <= 0) delete v.reasons[a.reason];
      }
    }
    const coveredReason = cutLong(`behind the open dialog "${ctx.modalLabel}"`, opts.label_chars);
    const visit = (rec) => {
      for (const a of actsOf(B, rec, opts)) {
        const v = viewOf(a);
        if (!v) continue;
        if (rec.visible) v.visible++;
        let reason = a.reason;
        if (!reason) {
          if (rec.covered) reason = coveredReason;
          else if (rec.full && !a.el.checkVisibility(VIS)) reason = 'hidden';
          if (reason) {
            v.available--;
            v.reasons[reason] = (v.reasons[reason] || 0) + 1;
          }
        }
        if (rec.full) rec.full.actions[v.g.name] = reason ? { available: false, reason } : { available: true };
      }
    };
    if (ctx.modal) {
      for (const rec of S.active) if (!V.demoted.has(rec) && (rec.visible || rec.covered || rec.full)) visit(rec);
    } else {
      const seen = new Set(V.shown);
      for (const rec of V.shown) visit(rec);
      for (const rec of chosen) if (rec.active && !seen.has(rec) && !V.demoted.has(rec)) visit(rec);
    }
    const list = [];
    for (const v of views.values()) {
      if (v.rows <= 0) continue;
      list.push(finishGroup(ctx, B, V, R, v));
    }
    return list;
  }

  // A folded group's entry: its declaration (from its first row), counts, region
  // counts, and sample ids (available rows in view first, then in document order).
  function finishGroup(ctx, B, V, R, v) {
    const opts = ctx.opts;
    const g = v.g;
    const region = R.at(g.regionEl);
    if (region && region.out) {
      region.out.actions_total += v.rows;
      region.out.actions_visible += v.visible;
    }
    const entry = Object.assign(actionDeclaration(g.first, g.name, kindOf(g.first), opts, false), {
      region: region ? region.id : null, region_path: region ? region.path : [],
      rows: v.rows, available: v.available, offscreen: v.rows - v.visible, visible: v.visible,
      sample: [], available_ids: [], reasons: v.reasons, order: 0, first: g.first,
    });
    const want = Math.max(opts.sample, v.available <= opts.enum_limit ? v.available : 0);
    const ids = entry.available_ids;
    const taken = new Set();
    const offer = (rec) => {
      if (!rec.active || rec.covered || V.demoted.has(rec) || taken.has(rec)) return;
      if (actsOf(B, rec, opts).some((a) => a.name === g.name && a.regionEl === g.regionEl && !a.reason)) {
        ids.push(rec.id);
        taken.add(rec);
      }
    };
    for (const rec of V.shown) {
      if (ids.length >= want) break;
      offer(rec);
    }
    let budget = opts.sample_scan; // rows examined for samples: bounded even when few rows qualify
    for (const rec of B.recs) {
      if (ids.length >= want || --budget < 0) break;
      offer(rec);
    }
    entry.sample = ids.slice(0, opts.sample);
    if (v.available > opts.enum_limit || ids.length > opts.enum_limit) entry.available_ids = null;
    return entry;
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

  // Milliseconds per phase of the last collect (bench/observe.py reads them with phases()).
  let lastPhases = {};
  function phaseClock(t0) {
    lastPhases = {};
    let last = t0;
    phase = (name) => {
      const t = now();
      lastPhases[name] = (lastPhases[name] || 0) + t - last;
      last = t;
    };
    return phase;
  }
  const phases = () => JSON.stringify(lastPhases);

  // The last snapshot text sent (without its timing) and its token.
  let sent = { token: 0, rest: '', ids: [] };
  const INDEX_START = '{"record_index":{';

  const sameIds = (a, b) => a === b || (a.length === b.length && a.every((id, i) => id === b[i]));

  // The snapshot JSON; fresh drops the index first (see "the index" above). A caller
  // that holds the snapshot of token `have` gets {"same": have, "collect_ms"} when
  // the text would be the same (a still page costs no transfer), and a snapshot with
  // "ids_from": have and no record ids when only the ids are the same (the caller
  // takes them from its own); every text carries a new token.
  function collect(optionsJson, fresh, have) {
    const t0 = now();
    const mark = phaseClock(t0);
    const opts = JSON.parse(optionsJson);
    const B = currentBase(opts, fresh === true);
    mark('base');
    const ctx = pageContext(opts, B);
    const R = collectRegions(ctx, B);
    mark('context');
    if (!styled || styled.modal !== ctx.modal) styled = styleTier(ctx, B, R);
    const S = styled;
    mark('style');
    if (!S.fold) S.fold = foldTotals(B, S, opts);
    mark('fold');
    const V = recordView(ctx, B, S, R);
    mark('view');
    const chosen = chooseFullRecords(ctx, B, V);
    const records = recordDetails(ctx, R, chosen);
    const groupList = foldRowActions(ctx, B, S, V, R, chosen);
    mark('records');
    const [pageActions, pageEls] = collectPageActions(ctx, R, B.pageEls);
    orderActions(pageActions, pageEls, groupList);
    const state = collectState(ctx, R);
    const [feedback, feedbackTotal] = collectFeedback(ctx, R);
    const identity = collectIdentity(ctx.opts);
    mark('page');
    // The record index goes first, its ids apart: they are most of a large page's text.
    const rest = JSON.stringify({
      record_index: {
        viewport: V.shown.map((rec) => rec.id), inactive: S.inactive, hidden: S.hidden + V.demoted.size,
        duplicates: Array.from(B.duplicates),
      },
      identity, regions: R.list, regions_total: R.els.length,
      actions: pageActions, actions_total: B.pageEls.length, row_actions: groupList,
      records,
      state, state_total: ctx.few.state.length, feedback, feedback_total: feedbackTotal,
      modal: ctx.modalLabel, warnings: ctx.warnings, unseen: {
        shadow_searched: !!ctx.shadowRoots, components: ctx.stats.components,
      },
    });
   
    mark('json');
    finishInIdle(B);
    const idsHeld = have === sent.token && sameIds(V.ids, sent.ids);
    if (idsHeld && rest === sent.rest) return `{"same":${have},"collect_ms":${now() - t0}}`;
    sent = { token: sent.token + 1, rest, ids: V.ids };
    const ids = idsHeld ? '[]' : JSON.stringify(V.ids);
    return `${INDEX_START}"ids":${ids},${rest.slice(INDEX_START.length, -1)},"ids_from":${idsHeld ? have : 0},` +
      `"token":${sent.token},"collect_ms":${now() - t0}}`;
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

  // Whether a finite animation runs in the document or in one of its open shadow roots
  // (document.getAnimations() leaves those out).
  function busyAnimations(shadowRoots) {
    const all = document.getAnimations();
    for (const root of shadowRoots) all.push(...root.getAnimations());
    for (const a of all) {
      if (a.playState !== 'running') continue;
      const end = a.effect && a.effect.getComputedTiming().endTime;
      if (Number.isFinite(end)) return true; // infinite spinners never settle; ignore them
    }
    return false;
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

  // Resolve once the document is loaded, nothing moved for quietMs and no finite
  // animation runs, with what it last waited for (null when it did not wait); at
  // timeoutMs resolve anyway with the reason it did not settle.
  // With fresh (right after an input) the quiet window starts now: what the input
  // set off may begin a little later, so past stillness proves nothing.
  function settle(quietMs, timeoutMs, fresh, shadowScan) {
    const start = now();
    // After an input the window may end early on evidence: nothing the page started is
    // pending (js/quiet.js, cdpagent.snapshot.quiet); checked often, so it ends soon.
    const early = fresh && globalThis.__cdpagentQuiet ? globalThis.__cdpagentQuiet.since(start, quietMs) : null;
    const period = early ? 5 : Math.max(5, Math.min(quietMs, 25));
    let waitedFor = null;
    // The shadow roots are searched again only after the page moved.
    let roots = null;
    let rootsAt = -1;
    const shadowRoots = () => {
      if (roots === null || rootsAt !== lastMove) {
        roots = currentShadowRoots(shadowScan == null ? Infinity : shadowScan);
        rootsAt = lastMove;
      }
      return roots;
    };
    return new Promise((resolve) => {
      const check = (due) => {
        const t = now();
        const still = due - (fresh ? Math.max(lastMove, start) : lastMove) >= quietMs || (early !== null && early());
        const busy = !still || busyAnimations(shadowRoots());
        if (document.readyState === 'complete' && !busy) {
          resolve({ settled: true, waited_ms: t - start, reason: waitedFor });
          return;
        }
        waitedFor = document.readyState !== 'complete' ? 'document still loading'
          : !still ? 'page kept changing' : 'animations still running';
        if (t - start >= timeoutMs) {
          resolve({ settled: false, waited_ms: t - start, reason: waitedFor });
          return;
        }
        const next = now() + period;
        setTimeout(() => check(next), period);
      };
      const first = now();
      setTimeout(() => check(first), 0);
    });
  }

  // OB-7 helper for acting: the element an ActionLocator names, or null. Elements
  // are visited in the collector's order, so an ordinal means the same element.
  // Acting collects a snapshot just before it finds its element, so the index's
  // shadow roots are current (a second walk of a large page is spared).
  function find(locator) {
    const known = base && base.shadowRoots;
    useShadowRoots(!known || known.some((r) => !r.host.isConnected) ? openShadowRoots(Infinity) : known);
    const name = String(locator.name);
    const path = (locator.region_path || []).join(SEP);
    const sel = `[data-agent-action="${CSS.escape(name)}"]`;
    const pathOf = (el) => regionIds(el).join(SEP);
    if (locator.record != null) {
      const id = String(locator.record);
      // The index knows the record's element while nothing changed since it was read.
      for (const r of indexObserver.takeRecords()) pending.push(r);
      const held = base && !pending.length && base.byId.get(id);
      const candidates = held ? [held.el] : queryAll(document, `[data-agent-record="${CSS.escape(id)}"]`);
      for (const rec of candidates) {
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
      collect, settle, find, phases, frameOwner, isSensitive, rowShown, inputSpec, fieldValue, closestAcross, containsAcross,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
