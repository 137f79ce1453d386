// cdpagent inference: the observation of a page that declares nothing (SPEC OB-12).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the isolated world
// "cdpagent-observe", beside collect.js. It defines globalThis.__cdpagentInfer:
//
//   plan(mode) -> "off" | "undeclared" | "all"
//       what to infer: mode null means "all" when the page declares nothing
//       (no data-agent-* region, action, record or state), else "off".
//   infer(optionsJson, mode) -> string   one JSON snapshot
//       (cdpagent.snapshot.model.Snapshot) built from semantic HTML and ARIA;
//       every region, action, row-action group and record has source "inferred".
//       mode "undeclared" skips what the page declares and the feedback that
//       collect.js already reports; "all" reads the whole page.
//   find(locator) -> Element | null   the element of an inferred ActionLocator
//       (for an in-place edit, the text field it revealed once there is one).
//   reveals(el) -> boolean   el is an in-place edit label: typing into it means
//       double-clicking it first, which reveals the row's text field.
//
// Theory of operation:
//   regions   landmarks (main, nav, header, footer, aside, form, search, named
//             section/article, dialogs, named tab panels), labelled by their
//             accessible name or first heading;
//   actions   named interactive elements: buttons and links (links navigate;
//             same-page anchors, tabs, disclosures and search fields read), text
//             fields (type; a lone field submits with Enter), selects (select),
//             checkboxes, radios, switches (check), visible options and menu items;
//             a row's in-place edit (type: a double-click on the row's text opens
//             its editor, see IN_PLACE);
//   records   table and grid rows (fields named by column headers), items of
//             lists whose items hold controls, and cards (repeated siblings of
//             one shape with a title and an action, see cardContainers); ids
//             from the row's id, data-id, data-key or first link, else a hash of
//             its text (never a position);
//             their controls fold into row actions per (name, region);
//   state     aria-current, aria-selected tabs, aria-pressed, aria-checked,
//             aria-sort, aria-expanded, <output>, counts next to record lists;
//   feedback  role=alert/status/log, aria-live, aria-invalid controls, and the
//             browser's own constraint validation of fields the user touched.
//
// Nothing is written to the page's DOM (pages can see attributes): every
// inferred action's element is kept in a registry of WeakRefs keyed by its
// locator, rebuilt by each pass; find() falls back to a fresh pass when the
// element is gone. Sensitive values (passwords, hidden inputs, one-time codes,
// card fields) are replaced by "[masked]" before they leave.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const MASK = '[masked]';
  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;
  const VIS = { visibilityProperty: true };
  const DECLARED = '[data-agent-region],[data-agent-action],[data-agent-record],[data-agent-state]';
  // Candidates are found by tag or by the presence of a role, then filtered by role
  // in JS: a list of [role=…] selectors costs one attribute match per selector per
  // element, which dominated large pages.
  const LANDMARK = 'main,nav,header,footer,aside,form,search,section,article,dialog,[role]';
  const LANDMARK_TAGS = ['main', 'nav', 'header', 'footer', 'aside', 'form', 'search', 'section', 'article', 'dialog'];
  const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary',
    'form', 'search', 'region', 'dialog', 'alertdialog', 'tabpanel']);
  const NAMED_ONLY = /^(region|article|tabpanel)$/;
  const CONTROL = 'a,button,input,select,textarea,summary,[role],[contenteditable]';
  const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'switch', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'searchbox', 'textbox']);
  const firstRole = (el) => {
    const role = el.getAttribute('role');
    return role ? role.trim().split(/\s+/)[0] : null;
  };
  const isLandmark = (el) => {
    const role = firstRole(el);
    return role ? LANDMARK_ROLES.has(role) : true;
  };
  function isControl(el) {
    const role = firstRole(el);
    if (role && CONTROL_ROLES.has(role)) return true;
    switch (el.tagName) {
      case 'INPUT': return el.type !== 'hidden';
      case 'A': return el.hasAttribute('href');
      case 'BUTTON': case 'SELECT': case 'TEXTAREA': case 'SUMMARY': return true;
      default: {
        const editable = el.getAttribute('contenteditable');
        return editable === '' || editable === 'true';
      }
    }
  }
  const controlsIn = (root) => Array.prototype.filter.call(root.querySelectorAll(CONTROL), isControl);
  const CONTROL_TAGS = ['a', 'button', 'input', 'select', 'textarea', 'summary'];
  const CONTROL_TAG = /^(A|BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY)$/;
  // Every control of the page, not in document order: by tag through the live tag
  // collections (cheap), by role from the pass's one [role] scan, and contenteditable.
  // A selector list costs one match per selector per element, and one per record
  // row cost more than the rest of a pass on large tables.
  function allControls(roled, clickables) {
    const out = clickables.slice(); // clicks
    for (const tag of CONTROL_TAGS) for (const el of document.getElementsByTagName(tag)) if (isControl(el)) out.push(el);
    for (const el of roled) if (!CONTROL_TAG.test(el.tagName) && isControl(el)) out.push(el);
    for (const el of document.querySelectorAll('[contenteditable]')) {
      if (!CONTROL_TAG.test(el.tagName) && !el.hasAttribute('role') && isControl(el)) out.push(el);
    }
    return out;
  }
  // Elements by tag (live collections) and by role (from the pass's one [role] scan),
  // in document order: cheaper than a selector list, which matches every selector
  // against every element of the page.
  function byTagAndRole(tags, roles, roled) {
    const out = [];
    for (const tag of tags) for (const el of document.getElementsByTagName(tag)) out.push(el);
    for (const el of roled) if (roles.has(firstRole(el)) && !tags.includes(el.localName)) out.push(el);
    return out.length > 1 ? out.sort(docOrder) : out;
  }
  const docOrder = (a, b) => (a === b ? 0 : a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
  // The nearest ancestor landmark of el (not el itself), or null.
  function landmarkAbove(el) {
    for (let p = el.parentElement && el.parentElement.closest(LANDMARK); p; p = p.parentElement && p.parentElement.closest(LANDMARK)) {
      if (isLandmark(p)) return p;
    }
    return null;
  }
  // Popup items exist for the agent only while their popup is open.
  const POPUP_ITEM = /^(option|menuitem|menuitemcheckbox|menuitemradio)$/;
  // The in-place edit idiom of TodoMVC and its many imitations: a row's text sits in
  // a <label> that labels no control, and double-clicking it swaps in a text field
  // (created on the spot in the vanilla, React and Vue builds alike, so there is no
  // hidden field to find). The dblclick listener itself cannot be seen from here:
  // it is delegated to the list or to the framework's root, where every row shares
  // it. So the row's first such label (with text) is offered as the row's edit,
  // under this role, and act verifies that a field appeared.
  const IN_PLACE = 'in-place edit';
  const LIST_ROLES = new Set(['list', 'feed']);
  const TABLE_ROLES = new Set(['grid', 'treegrid', 'table']);
  // Lists that are navigation or composite widgets are not records.
  const NOT_RECORDS = 'nav,[role=navigation],[role=menu],[role=menubar],[role=tablist],[role=listbox],[role=tree],[role=radiogroup],[role=toolbar]';
  const FEEDBACK_ROLES = new Set(['alert', 'status', 'log']);
  const FEEDBACK = '[role=alert],[role=status],[role=log],[aria-live=polite],[aria-live=assertive],[aria-invalid=true]';
  const ERRORISH = /\b(error|invalid|failed|fail|required|wrong|cannot|can't|must|denied|expired|incorrect)\b/i; // clicks
  const COUNT = /\b\d[\d,.]*\s+(results?|items?|matches|entries|rows?|records?|hits)\b(\s+left)?/i;
  const now = () => performance.now();

  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();
  function clip(s, max) {
    s = squash(s);
    return s.length <= max ? s : s.slice(0, max) + `… (cut, ${s.length} chars)`;
  }
  function byIdText(ids, max) {
    const parts = [];
    for (const id of String(ids || '').split(/\s+/)) {
      const ref = id && document.getElementById(id);
      if (ref) parts.push(squash(ref.textContent));
    }
    return clip(parts.join(' '), max);
  }

  // Control -> texts of its <label>s, built once per pass: Element.labels walks the
  // whole document on every call, which made large tables quadratic.
  let labels = null;
  // Labels that label no control (candidates for in-place edits, see IN_PLACE).
  let orphans = [];
  function labelTexts() {
    const map = new Map();
    orphans = [];
    for (const l of document.getElementsByTagName('label')) {
      const c = l.control;
      if (!c) {
        if (!l.htmlFor) orphans.push(l);
        continue;
      }
      const list = map.get(c);
      if (list) list.push(l.textContent);
      else map.set(c, [l.textContent]);
    }
    return map;
  }

  // A name given by aria-labelledby or aria-label (containers take no name from their content).
  function ariaName(el, max) {
    const by = el.getAttribute('aria-labelledby');
    const t = by ? byIdText(by, max) : '';
    if (t) return t;
    const aria = el.getAttribute('aria-label');
    return aria ? clip(aria, max) : '';
  }

  // The accessible name, close to accname-1.2 for the cases that matter here.
  function nameOf(el, max) {
    const own = CLICK && CLICK.nameOf(el, max); // clicks
    if (own) return own;
    const named = ariaName(el, max);
    if (named) return named;
    const labelled = labels && labels.get(el);
    if (labelled) {
      const t = clip(labelled.join(' '), max);
      if (t) return t;
    }
    const tag = el.tagName;
    if (tag === 'INPUT' && /^(button|submit|reset)$/.test(el.type)) return clip(el.value || el.type, max);
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      return clip(el.title || el.placeholder || '', max);
    }
    const text = textOf(el, max);
    if (text) return text;
    const img = el.querySelector('img[alt]');
    if (img && img.alt) return clip(img.alt, max);
    return clip(el.title || '', max);
  }
  // Text as a screen reader would read it: aria-hidden parts left out.
  // Whether the document had an aria-hidden="true" element at the start of this pass:
  // without one, no element needs its own look inside (one query per control).
  let ariaHiddenAnywhere = true;
  function textOf(el, max) {
    if (!ariaHiddenAnywhere || !el.querySelector('[aria-hidden="true"]')) return clip(el.textContent, max);
    let out = '';
    const walk = (n) => {
      for (const c of n.childNodes) {
        if (c.nodeType === 3) out += c.data;
        else if (c.nodeType === 1 && c.getAttribute('aria-hidden') !== 'true') walk(c);
      }
    };
    walk(el);
    return clip(out, max);
  }
  const slugs = new Map();
  function slug(text) {
    let out = slugs.get(text);
    if (out === undefined) {
      out = slugOf(text);
      if (slugs.size > 5000) slugs.clear();
      slugs.set(text, out);
    }
    return out;
  }
  function slugOf(text) {
    return squash(text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '').slice(0, 40).replace(/_+$/, '');
  }

  function isSensitive(el) {
    if (el.tagName === 'INPUT' && (el.type === 'password' || el.type === 'hidden')) return true;
    const auto = String(el.getAttribute('autocomplete') || '');
    return /\b(one-time-code|cc-[a-z-]+|current-password|new-password)\b/.test(auto) ||
      !!el.closest('[data-agent-sensitive]');
  }

  function roleOf(el) {
    const role = el.getAttribute('role');
    if (role) return role.split(/\s+/)[0];
    const tag = el.tagName;
    if (tag === 'A') return 'link';
    if (tag === 'BUTTON' || tag === 'SUMMARY') return 'button';
    if (tag === 'SELECT') return 'combobox';
    if (tag === 'TEXTAREA') return 'textbox';
    if (tag === 'INPUT') {
      const t = el.type;
      if (t === 'checkbox') return 'checkbox';
      if (t === 'radio') return 'radio';
      if (t === 'search') return 'searchbox';
      if (/^(button|submit|reset|image|file|color|range)$/.test(t)) return 'button';
      return 'textbox';
    }
    return el.isContentEditable ? 'textbox' : 'generic';
  }

  function kindOf(el, role) {
    const own = CLICK && CLICK.kindOf(el); // clicks
    if (own) return own;
    const tag = el.tagName;
    if (tag === 'SELECT') return 'select';
    if (tag === 'TEXTAREA' || el.isContentEditable) return 'type';
    if (tag === 'INPUT') {
      if (/^(checkbox|radio)$/.test(el.type)) return 'check';
      if (/^(button|submit|reset|image|file|color|range)$/.test(el.type)) return 'click';
      return 'type';
    }
    if (role === 'checkbox' || role === 'switch' || role === 'radio') return 'check';
    if (role === 'textbox' || role === 'searchbox') return 'type';
    return 'click';
  }

  function samePage(el) {
    const href = el.getAttribute('href') || '';
    if (href.startsWith('#')) return true;
    try {
      const u = new URL(el.href);
      return u.origin === location.origin && u.pathname === location.pathname &&
        u.search === location.search && u.hash !== '';
    } catch (_) {
      return false;
    }
  }

  function isSearch(el, role, name) {
    return role === 'searchbox' || !!el.closest('search,[role=search]') || /search/i.test(name) ||
      /search/i.test(el.getAttribute('name') || '');
  }

  function effectOf(el, role, kind, name) {
    if (kind === 'scroll' || (kind === 'hover' && !CLICK.hoverPath(el).length)) return 'read'; // clicks
    if (role === 'link') return samePage(el) ? 'read' : 'navigate';
    if (role === 'tab' || el.tagName === 'SUMMARY' || el.hasAttribute('aria-expanded') ||
        el.hasAttribute('aria-haspopup')) return 'read';
    if (kind === 'type' && isSearch(el, role, name)) return 'read';
    return 'write';
  }

  // A control's input spec exactly as the declared collector builds it: the same
  // bounds from Python, the same masking (a sensitive select lists no options).
  function inputSpec(el, kind, opts) {
    if (kind === 'hover' || kind === 'scroll') return null; // clicks: they take no input
    return globalThis.__cdpagentObserve.inputSpec(el, kind, opts, true);
  }

  // A cell's value: a control (or anything sensitive) is read exactly as the declared
  // collector reads a field; other cells give their visible text.
  function fieldValue(el, opts) {
    if (isSensitive(el) || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) {
      return globalThis.__cdpagentObserve.fieldValue(el, opts);
    }
    const text = textOf(el, opts.max_string);
    if (text) return text;
    const control = el.querySelector('input,select,textarea');
    if (control) return fieldValue(control, opts);
    return '';
  }

  function inViewport(r, vw, vh) {
    return (r.width > 0 || r.height > 0) && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  }

  // 53-bit FNV-style hash of a row's text: the same text gives the same id after a re-render.
  function hashId(text) {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    return 'r' + ((h1 >>> 0).toString(36) + (h2 >>> 11).toString(36)).slice(0, 10);
  }

  function openModal() {
    let modal = null;
    const dialogs = [...document.getElementsByTagName('dialog'), ...document.querySelectorAll('[aria-modal="true"]')];
    for (const d of dialogs.sort(docOrder)) {
      if (d.tagName === 'DIALOG' ? d.matches(':modal') : d.checkVisibility(VIS)) modal = d;
    }
    return modal;
  }

  // The registry of inferred elements: locator key -> WeakRef<Element>.
  let registry = new Map();
  // In-place edit labels of the rows the agent can name -> their row (see IN_PLACE).
  let revealers = new WeakMap();
  let lastOptions = null;
  let lastMode = 'all';
  const keyOf = (name, record, path, ordinal) => JSON.stringify([name, record == null ? null : record, path, ordinal || 0]);

  function plan(mode) {
    if (mode === 'off' || mode === 'undeclared' || mode === 'all') return mode;
    return document.querySelector(DECLARED) ? 'off' : 'all';
  }

  function infer(optionsJson, mode) {
    const t0 = now();
    const opts = Object.assign({
      full_records: 20, include: [], sample: 3, enum_limit: 10, max_string: 2000,
      max_regions: 100, max_page_actions: 200, max_feedback: 32, max_state: 64,
    }, optionsJson ? JSON.parse(optionsJson) : {});
    labels = labelTexts();
    // Elements with a role, found once: landmarks, widgets and controls are picked from them.
    const roled = Array.from(document.querySelectorAll('[role]'));
    const clickables = CLICK ? CLICK.pass(opts) : []; // clicks
    lastOptions = optionsJson;
    lastMode = mode;
    const skipDeclared = mode === 'undeclared';
    const declared = (el) => skipDeclared && !!el.closest('[data-agent-action],[data-agent-record]');
    const holdsDeclared = (el) => skipDeclared && !!el.querySelector('[data-agent-record]');
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const anyAriaHidden = !!document.querySelector('[aria-hidden="true"]');
    ariaHiddenAnywhere = anyAriaHidden;
    const modal = openModal();
    const modalLabel = modal ? (ariaName(modal, 80) || headingOf(modal) || 'dialog') : null;
    const covered = (el) => !!modal && !modal.contains(el) && !el.contains(modal);
    const hasInert = !!document.querySelector('[inert]');
    const hidden = (el) => anyAriaHidden && !!el.closest('[aria-hidden="true"]');
    const nextRegistry = new Map();
    const nextRevealers = new WeakMap();

    // Regions.
    const regionInfo = new Map();
    const regions = [];
    const usedIds = new Map();
    // Inferred region ids never take a declared one: paths key labels and locators.
    if (skipDeclared) for (const el of document.querySelectorAll('[data-agent-region]')) usedIds.set(el.getAttribute('data-agent-region'), 1);
    let regionsTotal = 0;
    const ancestorRegion = (el) => {
      for (let p = el.parentElement && el.parentElement.closest(LANDMARK); p; p = p.parentElement && p.parentElement.closest(LANDMARK)) {
        const info = regionInfo.get(p);
        if (info) return info;
      }
      return null;
    };
    for (const el of byTagAndRole(LANDMARK_TAGS, LANDMARK_ROLES, roled)) {
      if (!isLandmark(el)) continue;
      if (skipDeclared && el.hasAttribute('data-agent-region')) continue;
      const role = landmarkRole(el);
      const named = ariaName(el, 80);
      if (!role || (NAMED_ONLY.test(role) && !named) || hidden(el)) continue;
      const label = named || headingOf(el) || role;
      let id = slug(label) || role;
      const n = (usedIds.get(id) || 0) + 1;
      usedIds.set(id, n);
      if (n > 1) id = `${id}_${n}`;
      const parent = ancestorRegion(el);
      let state = 'active';
      if (!el.checkVisibility(VIS)) state = 'hidden';
      else if (hasInert && el.closest('[inert]')) state = 'inert';
      else if (covered(el)) state = 'covered';
      if (parent && (parent.state === 'hidden' || parent.state === 'inert')) state = parent.state;
      const info = { id, state, path: parent ? parent.path.concat([id]) : [id], out: null };
      regionInfo.set(el, info);
      regionsTotal++;
      if (regions.length < opts.max_regions) {
        info.out = {
          id, label, role, purpose: '', parent: parent ? parent.id : null, path: info.path, state,
          covered_by: state === 'covered' ? modalLabel : null,
          in_viewport: state !== 'hidden' && inViewport(el.getBoundingClientRect(), vw, vh),
          modal: el === modal, source: 'inferred',
          actions_total: 0, actions_visible: 0, records_total: 0, records_visible: 0,
        };
        regions.push(info.out);
      }
    }
    const regionOf = (el) => {
      const own = regionInfo.get(el);
      return own || ancestorRegion(el);
    };

    const reasonOf = (el, shown, kind) => {
      if (el.disabled === true || el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true') return 'disabled';
      if (hasInert && el.closest('[inert]')) return 'inert';
      if (!shown && !(CLICK && CLICK.hoverPath(el).length)) return 'hidden'; // clicks: hover-then-click
      if (covered(el)) return `behind the open dialog "${modalLabel}"`;
      if (kind === 'type' && el.readOnly) return 'read-only';
      return null;
    };

    // Records: table rows, then items of lists whose items hold controls.
    const containers = [];
    for (const table of byTagAndRole(['table'], TABLE_ROLES, roled)) {
      if (declared(table) || holdsDeclared(table) || hidden(table)) continue;
      const rows = tableRows(table);
      if (rows.body.length) containers.push({ el: table, rows: rows.body, headers: rows.headers, table: true });
    }
    for (const list of byTagAndRole(['ul', 'ol'], LIST_ROLES, roled)) {
      if (declared(list) || holdsDeclared(list) || hidden(list) || list.closest(NOT_RECORDS)) continue;
      const items = [];
      for (const li of list.children) {
        if (/^(LI|ARTICLE)$/.test(li.tagName) || li.getAttribute('role') === 'listitem' || li.getAttribute('role') === 'article') items.push(li);
      }
      if (!items.length || !items.some(hasOwnControls)) continue;
      containers.push({ el: list, rows: items, headers: null, table: false });
    }
    for (const c of cardContainers(containers, regionInfo, roled)) {
      if (!declared(c.el) && !holdsDeclared(c.el) && !hidden(c.el)) containers.push(c);
    }
    if (CLICK) for (const c of CLICK.containers(containers)) if (!declared(c.el) && !hidden(c.el)) containers.push(c); // clicks
    const recordOf = new Map();
    const seenIds = new Map();
    const ids = [];
    const activeRecords = [];
    let inactive = 0;
    for (const c of containers) {
      const region = regionOf(c.el);
      c.region = region;
      const regionActive = !region || region.state === 'active' || region.state === 'covered';
      for (const row of c.rows) {
        if (recordOf.has(row)) continue;
        let id = row.id || row.getAttribute('data-id') || row.getAttribute('data-key');
        if (!id) {
          const link = row.querySelector('a[href]');
          id = link ? link.getAttribute('href') : hashId(keyText(row, c.table));
        }
        id = clip(id, 200);
        const n = (seenIds.get(id) || 0) + 1;
        seenIds.set(id, n);
        if (n > 1) id = `${id}~${n}`; // identical rows: told apart by their order among equals only
        const active = regionActive && row.checkVisibility(VIS) && !(hasInert && row.closest('[inert]'));
        const rec = { id, row, container: c, region, active, visible: false, full: null };
        recordOf.set(row, rec);
        if (!active) {
          inactive++;
          continue;
        }
        ids.push(id);
        activeRecords.push(rec);
        if (region && region.out) region.out.records_total++;
      }
    }
    markViewport(activeRecords, vw, vh);
    const viewport = [];
    for (const rec of activeRecords) {
      if (!rec.visible) continue;
      viewport.push(rec.id);
      if (rec.region && rec.region.out) rec.region.out.records_visible++;
    }
    const byId = new Map(activeRecords.map((r) => [r.id, r]));
    const chosen = [];
    for (const id of opts.include) {
      const rec = byId.get(id);
      if (rec && !rec.full) { rec.full = true; chosen.push(rec); }
    }
    let picked = 0;
    for (const rec of activeRecords) {
      if (picked >= opts.full_records) break;
      if (rec.visible && !rec.full) { rec.full = true; picked++; chosen.push(rec); }
    }
    const records = [];
    for (const rec of chosen) {
      rec.full = { id: rec.id, label: '', region: rec.region ? rec.region.id : null, in_viewport: rec.visible, fields: {}, actions: {}, source: 'inferred' };
      readRecord(rec, opts);
      records.push(rec.full);
    }

    // Row actions, folded per (name, region).
    const groups = new Map();
    const groupList = [];
    // Each control goes to its nearest record row (walks memoised), or to the page.
    const rowMemo = new Map();
    const rowAbove = (el) => {
      const path = [];
      let row = null;
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (recordOf.has(p)) { row = p; break; }
        const known = rowMemo.get(p);
        if (known !== undefined) { row = known; break; }
        path.push(p);
      }
      for (const p of path) rowMemo.set(p, row);
      return row;
    };
    const rowControls = new Map();
    const pageControls = [];
    for (const el of allControls(roled, clickables)) {
      const row = CLICK && CLICK.floating(el) ? null : recordOf.has(el) ? el : rowAbove(el); // clicks: a clickable row is its own row's action; a popup's items are the page's
      if (!row) pageControls.push(el);
      else if (rowControls.has(row)) rowControls.get(row).push(el);
      else rowControls.set(row, [el]);
    }
    const inPlace = new Map();
    for (const l of orphans) {
      const row = rowAbove(l);
      if (row && !inPlace.has(row) && squash(l.textContent)) inPlace.set(row, l);
    }
    for (const c of containers) {
      const named = [];
      const counts = new Map();
      for (const row of c.rows) {
        const rec = recordOf.get(row);
        if (!rec || rec.container !== c) continue;
        const controls = [];
        let typed = false;
        const own = rowControls.get(row) || [];
        if (own.length > 1) own.sort(docOrder);
        for (const el of own) {
          if (hidden(el)) continue;
          const role = roleOf(el);
          if (POPUP_ITEM.test(role)) continue;
          const kind = kindOf(el, role);
          if (kind === 'type') typed = true;
          controls.push([el, role, kind, nameOf(el, 120)]);
        }
        const label = typed ? null : inPlace.get(row);
        if (label) {
          controls.push([label, IN_PLACE, 'type', '']);
          if (rec.visible || rec.full) nextRevealers.set(label, row);
        }
        for (const [, , , s] of controls) if (s) counts.set(s, (counts.get(s) || 0) + 1);
        named.push([rec, controls]);
      }
      const rowsOf = named.length;
      const region = c.region;
      const path = region ? region.path : [];
      const pathKey = path.join('\u0000');
      for (const [rec, controls] of named) {
        const taken = new Map();
        for (const [el, role, kind, label] of controls) {
          // A name that differs on every row names the row, not the action (and is
          // never slugged: 10,000 unique names cost more than the rest of the row).
          const s = label && (rowsOf === 1 || counts.get(label) > 1 || (CLICK && CLICK.ownName(el))) ? slug(label) : ''; // clicks: popup and menu items keep their names
          let name = s || genericName(el, role, kind, label);
          if (!name) continue;
          const n = (taken.get(name) || 0) + 1;
          taken.set(name, n);
          if (n > 1) name = `${name}_${n}`;
          const gkey = name + '\u0000' + pathKey;
          let g = groups.get(gkey);
          if (!g) {
            g = {
              name, kind, effect: effectOf(el, role, kind, label), description: rowDescription(el, role, kind, name, opts),
              region: region ? region.id : null, region_path: path, confirm: null, handoff: null,
              submit: kind === 'type' && el.tagName !== 'TEXTAREA', input: inputSpec(el, kind, opts),
              rows: 0, available: 0, offscreen: 0, visible: 0, sample: [], available_ids: [], reasons: {},
              order: 0, source: 'inferred', first: el,
            };
            if (g.input) { delete g.input.value; delete g.input.checked; }
            groups.set(gkey, g);
            groupList.push(g);
          }
          if (!rec.active) continue;
          // Only rows the agent can name now are registered; find() re-infers for any other.
          if (rec.visible || rec.full) nextRegistry.set(keyOf(name, rec.id, path, 0), new WeakRef(el));
          g.rows++;
          if (rec.visible) g.visible++;
          else g.offscreen++;
          if (region && region.out) {
            region.out.actions_total++;
            if (rec.visible) region.out.actions_visible++;
          }
          const exact = rec.visible || rec.full;
          let reason = null;
          if (el.disabled === true || el.getAttribute('aria-disabled') === 'true') reason = 'disabled';
          else if (exact) reason = reasonOf(el, el.checkVisibility(VIS), kind);
          if (reason) {
            g.reasons[reason] = (g.reasons[reason] || 0) + 1;
          } else {
            g.available++;
            if (g.sample.length < opts.sample) g.sample.push(rec.id); // document order: viewport rows first on a list read top down
            if (g.available_ids && g.available_ids.length <= opts.enum_limit) g.available_ids.push(rec.id);
          }
          if (rec.full) rec.full.actions[name] = reason ? { available: false, reason } : { available: true };
        }
      }
    }
    for (const g of groupList) {
      if (g.available_ids && (g.available > opts.enum_limit || g.available_ids.length > opts.enum_limit)) g.available_ids = null;
    }

    // Page actions: named controls outside records.
    const pageActions = [];
    const pageEls = [];
    const ordinals = new Map();
    let pageTotal = 0;
    pageControls.sort(docOrder);
    for (const el of pageControls) {
      if (declared(el) || (hidden(el) && !(CLICK && CLICK.hoverPath(el).length))) continue; // clicks: items of closed hover menus
      const role = roleOf(el);
      const shown = el.checkVisibility(VIS);
      if (POPUP_ITEM.test(role) && !shown && !(CLICK && CLICK.hoverPath(el).length)) continue; // clicks
      const label = nameOf(el, 200);
      if (!label) continue;
      const kind = kindOf(el, role);
      const name = slug(label) || kind;
      const region = regionOf(el);
      const path = region ? region.path : [];
      const okey = name + '\u0000' + path.join('\u0000');
      const ordinal = ordinals.get(okey) || 0;
      ordinals.set(okey, ordinal + 1);
      nextRegistry.set(keyOf(name, null, path, ordinal), new WeakRef(el));
      const visible = shown && inViewport(el.getBoundingClientRect(), vw, vh);
      pageTotal++;
      if (region && region.out) {
        region.out.actions_total++;
        if (visible) region.out.actions_visible++;
      }
      if (pageActions.length >= opts.max_page_actions) continue;
      const reason = reasonOf(el, shown, kind);
      pageEls.push(el);
      pageActions.push({
        name, kind, effect: effectOf(el, role, kind, label), description: describe(el, role, label),
        region: region ? region.id : null, region_path: path, ordinal,
        available: !reason, reason, confirm: null, handoff: null,
        submit: kind === 'type' && lone(el), input: inputSpec(el, kind, opts),
        in_viewport: visible, order: 0, source: 'inferred',
      });
    }
    if (CLICK) for (const [el, a] of CLICK.extra(regionOf, vw, vh)) { pageTotal++; pageEls.push(el); pageActions.push(a); } // clicks: scroll a text area
    const entries = pageActions.map((a, i) => [pageEls[i], a]).concat(groupList.map((g) => [g.first, g]));
    entries.sort((x, y) => (x[0].compareDocumentPosition(y[0]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    entries.forEach((e, i) => { e[1].order = i; });
    for (const g of groupList) delete g.first;
    registry = nextRegistry;
    revealers = nextRevealers;

    const state = inferState(containers, opts, roled);
    const feedback = inferFeedback(opts, skipDeclared, regionOf, roled);
    return JSON.stringify({
      identity: { title: clip(document.title, 300), path: clip(location.pathname, 300), route: null, route_params: {}, query: {} },
      regions, regions_total: regionsTotal,
      actions: pageActions, actions_total: pageTotal, row_actions: groupList.filter((g) => g.rows > 0),
      records, record_index: { ids, viewport, inactive, duplicates: [] },
      state: state.items.slice(0, opts.max_state), state_total: state.items.length,
      feedback: feedback.items, feedback_total: feedback.total,
      modal: modalLabel, warnings: [], collect_ms: now() - t0,
    });
  }

  function landmarkRole(el) {
    const role = el.getAttribute('role');
    if (role) return role;
    const byTag = {
      MAIN: 'main', NAV: 'navigation', ASIDE: 'complementary', FORM: 'form', SEARCH: 'search',
      SECTION: 'region', ARTICLE: 'article', DIALOG: 'dialog',
    };
    if (byTag[el.tagName]) return byTag[el.tagName];
    // header and footer are page landmarks only outside sectioning content.
    const scoped = el.parentElement && el.parentElement.closest('article,aside,main,nav,section');
    if (el.tagName === 'HEADER') return scoped ? 'group' : 'banner';
    if (el.tagName === 'FOOTER') return scoped ? 'group' : 'contentinfo';
    return null;
  }

  function headingOf(el) {
    const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading],legend,caption');
    return h ? textOf(h, 80) : '';
  }

  function tableRows(table) {
    const body = [];
    let headers = [];
    const rows = table.tagName === 'TABLE' ? table.rows : table.querySelectorAll('[role=row]');
    for (let r = 0, n = rows.length; r < n; r++) {
      const row = rows[r];
      const tr = row.tagName === 'TR';
      if (tr ? !row.firstElementChild : !row.querySelector(CELL)) continue;
      if (!isHeaderRow(row, tr)) body.push(row);
      else if (!body.length) {
        const cells = tr ? row.cells : row.querySelectorAll(CELL);
        headers = Array.from(cells, (c, i) => slugless(textOf(c, 40)) || `column ${i + 1}`);
      }
    }
    return { body, headers };
  }
  const CELL = '[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]';
  // A header row: in <thead>, or only header cells. Walks the children and stops at
  // the first data cell (collections per row of a 10,000-row table showed in profiles).
  function isHeaderRow(row, tr) {
    if (row.parentElement && row.parentElement.tagName === 'THEAD') return true;
    if (!tr) return Array.prototype.every.call(row.querySelectorAll(CELL), (c) => c.getAttribute('role') === 'columnheader');
    for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName === 'TD' || (c.tagName !== 'TH' && c.getAttribute('role') !== 'columnheader')) return false;
    }
    return true;
  }
  const slugless = (s) => s.replace(/… \(cut.*$/, '…');

  // What a content-hash id is made of: a table row's first cell with text (its key
  // column, so editing another cell keeps the id), else the item's whole text.
  function keyText(row, table) {
    if (table) {
      const cells = row.tagName === 'TR' ? row.cells : row.querySelectorAll('[role=cell],[role=gridcell],[role=rowheader]');
      for (const cell of cells) {
        const t = squash(cell.textContent);
        if (t) return t;
      }
    }
    return squash(row.textContent);
  }

  // Cards: siblings of one shape (tag and classes) outside lists and tables, at least
  // CARDS of them holding a title (heading or link) and an action that is not a link
  // (repeated documentation sections hold links only: they are not records). Found
  // upward from headings and links, so the cost follows those, not the page's size.
  const CARDS = 3;
  const CARD_TITLE = 'h1,h2,h3,h4,h5,h6,[role=heading],a[href]';
  const CARD_DEPTH = 6;
  const CARD_TITLE_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a'];
  // What stops the walk up from a title: tables, lists and NOT_RECORDS.
  const CARD_STOP_TAGS = ['table', 'ul', 'ol', 'nav'];
  const CARD_STOP_ROLES = new Set(['grid', 'treegrid', 'table', 'list', 'feed', 'navigation', 'menu', 'menubar',
    'tablist', 'listbox', 'tree', 'radiogroup', 'toolbar']);
  const shapeOf = (el) => el.tagName + (el.classList.length ? '.' + Array.from(el.classList).sort().join('.') : '');
  const isCard = (el) => !!el.querySelector(CARD_TITLE) && controlsIn(el).some((c) => roleOf(c) !== 'link');

  function cardContainers(containers, regionInfo, roled) {
    // Elements inside a table, list or composite widget (true) or not (false), memoised per walk.
    const inside = new Map();
    for (const tag of CARD_STOP_TAGS) for (const el of document.getElementsByTagName(tag)) inside.set(el, true);
    for (const el of roled) if (CARD_STOP_ROLES.has(firstRole(el))) inside.set(el, true);
    for (const c of containers) inside.set(c.el, true);
    const within = (el) => {
      const path = [];
      let v = false;
      for (let p = el; p; p = p.parentElement) {
        const known = inside.get(p);
        if (known !== undefined) { v = known; break; }
        path.push(p);
      }
      for (const p of path) inside.set(p, v);
      return v;
    };
    const checked = new Map(); // parent -> shapes of children already looked for there
    const out = [];
    const seeds = [];
    for (const tag of CARD_TITLE_TAGS) for (const el of document.getElementsByTagName(tag)) seeds.push(el);
    for (const el of roled) if (firstRole(el) === 'heading') seeds.push(el);
    for (const seed of seeds) {
      if (within(seed) || (seed.tagName === 'A' && !seed.hasAttribute('href'))) continue;
      let card = seed.parentElement;
      for (let depth = 0; card && depth < CARD_DEPTH; card = card.parentElement, depth++) {
        const parent = card.parentElement;
        if (!parent || card === document.body || regionInfo.has(card)) break;
        const shape = shapeOf(card);
        const shapes = checked.get(parent) || new Set();
        if (shapes.has(shape)) break;
        checked.set(parent, shapes.add(shape));
        const rows = Array.prototype.filter.call(parent.children, (sib) => shapeOf(sib) === shape);
        if (rows.length >= CARDS && atLeast(rows, isCard, CARDS)) {
          out.push({ el: parent, rows, headers: null, table: false, card: true });
          break;
        }
      }
    }
    return out.sort((a, b) => docOrder(a.el, b.el));
  }
  function atLeast(items, test, n) {
    let found = 0;
    for (const item of items) if (test(item) && ++found >= n) return true;
    return false;
  }

  function hasOwnControls(item) {
    const controls = controlsIn(item);
    if (!controls.length) return false;
    if (controls.length > 1) return true;
    // One link that is the whole item is a link, not a record with a link.
    return squash(item.textContent).length > squash(controls[0].textContent).length + 2;
  }

  // The text field an in-place edit label revealed in its row: the focused one, else
  // the first shown; null while none is shown.
  function revealedField(label) {
    const row = revealers.get(label);
    if (!row) return null;
    const active = document.activeElement;
    if (active && row.contains(active) && active.matches(TEXT_FIELD)) return active;
    for (const f of row.querySelectorAll(TEXT_FIELD)) if (f.checkVisibility(VIS)) return f;
    return null;
  }

  function genericName(el, role, kind, label) {
    const own = CLICK && CLICK.verb(el); // clicks
    if (own) return own;
    if (kind === 'check') return 'toggle';
    if (kind === 'type') return 'edit';
    if (kind === 'select') return 'choose';
    if (el.hasAttribute('aria-expanded')) return 'expand';
    if (role === 'link') return 'open';
    return label ? 'press' : '';
  }

  function rowDescription(el, role, kind, name, opts) {
    const own = CLICK && CLICK.describe(el, nameOf(el, 160)); // clicks
    if (own) return own;
    if (role === IN_PLACE) return 'Replace the row\'s text (double-clicks it to open the row\'s editor, types, presses Enter)';
    if (kind === 'check') return 'Check or uncheck the row';
    if (el.hasAttribute('aria-expanded')) return 'Expand or collapse the row';
    if (roleOf(el) === 'link') return 'Open the row\'s link';
    return clip(nameOf(el, 160) || name.replace(/_/g, ' '), opts.max_string);
  }

  function describe(el, role, label) {
    const own = CLICK && CLICK.describe(el, label); // clicks
    if (own) return own;
    if (role === 'tab') return `${label} (tab)`;
    if (el.hasAttribute('aria-expanded') && role !== 'combobox') return `${label} (expands or collapses)`;
    if (role === 'combobox' && el.tagName !== 'SELECT' && el.tagName !== 'INPUT') return `${label} (opens a list of options)`;
    if (role === 'option') return `${label} (option)`;
    if (/^menuitem/.test(role)) return `${label} (menu item)`;
    return label;
  }

  // A text field submits with Enter when it is alone in its form, or without a form
  // in its landmark: typing into one field of several must not send the others.
  const TEXT_FIELD = 'textarea,input:not([type=hidden],[type=button],[type=submit],[type=reset],[type=image],[type=checkbox],[type=radio])';
  function lone(el) {
    if (el.tagName === 'TEXTAREA' || el.isContentEditable) return false;
    const scope = el.form || (isLandmark(el) ? el : landmarkAbove(el)) || document.body;
    return scope.querySelectorAll(TEXT_FIELD).length <= 1;
  }

  function readRecord(rec, opts) {
    const row = rec.row;
    const fields = rec.full.fields;
    if (rec.container.table) {
      const cells = row.tagName === 'TR' ? row.cells : row.querySelectorAll('[role=cell],[role=gridcell],[role=rowheader]');
      const headers = rec.container.headers;
      Array.from(cells).forEach((cell, i) => {
        const name = headers[i] || `column ${i + 1}`;
        if (!(name in fields)) fields[name] = fieldValue(cell, opts);
      });
      rec.full.label = cells.length ? clip(fieldValue(cells[0], opts), 200) : '';
    } else {
      // innerText: what is shown, so opening a disclosure changes the record.
      const text = clip(row.innerText, opts.max_string);
      fields.text = text;
      const title = rec.container.card && row.querySelector(CARD_TITLE);
      rec.full.label = clip(title ? textOf(title, 80) : text, 80);
    }
    const check = row.querySelector('input[type=checkbox],[role=checkbox],[role=switch]');
    if (check && !rec.container.table) fields.checked = 'checked' in check ? !!check.checked : check.getAttribute('aria-checked') === 'true';
    const expander = row.querySelector('[aria-expanded]');
    if (expander) fields.expanded = expander.getAttribute('aria-expanded') === 'true';
    const mark = row.getAttribute('aria-selected') || row.getAttribute('aria-current');
    if (mark && mark !== 'false') fields.selected = true;
  }

  // Viewport membership of rows in document order: rows are laid out top to
  // bottom, so a binary search finds the window with O(log n) layout reads.
  function markViewport(list, vw, vh) {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].row.getBoundingClientRect().bottom > 0) hi = mid;
      else lo = mid + 1;
    }
    for (let i = lo; i < list.length; i++) {
      const r = list[i].row.getBoundingClientRect();
      if (r.top >= vh) break;
      list[i].visible = inViewport(r, vw, vh);
    }
  }

  function inferState(containers, opts, roled) {
    const items = [];
    // One walk finds every ARIA state the page shows; each kind keeps up to 20 names.
    const STATES = [
      ['current', '[aria-current]:not([aria-current=false])', 'aria-current'],
      ['selected tab', '[role=tab][aria-selected=true]', 'aria-selected'],
      ['selected', '[role=option][aria-selected=true],[role=row][aria-selected=true],[role=gridcell][aria-selected=true]', 'aria-selected'],
      ['pressed', '[aria-pressed=true]', 'aria-pressed'],
      ['checked', '[role=checkbox][aria-checked=true],[role=switch][aria-checked=true],[role=radio][aria-checked=true],[role^=menuitem][aria-checked=true]', 'aria-checked'],
      ['expanded', '[aria-expanded=true]', 'aria-expanded'],
    ];
    const found = STATES.map(() => []);
    const anyState = STATES.map((k) => k[1]).join(',');
    for (const el of document.querySelectorAll('[aria-current],[aria-selected],[aria-pressed],[aria-checked],[aria-expanded]')) {
      if (!el.matches(anyState)) continue;
      if (el.closest('[aria-hidden="true"]') || !el.checkVisibility(VIS)) continue;
      STATES.forEach((k, i) => {
        if (found[i].length >= 20 || !el.matches(k[1])) return;
        const n = nameOf(el, 80);
        if (n) found[i].push(n);
      });
    }
    const add = (name, value, why) => {
      if (value == null || (Array.isArray(value) && !value.length)) return;
      items.push({ name, value, description: `inferred from ${why}`, region: null });
    };
    STATES.forEach((k, i) => add(k[0], found[i], k[2]));
    const sort = {};
    for (const th of document.querySelectorAll('[aria-sort]:not([aria-sort=none])')) {
      sort[textOf(th, 40) || 'column'] = th.getAttribute('aria-sort');
    }
    if (Object.keys(sort).length) add('sort', sort, 'aria-sort');
    for (const box of roled) {
      if (firstRole(box) === 'combobox' && box.tagName !== 'INPUT' && box.tagName !== 'SELECT' && box.checkVisibility(VIS)) add(slugless(nameOf(box, 40)) || 'combobox', textOf(box, 200), 'the combobox\'s value');
    }
    for (const out of document.querySelectorAll('output')) {
      if (!out.checkVisibility(VIS)) continue;
      add(slugless(nameOf(out, 40) || out.getAttribute('name') || 'output'), textOf(out, 200), '<output>');
    }
    // Counts and "page N of M" next to record lists (a few siblings, never a page-wide scan).
    for (const c of containers) {
      const near = [];
      for (let el = c.el, depth = 0; el && depth < 3; el = el.parentElement, depth++) {
        if (el.previousElementSibling) near.push(el.previousElementSibling);
        if (el.nextElementSibling) near.push(el.nextElementSibling);
      }
      for (const el of near) {
        const text = squash(el.textContent);
        if (text.length > 300) continue;
        const count = COUNT.exec(text);
        if (count) add('count', count[0], 'text next to a list');
        const page = /\bpage\s+\d+\s+(of|\/)\s+\d+/i.exec(text);
        if (page) add('page', page[0], 'text next to a list');
      }
    }
    const seen = new Set();
    return { items: items.filter((s) => { const k = s.name + JSON.stringify(s.value); if (seen.has(k)) return false; seen.add(k); return true; }).map((s) => ({ ...s, value: typeof s.value === 'string' ? clip(s.value, opts.max_string) : s.value })) };
  }

  function inferFeedback(opts, skipDeclared, regionOf, roled) {
    const items = [];
    const seen = new Set();
    let total = 0;
    const push = (level, message, field, el, source) => {
      if (!message) return;
      const key = message + '\u0000' + (field || '');
      if (seen.has(key)) return;
      seen.add(key);
      total++;
      if (items.length >= opts.max_feedback) return;
      const region = regionOf(el);
      items.push({ level, message, field, region_path: region ? region.path : [], source });
    };
    const candidates = new Set(roled.filter((el) => FEEDBACK_ROLES.has(firstRole(el))));
    for (const el of document.querySelectorAll('[aria-live],[aria-invalid]')) candidates.add(el);
    for (const el of [...candidates].sort(docOrder)) {
      if (!el.matches(FEEDBACK) || !el.checkVisibility(VIS) || el.closest('[aria-hidden="true"]')) continue;
      const role = el.getAttribute('role');
      if (el.getAttribute('aria-invalid') === 'true') {
        if (skipDeclared) continue; // collect.js reports invalid fields
        const message = byIdText(el.getAttribute('aria-errormessage'), opts.max_string) ||
          byIdText(el.getAttribute('aria-describedby'), opts.max_string) ||
          clip(el.validationMessage || 'invalid value', opts.max_string);
        push('error', message, clip(nameOf(el, 80) || el.getAttribute('name') || '', 80) || null, el, 'invalid');
        continue;
      }
      if (skipDeclared && (role === 'alert' || role === 'status')) continue;
      const message = isSensitive(el) ? MASK : textOf(el, opts.max_string);
      const source = role === 'alert' ? 'alert' : role === 'status' ? 'status' : 'live';
      // clicks: an assertive live region (an autocomplete's "5 results are available") is not an error by itself.
      const error = role === 'alert' || (el.getAttribute('aria-live') === 'assertive' && ERRORISH.test(message));
      push(error ? 'error' : 'info', message, null, el, source);
    }
    for (const el of document.querySelectorAll(':user-invalid')) {
      if (!el.checkVisibility(VIS)) continue;
      push('error', clip(el.validationMessage, opts.max_string), clip(nameOf(el, 80) || el.getAttribute('name') || '', 80) || null, el, 'validation');
    }
    return { items, total };
  }

  function find(locator) {
    const mine = CLICK && CLICK.find(locator); // clicks: second actions (js/clickables.js extra)
    if (mine) return mine;
    const key = keyOf(String(locator.name), locator.record, locator.region_path || [], locator.ordinal);
    const look = () => {
      const ref = registry.get(key);
      const el = ref && ref.deref();
      return el && el.isConnected ? el : null;
    };
    let el = look();
    if (!el) {
      const opts = lastOptions ? JSON.parse(lastOptions) : {};
      if (locator.record != null) opts.include = [String(locator.record)];
      infer(JSON.stringify(opts), lastMode);
      el = look();
    }
    return el && revealers.has(el) ? revealedField(el) || el : el;
  }

  // Whether el is an in-place edit label: typing into it means double-clicking it first.
  const reveals = (el) => revealers.has(el);

  Object.defineProperty(globalThis, '__cdpagentInfer', {
    value: Object.freeze({ plan, infer, find, reveals }),
    writable: false, configurable: false, enumerable: false,
  });
})();
