// cdpagent clickables: what a page made operable without saying so (issue 20, OB-12).
//
// Installed into the isolated world "cdpagent-observe" after collect.js and before
// infer.js, which calls it. Defines globalThis.__cdpagentClickables:
//
//   pass(opts) -> Element[]   one inference pass: finds the page's non-semantic
//       controls and returns them (infer.js adds them to its controls). They are
//         clickables   an onclick attribute, a tabindex, a non-widget role such as
//                      treeitem, a click/mousedown/pointerdown listener the runtime
//                      found (mark), or the root of a cursor:pointer area;
//         hover parents  elements whose hidden submenu a :hover rule or a
//                      mouseenter/mouseover listener shows;
//         scrollables  boxes whose content overflows (overflow auto/scroll);
//         popup items  items of what appeared near the last acted element.
//       Semantic controls inside a closed hover menu are not returned (infer.js
//       has them) but foundKind() makes them hover-then-click.
//   foundKind(el) -> 'click' | 'hover' | 'scroll' | null   the kind this pass found el
//       to take (inference asks it before P.kindOf); null: not ours
//   nameOf(el, max) -> string   '' when not ours: text, alt, title, then the
//       element's class or id humanised ("star", "trash"); scrollables take their
//       label, the caption before them or a heading inside
//   describe(el, label) -> string | null
//   verb(el) -> string | null   the row-action name of a clickable record row ("open")
//   containers(existing) -> [{el, rows, headers, table, card}]   repeated clickable
//       blocks of one shape (mail rows, posts, tree items) that are not records yet
//   hoverOnly(el) -> boolean   el opens a menu: a hover action hovers it (else clicks it)
//   hoverPath(el) -> Element[]  the hover parents to hover, outermost first, before
//       el (inside a closed hover menu) shows; [] when none
//   extra(regionOf, vw, vh) -> [Element, action][]   second actions of controls:
//       scroll entries of text areas whose text overflows (infer.js adds them)
//   find(locator) -> Element | null   the element of one of those
//   acted(el)   remember the element an act targets: what appears near it until the
//       next act is a popup of it
//   popup() -> {near: Element, items: Element[]} | null
//   warnings() -> string[]   what the last pass left out (over max_clickables, or
//       elements the style walk did not reach within click_scan)
//   probe(max) -> Element[]   up to max elements whose listeners the runtime should
//       read (cdpagent/snapshot/clickables.py); each element is probed once
//   mark(verdicts, ...elements)   the runtime's verdicts ("click", "hover", "") for
//       the probed elements, in order
//   reached(el) -> 0 | 1 | 2   what the last pass did with el: 0 nothing (nothing inside
//       it either), 1 examined it, 2 took it as a candidate without examining it
//   epoch() -> number   bumped by mark() and acted(): the next pass may find other things
//
// Finding happens in bulk and within bounds: one walk of the body that reads the
// computed style of at most opts.click_scan elements, and samples only CLICK_SAMPLE
// children of each shape (tag and classes) per parent, then extends what the samples
// showed to their siblings of the same shape: a 10,000-row table costs what its first
// rows cost. What the walk did not reach is counted (warnings()). Nothing is written to
// the page's DOM.
(() => {
  'use strict';
  if (globalThis.__cdpagentClickables) return;

  const P = globalThis.__cdpagentPrelude;
  const VIS = P.VIS;
  // Semantic controls infer.js finds by itself, and what a click inside them reaches.
  const SEMANTIC_TAG = /^(A|BUTTON|INPUT|SELECT|TEXTAREA|SUMMARY|LABEL|OPTION)$/;
  const WIDGET_ROLES = new Set(['button', 'link', 'checkbox', 'switch', 'radio', 'tab', 'menuitem',
    'menuitemcheckbox', 'menuitemradio', 'option', 'combobox', 'searchbox', 'textbox', 'slider', 'treeitem']);
  // Roles that say "an item one picks" without being one of infer.js's widget roles.
  const PICK_ROLES = new Set(['treeitem', 'gridcell', 'listitem', 'row']);
  const SKIP_TAG = /^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT|HEAD|META|LINK|BR|HR|svg|path|IFRAME|OBJECT|CANVAS|VIDEO|AUDIO)$/;
  const CLICK_SAMPLE = 4;
  const ROWS_MIN = 3;
  const ROW_TAG = /^(LI|ARTICLE|TR|DT|DD)$/;
  const { squash, clip, humanise, firstRole, docOrder, shapeOf, COMPOSITES } = P;
  function semantic(el) {
    if (SEMANTIC_TAG.test(el.tagName)) return el.tagName !== 'A' || el.hasAttribute('href');
    const role = firstRole(el);
    if (role && WIDGET_ROLES.has(role)) return true;
    const editable = el.getAttribute('contenteditable');
    return editable === '' || editable === 'true';
  }

  // Per pass: element -> {kind, menu} of the elements this script answers for.
  let info = new WeakMap();
  let hoverParents = [];
  let stats = { examined: 0, unexamined: 0 };
  // From the runtime's listener probe: element -> "click" | "hover" | "".
  const marks = new WeakMap();
  const probed = new WeakSet();
  let markedList = [];
  const MARKED_MAX = 5000;
  let lastOut = [];
  let lastMax = 0;
  // What the last pass looked at (inferindex: infer.js's kept model asks reached() whether
  // a change inside a record row can change this pass): examined elements, and the
  // candidates it took without examining (siblings of a sampled shape, marked elements).
  let examined = new WeakSet();
  let candidates = new WeakSet();
  // Bumped when a verdict or an acted element changes what the next pass finds.
  let epochs = 0;

  // :hover rules that show something: [parent selector, child selector], read once per
  // set of style sheets (cross-origin sheets cannot be read and are skipped).
  let hoverRules = [];
  let hoverKey = '';
  const SHOWS = /\b(display|visibility|opacity|max-height|height|transform|left|top)\b/;
  function readHoverRules() {
    let key = String(document.styleSheets.length);
    const sheets = [];
    for (const sheet of document.styleSheets) {
      let rules;
      try { rules = sheet.cssRules; } catch (_) { continue; }
      sheets.push(rules);
      key += ':' + rules.length;
    }
    if (key === hoverKey) return hoverRules;
    hoverKey = key;
    hoverRules = [];
    const visit = (rules, depth) => {
      for (const rule of rules) {
        if (hoverRules.length >= 64) return;
        if (rule.cssRules && depth < 3 && !rule.selectorText) { visit(rule.cssRules, depth + 1); continue; }
        const text = rule.selectorText;
        if (!text || text.indexOf(':hover') < 0 || !SHOWS.test(rule.style.cssText)) continue;
        for (const sel of text.split(',')) {
          const m = /^(.*?):hover((?:\s*[>~+]\s*|\s+).+)$/.exec(sel.trim());
          if (!m) continue;
          const parent = m[1].replace(/:[a-z-]+(\([^)]*\))?$/i, '').trim();
          if (!parent || parent === '*') continue; // a hover anywhere: too broad to say which element
          const child = m[2].trim().replace(/^[>~+]\s*/, '');
          const combinator = /^\s*([>~+])/.exec(m[2]);
          try {
            document.querySelector(parent);
            document.querySelector(child);
          } catch (_) { continue; }
          hoverRules.push([parent, child, combinator ? combinator[1] : ' ']);
        }
      }
    };
    for (const rules of sheets) visit(rules, 0);
    return hoverRules;
  }

  // The hidden menus a hover on el would show: by its :hover rules, or (a mouseenter
  // listener) its hidden element children with text.
  function hiddenMenus(el, rule) {
    const out = [];
    if (rule) {
      const [, child, comb] = rule;
      const pool = comb === ' ' ? el.querySelectorAll(child)
        : comb === '>' ? Array.prototype.filter.call(el.children, (c) => c.matches(child))
        : [el.nextElementSibling].filter((c) => c && c.matches(child));
      for (const c of pool) if (!c.checkVisibility(VIS) && squash(c.textContent)) out.push(c);
    } else {
      for (const c of el.children) if (!c.checkVisibility(VIS) && squash(c.textContent)) out.push(c);
    }
    return out;
  }

  // The items of a menu: its semantic controls, else its list items, else its
  // children, with text.
  function itemsOf(menu) {
    const controls = Array.prototype.filter.call(menu.querySelectorAll('a[href],button,[role=menuitem],[role=option]'), semantic);
    if (controls.length) return controls;
    const lis = Array.prototype.filter.call(menu.querySelectorAll('li'), (li) => !li.querySelector('li') && squash(li.textContent));
    if (lis.length) return lis;
    return Array.prototype.filter.call(menu.children, (c) => squash(c.textContent));
  }

  const humanised = humanise;
  // Class names that say how an element looks, not what it does.
  const STYLE_CLASS = /^(hide|hidden|show|active|selected|clicked|open|closed|disabled|fa|icon|glyphicon|material-icons|btn|ui-[a-z-]+|col(-.*)?|row|d-.*|p[xytblr]?-\d|m[xytblr]?-\d|float-.*|text-.*|bold)$/;
  function nameFromAttrs(el) {
    for (const c of el.classList) if (!STYLE_CLASS.test(c)) return humanised(c);
    if (el.id) return humanised(el.id);
    return '';
  }

  function textName(el, max) {
    const aria = P.ariaName(el, max);
    if (aria) return aria;
    if (P.isSensitive(el)) return P.MASK;
    // innerText keeps the words of adjacent blocks apart ("Bob Lunch", not "BobLunch");
    // with anything sensitive inside, the masked text (OB-2).
    const text = squash(el.querySelector(P.SENSITIVE) ? P.pageText(el, true) : el.firstElementChild ? el.innerText : el.textContent);
    if (text) return clip(text, max);
    const img = el.querySelector('img[alt]');
    if (img && squash(img.alt)) return clip(img.alt, max);
    if (el.title) return clip(el.title, max);
    if (el.tagName === 'IMG' && el.alt) return clip(el.alt, max);
    // An icon beside a caption (a tree's expander before its folder name) says which.
    const own = nameFromAttrs(el);
    const next = EXPANDER.test(el.className) && (el.nextElementSibling || el.previousElementSibling);
    const beside = next && !info.has(next) && !next.querySelector('*:not(b,i,em,strong,small)') && !P.isSensitive(next) ? squash(next.innerText) : '';
    return clip(beside && beside.length <= 40 && own ? `${own} ${beside}` : own, max);
  }

  function scrollName(el, max) {
    const aria = P.ariaName(el, max);
    if (aria) return aria;
    if (el.title) return clip(el.title, max);
    for (let prev = el.previousElementSibling, n = 0; prev && n < 2; prev = prev.previousElementSibling, n++) {
      // A caption (a heading, a label, a short line): an instruction before a box is not its name.
      const t = squash(P.pageText(prev, true));
      const caption = /^(H[1-6]|LABEL|LEGEND|CAPTION|DT)$/.test(prev.tagName) || firstRole(prev) === 'heading' || t.length <= 40;
      if (t && caption && prev.checkVisibility(VIS)) return clip(t, max);
    }
    const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading],legend,caption');
    if (h && squash(h.textContent)) return P.textOf(h, max, true);
    return clip(nameFromAttrs(el) || 'scrollable area', max);
  }

  function scrolls(el, cs) {
    const y = cs.overflowY;
    const x = cs.overflowX;
    return ((y === 'auto' || y === 'scroll') && el.scrollHeight > el.clientHeight + 2) ||
      ((x === 'auto' || x === 'scroll') && el.scrollWidth > el.clientWidth + 2);
  }

  const icon = (el, cs) => !squash(el.textContent) && (el.tagName === 'IMG' || el.tagName === 'I' ||
    cs.backgroundImage !== 'none' || (cs.content !== 'normal' && cs.content !== 'none'));

  // What an attribute says: an onclick handler, a tab stop without a role, a role of
  // an item one picks (rows, cells and list items only with a listener).
  function attrClickable(el) {
    if (el.hasAttribute('onclick')) return true;
    const role = firstRole(el);
    if (el.hasAttribute('tabindex')) return el.tabIndex >= 0 && !role;
    if (!role || !PICK_ROLES.has(role)) return false;
    return role === 'treeitem' || marks.get(el) === 'click';
  }

  // One walk of the body within opts.click_scan computed-style reads: pointer roots,
  // attribute clickables, hover parents (by the page's :hover rules) and scroll boxes.
  function walk(budget, found, scrollers, rules, hovers) {
    const pointerShapes = new Set();
    const visit = (parent, parentPointer) => {
      const samples = new Map(); // shape -> [seen, clickables among them, hover parents among them]
      for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
        if (SKIP_TAG.test(el.tagName)) continue;
        const shape = shapeOf(el);
        let s = samples.get(shape);
        if (!s) samples.set(shape, (s = [0, 0, 0]));
        s[0]++;
        if (s[0] > CLICK_SAMPLE) {
          // Siblings of one shape share their styles and bindings: the samples speak for the rest.
          if (s[1] && !parentPointer) found.push(el);
          if (s[2]) for (const r of rules) if (el.matches(r[0])) hovers.push([el, r]);
          if (s[1] || s[2]) candidates.add(el);
          continue;
        }
        if (stats.examined >= budget) { stats.unexamined++; continue; }
        stats.examined++;
        examined.add(el);
        const cs = getComputedStyle(el);
        if (cs.display === 'none') continue;
        const pointer = cs.cursor === 'pointer';
        const isSemantic = semantic(el);
        // Inside a pointer area every element inherits the pointer: only a root, or an
        // icon (no text, drawn by an image), is a clickable of its own.
        if (!isSemantic && ((pointer && (!parentPointer || icon(el, cs))) || attrClickable(el))) {
          found.push(el);
          s[1]++;
          if (el.classList.length) pointerShapes.add(shape);
        }
        if (rules.length && el.firstElementChild) {
          for (const r of rules) if (el.matches(r[0])) { hovers.push([el, r]); s[2]++; }
        }
        if (el.tagName !== 'TEXTAREA' && el !== document.body && scrolls(el, cs)) scrollers.push(el);
        if (!isSemantic) visit(el, pointer);
      }
    };
    if (document.body) visit(document.body, false);
    return pointerShapes;
  }

  function pass(opts) {
    const budget = opts.click_scan || 3000;
    const max = opts.max_clickables || 500;
    lastMax = max;
    info = new WeakMap();
    stats = { examined: 0, unexamined: 0, omitted: 0 };
    examined = new WeakSet();
    candidates = new WeakSet();
    const found = [];
    const scrollers = [];
    const hovers = [];
    walk(budget, found, scrollers, readHoverRules(), hovers);
    const out = [];
    const keep = (el, kind) => {
      if (info.has(el)) return;
      if (out.length >= max) { stats.omitted++; return; }
      info.set(el, { kind });
      out.push(el);
    };
    // Hover parents and what their menus hold.
    hoverParents = [];
    const hovered = (el, rule) => {
      if (semantic(el) || (info.has(el) && info.get(el).kind === 'hover')) return;
      const menus = hiddenMenus(el, rule);
      if (!menus.length) return;
      hoverParents.push(el);
      info.delete(el);
      keep(el, 'hover');
      if (info.has(el)) info.get(el).opens = true;
      for (const menu of menus) {
        for (const item of itemsOf(menu)) {
          if (semantic(item)) info.set(item, { kind: 'hover', parent: el });
          else { keep(item, 'hover'); if (info.has(item)) info.get(item).parent = el; }
        }
      }
    };
    let n = 0;
    for (const [el, rule] of hovers) { if (n++ >= 200) break; if (el.checkVisibility(VIS)) hovered(el, rule); }
    const live = [];
    for (const ref of markedList) {
      const el = ref.deref();
      if (!el || !el.isConnected) continue;
      live.push(ref);
      candidates.add(el);
      if (semantic(el)) continue;
      if (marks.get(el) === 'click') found.push(el);
      else if (marks.get(el) === 'hover' && el.checkVisibility(VIS)) hovered(el, null);
    }
    markedList = live;
    // A caption that labels a control (aria-labelledby) is that control's to act on.
    let captions = null;
    const caption = (el) => {
      if (!el.id) return false;
      if (!captions) {
        captions = new Set();
        for (const c of document.querySelectorAll('[aria-labelledby]')) for (const id of c.getAttribute('aria-labelledby').split(/\s+/)) captions.add(id);
      }
      return captions.has(el.id);
    };
    // Submenus of a menu (jQuery UI, most menu widgets) open when their parent item is
    // hovered, and clicking the parent chooses it: the parent is a hover, its hidden
    // items hover-then-click, nested menus inside out.
    for (const el of document.querySelectorAll('[aria-haspopup]:not([aria-haspopup=false])')) {
      if (firstRole(el) !== 'menuitem' || !el.parentElement || !el.parentElement.closest('[role=menu],[role=menubar]')) continue;
      const sub = [el.nextElementSibling, ...el.children].find((c) => c && (c.tagName === 'UL' || firstRole(c) === 'menu'));
      if (!sub || sub.checkVisibility(VIS)) continue;
      const up = info.get(el);
      info.set(el, { kind: 'hover', parent: up && up.parent, opens: true });
      hoverParents.push(el);
      for (const item of sub.querySelectorAll('[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio]')) {
        if (item.parentElement.closest('[role=menu]') === sub) info.set(item, { kind: 'hover', parent: el });
      }
    }
    const all = found.filter((el) => !caption(el) && !el.closest('[aria-hidden="true"]') && !delegates(el));
    for (const el of all.sort(docOrder)) {
      if (!info.has(el) && el.checkVisibility(VIS) && (squash(el.textContent) || el.getBoundingClientRect().width > 0)) keep(el, 'click');
    }
    // One control is one action: a clickable whose text is all of one clickable inside
    // it (a tree item and its label) is reached through that one (the click bubbles).
    for (const el of out) {
      const i = info.get(el);
      if (i.kind !== 'click') continue;
      const name = textName(el, 80);
      for (let p = el.parentElement, d = 0; p && d < 4; p = p.parentElement, d++) {
        const up = info.get(p);
        if (up && up.kind === 'click' && !up.dropped && textName(p, 80) === name) up.dropped = true;
      }
    }
    // ... and a box whose words are all its clickables' words (a bar of buttons) is not one more.
    const inner = new Map();
    for (const el of out) {
      const i = info.get(el);
      if (i.kind !== 'click' || i.dropped) continue;
      for (let p = el.parentElement, d = 0; p && d < 4; p = p.parentElement, d++) {
        const up = info.get(p);
        if (up && up.kind === 'click' && !up.dropped) { if (!inner.has(p)) inner.set(p, []); inner.get(p).push(textName(el, 200)); break; }
      }
    }
    for (const [p, names] of inner) {
      let rest = textName(p, 400);
      for (const n of names) rest = rest.replace(n, ' ');
      if (!squash(rest)) info.get(p).dropped = true;
    }
    for (let k = out.length - 1; k >= 0; k--) if (info.get(out[k]).dropped) { info.delete(out[k]); out.splice(k, 1); }
    for (const el of scrollers) if (!info.has(el) || info.get(el).kind === 'click') { info.delete(el); keep(el, 'scroll'); }
    const p = popup();
    if (p) {
      for (const item of p.items) {
        if (semantic(item)) continue; // infer.js's controls (a date picker's days: cells of its grid)
        info.delete(item);
        keep(item, 'click');
        if (info.has(item)) info.get(item).popup = p.near;
      }
    }
    lastOut = out;
    return out;
  }

  // A composite widget, or a box of several controls, listens for its children's
  // clicks (delegation): its children are the things to click.
  const COMPOSITE = new Set(['tablist', 'menu', 'menubar', 'listbox', 'tree', 'toolbar', 'radiogroup', 'grid', 'treegrid', 'tabpanel', 'dialog']);
  function delegates(el) {
    if (COMPOSITE.has(firstRole(el))) return true;
    let n = 0;
    let rest = null;
    for (const c of el.querySelectorAll('a[href],button,input,select,textarea,[role]')) {
      if (!semantic(c)) continue;
      if (++n >= 2) return true;
      rest = squash(el.textContent).replace(squash(c.textContent), '');
    }
    // A wrapper around one control, with no words of its own (a menu's <li> around its item).
    return rest !== null && !squash(rest);
  }

  // A wrapper around one control and nothing else (a list item around its link), through a
  // chain of single children: delegates() is true for it, found without searching a subtree
  // that may hold the whole page.
  function wrapsOne(el) {
    if (el.childElementCount !== 1) return false;
    let c = el.firstElementChild;
    while (!semantic(c)) {
      if (c.childElementCount !== 1) return false;
      c = c.firstElementChild;
    }
    return !squash(squash(el.textContent).replace(squash(c.textContent), ''));
  }

  // Text areas whose text overflows: besides typing into one (infer.js), it can be
  // scrolled, and a disabled one ("scroll to the end to enable Sign") only scrolled.
  // These second actions are built here and found by find().
  let extraRefs = new Map();
  const slugOf = P.slug;
  function extra(regionOf, vw, vh) {
    const out = [];
    extraRefs = new Map();
    let n = 0;
    for (const el of document.getElementsByTagName('textarea')) {
      if (n++ >= 50) break;
      if (el.scrollHeight <= el.clientHeight + 2 || !el.checkVisibility(VIS) || el.closest('[aria-hidden="true"]')) continue;
      const label = squash((el.labels && el.labels[0] && el.labels[0].textContent) || el.getAttribute('aria-label') ||
        el.placeholder || el.title || humanised(el.id || el.name) || 'text area');
      const name = slugOf('scroll ' + label);
      const region = regionOf(el);
      const path = region ? region.path : [];
      const key = JSON.stringify([name, path]);
      if (extraRefs.has(key)) continue;
      extraRefs.set(key, new WeakRef(el));
      const r = el.getBoundingClientRect();
      out.push([el, {
        name, kind: 'scroll', effect: 'read', description: `${clip(label, 80)} (scrollable text; scroll it to read the rest)`,
        region: region ? region.id : null, region_path: path, ordinal: 0, available: true, reason: null,
        confirm: null, handoff: null, submit: false, input: null,
        in_viewport: r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw, order: 0, source: 'inferred',
      }]);
    }
    return out;
  }
  function find(locator) {
    if (locator.record != null || locator.ordinal) return null;
    const ref = extraRefs.get(JSON.stringify([String(locator.name), locator.region_path || []]));
    const el = ref && ref.deref();
    return el && el.isConnected ? el : null;
  }

  function foundKind(el) {
    const i = info.get(el);
    if (!i) return null;
    // An item of a hover menu that is open now is clicked like any other.
    if (i.kind === 'hover' && i.parent && !i.opens && el.checkVisibility(VIS)) return semantic(el) ? null : 'click';
    return i.kind;
  }
  // For the executor of kind hover: hover the hoverPath, then hover el (a parent that
  // opens a menu) or click it (an item).
  const hoverOnly = (el) => { const i = info.get(el); return !!i && !!i.opens; };
  function nameOf(el, max) {
    const i = info.get(el);
    if (!i || semantic(el)) return '';
    return i.kind === 'scroll' ? scrollName(el, max) : textName(el, max);
  }
  // [name, name_source] of one of ours (name_source null: its own words), or null.
  function named(el, max) {
    const i = info.get(el);
    if (!i || semantic(el)) return null;
    const name = nameOf(el, max);
    if (!name) return null;
    const own = squash(el.textContent) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
    return [name, i.kind === 'scroll' ? 'label' : own ? null : el.title || el.querySelector('img[alt]') || el.alt ? 'title' : 'attribute'];
  }
  function describe(el, label) {
    const i = info.get(el);
    if (!i) return null;
    if (i.kind === 'scroll') return `${label} (scrollable; scroll it to read the rest)`;
    if (i.kind === 'hover' && i.opens) return `${label} (hover to open its menu${i.parent ? ', which is inside a hover menu' : ''})`;
    if (i.parent && foundKind(el) === 'hover') return `${label} (in a hover menu: hovers its menu open, then clicks it)`;
    if (rowsOf.has(el)) return 'Open the row (clicks it)';
    if (EXPANDER.test(el.className) && !squash(el.textContent)) return `${label} (expands or collapses)`;
    if (i.popup) return `${label} (appeared after the last action; click to choose it)`;
    return null;
  }
  // What this pass left out, said in the observation's warnings.
  function warnings() {
    const out = [];
    if (stats.omitted) out.push(`${stats.omitted} clickable elements without semantics are not offered (over the bound of ${lastMax})`);
    if (stats.unexamined) out.push(`the search for clickable elements stopped after ${stats.examined} elements; ${stats.unexamined} more were not examined`);
    return out;
  }
  // Popup and hover-menu items are named by their text even when one row alone has them.
  const ownName = (el) => { const i = info.get(el); return !!i && !!(i.popup || i.parent); };
  // Items of a popup belong to the page, not to the row that opened it: one at a time is open.
  const floating = (el) => { const i = info.get(el); return !!i && !!i.popup; };
  const verb = (el) => (rowsOf.has(el) ? 'open' : null);

  // Clickable rows: siblings of one shape, at least ROWS_MIN, that are clickable
  // themselves or hold clickables, outside what infer.js already made records of and
  // outside composite widgets (P.COMPOSITES: a toolbar's buttons are its controls).
  let rowsOf = new WeakSet();
  function containers(existing) {
    rowsOf = new WeakSet();
    const taken = new Set(existing.map((c) => c.el));
    const inTaken = (el) => { for (let p = el; p; p = p.parentElement) if (taken.has(p)) return true; return false; };
    const out = [];
    const checked = new Set();
    for (const seed of lastOut) {
      const i = info.get(seed);
      if (i.kind !== 'click' || i.popup) continue;
      for (let block = seed, depth = 0; depth < 5; block = block.parentElement, depth++) {
        const parent = block.parentElement;
        if (!parent || block === document.body || parent === document.documentElement) break;
        if (checked.has(parent)) break;
        if (parent === document.body || parent.closest(COMPOSITES)) break;
        // A repeated shape says "row" only with a class or a row-like tag: the page's
        // classless wrapper divs repeat too.
        if (!block.classList.length && !ROW_TAG.test(block.tagName)) continue;
        const shape = shapeOf(block);
        const rows = Array.prototype.filter.call(parent.children, (c) => shapeOf(c) === shape);
        if (rows.length < ROWS_MIN) continue;
        checked.add(parent);
        // Words of a paragraph (span links) are actions, not rows.
        if (getComputedStyle(rows[0]).display.startsWith('inline') && !ROW_TAG.test(block.tagName)) break;
        if (inTaken(parent) || holding(rows) < 2) break;
        for (const r of rows) rowsOf.add(r);
        out.push({ el: parent, rows, headers: null, table: false, card: true });
        break;
      }
    }
    return out.sort((a, b) => docOrder(a.el, b.el));
  }

  // How many of rows are, or hold, a clickable of this pass.
  function holding(rows) {
    const set = new Set(rows);
    const hit = new Set();
    for (const el of lastOut) {
      for (let p = el, d = 0; p && d < 8; p = p.parentElement, d++) if (set.has(p)) { hit.add(p); break; }
      if (hit.size >= 2) break;
    }
    return hit.size;
  }

  function hoverPath(el) {
    const path = [];
    const i = info.get(el);
    if (!i || !i.parent || el.checkVisibility(VIS)) return path;
    for (let p = i.parent; p; p = (info.get(p) || {}).parent) path.unshift(p);
    return path;
  }

  // Popups: what appears near the acted element until the next act.
  let target = null;
  let appeared = [];
  let observer = null;
  const NEAR_PX = 400;
  const POPUP_TEXT = 100;
  const EXPANDER = /expand|collapse|toggle|caret|chevron|twisty|disclosure/i;
  function acted(el) {
    epochs++;
    if (observer) observer.disconnect();
    target = el ? new WeakRef(el) : null;
    appeared = [];
    if (!el) return;
    observer = new MutationObserver((records) => {
      for (const r of records) {
        if (appeared.length >= 200) return;
        if (r.type === 'childList') { for (const n of r.addedNodes) if (n.nodeType === 1) appeared.push(new WeakRef(n)); }
        else if (r.target.nodeType === 1) appeared.push(new WeakRef(r.target));
      }
    });
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style', 'hidden', 'aria-hidden', 'open'] });
  }
  function floats(el) {
    for (let p = el, d = 0; p && p !== document.body && d < 3; p = p.parentElement, d++) {
      const pos = getComputedStyle(p).position;
      if (pos === 'absolute' || pos === 'fixed') return true;
    }
    return false;
  }
  function popup() {
    const near = target && target.deref();
    if (!near || !near.isConnected || !appeared.length) return null;
    const box = near.getBoundingClientRect();
    const close = (r) => r.width > 0 && r.height > 0 && r.top < box.bottom + NEAR_PX && r.bottom > box.top - NEAR_PX &&
      r.left < box.right + NEAR_PX && r.right > box.left - NEAR_PX;
    const roots = [];
    for (const ref of appeared) {
      const el = ref.deref();
      if (!el || !el.isConnected || el === near || el.contains(near) || near.contains(el)) continue;
      if (el === document.body || el === document.documentElement) continue;
      if (roots.some((r) => r.contains(el))) continue;
      if (!el.checkVisibility(VIS) || !close(el.getBoundingClientRect())) continue;
      for (let i = roots.length - 1; i >= 0; i--) if (el.contains(roots[i])) roots.splice(i, 1);
      roots.push(el);
    }
    const items = [];
    for (const root of roots) {
      // A panel or dialog that opened is a region of its own, not a list to choose from.
      if (COMPOSITE.has(firstRole(root)) && firstRole(root) !== 'listbox' && firstRole(root) !== 'menu') continue;
      // A popup floats over the page (a menu, a suggestion list, a picker) or is a
      // list; a view that replaced another in the flow is the page itself.
      if (!floats(root) && !/^(UL|OL|MENU)$/.test(root.tagName) && !/^(listbox|menu)$/.test(firstRole(root) || '')) continue;
      const list = root.matches('li') ? [root] : itemsOf(root);
      for (const item of list) {
        if (item.checkVisibility(VIS) && !items.includes(item) && squash(item.textContent).length <= POPUP_TEXT) items.push(item);
      }
    }
    return items.length ? { near, items: items.slice(0, 50) } : null;
  }

  // The listener probe: elements that might be clickable and were not read yet —
  // leaf-like non-semantic elements with little text, outside tables (whose cells
  // infer.js reads as record fields), visible, nearest the viewport first, and not
  // wrappers whose verdict pass() would discard.
  function probe(max, budget) {
    const out = [];
    if (!document.body) return out;
    const vh = window.innerHeight;
    const shapes = new Map();
    // Preorder over the body's elements, at most budget of them: a TreeWalker would
    // stop reading but not walking (its filter is asked for every sibling left, 30,000
    // on a page of 50,000 links).
    const body = document.body;
    let visited = 0;
    let next = body.firstElementChild;
    while (next && out.length < max && ++visited <= budget) {
      const el = next;
      // A table's cells are record fields, and what is inside a control is the control's.
      const enter = !SKIP_TAG.test(el.tagName) && el.tagName !== 'TABLE' && !semantic(el);
      next = enter ? el.firstElementChild : null;
      for (let up = el; !next && up && up !== body; up = up.parentElement) next = up.nextElementSibling;
      if (!enter) continue;
      if (probed.has(el) || (el.childElementCount > 6 && !el.classList.length)) continue;
      if (el.classList.length) {
        const shape = shapeOf(el);
        const n = shapes.get(shape) || 0;
        if (n >= 2) continue;
        shapes.set(shape, n + 1);
      }
      const r = el.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0 || r.top > vh * 3) continue;
      // A wrapper the pass would drop whatever its listeners (see wrapsOne) and that hides
      // no menu a hover could open is not worth three commands.
      if (wrapsOne(el) && !hiddenMenus(el, null).length) continue;
      probed.add(el);
      out.push(el);
    }
    return out;
  }
  function mark(verdicts, ...els) {
    const byShape = new Map();
    els.forEach((el, i) => {
      const v = verdicts[i] || '';
      if (!el || !v) return;
      epochs++;
      marks.set(el, v);
      markedList.push(new WeakRef(el));
      if (el.classList.length) byShape.set(shapeOf(el) + '\u0000' + el.classList[0], [el.classList[0], shapeOf(el), v]);
    });
    // jQuery and their like bind one listener per element of a class: the probed
    // samples speak for the rest of their shape.
    for (const [cls, shape, v] of byShape.values()) {
      for (const el of document.getElementsByClassName(cls)) {
        if (shapeOf(el) !== shape || marks.has(el) || markedList.length >= MARKED_MAX) continue;
        marks.set(el, v);
        markedList.push(new WeakRef(el));
        probed.add(el);
      }
    }
    return els.length;
  }

  // 2: the last pass took el as a candidate without examining it (or it is marked); 1: it
  // examined el (and maybe what is inside); 0: neither (nothing inside el was looked at).
  const reached = (el) => (candidates.has(el) ? 2 : examined.has(el) ? 1 : 0);
  const epoch = () => epochs;

  Object.defineProperty(globalThis, '__cdpagentClickables', {
    value: Object.freeze({
      pass, foundKind, nameOf, named, describe, verb, ownName, floating, extra, find, hoverOnly, containers, hoverPath, acted, popup, probe, mark,
      warnings, reached, epoch,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
