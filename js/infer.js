// cdpagent inference: the observation of a page that declares nothing (SPEC OB-12).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the isolated world
// "cdpagent-observe", after js/prelude.js (whose strings, masking, naming and
// geometry it uses, so a page is cut and masked as its declared twin would be)
// and collect.js. It defines globalThis.__cdpagentInfer:
//
//   plan(mode) -> "off" | "undeclared" | "all"
//       what to infer: mode null means "all" when the page declares nothing
//       (no data-agent-* region, action, record or state), else "off".
//   infer(optionsJson, mode, fresh) -> string   one JSON snapshot
//       (cdpagent.snapshot.model.Snapshot) built from semantic HTML and ARIA;
//       every region, action, row-action group and record has source "inferred".
//       mode "undeclared" skips what the page declares and the feedback that
//       collect.js already reports; "all" reads the whole page. Later passes answer
//       from the model kept between them (see "the inferred index"); fresh === true
//       drops it and infers from scratch.
//   find(locator) -> Element | null   the element of an inferred ActionLocator
//       (for an in-place edit, the text field it revealed once there is one).
//   reveals(el) -> boolean   el is an in-place edit label: typing into it means
//       double-clicking it first, which reveals the row's text field.
//   choices(el) -> Element[]   the radios of the group whose choose action el is,
//       in the order of the action's options.
//   text(optionsJson) -> string   the page text alone (JSON PageText), for a
//       declared page that opts in (ObserveOptions.page_text).
//   phases() -> string   JSON {phase: ms} of the last infer() pass (bench/observe_inferred.py).
//   model() -> string   JSON {model, rows, clickables} of the last pass: "built" (from
//       scratch), "kept" (nothing changed) or "patched" (rows re-read alone), see "the
//       inferred index"; clickables: the clickables pass ran again.
//
// infer() runs in phases, one function each (context, regions, records, row
// actions, page actions, state, feedback, page text); every bound comes from
// optionsJson (ObserveOptions.collector_args()).
//
// Theory of operation:
//   regions   landmarks (main, nav, header, footer, aside, form, search, named
//             section/article, dialogs, named tab panels), labelled by their
//             accessible name or first heading;
//   actions   every interactive element: buttons and links (links navigate;
//             same-page anchors, tabs, disclosures and search fields read), text
//             fields, date and time fields, editors (type; a lone field submits
//             with Enter), selects (select), checkboxes and switches (check), a
//             radio group (one choose action, its options named by their labels),
//             ranges and sliders (set), visible options and menu items; named as
//             a person reads the page (see NAMING), a weak name marked with its
//             name_source; one element is one action (a control inside another
//             of the same name, like a tab's link, is the outer one);
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
//             browser's own constraint validation of fields the user touched;
//   text      the visible text in reading order, block by block (headings,
//             paragraphs, list items, captions, plain values, text around
//             controls), viewport first, without what records, fields and labels
//             already show, within opts.text_chars, the rest counted.
//
// Nothing is written to the page's DOM (pages can see attributes): every
// inferred action's element is kept in a registry of WeakRefs keyed by its
// locator, rebuilt by each pass; find() falls back to a fresh pass when the
// element is gone. Sensitive values (passwords, hidden inputs, one-time codes,
// card fields) are replaced by "[masked]" before they leave.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const { MASK, VIS, squash, clip, isSensitive, ariaName, byIdText, inViewport } = P;
  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;
  const DECLARED = '[data-agent-region],[data-agent-action],[data-agent-record],[data-agent-state]';
  // Candidates are found by tag or by the presence of a role, then filtered by role
  // in JS: a list of [role=…] selectors costs one attribute match per selector per
  // element, which dominated large pages.
  const LANDMARK = 'main,nav,header,footer,aside,form,search,section,article,dialog,[role]';
  const LANDMARK_TAGS = ['main', 'nav', 'header', 'footer', 'aside', 'form', 'search', 'section', 'article', 'dialog'];
  const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary',
    'form', 'search', 'region', 'dialog', 'alertdialog', 'tabpanel']);
  const NAMED_ONLY = /^(region|article|tabpanel)$/;
  const NAMED_SECTIONS = ':is(section,article):not([role]):is([aria-label],[aria-labelledby])';
  const CONTROL = 'a,button,input,select,textarea,summary,[role],[contenteditable]';
  const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'switch', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'searchbox', 'textbox', 'slider', 'spinbutton']);
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
        return editable === '' || editable === 'true' || editable === 'plaintext-only';
      }
    }
  }
  // An ARIA-less slider's handle (jQuery UI, many imitations): a focusable, empty
  // element in or of a "slider" class, without a role. Its kind is set.
  const SLIDER_CLASS = /slider/i;
  const isSliderHandle = (el) => el.hasAttribute('tabindex') && !el.hasAttribute('role') && !el.firstElementChild &&
    SLIDER_CLASS.test(`${el.className} ${el.parentElement ? el.parentElement.className : ''}`) && !squash(el.textContent);
  const SLIDER_HANDLES = '[class*="slider" i][tabindex]:not([role]),[class*="slider" i] > [tabindex]:not([role])';
  const controlsIn = (root) => Array.prototype.filter.call(root.querySelectorAll(CONTROL), isControl);
  const CONTROL_TAG = /^(A|BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY)$/;
  // Every control of the page, not in document order: by tag through the live tag
  // collections (cheap), by role from the pass's one [role] scan, and contenteditable.
  // A selector list costs one match per selector per element, and one per record
  // row cost more than the rest of a pass on large tables.
  // The controls by tag are the selector's matches (no isControl call per link), in
  // document order, less SVG links (tag "a" in lower case); a role makes one of the rest
  // a control too (a link without href with role=button), read from the [role] scan.
  const TAG_CONTROLS = 'a[href],button,input:not([type=hidden i]),select,textarea,summary';
  function allControls(scan, clickables) {
    const out = clickables.slice(); // clicks
    for (const el of document.querySelectorAll(TAG_CONTROLS)) if (el.tagName !== 'a') out.push(el);
    for (const el of scan.roled) {
      if (CONTROL_TAG.test(el.tagName) ? !el.matches(TAG_CONTROLS) && isControl(el) : isControl(el)) out.push(el);
    }
    for (const el of scan.editable) {
      if (!CONTROL_TAG.test(el.tagName) && !el.hasAttribute('role') && isControl(el)) out.push(el);
    }
    for (const el of scan.sliderHandles) if (!CONTROL_TAG.test(el.tagName) && isSliderHandle(el) && !out.includes(el)) out.push(el);
    return out;
  }
  // The pass's controls split into those of each record row (its nearest record row
  // above) and the page's. A control outside every record container is the page's without
  // a walk (50,000 links on a page without records: none); inside one, the row is found by
  // closest() over the row tags of tables and lists, a memoised walk only for cards and
  // clickable blocks (rows of any tag).
  const ROWISH = 'tr,li,article,[role=row],[role=listitem],[role=article]';
  const ROWISH_TAG = /^(TR|LI|ARTICLE)$/;
  const BOXES_MAX = 32;
  function controlsByRow(ctx, containers, clickables) {
    const rowControls = new Map();
    const pageControls = [];
    const boxes = containers.map((c) => c.el);
    const rowish = containers.every((c) => c.table || c.rows.every((r) => ROWISH_TAG.test(r.tagName) || /^(row|listitem|article)$/.test(firstRole(r) || '')));
    const rowAbove = (el) => {
      if (!boxes.length || (boxes.length <= BOXES_MAX && !boxes.some((b) => b.contains(el)))) return null;
      if (!rowish) return ctx.rowAbove(el);
      // From el itself (not a record: that was asked first), so the cells on the way get no
      // wrapper in this world.
      for (let p = el.closest(ROWISH); p; p = p.parentElement && p.parentElement.closest(ROWISH)) {
        if (p !== el && ctx.recordOf.has(p)) return p;
      }
      return null;
    };
    for (const el of allControls(ctx.scan, clickables)) {
      const row = CLICK && CLICK.floating(el) ? null : ctx.recordOf.has(el) ? el : rowAbove(el); // clicks: a clickable row is its own row's action; a popup's items are the page's
      if (!row) pageControls.push(el);
      else if (rowControls.has(row)) rowControls.get(row).push(el);
      else rowControls.set(row, [el]);
    }
    return { rowControls, pageControls };
  }
  // Elements by tag (live collections) and by role (from the pass's one [role] scan),
  // in document order: cheaper than a selector list, which matches every selector
  // against every element of the page.
  // keep(el), when given, filters them before they are ordered.
  function byTagAndRole(tags, roles, roled, keep) {
    const out = [];
    for (const tag of tags) for (const el of document.getElementsByTagName(tag)) if (!keep || keep(el)) out.push(el);
    for (const el of roled) if (roles.has(firstRole(el)) && !tags.includes(el.localName) && (!keep || keep(el))) out.push(el);
    return out.length > 1 ? inDocumentOrder(out) : out;
  }
  const docOrder = (a, b) => (a === b ? 0 : a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);
  // list in document order. A comparator sort asks compareDocumentPosition n log n times,
  // and each call can walk a long sibling list: 83,000 links took 16 s. Long lists are
  // ordered by one walk over the document's elements instead (members outside it, in
  // shadow trees, keep their relative order at the end).
  function inDocumentOrder(list) {
    if (list.length < 256) return list.sort(docOrder);
    const want = new Set(list);
    const out = [];
    for (const el of document.getElementsByTagName('*')) if (want.has(el)) out.push(el);
    if (out.length < want.size) {
      const seen = new Set(out);
      for (const el of list) if (!seen.has(el)) out.push(el);
    }
    return out;
  }
  // list in document order while full() is false, then the rest in any order: what is
  // past the budgets is counted, and counting needs no order (50,000 links are not sorted
  // to name the first few hundred).
  function* orderedUntil(list, full) {
    if (list.length < 256) {
      yield* list.sort(docOrder);
      return;
    }
    const rest = new Set(list);
    for (const el of document.getElementsByTagName('*')) {
      if (full()) break;
      if (rest.delete(el)) yield el;
    }
    yield* rest;
  }
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

  // Control -> its <label> elements, built once per pass: Element.labels walks the
  // whole document on every call, which made large tables quadratic.
  let labels = null;
  // Labels that label no control (captions before fields, in-place edits, see IN_PLACE).
  let orphans = [];
  function labelMap() {
    const map = new Map();
    orphans = [];
    for (const l of document.getElementsByTagName('label')) {
      const c = l.control;
      if (!c) {
        if (!l.htmlFor) orphans.push(l);
        continue;
      }
      const list = map.get(c);
      if (list) list.push(l);
      else map.set(c, [l]);
    }
    return map;
  }

  // The accessible name (ARIA, labels, content, alt, then placeholder and title).
  const nameOf = (el, max) => (CLICK && CLICK.nameOf(el, max)) || P.accessibleName(el, max, labels); // clicks
  // Text as a screen reader would read it: aria-hidden parts left out, sensitive parts masked.
  const textOf = (el, max) => P.textOf(el, max, true);
  const slugs = new Map();
  function slug(text) {
    let out = slugs.get(text);
    if (out === undefined) {
      out = P.slug(text);
      if (slugs.size > 5000) slugs.clear();
      slugs.set(text, out);
    }
    return out;
  }

  function roleOf(el) {
    const role = firstRole(el);
    if (role) return role;
    if (isSliderHandle(el)) return 'slider';
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
      if (t === 'range') return 'slider';
      if (/^(button|submit|reset|image|file|color)$/.test(t)) return 'button';
      return 'textbox';
    }
    return el.isContentEditable ? 'textbox' : 'generic';
  }

  function kindOf(el, role) {
    if (isSliderHandle(el)) return 'set';
    const own = CLICK && CLICK.kindOf(el); // clicks
    if (own) return own;
    const tag = el.tagName;
    if (tag === 'SELECT') return 'select';
    if (tag === 'TEXTAREA' || el.isContentEditable) return 'type';
    if (tag === 'INPUT') {
      if (/^(checkbox|radio)$/.test(el.type)) return 'check';
      if (el.type === 'range') return 'set';
      if (el.type === 'file') return 'upload'; // files: act(..., files=[paths])
      if (/^(button|submit|reset|image|color)$/.test(el.type)) return 'click';
      return 'type';
    }
    if (role === 'checkbox' || role === 'switch' || role === 'radio') return 'check';
    if (role === 'slider') return 'set';
    if (role === 'textbox' || role === 'searchbox' || role === 'spinbutton') return 'type';
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

  // How a date or time field's text is written (the executor fills it as a person would).
  const ISO = {
    date: 'ISO date, e.g. 2026-12-01', time: '24-hour time, e.g. 13:45', 'datetime-local': 'ISO date and time, e.g. 2026-12-01T13:45',
    month: 'ISO month, e.g. 2026-12', week: 'ISO week, e.g. 2026-W49',
  };

  // A control's input spec as the declared collector builds it (the same bounds from
  // Python, the same masking: a sensitive select lists no options), with what
  // inference adds: a slider's bounds and step, a date field's format.
  function inputSpec(el, kind, opts) {
    if (kind === 'hover' || kind === 'scroll') return null; // clicks: they take no input
    if (kind === 'set' && el.tagName !== 'INPUT') return sliderSpec(el, opts);
    const spec = globalThis.__cdpagentObserve.inputSpec(el, kind === 'set' ? 'type' : kind, opts, true);
    if (!spec) return spec;
    if (kind === 'set') {
      const step = el.getAttribute('step');
      if (step) spec.step = clip(step, opts.bound_chars);
      if (!spec.min) spec.min = '0';
      if (!spec.max) spec.max = '100';
    }
    if (el.tagName === 'INPUT' && ISO[el.type] && !spec.doc) spec.doc = ISO[el.type];
    if (el.isContentEditable && spec.value !== undefined && !isSensitive(el)) spec.value = textOf(el, opts.max_string);
    return spec;
  }
  function sliderSpec(el, opts) {
    const spec = { input_type: 'slider' };
    for (const [k, a] of [['min', 'aria-valuemin'], ['max', 'aria-valuemax']]) {
      const v = el.getAttribute(a);
      if (v) spec[k] = clip(v, opts.bound_chars);
    }
    const value = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    if (value) spec.value = isSensitive(el) ? MASK : clip(value, opts.bound_chars);
    // fit: an ARIA-less slider's range as a set action measured it (the numbers shown beside it).
    const scale = !value && !spec.min && !spec.max && globalThis.__cdpagentAct && globalThis.__cdpagentAct.sliderScale(el);
    if (scale && !isSensitive(el)) Object.assign(spec, { min: String(scale.min), max: String(scale.max), value: String(scale.value) });
    return spec;
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

  // --- naming (NAMING) -------------------------------------------------------------------
  //
  // Every control gets a name, the way a person reads the page: its accessible name
  // (ARIA, tied labels, its content for buttons and links); else an untied <label>
  // or caption just before it in the same block (after it, for a checkbox or
  // radio); its placeholder; its title; its column header or the caption of its
  // row; its humanised name or id ("user_name" -> "user name"); finally its
  // position ("text field 2 in Login"). Each weak source is said in name_source.

  const FIELD_KINDS = /^(type|select|check|set)$/;
  const CELL_TAGS = /^(TD|TH)$/;
  const BLOCK_STOP = /^(FORM|FIELDSET|MAIN|NAV|SECTION|ARTICLE|ASIDE|HEADER|FOOTER|BODY|DIALOG|TABLE|UL|OL|TR)$/;
  // A caption is a few words ("Username", "5 x 5 =", "Date:"); a longer text next to a
  // field is content of the page (the page text shows it), not the field's name.
  const CAPTION_CHARS = 48;
  const SENTENCE = /[.!?]\s*$/;
  // The caption next to el at one level: the first content of node's siblings in
  // direction dir. Returns its text, null when another control comes first (the
  // caption is that control's), undefined when the level holds no content there.
  function captionAt(el, node, dir, used) {
    for (let s = node[dir]; s; s = s[dir]) {
      if (s.nodeType === Node.TEXT_NODE) {
        const t = squash(s.data);
        if (!t) continue;
        if (t.length > CAPTION_CHARS || (SENTENCE.test(t) && t.split(' ').length > 4)) return null;
        used.push(s);
        return t;
      }
      if (s.nodeType !== Node.ELEMENT_NODE || /^(SCRIPT|STYLE|TEMPLATE|BR)$/.test(s.tagName)) continue;
      if (s.tagName === 'LABEL' && s.control && s.control !== el) return null;
      if (HEADING.test(s.tagName) || firstRole(s) === 'heading') return null; // a heading titles a section, not a field
      if ((s.matches(CONTROL) && isControl(s)) || controlsIn(s).length) return null;
      if (!s.checkVisibility(VIS) || s.getAttribute('aria-hidden') === 'true') continue;
      const t = squash(P.pageText(s, true));
      if (!t) continue;
      if (t.length > CAPTION_CHARS || (SENTENCE.test(t) && t.split(' ').length > 4)) return null;
      used.push(s);
      return t;
    }
    return undefined;
  }
  function captionOf(el, kind, max, used) {
    const dirs = kind === 'check' ? ['nextSibling', 'previousSibling'] : ['previousSibling'];
    for (const dir of dirs) {
      let node = el;
      for (let depth = 0; depth < 3 && node; depth++) {
        const t = captionAt(el, node, dir, used);
        if (t) return clip(t, max);
        if (t === null) break;
        const parent = node.parentElement;
        if (!parent || BLOCK_STOP.test(parent.tagName) || CELL_TAGS.test(parent.tagName) || isLandmarkEl(parent)) break;
        node = parent;
      }
    }
    return '';
  }
  const isLandmarkEl = (el) => { const r = firstRole(el); return !!r && (LANDMARK_ROLES.has(r) || r === 'row' || r === 'gridcell' || r === 'cell'); };

  // The column header of el's table cell, or the caption of its row (a first cell
  // without controls, or a row header).
  function headerOf(el, max) {
    const cell = el.closest('td,th,[role=gridcell],[role=cell]');
    if (!cell) return '';
    const row = cell.parentElement;
    const table = cell.closest('table,[role=grid],[role=table],[role=treegrid]');
    if (table && cell.tagName === 'TD') {
      const head = table.tHead && table.tHead.rows[0];
      const th = head && head.cells[cell.cellIndex];
      const t = th ? textOf(th, max) : '';
      if (t) return t;
    }
    const first = row && row.firstElementChild;
    if (first && first !== cell && !controlsIn(first).length) return textOf(first, max);
    return '';
  }

  // fit: the header of the table column el's cell is in, for a row action whose own text
  // differs on every row (a date picker's day links: each column is a weekday).
  function columnOf(el, container) {
    if (!container.table || !container.headers) return '';
    const cell = el.closest('td,th,[role=gridcell],[role=cell]');
    if (!cell || !container.el.contains(cell)) return '';
    const row = cell.parentElement;
    let i = -1;
    if (row && row.tagName === 'TR') i = 'cellIndex' in cell ? cell.cellIndex : Array.prototype.indexOf.call(row.cells, cell);
    else if (row) i = Array.prototype.indexOf.call(row.querySelectorAll(CELL), cell);
    const header = i >= 0 ? container.headers[i] : '';
    return header && !/^column \d+$/.test(header) ? header : '';
  }

  const GENERATED_ID = /\d{3,}|^[a-z]{0,2}[-_:]|^:|[0-9a-f]{8,}/i;
  // A humanised name or id names a control only when it holds a word ("tt1" does not).
  const WORDY = /\p{L}{3,}/u;
  // A control's name and, when weak, where it came from (its name_source).
  // In a record row (inRow) the text next to a control is the row's, not the control's name.
  function controlName(el, role, kind, max, used, inRow) {
    const mine = CLICK && CLICK.named(el, max); // clicks: [name, name_source]
    if (mine) return mine;
    const own = P.ownName(el, max, labels);
    if (own) return [own, null];
    if (!inRow && (FIELD_KINDS.test(kind) || el.isContentEditable)) {
      const caption = captionOf(el, kind, max, used);
      if (caption) return [caption, 'label'];
    }
    const placeholder = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || el.getAttribute('data-placeholder');
    if (placeholder && squash(placeholder)) return [clip(placeholder, max), 'placeholder'];
    const title = el.getAttribute('title');
    if (title && squash(title)) return [clip(title, max), 'title'];
    const header = headerOf(el, max);
    if (header) return [header, 'header'];
    for (const attr of ['name', 'id']) {
      const raw = el.getAttribute(attr);
      const words = raw && !GENERATED_ID.test(raw) ? P.humanise(raw) : '';
      if (WORDY.test(words)) return [clip(words, max), 'attribute'];
    }
    if (isSliderHandle(el) && el.parentElement) return controlName(el.parentElement, role, kind, max, used, inRow); // fit: a handle is named as its track
    return ['', 'position'];
  }

  // What a positional name calls a control.
  function controlWord(el, role, kind) {
    if (kind === 'type') return el.isContentEditable ? 'editor' : 'text field';
    if (kind === 'select') return 'list box';
    if (kind === 'set') return 'slider';
    if (kind === 'choose') return 'choice';
    if (kind === 'upload') return 'file field'; // files
    if (role === 'checkbox' || role === 'switch') return 'checkbox';
    if (role === 'radio') return 'radio button';
    if (role === 'link') return 'link';
    return 'button';
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

  // The open modal dialog of the page (the last one), given the [aria-modal=true] elements.
  function openModal(ariaModal) {
    let modal = null;
    const dialogs = [...document.getElementsByTagName('dialog'), ...ariaModal];
    for (const d of dialogs.sort(docOrder)) {
      if (d.tagName === 'DIALOG' ? d.matches(':modal') : d.checkVisibility(VIS)) modal = d;
    }
    return modal;
  }

  // The registry of inferred elements: locator key -> WeakRef<Element>.
  let registry = new Map();
  // In-place edit labels of the rows the agent can name -> their row (see IN_PLACE).
  let revealers = new WeakMap();
  // The first radio of each offered group -> the group's radios, in option order.
  let groups = new WeakMap();
  let lastOptions = null;
  let lastMode = 'all';
  const keyOf = (name, record, path, ordinal) => JSON.stringify([name, record == null ? null : record, path, ordinal || 0]);

  // The answer of plan(null), kept while no element and no data-agent-* attribute came or
  // went (see declaresMaybe): a page that declares nothing is not scanned for declarations
  // on every observation (nor twice on its first: the listener probe asks too).
  let planned = null;
  const PLAN_WATCH = { subtree: true, childList: true, attributes: true,
    attributeFilter: ['data-agent-region', 'data-agent-action', 'data-agent-record', 'data-agent-state'] };
  const planObserver = new MutationObserver((records) => {
    if (planned && records.some(declaresMaybe)) forgetPlan();
  });
  function forgetPlan() {
    planned = null;
    planObserver.disconnect();
  }
  function plan(mode) {
    if (mode === 'off' || mode === 'undeclared' || mode === 'all') return mode;
    if (planned && !planObserver.takeRecords().some(declaresMaybe)) return planned;
    forgetPlan();
    planned = document.querySelector(DECLARED) ? 'off' : 'all';
    planObserver.observe(document, PLAN_WATCH);
    return planned;
  }

  // A read-only field that opens a picker (a date picker, a popup list) is filled
  // through the picker (the executor opens it): it stays available.
  const PICKER = /date|time|picker|calendar/i;
  const opensPicker = (el) => el.hasAttribute('aria-haspopup') || el.getAttribute('role') === 'combobox' ||
    PICKER.test(`${el.id} ${el.className} ${el.getAttribute('name') || ''}`);

  // --- phase: page context -----------------------------------------------------------------

  // The document-wide questions of a pass, each answered once by the browser's own
  // selector matching: a JS walk over every element (tried) is cheaper on a document this
  // world has read before, but on a freshly loaded one it makes a wrapper for each of its
  // 90,000 elements, which cost more than all these scans on the first observation.
  // One querySelectorAll for all of them: each selector of its own walked the whole
  // document (ten walks of 900,000 elements on a 100,000-row table); the hits, few on most
  // pages, are sorted into their lists by attribute reads, each list in document order.
  const SCANNED = `[role],[contenteditable],${SLIDER_HANDLES},[aria-hidden="true"],[inert],[aria-disabled="true"],` +
    '[aria-modal="true"],[aria-current],[aria-selected],[aria-pressed],[aria-checked],[aria-expanded],[aria-sort],' +
    '[aria-live],[aria-invalid]';
  const STATE_ATTRS = ['aria-current', 'aria-selected', 'aria-pressed', 'aria-checked', 'aria-expanded'];
  function scanAttributes() {
    const scan = {
      roled: [], editable: [], sliderHandles: [], ariaHidden: [], inert: [], ariaDisabled: [], ariaModal: [],
      stated: [], sorted: [], live: [],
    };
    for (const el of document.querySelectorAll(SCANNED)) {
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
    }
    return scan;
  }
  const valued = (list, attr, value) => list.some((el) => el.getAttribute(attr) === value);

  function pageContext(opts, mode, keptScan) {
    const skipDeclared = mode === 'undeclared';
    const scan = keptScan || scanAttributes(); // inferindex: the kept model's scan (see "the inferred index")
    const anyAriaHidden = valued(scan.ariaHidden, 'aria-hidden', 'true');
    const modal = openModal(scan.ariaModal.filter((el) => el.getAttribute('aria-modal') === 'true'));
    const ctx = {
      opts, mode, skipDeclared, scan,
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
    ctx.covered = (el) => !!modal && !modal.contains(el) && !el.contains(modal);
    ctx.hidden = (el) => anyAriaHidden && !!el.closest('[aria-hidden="true"]');
    // Unavailability: disabled (also through an aria-disabled container), inert, hidden,
    // behind the open dialog, read-only.
    ctx.reasonOf = (el, shown, kind) => {
      if (el.disabled === true || el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true' ||
          (ctx.hasAriaDisabled && el.closest('[aria-disabled="true"]'))) return 'disabled';
      if (ctx.hasInert && el.closest('[inert]')) return 'inert';
      // files: a file input hidden behind its styled label still takes files (no click needed).
      if (!shown && kind !== 'upload' && !(CLICK && CLICK.hoverPath(el).length)) return 'hidden'; // clicks: hover-then-click
      if (ctx.covered(el)) return `behind the open dialog "${ctx.modalLabel}"`;
      if (kind === 'type' && el.readOnly && !opensPicker(el)) return 'read-only';
      return null;
    };
    return ctx;
  }

  // --- phase: regions -------------------------------------------------------------------------

  function inferRegions(ctx) {
    const { opts, skipDeclared } = ctx;
    const regionInfo = new Map();
    const regions = [];
    const usedIds = new Map();
    // Inferred region ids never take a declared one: paths key labels and locators.
    if (skipDeclared) for (const el of document.querySelectorAll('[data-agent-region]')) usedIds.set(el.getAttribute('data-agent-region'), 1);
    let total = 0;
    const ancestorRegion = (el) => {
      for (let p = el.parentElement && el.parentElement.closest(LANDMARK); p; p = p.parentElement && p.parentElement.closest(LANDMARK)) {
        const info = regionInfo.get(p);
        if (info) return info;
      }
      return null;
    };
    // Landmarks that are landmarks only when named (10,000 unnamed sections) are left out
    // before the rest is put in document order.
    // Sections and articles without a role are asked for by selector with a name
    // attribute only (10,000 documentation sections are not read one by one); with a
    // role they come with the roled elements.
    const keep = (el) => isLandmark(el) && !(NAMED_ONLY.test(landmarkRole(el) || '') && !ariaName(el, opts.name_chars));
    const namedSections = Array.prototype.filter.call(document.querySelectorAll(NAMED_SECTIONS), keep);
    const found = byTagAndRole(LANDMARK_TAGS.filter((t) => t !== 'section' && t !== 'article'), LANDMARK_ROLES, ctx.roled, keep);
    const candidates = namedSections.length ? inDocumentOrder(found.concat(namedSections)) : found;
    for (const el of candidates) {
      if (skipDeclared && el.hasAttribute('data-agent-region')) continue;
      const role = landmarkRole(el);
      const named = ariaName(el, opts.name_chars);
      if (!role || (NAMED_ONLY.test(role) && !named) || ctx.hidden(el)) continue;
      const label = named || headingOf(el) || role;
      let id = slug(label) || role;
      const n = (usedIds.get(id) || 0) + 1;
      usedIds.set(id, n);
      if (n > 1) id = `${id}_${n}`;
      const parent = ancestorRegion(el);
      let state = 'active';
      if (!el.checkVisibility(VIS)) state = 'hidden';
      else if (ctx.hasInert && el.closest('[inert]')) state = 'inert';
      else if (ctx.covered(el)) state = 'covered';
      if (parent && (parent.state === 'hidden' || parent.state === 'inert')) state = parent.state;
      const info = { id, label, state, path: parent ? parent.path.concat([id]) : [id], out: null, counts: new Map() };
      regionInfo.set(el, info);
      total++;
      if (regions.length < opts.max_regions) {
        info.out = {
          id, label, role, purpose: '', parent: parent ? parent.id : null, path: info.path, state,
          covered_by: state === 'covered' ? ctx.modalLabel : null,
          in_viewport: state !== 'hidden' && inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh),
          modal: el === ctx.modal, source: 'inferred',
          actions_total: 0, actions_visible: 0, records_total: 0, records_visible: 0,
        };
        regions.push(info.out);
      }
    }
    ctx.regionInfo = regionInfo;
    // The region above an element: its nearest ancestor that is a region, found by
    // closest() over the tags of the regions (a memo of every ancestor on the way cost
    // more on 50,000 links than the walks it spared; LANDMARK would stop at each of
    // 10,000 unnamed sections).
    const regionTags = [...new Set(Array.from(regionInfo.keys(), (el) => CSS.escape(el.localName)))].join(',');
    ctx.regionOf = (el) => {
      const own = regionInfo.get(el);
      if (own) return own;
      if (!regionInfo.size) return null;
      // From el itself (not a region: asked first), so its parent gets no wrapper here.
      for (let p = el.closest(regionTags); p; p = p.parentElement && p.parentElement.closest(regionTags)) {
        const info = p === el ? null : regionInfo.get(p);
        if (info) return info;
      }
      return null;
    };
    return { regions, total };
  }

  // --- phase: records -------------------------------------------------------------------------
  //
  // Table rows, then items of lists whose items hold controls, then cards.

  function findContainers(ctx) {
    const containers = [];
    const skip = (el) => ctx.declared(el) || ctx.holdsDeclared(el) || ctx.hidden(el);
    for (const table of byTagAndRole(['table'], TABLE_ROLES, ctx.roled)) {
      if (skip(table)) continue;
      const rows = tableRows(table);
      if (rows.body.length) containers.push({ el: table, rows: rows.body, headers: rows.headers, table: true, heads: rows.heads });
    }
    for (const list of byTagAndRole(['ul', 'ol'], LIST_ROLES, ctx.roled)) {
      if (skip(list) || list.closest(NOT_RECORDS)) continue;
      const items = [];
      for (const li of list.children) {
        if (/^(LI|ARTICLE)$/.test(li.tagName) || li.getAttribute('role') === 'listitem' || li.getAttribute('role') === 'article') items.push(li);
      }
      // owner: the first item that holds controls (what keeps the list a record list).
      const owner = items.find(hasOwnControls);
      if (!owner) continue;
      containers.push({ el: list, rows: items, headers: null, table: false, owner });
    }
    for (const c of cardContainers(containers, ctx.regionInfo, ctx.roled)) {
      if (!skip(c.el)) containers.push(c);
    }
    if (CLICK) for (const c of CLICK.containers(containers)) if (!ctx.declared(c.el) && !ctx.hidden(c.el)) containers.push(c); // clicks
    return containers;
  }

  function indexRecords(ctx, containers, entries) {
    const { opts } = ctx;
    const recordOf = new Map();
    const seenIds = new Map();
    const ids = [];
    const active = [];
    let inactive = 0;
    for (const c of containers) {
      const region = ctx.regionOf(c.el);
      c.region = region;
      const regionActive = !region || region.state === 'active' || region.state === 'covered';
      for (const row of c.rows) {
        if (recordOf.has(row)) continue;
        let e = entries.get(row);
        if (!e || e.container !== c) {
          e = rowEntry(ctx, row, c);
          entries.set(row, e);
        }
        let id = e.id;
        const n = (seenIds.get(id) || 0) + 1;
        seenIds.set(id, n);
        if (n > 1) id = `${id}~${n}`; // identical rows: told apart by their order among equals only
        const on = regionActive && e.shown && !e.inert;
        const rec = { id, row, container: c, region, active: on, visible: false, full: null };
        recordOf.set(row, rec);
        if (!on) {
          inactive++;
          continue;
        }
        ids.push(id);
        active.push(rec);
        if (region && region.out) region.out.records_total++;
      }
    }
    P.markViewport(active, ctx.vw, ctx.vh, (r) => r.row);
    const viewport = [];
    for (const rec of active) {
      if (!rec.visible) continue;
      viewport.push(rec.id);
      if (rec.region && rec.region.out) rec.region.out.records_visible++;
    }
    const byId = opts.include.length ? new Map(active.map((r) => [r.id, r])) : null;
    const chosen = [];
    for (const id of opts.include) {
      const rec = byId.get(id);
      if (rec && !rec.full) { rec.full = true; chosen.push(rec); }
    }
    let picked = 0;
    for (const rec of active) {
      if (picked >= opts.full_records) break;
      if (rec.visible && !rec.full) { rec.full = true; picked++; chosen.push(rec); }
    }
    const records = [];
    for (const rec of chosen) {
      rec.full = { id: rec.id, label: '', region: rec.region ? rec.region.id : null, in_viewport: rec.visible, fields: {}, actions: {}, source: 'inferred' };
      readRecord(rec, opts);
      records.push(rec.full);
    }
    ctx.recordOf = recordOf;
    // Each control goes to its nearest record row (walks memoised), or to the page.
    const rowMemo = new Map();
    ctx.rowAbove = (el) => {
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
    return { records, index: { ids, viewport, inactive, duplicates: [] } };
  }

  // A record row's entry in the kept model (see "the inferred index"): what its inference
  // reads of the row alone (its id, whether it is rendered and inert), kept until something
  // inside the row changes, or anything global does. Its controls are added by the fold.
  function rowEntry(ctx, row, c) {
    let id = row.id || row.getAttribute('data-id') || row.getAttribute('data-key');
    if (!id) {
      const link = row.querySelector('a[href]');
      id = link ? link.getAttribute('href') : hashId(keyText(row, c.table));
    }
    return {
      container: c, id: clip(id, ctx.opts.record_id_chars), shown: row.checkVisibility(VIS),
      inert: !!(ctx.hasInert && row.closest('[inert]')), controls: null, inPlace: null,
    };
  }

  // The row's controls as the fold reads them (own: the row's controls; inPlace: its
  // in-place edit label or null): role, kind, name and what the name falls back to.
  function rowControlsOf(ctx, e, c, own, inPlace) {
    const { opts } = ctx;
    const controls = [];
    let typed = false;
    // column and generic (what the name falls back to) are read when first needed.
    const add = (el, role, kind, label) => controls.push({
      el, role, kind, label, own: !!(CLICK && CLICK.ownName(el)), column: undefined, generic: undefined,
      blocked: el.disabled === true || el.getAttribute('aria-disabled') === 'true',
    });
    if (own.length > 1) own.sort(docOrder);
    for (const el of own) {
      if (ctx.hidden(el)) continue;
      const role = roleOf(el);
      if (POPUP_ITEM.test(role)) continue;
      const kind = kindOf(el, role);
      if (kind === 'type') typed = true;
      add(el, role, kind, controlName(el, role, kind, opts.action_name_chars, ctx.named, true)[0]);
    }
    const label = typed ? null : inPlace;
    if (label) add(label, IN_PLACE, 'type', '');
    e.controls = controls;
    e.inPlace = label;
  }

  // --- phase: row actions, folded per (name, region) --------------------------------------------

  // ownOf(row): the row's controls; inPlaceOf(row): its in-place edit label or null (see
  // IN_PLACE). Both are asked only of rows whose entry holds no controls yet.
  function foldRowActions(ctx, containers, entries, ownOf, inPlaceOf) {
    const { opts } = ctx;
    const groups = new Map();
    const groupList = [];
    const taken = new Map();
    for (const c of containers) {
      const named = [];
      // How many rows have each control name: kept with a kept model's container and
      // patched (keptModel takes a dropped entry's names out, a new entry adds its own).
      const counted = !!c.counts;
      const counts = c.counts || (c.counts = new Map());
      for (const row of c.rows) {
        const rec = ctx.recordOf.get(row);
        if (!rec || rec.container !== c) continue;
        const e = entries.get(row);
        const read = !e.controls;
        if (read) rowControlsOf(ctx, e, c, ownOf(row), inPlaceOf(row));
        const controls = e.controls;
        if (e.inPlace && (rec.visible || rec.full)) ctx.revealers.set(e.inPlace, row);
        if (read || !counted) for (const k of controls) if (k.label) counts.set(k.label, (counts.get(k.label) || 0) + 1);
        named.push([rec, controls]);
      }
      const rowsOf = named.length;
      const region = c.region;
      const path = region ? region.path : [];
      const pathKey = path.join('\u0000');
      for (const [rec, controls] of named) {
        taken.clear();
        for (const k of controls) {
          const { el, role, kind, label } = k;
          // A name that differs on every row names the row, not the action (and is
          // never slugged: 10,000 unique names cost more than the rest of the row).
          const s = label && (rowsOf === 1 || counts.get(label) > 1 || k.own) ? slug(label) : ''; // clicks: popup and menu items keep their names
          if (!s && k.column === undefined) k.column = columnOf(el, c);
          const column = s ? '' : k.column; // fit: a cell's control is named by its column ("Th")
          let name = s || slug(column);
          if (!name) {
            if (k.generic === undefined) k.generic = genericName(el, role, kind, label);
            name = k.generic;
          }
          if (!name) continue;
          const n = (taken.get(name) || 0) + 1;
          taken.set(name, n);
          if (n > 1) name = `${name}_${n}`;
          const gkey = name + '\u0000' + pathKey;
          let g = groups.get(gkey);
          if (!g) {
            g = {
              name, kind, effect: effectOf(el, role, kind, label),
              description: column && slug(column) === name ? `${column} cell of the row` : rowDescription(el, role, kind, name, opts),
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
          if (rec.visible || rec.full) ctx.registry.set(keyOf(name, rec.id, path, 0), new WeakRef(el));
          g.rows++;
          if (rec.visible) g.visible++;
          else g.offscreen++;
          if (region && region.out) {
            region.out.actions_total++;
            if (rec.visible) region.out.actions_visible++;
          }
          const exact = rec.visible || rec.full;
          let reason = null;
          if (k.blocked) reason = 'disabled';
          else if (exact) reason = ctx.reasonOf(el, el.checkVisibility(VIS), kind);
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
    return groupList;
  }

  // --- phase: page actions (controls outside records) ---------------------------------------

  // A control inside another control of the same name is that control seen twice
  // (a tab's <li role=tab> and its <a>, a menu item and its link): one action, the outer.
  function twinOf(el, controlSet) {
    let p = el.parentElement;
    for (let depth = 0; p && depth < 4; p = p.parentElement, depth++) {
      if (!controlSet.has(p)) continue;
      const a = P.ownName(p, 200, labels);
      return a !== '' && a === P.ownName(el, 200, labels);
    }
    return false;
  }

  // The radio group of a radio: its form and name for native radios, its radiogroup
  // (else its parent) for ARIA radios.
  function radioKey(el) {
    if (el.tagName === 'INPUT') return el.name ? `${el.form ? 'f' : 'd'}\u0000${el.name}` : el;
    return el.closest('[role=radiogroup]') || el.parentElement || el;
  }
  const radioContainer = (radio, key) => (typeof key === 'string'
    ? radio.closest('fieldset,[role=radiogroup]') : radio.closest('[role=radiogroup]') || radio.closest('fieldset'));

  // The name of a radio group: its radiogroup's or fieldset's name or legend, else the
  // caption before its first radio, else its humanised name; else positional.
  function groupName(first, key, max, used) {
    const box = radioContainer(first, key);
    if (box) {
      const t = ariaName(box, max) || (box.tagName === 'FIELDSET' && box.querySelector('legend') ? textOf(box.querySelector('legend'), max) : '');
      if (t) return [t, null];
    }
    let node = box || first;
    for (let depth = 0; depth < 3 && node; depth++) {
      const t = captionAt(first, node, 'previousSibling', used);
      if (t) return [clip(t, max), 'label'];
      if (t === null) break;
      if (!node.parentElement || BLOCK_STOP.test(node.parentElement.tagName)) break;
      node = node.parentElement;
    }
    const words = first.tagName === 'INPUT' && first.name && !GENERATED_ID.test(first.name) ? P.humanise(first.name) : '';
    if (WORDY.test(words)) return [clip(words, max), 'attribute'];
    return ['', 'position'];
  }

  // One choose action per radio group: options named by the radios' labels.
  function radioChoice(ctx, radios, key) {
    const { opts } = ctx;
    const first = radios[0];
    const [name, source] = groupName(first, key, opts.action_name_chars, ctx.named);
    const options = [];
    let value = '';
    const members = [];
    for (const r of radios) {
      let label = controlName(r, 'radio', 'check', opts.name_chars, ctx.named)[0] || clip(r.getAttribute('value') || '', opts.name_chars);
      if (!label) label = `option ${options.length + 1}`;
      if (options.length >= opts.list_items) break;
      if (r.disabled || r.getAttribute('aria-disabled') === 'true') continue;
      options.push(label);
      members.push(r);
      if (r.checked === true || r.getAttribute('aria-checked') === 'true') value = label;
    }
    const spec = { input_type: 'radio', options };
    if (isSensitive(first)) { spec.sensitive = true; spec.options = []; if (value) spec.value = MASK; }
    else if (value) spec.value = value;
    if (radios.some((r) => r.required || r.getAttribute('aria-required') === 'true')) spec.required = true;
    return { name, source, spec, members };
  }

  function inferPageActions(ctx, pageControls) {
    const { opts } = ctx;
    const out = [];
    const els = [];
    const ordinals = new Map();
    const positions = new Map();
    let total = 0;
    // fit: a slider's clickable track is the slider, offered once, as its handle's set action.
    pageControls = pageControls.filter((el) => !el.firstElementChild || CONTROL_TAG.test(el.tagName) || isSliderHandle(el) || el.hasAttribute('role') ||
      !Array.prototype.some.call(el.children, isSliderHandle));
    const controlSet = new Set(pageControls);
    // A twin is inside another control: only controls with element children can hold one
    // (none of 50,000 text links), so most controls skip the walk up.
    const holders = pageControls.filter((el) => el.firstElementChild);
    const mayBeTwin = holders.length > BOXES_MAX ? () => true : (el) => holders.some((h) => h !== el && h.contains(el));
    // Radio groups, each offered once, at its first radio.
    const radioGroups = new Map();
    // Radios by their role attribute (the pass's [role] scan) or their type: the role of
    // each of 50,000 links is not asked for.
    const roled = new Set(ctx.roled);
    ctx.roledSet = roled;
    const isRadio = (c) => (roled.has(c) || (c.tagName === 'INPUT' && c.type === 'radio')) && roleOf(c) === 'radio';
    for (const el of inDocumentOrder(pageControls.filter(isRadio))) {
      if (ctx.declared(el) || ctx.hidden(el) || !el.checkVisibility(VIS)) continue;
      const key = radioKey(el);
      const list = radioGroups.get(key);
      if (list) list.push(el);
      else radioGroups.set(key, [el]);
    }
    const groupAt = new Map();
    for (const [key, radios] of radioGroups) groupAt.set(radios[0], [key, radios]);
    const inGroup = new Set();
    for (const radios of radioGroups.values()) for (const r of radios) inGroup.add(r);
    let unoffered = 0;
    const past = [];
    let namedPastVisible = 0;
    const full = opts.unbounded ? () => false : () => out.length >= opts.max_page_actions;
    for (const el of orderedUntil(pageControls, full)) {
      const hovers = CLICK && CLICK.hoverPath(el).length; // clicks: items of closed hover menus
      if (ctx.declared(el)) continue;
      if (ctx.hidden(el) && !hovers) {
        // aria-hidden tells assistive technology to ignore it, so it is not offered; a person
        // may still see it and use it, so a shown, enabled one is counted (OB-13).
        if (el.checkVisibility(VIS) && inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh) &&
            !ctx.reasonOf(el, true, kindOf(el, roleOf(el)))) unoffered++;
        continue;
      }
      if (inGroup.has(el) && !groupAt.has(el)) continue;
      if (out.length >= opts.max_page_actions && !opts.unbounded) {
        // Past what any budget can show: counted, never named nor described (the work
        // stays bounded on a page of 50,000 links), with the checks that decide whether
        // a full pass would offer it; in the viewport or not is read in bulk below.
        if (countedPast(ctx, el, hovers, mayBeTwin(el) && controlSet, groupAt)) {
          total++;
          past.push({ el, region: ctx.regionOf(el), visible: false });
        }
        continue;
      }
      let role = roleOf(el);
      const shown = el.checkVisibility(VIS);
      if (POPUP_ITEM.test(role) && !shown && !hovers) continue; // clicks
      if (mayBeTwin(el) && twinOf(el, controlSet)) continue;
      let kind = kindOf(el, role);
      let label;
      let source;
      let spec = null;
      let group = null;
      if (groupAt.has(el)) {
        const [key, radios] = groupAt.get(el);
        group = radioChoice(ctx, radios, key);
        kind = 'choose';
        role = 'radiogroup';
        label = group.name;
        source = group.source;
        spec = group.spec;
      } else {
        [label, source] = controlName(el, role, kind, opts.action_name_chars, ctx.named);
      }
      const region = ctx.regionOf(el);
      const path = region ? region.path : [];
      if (!label && !shown) continue; // nothing to call it by, and nobody sees it
      if (!label) {
        // Positional: "text field 2 in Login", counted per kind of control and region.
        const word = controlWord(el, role, kind);
        const counts = region ? region.counts : positions;
        const n = (counts.get(word) || 0) + 1;
        counts.set(word, n);
        label = `${word} ${n}` + (region ? ` in ${region.label}` : '');
        source = 'position';
      }
      const name = slug(label) || kind;
      const okey = name + '\u0000' + path.join('\u0000');
      const ordinal = ordinals.get(okey) || 0;
      ordinals.set(okey, ordinal + 1);
      ctx.registry.set(keyOf(name, null, path, ordinal), new WeakRef(el));
      if (group) ctx.groups.set(el, group.members);
      const visible = shown && inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh);
      total++;
      if (region && region.out) {
        region.out.actions_total++;
        if (visible) region.out.actions_visible++;
      }
      if (out.length >= opts.max_page_actions) {
        if (visible) namedPastVisible++; // opts.unbounded: named, then left out as the bounded pass counts it
        continue;
      }
      let reason = ctx.reasonOf(el, shown, kind === 'choose' ? 'check' : kind);
      if (group && reason === 'disabled' && group.members.length) reason = null;
      if (group && !group.members.length) reason = 'disabled';
      els.push(el);
      const action = {
        name, kind, effect: effectOf(el, role, kind, label), description: describe(el, role, label),
        region: region ? region.id : null, region_path: path, ordinal,
        available: !reason, reason, confirm: null, handoff: null,
        submit: kind === 'type' && lone(el), input: spec || inputSpec(el, kind, opts),
        in_viewport: visible, order: 0, source: 'inferred',
      };
      if (source) action.name_source = source;
      out.push(action);
    }
    const pastVisible = countPast(ctx, past) + namedPastVisible;
    return { actions: out, els, total, unoffered, pastVisible };
  }

  // Whether a control past the budget of named actions is one a full pass would offer
  // (and so count): what inferPageActions checks before it names one, with the
  // visibility read only when the answer depends on it and the name only for a
  // control nobody sees. controlSet is false when el cannot be a twin.
  function countedPast(ctx, el, hovers, controlSet, groupAt) {
    let shown;
    const isShown = () => (shown === undefined ? (shown = el.checkVisibility(VIS)) : shown);
    // A popup item's role is always its role attribute.
    if (ctx.roledSet.has(el) && POPUP_ITEM.test(roleOf(el)) && !hovers && !isShown()) return false; // clicks
    if (controlSet && twinOf(el, controlSet)) return false;
    if (isShown()) return true;
    if (groupAt.has(el)) {
      const [key, radios] = groupAt.get(el);
      return !!groupName(radios[0], key, ctx.opts.action_name_chars, [])[0];
    }
    const role = roleOf(el);
    return !!controlName(el, role, kindOf(el, role), ctx.opts.action_name_chars, [])[0];
  }

  // The controls counted past the budget that are in the viewport (their regions'
  // visible counts take them too): per region and tag, in document order, by the
  // layout search records use (P.markViewport: O(log n) reads on a list laid out top to
  // bottom), and a visibility check of the few in view.
  function countPast(ctx, past) {
    const runs = new Map();
    for (const item of past) {
      const key = item.region;
      let byTag = runs.get(key);
      if (!byTag) runs.set(key, (byTag = new Map()));
      const run = byTag.get(item.el.tagName);
      if (run) run.push(item);
      else byTag.set(item.el.tagName, [item]);
    }
    let visible = 0;
    for (const [region, byTag] of runs) {
      if (region && region.out) region.out.actions_total += [...byTag.values()].reduce((n, r) => n + r.length, 0);
      for (const run of byTag.values()) {
        for (const item of P.markViewport(run, ctx.vw, ctx.vh, (i) => i.el)) {
          if (!item.el.checkVisibility(VIS)) continue;
          visible++;
          if (region && region.out) region.out.actions_visible++;
        }
      }
    }
    return visible;
  }

  function orderActions(pageActions, pageEls, groupList) {
    const entries = pageActions.map((a, i) => [pageEls[i], a]).concat(groupList.map((g) => [g.first, g]));
    entries.sort((x, y) => (x[0].compareDocumentPosition(y[0]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    entries.forEach((e, i) => { e[1].order = i; });
    for (const g of groupList) delete g.first;
  }

  // --- phase: page text -------------------------------------------------------------------------
  //
  // The visible text of the page, block by block in document (reading) order:
  // headings, paragraphs, list items, cells, captions, the words around controls.
  // Left out: what the observation shows elsewhere (record rows, the labels that
  // name controls, field values, a block that is only a button's or link's name),
  // scripts and styles, aria-hidden and invisible parts; sensitive elements read
  // as MASK. Blocks in the viewport come first; at most opts.text_chars characters
  // are sent (cut by code point), at most opts.text_scan nodes are read, and what
  // is left out is counted.

  const BLOCK_TAGS = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'CENTER', 'DD', 'DETAILS',
    'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
    'HEADER', 'HR', 'LABEL', 'LEGEND', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY',
    'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'OUTPUT']);
  const TEXT_SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|SVG|svg|CANVAS|SELECT|TEXTAREA|INPUT|OPTION|DATALIST|IFRAME|FRAME|OBJECT|EMBED|VIDEO|AUDIO|HEAD|MAP)$/;
  const INLINE_CONTROL = 'a[href],button,summary,[role=button],[role=link],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=switch],[role=radio]';
  const HEADING = /^H[1-6]$/;

  function readPageText(ctx, skipped) {
    const { opts } = ctx;
    const budget = opts.text_chars;
    const scanMax = opts.text_scan;
    const sensitive = P.anySensitiveNow(); // the pass's answer: no third document-wide query
    const blocks = [];
    let scanned = 0;
    let complete = true;
    const shownMemo = new Map();
    const shown = (el) => {
      let v = shownMemo.get(el);
      if (v === undefined) { v = el.checkVisibility(VIS); shownMemo.set(el, v); }
      return v;
    };
    // Reading stops once four budgets' worth of text is read and the walk is below the
    // viewport: the rest could not be shown anyway (it is then not counted, and said so).
    const enough = budget * 4;
    let read = 0;
    const open = (el) => {
      const b = { el, parts: [], own: false, heading: HEADING.test(el.tagName) || firstRole(el) === 'heading' };
      if (read > enough && el.getBoundingClientRect().top > ctx.vh) complete = false;
      blocks.push(b);
      return b;
    };
    const walk = (node, cursor, inControl) => {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (++scanned > scanMax) { complete = false; return; }
        if (c.nodeType === Node.TEXT_NODE) {
          if (!/\S/.test(c.data) || skipped.has(c)) { if (cursor.block) cursor.block.parts.push(' '); continue; }
          if (!shown(node)) continue;
          if (!cursor.block) cursor.block = open(cursor.el);
          if (!complete) return;
          cursor.block.parts.push(c.data);
          read += c.data.length;
          if (!inControl) cursor.block.own = true;
          continue;
        }
        if (c.nodeType !== Node.ELEMENT_NODE || TEXT_SKIP.test(c.tagName) || skipped.has(c) || c.isContentEditable) continue;
        if (ctx.anyAriaHidden && c.getAttribute('aria-hidden') === 'true') continue;
        if (sensitive && c.matches(P.SENSITIVE)) {
          if (squash(c.textContent) && shown(c)) {
            if (!cursor.block) cursor.block = open(cursor.el);
            cursor.block.parts.push(` ${MASK} `);
            cursor.block.own = true;
          }
          continue;
        }
        if (c.tagName === 'BR') { if (cursor.block) cursor.block.parts.push(' '); continue; }
        const ctl = inControl || c.matches(INLINE_CONTROL);
        if (BLOCK_TAGS.has(c.tagName) || firstRole(c) === 'heading') {
          walk(c, { el: c, block: null }, ctl);
          cursor.block = null; // the parent's text after a block is a block of its own
        } else {
          walk(c, cursor, ctl);
        }
        if (!complete) return;
      }
    };
    if (document.body) walk(document.body, { el: document.body, block: null }, false);
    // Viewport first, each part in reading order.
    const rects = new Map();
    const inView = (el) => {
      let v = rects.get(el);
      if (v === undefined) { v = inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh); rects.set(el, v); }
      return v;
    };
    const lines = [];
    for (const b of blocks) {
      if (!b.own) continue;
      const text = squash(b.parts.join(''));
      if (!text) continue;
      lines.push({ text: b.heading ? `# ${text}` : text, view: inView(b.el) });
    }
    const ordered = lines.filter((l) => l.view).concat(lines.filter((l) => !l.view));
    const out = [];
    let used = 0;
    let chars = 0;
    let viewportLeft = 0;
    let viewportBlocks = 0;
    for (const l of ordered) {
      chars += l.text.length;
      if (used >= budget) {
        if (l.view) viewportLeft++;
        continue;
      }
      const room = budget - used;
      const text = l.text.length <= room ? l.text : P.head(l.text, room) + '…';
      out.push(text);
      if (l.view) viewportBlocks++;
      used += text.length;
      if (text.length < l.text.length && l.view) viewportLeft++;
    }
    return {
      blocks: out, blocks_total: ordered.length, chars_total: chars, viewport_blocks: viewportBlocks, viewport_left: viewportLeft,
      scanned_all: complete,
    };
  }

  // The parts of record containers the records show (their rows and header rows): a
  // table body or list whose children are all records is left out whole, so the page
  // text does not visit every row of a long list.
  function shownParts(containers) {
    const out = [];
    for (const c of containers) {
      if (c.heads) out.push(...c.heads);
      const parents = new Map();
      for (const row of c.rows) {
        const p = row.parentElement;
        parents.set(p, (parents.get(p) || 0) + 1);
      }
      for (const [p, n] of parents) {
        if (p && n === p.childElementCount && p !== document.body) out.push(p);
        else for (const row of c.rows) if (row.parentElement === p) out.push(row);
      }
    }
    return out;
  }

  // Elements whose text the page text leaves out (shown elsewhere): record rows, the
  // labels tied to controls, the captions and labels used as names.
  function textSkips(ctx, rows) {
    const skipped = new Set(rows);
    for (const list of labels.values()) for (const l of list) skipped.add(l);
    for (const el of ctx.named) skipped.add(el);
    return skipped;
  }

  // --- the inferred index: what is kept between observations -------------------------------
  //
  // A page that declares nothing is inferred from scratch once per document; later passes
  // keep what is expensive per record row and cannot have changed, and read again what can.
  //
  //   kept    the model: the attribute scan, the label map, the clickables pass, the
  //           record containers and their rows, the page's controls outside rows; per row
  //           (its entry) its id, whether it is rendered and inert, its controls with their
  //           roles, kinds, names, columns and whether they are disabled, its in-place edit.
  //           Also kept: whether the document holds sensitive or aria-hidden elements (the
  //           two queries of P.pass; a row's change can only add a sensitive field, and is
  //           checked for one). (plan(null) keeps its answer by its own observer.)
  //   read    on every pass: regions, page actions, state, feedback, page text (the page
  //           side), the record ids in order (duplicates numbered), which rows are in the
  //           viewport, the fold's counts and groups (from the entries, cheap), what exact
  //           rows show (fields, values, availability): values, because a value set by
  //           script fires no event and no mutation.
  //   dropped a MutationObserver on the document and its open shadow roots, events in the
  //           capture phase and prints compared on every pass decide:
  //           - a change below one row of a table or list (text, controls added or removed,
  //             an attribute of ROW_ATTRS on an element inside it) drops that row's entry;
  //             the row must not be entangled (a label or an id reference ties it to another
  //             row or to the page), nest or sit in another row, be a card, hold an element
  //             of the clickables pass, and the change must add or remove nothing of
  //             KEEP_STRUCTURAL (roles, ids, labels, lists, cells, headings...); a row the
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
  const WATCH = { subtree: true, childList: true, attributes: true, characterData: true };

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
    : m.type === 'childList' && (Array.prototype.some.call(m.addedNodes, isElementNode) ||
      Array.prototype.some.call(m.removedNodes, isElementNode)));
  const isElementNode = (n) => n.nodeType === Node.ELEMENT_NODE;

  const keptKey = (opts, mode) => mode + JSON.stringify(Object.assign({}, opts, { include: null }));

  // The open shadow roots of the document, searched only up to opts.shadow_scan elements
  // (null: not searched, too large).
  function openRoots(opts) {
    const all = document.getElementsByTagName('*');
    if (all.length > opts.shadow_scan) return null;
    const out = [];
    const visit = (list) => {
      for (const el of list) {
        if (!el.shadowRoot) continue;
        out.push(el.shadowRoot);
        visit(el.shadowRoot.querySelectorAll('*'));
      }
    };
    visit(all);
    return out;
  }

  // What must stay the same for the model to stand (see "dropped" above).
  function keptPrint(roots) {
    let print = `${location.href}\u0000${innerWidth}x${innerHeight}\u0000${CLICK ? CLICK.epoch() : 0}\u0000`;
    const lists = [document.styleSheets, document.adoptedStyleSheets];
    for (const r of roots || []) lists.push(r.styleSheets, r.adoptedStyleSheets);
    for (const sheets of lists) {
      for (const sheet of sheets) {
        let n = -1;
        try { n = sheet.cssRules.length; } catch (_) { /* another origin's: the page cannot edit it either */ }
        print += `${n}${sheet.disabled ? 'd' : ''},`;
      }
      print += '|';
    }
    const animations = document.getAnimations();
    for (const r of roots || []) animations.push(...r.getAnimations());
    for (const a of animations) print += `${a.playState}@${a.currentTime};`;
    return print;
  }
  const popupPrint = () => {
    const p = CLICK && CLICK.popup();
    return p ? [p.near, ...p.items] : [];
  };
  const sameList = (a, b) => a.length === b.length && a.every((el, i) => el === b[i]);

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
          let inner = null;
          try { inner = rule.styleSheet && rule.styleSheet.cssRules; } catch (_) { inner = null; }
          if (inner) visit(inner);
        }
        if (rule.cssRules) visit(rule.cssRules);
      }
    };
    const lists = [document.styleSheets, document.adoptedStyleSheets];
    for (const r of roots || []) lists.push(r.styleSheets, r.adoptedStyleSheets);
    for (const sheets of lists) {
      for (const sheet of sheets) {
        let rules = null;
        try { rules = sheet.cssRules; } catch (_) { rules = null; }
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

  // Whether this document had an open shadow root when one was looked for: then each model
  // looks for them when it is built (its observer must watch them from the start).
  let shadowed = false;

  // The model of this pass (K), built from what the pass found, and watching the page. What
  // the first answer does not need (the search for open shadow roots, which rows can be read
  // alone) is done when the page is idle after it, or by the pass that needs it first.
  function keepModel(ctx, opts, mode, parts) {
    const roots = shadowed ? openRoots(opts) : null;
    const allow = sheetsAllow(roots);
    if (allow === 'none') return null;
    const K = {
      key: keptKey(opts, mode), opts, allow, roots, print: keptPrint(roots), popup: popupPrint(),
      labels, orphans, scan: ctx.scan, ...parts, recordOf: ctx.recordOf, rowAbove: ctx.rowAbove,
      alone: null, overflow: boxesAround(parts.containers), rootsKnown: shadowed,
      // What P.pass asks the whole document each pass (see patchFacts): null until known.
      facts: null,
      undefinedEls: Array.from(document.querySelectorAll(':not(:defined)')),
    };
    keptChanges = [];
    keptObserver.observe(document, WATCH);
    for (const r of roots || []) keptObserver.observe(r, WATCH);
    if (typeof requestIdleCallback === 'function') {
      requestIdleCallback(() => {
        if (kept !== K) return;
        if (!knowRoots(K)) dropKept();
        else {
          if (!K.alone) aloneRows(K);
          if (!K.facts) K.facts = { sensitive: !!document.querySelector(P.SENSITIVE), hidden: !!document.querySelector('[aria-hidden="true"]') };
        }
      });
    }
    return K;
  }

  // Whether model K watches every open shadow root of the document; the first time it is
  // asked it looks for them, and when there are some it says no (the model is dropped and
  // the next one watches them from the start).
  function knowRoots(K) {
    if (K.rootsKnown) return true;
    K.rootsKnown = true;
    const roots = openRoots(K.opts);
    if (!roots || !roots.length) return true;
    shadowed = true;
    return false;
  }

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
    if (!knowRoots(K)) return drop('shadow roots');
    if (K.print !== keptPrint(K.roots)) return drop('print');
    if (!sameList(popupPrint(), K.popup)) return drop('popup');
    if (K.undefinedEls.some((el) => el.matches(':defined'))) return drop('upgrade'); // a shadow root, maybe
    if (!records.length) {
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
      if (counts && e.controls) {
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
    if (K.facts && !K.facts.sensitive) {
      for (const row of dirty) if (row.matches(P.SENSITIVE) || row.querySelector(P.SENSITIVE)) K.facts.sensitive = true;
    }
    lastModel = { model: 'patched', rows: dirty.size, clickables: !!click };
    return { K, click };
  }

  // --- the pass ---------------------------------------------------------------------------------

  function infer(optionsJson, mode, fresh) {
    const opts = JSON.parse(optionsJson);
    lastOptions = optionsJson;
    lastMode = mode;
    const t0 = now();
    if (fresh === true) dropKept();
    const change = keptModel(opts, mode); // see "the inferred index"
    return P.pass(() => inferPass(opts, mode, change, t0), change.K ? change.K.facts : null);
  }

  // Milliseconds per phase of the last pass (bench/observe_inferred.py reads them with phases()).
  let lastPhases = {};
  function phaseClock(t0) {
    lastPhases = {};
    let last = t0;
    return (name) => { const t = now(); lastPhases[name] = t - last; last = t; };
  }
  const phases = () => JSON.stringify(lastPhases);
  const model = () => JSON.stringify(lastModel);

  function inferPass(opts, mode, change, t0) {
    const mark = phaseClock(t0);
    const { K, click } = change;
    mark('index');
    if (K) ({ labels, orphans } = K);
    else labels = labelMap();
    const ctx = pageContext(opts, mode, K ? K.scan : null);
    // clicks: before the containers, which add the repeated clickable blocks this pass finds.
    mark('context');
    const clickables = K ? K.clickables : click || (CLICK ? CLICK.pass(opts) : []);
    mark('clickables');
    const regions = inferRegions(ctx);
    mark('regions');
    const containers = K ? K.containers : findContainers(ctx);
    mark('containers');
    const entries = K ? K.entries : new Map();
    const recs = indexRecords(ctx, containers, entries);
    mark('records');
    let pageControls;
    let ownOf;
    let inPlaceOf;
    if (K) {
      // Only rows whose entry a change dropped are read, each alone (see rowOfChange).
      pageControls = K.pageControls;
      ownOf = (row) => controlsInRow(row, clickables);
      inPlaceOf = inPlaceIn;
    } else {
      const byRow = controlsByRow(ctx, containers, clickables);
      const rowControls = byRow.rowControls;
      pageControls = byRow.pageControls;
      const inPlace = new Map();
      for (const l of orphans) {
        const row = ctx.rowAbove(l);
        if (row && !inPlace.has(row) && squash(l.textContent)) inPlace.set(row, l);
      }
      ownOf = (row) => rowControls.get(row) || [];
      inPlaceOf = (row) => inPlace.get(row) || null;
    }
    mark('controls');
    const groupList = foldRowActions(ctx, containers, entries, ownOf, inPlaceOf);
    mark('row actions');
    if (!K) {
      kept = keepModel(ctx, opts, mode, { containers, entries, clickables, pageControls });
      mark('keep');
    }
    const page = inferPageActions(ctx, pageControls);
    if (CLICK) for (const [el, a] of CLICK.extra(ctx.regionOf, ctx.vw, ctx.vh)) { page.total++; page.els.push(el); page.actions.push(a); } // clicks: scroll a text area
    orderActions(page.actions, page.els, groupList);
    mark('page actions');
    registry = ctx.registry;
    revealers = ctx.revealers;
    groups = ctx.groups;
    const state = inferState(containers, opts, ctx.scan);
    mark('state');
    const feedback = inferFeedback(opts, ctx.skipDeclared, ctx.regionOf, ctx.scan);
    mark('feedback');
    // inferindex: the kept containers' shown parts are kept with them.
    const shown = kept && kept.containers === containers ? kept.shown || (kept.shown = shownParts(containers)) : shownParts(containers);
    const text = opts.page_text === false ? null : readPageText(ctx, textSkips(ctx, shown));
    mark('page text');
    return JSON.stringify({
      identity: { title: clip(document.title, opts.note_chars), path: clip(location.pathname, opts.note_chars), route: null, route_params: {}, query: {} },
      regions: regions.regions, regions_total: regions.total,
      actions: page.actions, actions_total: page.total, actions_visible_unnamed: page.pastVisible, controls_unoffered: page.unoffered, row_actions: groupList.filter((g) => g.rows > 0),
      records: recs.records, record_index: recs.index,
      state: state.items.slice(0, opts.max_state), state_total: state.items.length,
      feedback: feedback.items, feedback_total: feedback.total,
      page_text: text,
      modal: ctx.modalLabel, warnings: CLICK ? CLICK.warnings() : [], collect_ms: now() - t0, // clicks: what the clickables pass left out
    });
  }

  // The page text of a declared page (ObserveOptions.page_text): declared records are
  // the rows left out.
  function text(optionsJson) {
    const opts = JSON.parse(optionsJson);
    return P.pass(() => {
      labels = labelMap();
      const ctx = { opts, vw: window.innerWidth, vh: window.innerHeight, named: [], anyAriaHidden: !!document.querySelector('[aria-hidden="true"]') };
      return JSON.stringify(readPageText(ctx, textSkips(ctx, document.querySelectorAll('[data-agent-record]'))));
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
    const heads = [];
    let headers = [];
    const rows = table.tagName === 'TABLE' ? table.rows : table.querySelectorAll('[role=row]');
    for (let r = 0, n = rows.length; r < n; r++) {
      const row = rows[r];
      const tr = row.tagName === 'TR';
      if (tr ? !row.firstElementChild : !row.querySelector(CELL)) continue;
      if (!isHeaderRow(row, tr)) body.push(row);
      else if (!body.length) {
        heads.push(row);
        const cells = tr ? row.cells : row.querySelectorAll(CELL);
        headers = Array.from(cells, (c, i) => slugless(textOf(c, 40)) || `column ${i + 1}`);
      }
    }
    return { body, headers, heads };
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
  // Siblings of one shape are cards when CARDS of their first CARD_SAMPLE are: 10,000
  // documentation sections that hold links only are not read to the end to find that out.
  const CARD_SAMPLE = 64;
  const CARD_SEEDS = 3000;
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
    // Yielded as asked: the CARD_SEEDS bound stops the collection too (inferbudget).
    const seeds = (function* () {
      for (const tag of CARD_TITLE_TAGS) yield* document.getElementsByTagName(tag);
      for (const el of roled) if (firstRole(el) === 'heading') yield el;
    })();
    // Candidate -> the least depth a walk reached it at: a walk that reaches it again no
    // shallower would only repeat what the first one did above it (50,000 links share a
    // few hundred ancestors).
    const walked = new Map();
    // Walked up from at most CARD_SEEDS titles outside lists and tables: a card list shows
    // in its first cards' titles, and a page of 50,000 links is not walked up from each.
    let seeded = 0;
    for (const seed of seeds) {
      if (within(seed) || (seed.tagName === 'A' && !seed.hasAttribute('href'))) continue;
      if (++seeded > CARD_SEEDS) break;
      let card = seed.parentElement;
      for (let depth = 0; card && depth < CARD_DEPTH; card = card.parentElement, depth++) {
        const before = walked.get(card);
        if (before !== undefined && before <= depth) break;
        walked.set(card, depth);
        const parent = card.parentElement;
        if (!parent || card === document.body || regionInfo.has(card)) break;
        const shape = shapeOf(card);
        const shapes = checked.get(parent) || new Set();
        if (shapes.has(shape)) break;
        checked.set(parent, shapes.add(shape));
        const rows = Array.prototype.filter.call(parent.children, (sib) => shapeOf(sib) === shape);
        if (rows.length >= CARDS && atLeast(rows, isCard, CARDS, CARD_SAMPLE)) {
          out.push({ el: parent, rows, headers: null, table: false, card: true });
          break;
        }
      }
    }
    return out.sort((a, b) => docOrder(a.el, b.el));
  }
  // Whether n of items pass test, looking at no more than limit of them (all without one).
  function atLeast(items, test, n, limit = Infinity) {
    let found = 0;
    let seen = 0;
    for (const item of items) {
      if (++seen > limit) return false;
      if (test(item) && ++found >= n) return true;
    }
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
    const scope = el.form || landmarkAbove(el) || document.body;
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
      const text = clip(row.querySelector(P.SENSITIVE) ? P.pageText(row, true) : row.innerText, opts.max_string);
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

  function inferState(containers, opts, scan) {
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
    for (const el of scan.stated) {
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
    for (const th of scan.sorted) {
      if (th.getAttribute('aria-sort') === 'none') continue;
      sort[textOf(th, 40) || 'column'] = th.getAttribute('aria-sort');
    }
    if (Object.keys(sort).length) add('sort', sort, 'aria-sort');
    for (const box of scan.roled) {
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

  function inferFeedback(opts, skipDeclared, regionOf, scan) {
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
    const candidates = new Set(scan.roled.filter((el) => FEEDBACK_ROLES.has(firstRole(el))));
    for (const el of scan.live) candidates.add(el);
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
    if (!el && lastOptions) {
      const opts = JSON.parse(lastOptions);
      if (locator.record != null) opts.include = [String(locator.record)];
      infer(JSON.stringify(opts), lastMode);
      el = look();
    }
    return el && revealers.has(el) ? revealedField(el) || el : el;
  }

  // Whether el is an in-place edit label: typing into it means double-clicking it first.
  const reveals = (el) => revealers.has(el);
  // The radios of the group whose choose action el is (in option order), or [].
  const choices = (el) => (groups.get(el) || []).slice();

  Object.defineProperty(globalThis, '__cdpagentInfer', {
    value: Object.freeze({ plan, infer, find, reveals, choices, text, phases, model }),
    writable: false, configurable: false, enumerable: false,
  });
})();
