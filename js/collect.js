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
  const now = () => performance.now();
  // visibility:hidden controls cannot be used either, so they count as hidden.
  const VIS = { visibilityProperty: true };

  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  function clip(s, max) {
    s = squash(s);
    if (s.length <= max) return s;
    return s.slice(0, max) + `… (cut, ${s.length} chars)`;
  }

  function textOf(el, max) {
    return clip(el.textContent, max);
  }

  function byIdText(ids, max) {
    const parts = [];
    for (const id of String(ids || '').split(/\s+/)) {
      const ref = id && document.getElementById(id);
      if (ref) parts.push(squash(ref.textContent));
    }
    return clip(parts.join(' '), max);
  }

  // aria-label, then aria-labelledby: the start of every name and label below.
  function ariaName(el, max) {
    const aria = el.getAttribute('aria-label');
    if (aria) return clip(aria, max);
    const by = el.getAttribute('aria-labelledby');
    return by ? byIdText(by, max) : '';
  }

  function accessibleName(el, max) {
    const named = ariaName(el, max);
    if (named) return named;
    if (el.labels && el.labels.length) {
      const t = clip(Array.from(el.labels, (l) => l.textContent).join(' '), max);
      if (t) return t;
    }
    if (el.placeholder) return clip(el.placeholder, max);
    if (el.title) return clip(el.title, max);
    if (el.tagName === 'INPUT' && /^(button|submit|reset)$/.test(el.type)) return clip(el.value, max);
    return textOf(el, max);
  }

  function isSensitive(el) {
    return (el.tagName === 'INPUT' && (el.type === 'password' || el.type === 'hidden')) ||
      el.hasAttribute('data-agent-sensitive') || !!el.closest('[data-agent-sensitive]');
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
    if (pattern) spec.pattern = clip(pattern, 200);
    for (const k of ['min', 'max']) {
      const v = el.getAttribute(k);
      if (v) spec[k] = clip(v, 40);
    }
    if (el.maxLength > 0) spec.maxlength = el.maxLength;
    if (el.minLength > 0) spec.minlength = el.minLength;
    if (el.tagName === 'SELECT') {
      const options = [];
      for (const o of el.options) {
        if (options.length >= 50) break;
        if (!o.disabled) options.push(clip(o.label || o.text, 80));
      }
      spec.options = options;
    }
    if (withValue) {
      if (kind === 'check') spec.checked = !!el.checked;
      else if (el.tagName === 'SELECT') {
        const o = el.selectedOptions && el.selectedOptions[0];
        spec.value = sensitive ? MASK : (o ? clip(o.label || o.text, 80) : '');
      } else if ('value' in el) {
        spec.value = sensitive ? (el.value ? MASK : '') : clip(el.value, opts.max_string);
      } else if (el.isContentEditable) {
        spec.value = sensitive ? MASK : textOf(el, opts.max_string);
      }
    }
    return spec;
  }

  function inViewport(r, vw, vh) {
    return (r.width > 0 || r.height > 0) && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  }

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

  const MODAL = 'dialog,[aria-modal="true"],[inert]';
  const STATE = '[data-agent-state]';

  // Modal candidates, state and feedback elements are few: one walk of the
  // document finds all three, each list in document order.
  function fewElements() {
    const modal = [];
    const state = [];
    const feedback = [];
    for (const el of document.querySelectorAll(`${MODAL},${STATE},${FEEDBACK}`)) {
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
    if (Array.isArray(value)) {
      if (depth >= opts.max_depth) return `[… ${value.length} items]`;
      const out = value.slice(0, 50).map((v) => prune(v, depth + 1, opts));
      if (value.length > 50) out.push(`… ${value.length - 50} more items`);
      return out;
    }
    const keys = Object.keys(value);
    if (depth >= opts.max_depth) return `{… ${keys.length} keys}`;
    const out = {};
    for (const k of keys.slice(0, 50)) out[clip(k, 80)] = prune(value[k], depth + 1, opts);
    if (keys.length > 50) out['…'] = `${keys.length - 50} more keys`;
    return out;
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

  function collect(optionsJson) {
    const t0 = now();
    const opts = Object.assign({
      full_records: 20, include: [], sample: 3, enum_limit: 10, max_string: 2000,
      max_depth: 4, max_regions: 100, max_page_actions: 200, max_feedback: 32, max_state: 64,
    }, optionsJson ? JSON.parse(optionsJson) : {});
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const warnings = [];
    const few = fewElements();
    const [modal, hasInert] = modalAndInert(few.modal);
    const covered = (el) => !!modal && !modal.contains(el) && !el.contains(modal);
    const modalLabel = modal ? regionLabel(modal, 80) : null;

    // Regions.
    const regionEls = document.querySelectorAll(REGION);
    const regionInfo = new Map();
    const regions = [];
    for (const el of regionEls) {
      const id = clip(el.getAttribute('data-agent-region'), 80) || 'region';
      const parentEl = el.parentElement && el.parentElement.closest(REGION);
      const parent = parentEl ? regionInfo.get(parentEl) : null;
      let state = 'active';
      if (!el.checkVisibility(VIS)) state = 'hidden';
      else if (hasInert && el.closest('[inert]')) state = 'inert';
      else if (covered(el)) state = 'covered';
      if (parent && parent.state !== 'active' && parent.state !== 'covered') state = parent.state;
      const info = {
        id, state, path: parent ? parent.path.concat([id]) : [id],
        labels: null, out: null, index: regionInfo.size, root: null,
      };
      info.root = parent ? parent.root : info;
      const label = regionLabel(el, 80);
      info.labels = parent ? parent.labels.concat([label]) : [label];
      regionInfo.set(el, info);
      if (regions.length < opts.max_regions) {
        const r = el.getBoundingClientRect();
        info.out = {
          id, label, role: regionRole(el),
          purpose: clip(el.getAttribute('data-agent-purpose') || '', 200),
          parent: parent ? parent.id : null, path: info.path, state,
          covered_by: state === 'covered' ? modalLabel : null,
          in_viewport: state !== 'hidden' && inViewport(r, vw, vh),
          modal: el === modal || (!!modal && el.contains(modal) && el.tagName === 'DIALOG'),
          actions_total: 0, actions_visible: 0, records_total: 0, records_visible: 0,
        };
        regions.push(info.out);
      }
    }
    const regionPath = new Map();
    for (const info of regionInfo.values()) regionPath.set(info.path.join('\u0000'), info);
    const regionOf = (el) => {
      const r = el.closest(REGION);
      return r ? regionInfo.get(r) : null;
    };

    // Records: ids, activity and viewport membership for all; details later.
    // Records that share a parent share their region and whether they sit inside
    // another record, so both come from one closest() per distinct parent.
    const recordEls = document.querySelectorAll(RECORD);
    const parentFacts = new Map();
    let nestedRecords = false;
    const regionOfRecord = (el) => {
      const p = el.parentElement;
      if (!p) return null;
      let f = parentFacts.get(p);
      if (!f) {
        const r = p.closest(REGION);
        f = [r ? regionInfo.get(r) : null, !!p.closest(RECORD)];
        if (f[1]) nestedRecords = true;
        parentFacts.set(p, f);
      }
      return f[0];
    };
    // Regions holding records, ordered as the per-region walks used to find them.
    const holderSet = new Set();
    const inertSet = hasInert ? new Set(document.querySelectorAll('[inert] ' + RECORD + ',[inert]' + RECORD)) : null;
    const recordInfo = new Map();
    const seen = new Set();
    const duplicates = new Set();
    const ids = [];
    const activeList = [];
    let inactive = 0;
    for (const el of recordEls) {
      const raw = el.getAttribute('data-agent-record');
      const id = raw.length > 200 ? clip(raw, 200) : raw;
      const region = regionOfRecord(el);
      if (region) holderSet.add(region);
      if (seen.has(id)) {
        duplicates.add(id);
        continue;
      }
      seen.add(id);
      let active = !region || region.state === 'active' || region.state === 'covered';
      if (active) active = el.checkVisibility(VIS);
      if (active && inertSet && inertSet.has(el)) active = false;
      const info = { id, region, active, visible: false, covered: active && !!modal && covered(el), full: null, el };
      recordInfo.set(el, info);
      if (!active) {
        inactive++;
        continue;
      }
      if (region && region.out) region.out.records_total++;
      ids.push(id);
      activeList.push(info);
    }
    markViewport(activeList, vw, vh);
    const viewport = [];
    for (const info of activeList) {
      if (!info.visible) continue;
      viewport.push(info.id);
      if (info.region && info.region.out) info.region.out.records_visible++;
    }
    if (duplicates.size) {
      const some = Array.from(duplicates).slice(0, 10).join(', ');
      warnings.push(`duplicate record ids (only the first element of each is used): ${some}${duplicates.size > 10 ? ', …' : ''}`);
    }
    // Choose the records collected in full: requested ids, then those in the viewport.
    const chosen = [];
    const byId = new Map();
    for (const [el, info] of recordInfo) byId.set(info.id, [el, info]);
    for (const id of opts.include) {
      const hit = byId.get(id);
      if (hit && !hit[1].full) {
        hit[1].full = true;
        chosen.push(hit);
      }
    }
    let picked = 0;
    const fill = (pred) => {
      for (const [el, info] of recordInfo) {
        if (picked >= opts.full_records) return;
        if (!info.full && info.active && pred(info)) {
          info.full = true;
          picked++;
          chosen.push([el, info]);
        }
      }
    };
    // Only rows in the viewport get fields (the seed: offscreen rows are ids only).
    fill((i) => i.visible);
    const records = [];
    for (const [el, info] of chosen) {
      const fields = {};
      let firstText = '';
      for (const f of el.querySelectorAll('[data-agent-field]')) {
        if (f.closest(RECORD) !== el) continue;
        const name = clip(f.getAttribute('data-agent-field'), 80);
        if (name in fields) continue;
        const v = fieldValue(f, opts);
        fields[name] = v;
        if (!firstText && typeof v === 'string' && v && v !== MASK) firstText = v;
      }
      const label = el.getAttribute('data-agent-label') || el.getAttribute('aria-label') || firstText;
      info.full = {
        id: info.id, label: clip(label, 200), region: info.region ? info.region.id : null,
        in_viewport: info.visible, fields, actions: {},
      };
      records.push(info.full);
    }

    // Actions: page-level in full, row actions folded per (name, region path).
    // Row actions of active records are visited per record with one scoped query;
    // their availability comes from precomputed sets, so each costs one attribute read.
    // Page actions and blocked row actions are disjoint and few: one walk finds both.
    const PAGE_ACTION = `${ACTION}:not(${RECORD} *)`;
    const pageActionEls = [];
    const rowBlockedEls = [];
    for (const el of document.querySelectorAll(
      `${PAGE_ACTION},${RECORD} ${ACTION}:is(:disabled,[aria-disabled="true"],[data-agent-unavailable])`)) {
      if (el.matches(PAGE_ACTION)) pageActionEls.push(el);
      else rowBlockedEls.push(el);
    }
    const rowBlocked = new Set(rowBlockedEls);
    const rowInert = hasInert ? new Set(document.querySelectorAll(`[inert] ${RECORD} ${ACTION},${RECORD} [inert] ${ACTION},${RECORD} ${ACTION}[inert]`)) : null;
    let nested = nestedRecords;
    for (const el of regionEls) {
      if (nested) break;
      nested = !!(el.parentElement && el.parentElement.closest(RECORD));
    }
    const groups = new Map();
    const groupList = [];
    const rowReason = (el, rec) => {
      let reason = null;
      if (rowBlocked.has(el)) {
        reason = el.getAttribute('data-agent-unavailable') || 'disabled';
      } else if (rowInert && rowInert.has(el)) {
        reason = 'inert';
      } else if (rec.covered) {
        reason = `behind the open dialog "${modalLabel}"`;
      } else if (rec.full && !el.checkVisibility(VIS)) {
        reason = 'hidden';
      }
      return reason && reason.length > 200 ? clip(reason, 200) : reason;
    };
    const foldEach = () => {
      for (const [recEl, rec] of recordInfo) {
        if (!rec.active) continue;
        for (const el of recEl.querySelectorAll(ACTION)) {
          let region = rec.region;
          if (nested) {
            const owner = el.closest(RECORD + ',' + REGION);
            if (owner !== recEl && owner.hasAttribute('data-agent-record')) continue; // a nested record's own
            if (owner !== recEl) region = regionInfo.get(owner);
          }
          const raw = el.getAttribute('data-agent-action');
          const name = raw.length > 120 ? clip(raw, 120) : (raw || 'action');
          const key = region ? name + '\u0000' + region.path.join('\u0000') : name;
          let g = groups.get(key);
          if (!g) {
            g = newGroup(el, name, region);
            groups.set(key, g);
          }
          g.rows++;
          if (rec.visible) g.visible++;
          else g.offscreen++;
          if (region && region.out) {
            region.out.actions_total++;
            if (rec.visible) region.out.actions_visible++;
          }
          const reason = rowReason(el, rec);
          if (reason) {
            g.reasons[reason] = (g.reasons[reason] || 0) + 1;
          } else {
            g.available++;
            if (g.sample.length < opts.sample) g.sample.push(rec.id);
            if (g.available_ids && g.available_ids.length <= opts.enum_limit) g.available_ids.push(rec.id);
          }
          if (rec.full) rec.full.actions[name] = reason ? { available: false, reason } : { available: true };
        }
      }
    };
    const newGroup = (el, name, region) => {
      const kind = kindOf(el);
      const g = {
        name, kind, effect: effectOf(el),
        description: clip(el.getAttribute('data-agent-description') || accessibleName(el, 200), opts.max_string),
        region: region ? region.id : null, region_path: region ? region.path : [],
        confirm: el.hasAttribute('data-agent-confirm') ? clip(el.getAttribute('data-agent-confirm') || 'Confirm?', 300) : null,
        handoff: el.hasAttribute('data-agent-handoff') ? clip(el.getAttribute('data-agent-handoff') || 'a person must do this', 300) : null,
        submit: el.hasAttribute('data-agent-submit'),
        input: inputSpec(el, kind, opts, false),
        rows: 0, available: 0, offscreen: 0, visible: 0, sample: [], available_ids: [], reasons: {},
        order: 0, first: el,
      };
      groupList.push(g);
      return g;
    };
    // Without nested records, rows are counted per (name, region) by native queries;
    // only rows that are unavailable, visible, inactive or shown in full are visited.
    const foldByQuery = () => {
      const holders = new Set(Array.from(holderSet).sort((a, b) => a.root.index - b.root.index));
      const parentHolder = new Map();
      for (const h of holders) {
        let p = null;
        for (let i = h.path.length - 2; i >= 0 && !p; i--) {
          for (const o of holders) if (o.path.length === i + 1 && o.path.every((x, j) => x === h.path[j])) p = o;
        }
        parentHolder.set(h, p);
      }
      // The document is a scope of its own only when some records sit outside every region.
      let outside = false;
      for (const rec of recordInfo.values()) if (!rec.region) { outside = true; break; }
      const scopes = outside ? [[null, document]] : [];
      for (const [el, info] of regionInfo) if (holders.has(info)) scopes.push([info, el]);
      const keyOf = (name, region) => (region ? name + '\u0000' + region.path.join('\u0000') : name);
      // Names: those of the first rows, then one walk per name not seen there,
      // needed only when the known names do not account for every row action.
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
            if (outside ? !info : parentHolder.get(info) === null) counted += list.length;
          }
          totals.set(names[i], total);
        }
      };
      let looked = 0;
      for (const recEl of recordInfo.keys()) {
        if (++looked > 50) break;
        for (const a of recEl.querySelectorAll(ACTION)) learn(a.getAttribute('data-agent-action'));
      }
      countNames();
      if (names.length < 200 && counted < document.querySelectorAll(ACTION).length - pageActionEls.length) {
        while (names.length < 200) {
          const el = document.querySelector(`${RECORD} ${ACTION}${nots}`);
          if (!el) break;
          learn(el.getAttribute('data-agent-action'));
        }
        countNames();
      }
      for (const name of names) {
        const total = totals.get(name);
        for (const [info] of scopes) {
          let own = total.get(info)[0];
          for (const [c] of scopes) {
            if (c && parentHolder.get(c) === info) own -= total.get(c)[0];
          }
          if (own <= 0) continue;
          let first = total.get(info)[1];
          if (scopes.length > 1) {
            first = null;
            for (const [recEl, rec] of recordInfo) {
              if (rec.region === info && rec.active) {
                first = recEl.querySelector(`[data-agent-action="${CSS.escape(name)}"]`);
                if (first) break;
              }
            }
            if (!first) continue;
          }
          const g = newGroup(first, name.length > 120 ? clip(name, 120) : name, info);
          g.rows = own;
          g.available = own;
          groups.set(keyOf(name, info), g);
        }
      }
      const groupOf = (el, rec) => groups.get(keyOf(el.getAttribute('data-agent-action'), rec.region));
      // Rows that do not count: inactive records and duplicate ids.
      for (const el of recordEls) {
        const rec = recordInfo.get(el);
        if (rec && rec.active) continue;
        for (const a of el.querySelectorAll(ACTION)) {
          const g = groups.get(keyOf(a.getAttribute('data-agent-action'), rec ? rec.region : regionOfRecord(el)));
          if (g) { g.rows--; g.available--; }
        }
      }
      const unavailable = (el, rec, reason) => {
        const g = groupOf(el, rec);
        if (!g) return;
        g.available--;
        g.reasons[reason] = (g.reasons[reason] || 0) + 1;
      };
      const marked = new Set();
      for (const el of rowBlocked) {
        const rec = recordInfo.get(el.closest(RECORD));
        if (!rec || !rec.active) continue;
        marked.add(el);
        unavailable(el, rec, rowReason(el, rec));
      }
      if (rowInert) {
        for (const el of rowInert) {
          const rec = recordInfo.get(el.closest(RECORD));
          if (!rec || !rec.active || marked.has(el)) continue;
          marked.add(el);
          unavailable(el, rec, 'inert');
        }
      }
      for (const [recEl, rec] of recordInfo) {
        if (!rec.active || !(rec.visible || rec.covered || rec.full)) continue;
        for (const el of recEl.querySelectorAll(ACTION)) {
          const g = groupOf(el, rec);
          if (!g) continue;
          if (rec.visible) g.visible++;
          const reason = marked.has(el) ? rowReason(el, rec) : (rec.covered || rec.full ? rowReason(el, rec) : null);
          if (reason && !marked.has(el)) unavailable(el, rec, reason);
          if (rec.full) rec.full.actions[g.name] = reason ? { available: false, reason } : { available: true };
        }
      }
      for (const g of groupList) {
        g.offscreen = g.rows - g.visible;
        const region = g.region_path.length ? regionPath.get(g.region_path.join('\u0000')) : null;
        if (region && region.out) {
          region.out.actions_total += g.rows;
          region.out.actions_visible += g.visible;
        }
        // Sample ids: viewport rows first, then document order, available rows only.
        const sel = `[data-agent-action="${CSS.escape(g.name)}"]`;
        const want = Math.max(opts.sample, g.available <= opts.enum_limit ? g.available : 0);
        let budget = 2000; // rows examined for samples: bounded even when few rows qualify
        const pick = (pred) => {
          for (const [recEl, rec] of recordInfo) {
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
    };
    if (nested) foldEach();
    else foldByQuery();
    for (let i = groupList.length - 1; i >= 0; i--) {
      if (groupList[i].rows <= 0) groupList.splice(i, 1);
    }
    for (const g of groupList) {
      if (g.available_ids && g.available_ids.length > opts.enum_limit) g.available_ids = null;
    }

    const pageActions = [];
    const pageEls = [];
    const ordinals = new Map();
    for (const el of pageActionEls) {
      const name = clip(el.getAttribute('data-agent-action'), 120) || 'action';
      const region = regionOf(el);
      const path = region ? region.path : [];
      const okey = name + '\u0000' + path.join('\u0000');
      const ordinal = ordinals.get(okey) || 0;
      ordinals.set(okey, ordinal + 1);
      const r = el.getBoundingClientRect();
      const shown = el.checkVisibility(VIS);
      if (region && region.out) {
        region.out.actions_total++;
        if (shown && inViewport(r, vw, vh)) region.out.actions_visible++;
      }
      if (pageActions.length >= opts.max_page_actions) continue;
      const kind = kindOf(el);
      let reason = el.getAttribute('data-agent-unavailable');
      if (!reason && (el.disabled === true || el.matches(':disabled'))) reason = 'disabled';
      if (!reason && el.getAttribute('aria-disabled') === 'true') reason = 'disabled';
      if (!reason && hasInert && el.closest('[inert]')) reason = 'inert';
      if (!reason && !shown) reason = 'hidden';
      if (!reason && covered(el)) reason = `behind the open dialog "${modalLabel}"`;
      if (!reason && kind === 'type' && el.readOnly) reason = 'read-only';
      pageEls.push(el);
      pageActions.push({
        name, kind, effect: effectOf(el),
        description: clip(el.getAttribute('data-agent-description') || accessibleName(el, 200), opts.max_string),
        region: region ? region.id : null, region_path: path, ordinal,
        available: !reason, reason: reason ? clip(reason, 200) : null,
        confirm: el.hasAttribute('data-agent-confirm') ? clip(el.getAttribute('data-agent-confirm') || 'Confirm?', 300) : null,
        handoff: el.hasAttribute('data-agent-handoff') ? clip(el.getAttribute('data-agent-handoff') || 'a person must do this', 300) : null,
        submit: el.hasAttribute('data-agent-submit'),
        input: inputSpec(el, kind, opts, true),
        in_viewport: shown && inViewport(r, vw, vh), order: 0,
      });
    }
    // Document order across page actions and groups (few entries: compare positions).
    const entries = pageActions.map((a, i) => [pageEls[i], a]).concat(groupList.map((g) => [g.first, g]));
    entries.sort((x, y) => (x[0].compareDocumentPosition(y[0]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    entries.forEach((e, i) => { e[1].order = i; });
    for (const g of groupList) delete g.first;
    const pageActionsTotal = pageActionEls.length;

    // State.
    const state = [];
    const stateEls = few.state;
    for (const el of stateEls) {
      if (state.length >= opts.max_state) break;
      let value;
      if (isSensitive(el)) value = MASK;
      else if (el.hasAttribute('data-agent-value')) value = parseJson(el.getAttribute('data-agent-value'));
      else if (el.tagName === 'SCRIPT') value = parseJson(el.textContent);
      else {
        const script = el.querySelector('script[type="application/json"]');
        if (script) value = parseJson(script.textContent);
        else if (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) value = fieldValue(el, opts);
        else value = textOf(el, opts.max_string);
      }
      const region = regionOf(el);
      state.push({
        name: clip(el.getAttribute('data-agent-state'), 80),
        value: prune(value, 0, opts),
        description: clip(el.getAttribute('data-agent-description') || '', 200),
        region: region ? region.id : null,
      });
    }

    // Feedback: declared, live regions, invalid fields with their messages.
    const feedback = [];
    let feedbackTotal = 0;
    const seenFeedback = new Set();
    const fieldNameOf = (el) => el.getAttribute('data-agent-action') || el.getAttribute('data-agent-field') ||
      el.getAttribute('name') || accessibleName(el, 80) || null;
    const feedbackEls = few.feedback;
    // Messages name their field through the invalid control that points at them.
    const describedBy = new Map();
    for (const el of feedbackEls) {
      if (el.getAttribute('aria-invalid') !== 'true') continue;
      for (const attr of ['aria-errormessage', 'aria-describedby']) {
        for (const id of (el.getAttribute(attr) || '').split(/\s+/)) if (id) describedBy.set(id, el);
      }
    }
    for (const el of feedbackEls) {
      let level;
      let source;
      let message;
      let field = null;
      if (el.getAttribute('aria-invalid') === 'true') {
        source = 'invalid';
        level = 'error';
        message = byIdText(el.getAttribute('aria-errormessage'), opts.max_string) ||
          byIdText(el.getAttribute('aria-describedby'), opts.max_string) ||
          (el.validationMessage ? clip(el.validationMessage, opts.max_string) : 'invalid value');
        field = fieldNameOf(el);
        if (!el.checkVisibility(VIS)) continue;
      } else {
        if (!el.checkVisibility(VIS)) continue;
        const declared = el.getAttribute('data-agent-feedback');
        source = declared ? 'declared' : (el.getAttribute('role') === 'alert' ? 'alert' : 'status');
        level = declared && /^(error|warning|info)$/.test(declared) ? declared
          : (el.getAttribute('role') === 'alert' ? 'error' : 'info');
        message = isSensitive(el) ? MASK : textOf(el, opts.max_string);
        const f = el.getAttribute('data-agent-for');
        if (f) field = clip(f, 80);
        else if (el.id && describedBy.has(el.id)) field = fieldNameOf(describedBy.get(el.id));
      }
      if (!message) continue;
      const key = message + '\u0000' + (field || '');
      if (seenFeedback.has(key)) continue;
      seenFeedback.add(key);
      feedbackTotal++;
      if (feedback.length >= opts.max_feedback) continue;
      const region = regionOf(el);
      feedback.push({ level, message, field: field ? clip(field, 80) : null, region_path: region ? region.path : [], source });
    }

    // Identity: never the full URL.
    const meta = (name) => {
      // Head only: a missing meta must not cost a walk of a large body.
      const m = document.head && document.head.querySelector(`meta[name="${name}"]`);
      return m ? m.getAttribute('content') : null;
    };
    const query = {};
    const allowed = (meta('agent-query') || '').split(',').map((s) => s.trim()).filter(Boolean);
    const params = new URLSearchParams(location.search);
    for (const k of allowed) if (params.has(k)) query[clip(k, 80)] = clip(params.get(k), 200);
    const routeParams = meta('agent-route-params');
    const identity = {
      title: clip(document.title, 300), path: clip(location.pathname, 300),
      route: meta('agent-route') ? clip(meta('agent-route'), 120) : null,
      route_params: routeParams ? prune(parseJson(routeParams), 0, opts) : {},
      query,
    };
    if (typeof identity.route_params !== 'object' || Array.isArray(identity.route_params) || identity.route_params === null) {
      identity.route_params = {};
    }

    return JSON.stringify({
      identity, regions, regions_total: regionEls.length,
      actions: pageActions, actions_total: pageActionsTotal, row_actions: groupList,
      records, record_index: { ids, viewport, inactive, duplicates: Array.from(duplicates) },
      state, state_total: stateEls.length, feedback, feedback_total: feedbackTotal,
      modal: modalLabel, warnings, collect_ms: now() - t0,
    });
  }

  // OB-6: resolve once the document is loaded and nothing moved for quietMs
  // (no DOM mutation, no running finite animation, no scroll), or at timeoutMs.
  function settle(quietMs, timeoutMs) {
    const start = now();
    return new Promise((resolve) => {
      let last = now();
      let done = false;
      const observer = new MutationObserver(() => { last = now(); });
      const onScroll = () => { last = now(); };
      const finish = (settled, reason) => {
        if (done) return;
        done = true;
        observer.disconnect();
        removeEventListener('scroll', onScroll, true);
        resolve({ settled, waited_ms: now() - start, reason });
      };
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      addEventListener('scroll', onScroll, true);
      const busyAnimations = () => {
        for (const a of document.getAnimations()) {
          if (a.playState !== 'running') continue;
          const end = a.effect && a.effect.getComputedTiming().endTime;
          if (Number.isFinite(end)) return true; // infinite spinners never settle; ignore them
        }
        return false;
      };
      const tick = () => {
        if (done) return;
        const t = now();
        if (t - start >= timeoutMs) {
          const why = document.readyState !== 'complete' ? 'document still loading'
            : busyAnimations() ? 'animations still running' : 'page kept changing';
          finish(false, why);
          return;
        }
        if (document.readyState === 'complete' && t - last >= quietMs && !busyAnimations()) {
          finish(true, null);
          return;
        }
        setTimeout(tick, Math.max(5, Math.min(quietMs, 25)));
      };
      // Let one frame render first; fall back to a timer where frames are throttled.
      let ticked = false;
      const first = () => { if (!ticked) { ticked = true; tick(); } };
      requestAnimationFrame(first);
      setTimeout(first, 20);
    });
  }

  // OB-7 helper for acting: the element an ActionLocator names, or null.
  function find(locator) {
    const name = String(locator.name);
    const path = (locator.region_path || []).join('\u0000');
    const sel = `[data-agent-action="${CSS.escape(name)}"]`;
    const pathOf = (el) => {
      const out = [];
      for (let r = el.closest(REGION); r; r = r.parentElement && r.parentElement.closest(REGION)) {
        out.unshift(String(r.getAttribute('data-agent-region')));
      }
      return out.join('\u0000');
    };
    if (locator.record != null) {
      for (const rec of document.querySelectorAll(`[data-agent-record="${CSS.escape(String(locator.record))}"]`)) {
        for (const el of rec.querySelectorAll(sel)) if (el.closest(RECORD) === rec) return el;
        return null; // only the first element of a duplicate id is addressable
      }
      return null;
    }
    let n = 0;
    for (const el of document.querySelectorAll(sel)) {
      if (el.closest(RECORD) || pathOf(el) !== path) continue;
      if (n++ === (locator.ordinal || 0)) return el;
    }
    return null;
  }

  Object.defineProperty(globalThis, '__cdpagentObserve', {
    value: Object.freeze({ collect, settle, find }),
    writable: false, configurable: false, enumerable: false,
  });
})();
