// cdpagent inference, controls (OB-12): what a control, a landmark, a heading and a cell
// are to a page that declares nothing, which role and kind of action each control has,
// and what using it does (its effect).
//
// The first of the inference's files (see js/infer.js); the elements are found by tag
// through the live tag collections and by role from the pass's one [role] scan, in
// bulk: a list of [role=...] selectors costs one attribute match per selector per
// element, which dominated large pages.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { squash, firstRole, docOrder, composedOrder } = P;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // Candidates are found by tag or by the presence of a role, then filtered by role
  // in JS: a list of [role=…] selectors costs one attribute match per selector per
  // element, which dominated large pages.
  const LANDMARK = 'main,nav,header,footer,aside,form,search,section,article,dialog,[role]';
  const LANDMARK_TAGS = ['main', 'nav', 'header', 'footer', 'aside', 'form', 'search', 'section', 'article', 'dialog'];
  // A menu bar is a region too: an application's commands, which the budgets rank with its search.
  const LANDMARK_ROLES = new Set(['main', 'navigation', 'banner', 'contentinfo', 'complementary',
    'form', 'search', 'region', 'dialog', 'alertdialog', 'tabpanel', 'menubar']);
  const NAMED_ONLY = /^(region|article|tabpanel)$/;
  const NAMED_SECTIONS = ':is(section,article):not([role]):is([aria-label],[aria-labelledby])';
  const CONTROL = 'a,button,input,select,textarea,summary,[role],[contenteditable]';
  const CONTROL_ROLES = new Set(['button', 'link', 'checkbox', 'switch', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'searchbox', 'textbox', 'slider', 'spinbutton', 'treeitem']);
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
  // (The bare [tabindex] is tried first: a class substring is the dearer test.)
  const SLIDER_HANDLES = '[tabindex][class*="slider" i]:not([role]),[class*="slider" i] > [tabindex]:not([role])';
  const controlsIn = (root) => Array.prototype.filter.call(root.querySelectorAll(CONTROL), isControl);
  const CONTROL_TAG = /^(A|BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY)$/;
  // Every control of the page, not in document order: by tag through the live tag
  // collections (cheap), by role from the pass's one [role] scan, and contenteditable.
  // A selector list costs one match per selector per element, and one per record
  // row cost more than the rest of a pass on large tables.
  // The controls by tag are the selector's matches (no isControl call per link), in
  // document order, less SVG links (tag "a" in lower case); a role makes one of the rest
  // a control too (a link without href with role=button), read from the [role] scan.
  // ordered: the list is in document order (no clickable, nothing but the selector's
  // matches in the document), so nothing sorts it again (see orderedUntil).
  const TAG_CONTROLS = 'a[href],button,input:not([type=hidden i]),select,textarea,summary';
  function allControls(scan, clickables) {
    const out = clickables.slice(); // clicks
    for (const el of document.querySelectorAll(TAG_CONTROLS)) if (el.tagName !== 'a') out.push(el);
    const byTag = out.length;
    for (const root of scan.roots || []) for (const el of root.querySelectorAll(TAG_CONTROLS)) if (el.tagName !== 'a') out.push(el);
    for (const el of scan.roled) {
      if (CONTROL_TAG.test(el.tagName) ? !el.matches(TAG_CONTROLS) && isControl(el) : isControl(el)) out.push(el);
    }
    for (const el of scan.editable) {
      if (!CONTROL_TAG.test(el.tagName) && !el.hasAttribute('role') && isControl(el)) out.push(el);
    }
    for (const el of scan.sliderHandles) if (!CONTROL_TAG.test(el.tagName) && isSliderHandle(el) && !out.includes(el)) out.push(el);
    return { list: out, ordered: !clickables.length && out.length === byTag };
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
    const all = allControls(ctx.scan, clickables);
    // A link list's bare links (see linkItems, js/infer/records.js) are their items' own.
    const bareRow = new Map();
    for (const c of containers) if (c.links) c.links.forEach((link, i) => link && bareRow.set(link, c.rows[i]));
    for (const el of all.list) {
      const row = CLICK && CLICK.floating(el) ? null : ctx.recordOf.has(el) ? el : bareRow.get(el) || rowAbove(el); // clicks: a clickable row is its own row's action; a popup's items are the page's
      if (!row) pageControls.push(el);
      else if (rowControls.has(row)) rowControls.get(row).push(el);
      else rowControls.set(row, [el]);
    }
    return { rowControls, pageControls, pageOrdered: all.ordered };
  }
  // Elements by tag (live collections) and by role (from the pass's one [role] scan),
  // in document order: cheaper than a selector list, which matches every selector
  // against every element of the page.
  // keep(el), when given, filters them before they are ordered.
  function byTagAndRole(tags, roles, roled, keep, roots) {
    const out = [];
    for (const tag of tags) for (const el of document.getElementsByTagName(tag)) if (!keep || keep(el)) out.push(el);
    for (const root of roots || []) for (const el of root.querySelectorAll(tags.join(','))) if (!keep || keep(el)) out.push(el);
    for (const el of roled) if (roles.has(firstRole(el)) && !tags.includes(el.localName) && (!keep || keep(el))) out.push(el);
    return out.length > 1 ? inDocumentOrder(out) : out;
  }
  // list in document order. A comparator sort asks compareDocumentPosition n log n times,
  // and each call can walk a long sibling list: 83,000 links took 16 s. Long lists are
  // ordered by one walk over the document's elements instead (members outside it, in
  // shadow trees, keep their relative order at the end).
  // With open shadow roots in the pass (useComposedOrder), small lists are in composed order.
  let order = docOrder;
  const useComposedOrder = (roots) => { order = roots && roots.length ? composedOrder : docOrder; };
  // The pass's order of two elements (a sort comparator): document order, or composed order.
  const inOrder = (a, b) => order(a, b);
  function inDocumentOrder(list) {
    if (list.length < 256) return list.sort(order);
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
  // to name the first few hundred). ordered: list is in document order already.
  function* orderedUntil(list, full, ordered) {
    if (ordered) {
      yield* list;
      return;
    }
    if (list.length < 256) {
      yield* list.sort(order);
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

  // The kind of action a control takes (P.kindOf as inference reads it), after what only
  // inference knows: a slider handle is set, and an element the clickables pass found
  // takes the kind it found (click, hover, scroll).
  const controlKind = (el, role) => (isSliderHandle(el) && 'set') || (CLICK && CLICK.foundKind(el)) ||
    P.kindOf(el, 'inferred', role);

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

  const HEADING = /^H[1-6]$/;
  const CELL = '[role=cell],[role=gridcell],[role=columnheader],[role=rowheader]';
  // The text fields of a form (a lone one submits with Enter; an in-place edit reveals one).
  const TEXT_FIELD = 'textarea,input:not([type=hidden],[type=button],[type=submit],[type=reset],[type=image],[type=checkbox],[type=radio])';

  Object.assign(C, {
    LANDMARK, LANDMARK_TAGS, LANDMARK_ROLES, NAMED_ONLY, NAMED_SECTIONS, CONTROL, isLandmark, isControl,
    isSliderHandle, SLIDER_HANDLES, controlsIn, CONTROL_TAG, TAG_CONTROLS, BOXES_MAX, controlsByRow, byTagAndRole,
    inDocumentOrder, orderedUntil, useComposedOrder, inOrder, landmarkAbove, POPUP_ITEM, IN_PLACE, roleOf, controlKind, effectOf, HEADING, CELL,
    TEXT_FIELD,
  });
})();
