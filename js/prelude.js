// cdpagent prelude: the page-side helpers every collector shares (OB-2, OB-12).
//
// Installed first into the isolated world "cdpagent-observe" (see
// cdpagent.cdp.pagescripts.WORLD_SCRIPTS), before the collector's files, clickables.js,
// the inference's files and act.js. It defines globalThis.__cdpagentPrelude, a frozen
// object of pure helpers over the DOM; the collectors take their strings, masking,
// names, kinds, visibility and geometry from here, so a declared page and its
// undeclared twin are cut, masked and read by one rule:
//
//   strings   squash(s), clip(s, max) (cut by code point: never half a surrogate
//             pair), cutLong(s, max), fold(s) (accents and ligatures folded to
//             ASCII letters before a string becomes an identifier), slug(s),
//             humanise(s) ("userName" -> "user name"), asciiJson(json) (the same
//             JSON in ASCII: what the collectors send);
//   masking   MASK, SENSITIVE, isSensitive(el), sensitiveElements(budget, doc) (the
//             outermost sensitive elements of a document and its open shadow roots:
//             what a screenshot covers), pageText(el, skipHidden) and
//             textOf(el, max, skipHidden) (the text with every sensitive element
//             inside masked; skipHidden leaves aria-hidden parts out),
//             editableText(el, max) (an editable's text, its lines apart),
//             byIdText(ids, max, tree) (a referenced sensitive element is masked),
//             invalidMessage(el, max) (what an invalid field's references say);
//   naming    ariaName(el, max), labelText(el, max, labelMap), ownName(el, max,
//             labelMap) (the accessible name from ARIA, labels, a button's value,
//             content and alt text; never a placeholder or title),
//             accessibleName(el, max, labelMap) (ownName, then placeholder, title),
//             firstRole(el), COMPOSITES (the composite widgets whose items are their
//             controls: never rows of records nor a list of links);
//   kinds     kindOf(el, reader, role, declarable) (the kind of action an element
//             takes, as the declared collector or the inference reads it; the kinds a
//             page may declare come from Python, cdpagent.snapshot.kinds, in the
//             collector's options);
//   trees     closestAcross(el, selector), containsAcross(outer, el) (across
//             open shadow boundaries), composedParent(node), closestComposed(el,
//             selector), containsComposed(outer, el), composedOrder(a, b) (the flat
//             tree: slots and hosts crossed), openShadowRoots(budget, stats, top), MAY_HOST,
//             docOrder(a, b), shapeOf(el), ancestorWalk(answer, none, known) (a
//             memoised walk up the ancestors), isElement(node), WATCH (what the
//             collectors' mutation observers watch);
//   style     sheetLists(roots), rulesOf(sheet), everySheet(roots, test), sheetsPrint(roots),
//             sameList(a, b) (the same items in the same order),
//             allAnimations(roots), lastingAnimations(roots);
//   geometry  VIS, visFor(n, roots) (VIS, or none where nothing sets visibility),
//             inViewport(rect, vw, vh), markViewport(list, vw, vh, elOf);
//   regions   regionState(el, parentState, inert, covered), behindDialog(label);
//   actions   orderActions(pageActions, pageEls, groupList, compare);
//   passes    now(), optionsKey(opts), phaseClock(), space(name) (the namespace
//             the files of one collector share).
//
// Nothing here keeps state between calls except pass(): a collector may say,
// for one synchronous pass, whether the document holds any sensitive or
// aria-hidden element at all (most pages hold none, which spares one query per
// text read); anySensitiveNow() is that answer for a collector's own phases.
// (space() keeps the namespaces, which hold what their files define.)
(() => {
  'use strict';
  if (globalThis.__cdpagentPrelude) return;

  const MASK = '[masked]';
  // visibility:hidden controls cannot be used either, so they count as hidden.
  const VIS = { visibilityProperty: true };
  // OB-2: values of these are masked wherever they are read, and so is the text
  // of every such element inside something whose text is read.
  // Chromium tries a compound selector's parts left to right and a list's selectors in
  // turn: the tag and the bare attribute first turn most elements away in three tries,
  // not eight (a document of 120,000 elements: 7 ms, not 16-21).
  const SENSITIVE = 'input:is([type="password"],[type="hidden"]),[data-agent-sensitive],[autocomplete]:is(' +
    ['cc-number', 'cc-csc', 'one-time-code', 'current-password', 'new-password']
      .map((t) => `[autocomplete~="${t}" i]`).join(',') + ')';
  const HIDDEN = '[aria-hidden="true"]';
  // Composite widgets (a menu, a toolbar, a tab list…): what they hold are their own items,
  // controls of the widget, never rows of records nor a list of links, however alike.
  const COMPOSITES = '[role=menu],[role=menubar],[role=tablist],[role=listbox],[role=tree],[role=radiogroup],[role=toolbar]';

  // --- strings --------------------------------------------------------------------

  // Whitespace squash would change: any but a lone space between other characters.
  const UNSQUASHED = /[^\S ]| \s|^ | $/;
  // Runs of whitespace as one space, trimmed. Lone surrogates become U+FFFD here, so no
  // string leaves the page half a character. Most names and texts have nothing to squash:
  // one test finds that, and they are returned as they are (70,000 link texts: 4.4 ms
  // instead of 10.8 for a replace and a trim each).
  const squash = (s) => {
    let text = String(s == null ? '' : s);
    if (UNSQUASHED.test(text)) text = text.replace(/\s+/g, ' ').trim();
    return text.isWellFormed() ? text : text.toWellFormed();
  };
  // The end of a cut at most max units long that never splits a surrogate pair.
  function cutEnd(s, max) {
    const high = s.charCodeAt(max - 1);
    return high >= 0xd800 && high <= 0xdbff ? max - 1 : max;
  }
  // Cut by code point, and say so with the length before the cut.
  function clip(s, max) {
    s = squash(s);
    if (s.length <= max) return s;
    return s.slice(0, cutEnd(s, max)) + `… (cut, ${s.length} chars)`;
  }
  // s as it is when it fits max, else clip()'s cut (a short value keeps its spacing).
  const cutLong = (s, max) => (s.length > max ? clip(s, max) : s);
  // s cut to at most max units by code point, without a note.
  const head = (s, max) => (s.length <= max ? s : s.slice(0, cutEnd(s, max)));

  // Letters that compatibility decomposition does not split into base + mark.
  const LETTERS = { ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'Th', ı: 'i' };
  // Accents and ligatures folded away (NFKD, marks dropped): "Cancél" -> "Cancel".
  const fold = (s) => String(s).normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[ßæÆœŒøØłŁđĐþÞı]/g, (c) => LETTERS[c]);
  // A lower-case identifier of letters, digits and "_" (at most 40), from text.
  // A control drawn as one sign is read as its word: "‹" is "previous", "×" is "close".
  const SIGNS = new Map([
    ...['<', '‹', '←', '◀', '◂', '⟨'].map((c) => [c, 'previous']),
    ...['>', '›', '→', '▶', '▸', '⟩'].map((c) => [c, 'next']),
    ['«', 'first'], ['»', 'last'], ['☰', 'menu'], ['⋮', 'more'], ['⋯', 'more'], ['…', 'more'],
    ...['×', '✕', '✖', '⨯'].map((c) => [c, 'close']),
  ]);
  const slug = (s) => {
    const text = squash(s);
    return SIGNS.get(text) || fold(text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '')
      .slice(0, 40).replace(/_+$/, '');
  };
  // A JSON text with every character past ASCII written as its \u escape: the same value.
  // Chromium sends an all-ASCII string as it is, and any other as UTF-16 that the browser
  // converts again: the 50,000-link page's 410 KB snapshot took 20 ms to reach the client
  // with one "…" in it, 11 without. null stays null.
  const NON_ASCII = /[^\x00-\x7f]/;
  const escapeChar = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  const asciiJson = (json) => (json !== null && NON_ASCII.test(json) ? json.replace(/[^\x00-\x7f]/g, escapeChar) : json);
  // A name or id as words: "user_name", "userName", "user-name" -> "user name".
  const humanise = (s) => squash(String(s || '').replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/[_\-.[\]]+/g, ' ')).toLowerCase();

  // --- trees --------------------------------------------------------------------------

  // el.closest(selector), continued through the hosts of the shadow trees el is in.
  function closestAcross(el, selector) {
    for (let node = el; node;) {
      const hit = node.closest(selector);
      if (hit) return hit;
      node = node.getRootNode().host || null;
    }
    return null;
  }

  // outer.contains(el), across shadow boundaries.
  function containsAcross(outer, el) {
    for (let node = el; node; node = node.getRootNode().host || null) {
      if (outer.contains(node)) return true;
    }
    return false;
  }

  // The parent of node in the flat tree a person sees: the slot it is assigned to, else
  // its parent element, else the host of the shadow tree whose top it is.
  const composedParent = (node) => node.assignedSlot || node.parentElement || (node.parentNode && node.parentNode.host) || null;

  // el.closest(selector) in the flat tree (slots and hosts crossed), or null.
  function closestComposed(el, selector) {
    for (let n = el; n; n = composedParent(n)) if (n.matches(selector)) return n;
    return null;
  }

  // Whether el is outer or inside it in the flat tree (a slotted element is inside the
  // shadow content its slot is in).
  function containsComposed(outer, el) {
    for (let n = el; n; n = composedParent(n)) if (n === outer) return true;
    return false;
  }

  // Composed order of two elements (a sort comparator): a host before its shadow tree's
  // content, each tree in document order.
  function composedOrder(a, b) {
    if (a === b) return 0;
    const chain = (el) => {
      const out = [el];
      for (let h = el.getRootNode().host; h; h = h.getRootNode().host) out.unshift(h);
      return out;
    };
    const x = chain(a);
    const y = chain(b);
    for (let i = 0; i < x.length && i < y.length; i++) {
      if (x[i] !== y[i]) return x[i].compareDocumentPosition(y[i]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    }
    return x.length - y.length;
  }

  // Document order of two elements (a sort comparator).
  const docOrder = (a, b) => (a === b ? 0 : a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);

  // Tag and sorted classes: what repeated siblings (rows, cards) share. One class or none
  // is read from the attribute (no token list per element: a walk asks this of every
  // child of a 100,000-row table body).
  const shapeOf = (el) => {
    const cls = el.getAttribute('class');
    if (!cls) return el.tagName;
    if (!/\s/.test(cls)) return el.tagName + '.' + cls;
    return el.tagName + (el.classList.length ? '.' + Array.from(el.classList).sort().join('.') : '');
  };

  // A walk up from an element through its ancestors (the element first), memoised: it
  // returns the answer of the nearest element that has one (answer(p) !== undefined, or
  // known beforehand in `known`), else `none`. Every element on the way keeps that answer,
  // so a later walk through any of them stops there: rows of one list share their
  // ancestors, and n rows cost about n steps, not n times the depth.
  function ancestorWalk(answer, none, known = new Map()) {
    return (el) => {
      const path = [];
      let found = none;
      for (let p = el; p; p = p.parentElement) {
        const kept = known.get(p);
        if (kept !== undefined) {
          found = kept;
          break;
        }
        const own = answer(p);
        if (own !== undefined) {
          found = own;
          known.set(p, own);
          break;
        }
        path.push(p);
      }
      for (const p of path) known.set(p, found);
      return found;
    };
  }

  const isElement = (node) => node && node.nodeType === Node.ELEMENT_NODE;

  // What the collectors' mutation observers watch of a tree.
  const WATCH = { subtree: true, childList: true, attributes: true, characterData: true };

  // Only these HTML elements can host a shadow root (DOM Standard, attachShadow;
  // declarative roots alike): article, aside, blockquote, body, div, footer, h1-h6,
  // header, main, nav, p, section, span and custom elements (names with a dash, not
  // selectable). So the search asks the complement of the other known names, most
  // frequent first: a table or list of 10,000 rows is skipped by one selector
  // instead of being asked element by element.
  // A selector list is tried name by name until one matches: an element that may host
  // (a div, a paragraph) failed every one of the 139 names of :not(NO_HOST). The most
  // frequent names are asked first, then the host names, then the rest of NO_HOST: a div
  // or a paragraph is answered in about 20 tries, a link or a cell in a few (120,000
  // elements of a page of 50,000 links: 14 ms, not 47). Code and pre, thousands on a
  // documentation page, are among the frequent (that page's 20,000: 13.5 ms, not 18.5).
  const NO_HOST = ['td', 'tr', 'a', 'li', 'input', 'button', 'img', 'i', 'b', 'th', 'option', 'label', 'svg',
    'path', 'g', 'use', 'code', 'pre', 'rect', 'circle', 'ul', 'ol', 'table', 'tbody', 'thead', 'tfoot', 'caption',
    'col', 'colgroup', 'select', 'optgroup', 'textarea', 'form', 'fieldset', 'legend', 'em', 'strong', 'small', 'br',
    'hr', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'picture', 'source', 'video', 'audio', 'track',
    'canvas', 'iframe', 'embed', 'object', 'param', 'html', 'head', 'title', 'meta', 'link', 'style', 'script',
    'noscript', 'template', 'slot', 'abbr', 'address', 'area', 'map', 'bdi', 'bdo', 'cite', 'data', 'datalist',
    'del', 'ins', 'details', 'summary', 'dialog', 'dfn', 'kbd', 'mark', 'menu', 'meter', 'progress', 'output',
    'q', 'rp', 'rt', 'ruby', 's', 'samp', 'search', 'sub', 'sup', 'time', 'u', 'var', 'wbr', 'hgroup', 'base',
    'tt', 'big', 'center', 'font', 'nobr', 'strike', 'marquee', 'frame', 'frameset', 'noframes', 'acronym',
    'text', 'tspan', 'line', 'polyline', 'polygon', 'ellipse', 'defs', 'symbol', 'mask', 'pattern', 'image',
    'stop', 'desc', 'metadata', 'filter', 'marker', 'math', 'mi', 'mn', 'mo', 'mrow', 'msup', 'msub', 'mfrac',
    'msqrt', 'mtext', 'mspace'];
  const HOSTS = ['div', 'span', 'p', 'section', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'footer',
    'nav', 'aside', 'main', 'blockquote', 'body'];
  const FREQUENT = 18;
  const MAY_HOST = `:not(${NO_HOST.slice(0, FREQUENT).join(',')}):is(${HOSTS.join(',')},:not(${NO_HOST.slice(FREQUENT).join(',')}))`;

  // Every open shadow root (nested ones included) in document order, or null
  // when the page has more than `budget` elements (the elements of the trees
  // searched count, hosts or not). stats, when given, counts the custom elements
  // without an open root (the usual hosts of closed ones, OB-11) of a tree of at
  // most stats.limit elements, and notes the elements of the document
  // (stats.elements) and of the shadow trees searched.
  function openShadowRoots(budget, stats, top = document) {
    const roots = [];
    const search = (root) => {
      const size = (root === top ? top.getElementsByTagName('*') : root.querySelectorAll('*')).length;
      budget -= size;
      if (stats) stats[root === top ? 'elements' : 'shadowElements'] += size;
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
    return search(top) ? roots : null;
  }

  // --- masking ------------------------------------------------------------------------

  // For one pass: whether the document holds sensitive / aria-hidden elements (null: ask).
  let anySensitive = null;
  let anyHidden = null;
  // Run fn with the two document-wide answers fixed (one query each instead of one per read).
  // known: {sensitive, hidden} when the caller knows them (infer.js's kept model; a stale
  // true only costs the full check of each element, never a wrong answer).
  function pass(fn, known) {
    const before = [anySensitive, anyHidden, visPlain];
    visPlain = 'ask';
    anySensitive = known ? known.sensitive : !!document.querySelector(SENSITIVE);
    anyHidden = known ? known.hidden : !!document.querySelector(HIDDEN);
    try {
      return fn();
    } finally {
      [anySensitive, anyHidden, visPlain] = before;
    }
  }

  // Whether the document holds a sensitive element: the answer fixed by the running pass(),
  // else asked now.
  const anySensitiveNow = () => (anySensitive === null ? !!document.querySelector(SENSITIVE) : anySensitive);

  // The masking rule (OB-2): every phase of every collector that reads a value asks this first.
  function isSensitive(el) {
    return (el.tagName === 'INPUT' && (el.type === 'password' || el.type === 'hidden')) ||
      el.matches(SENSITIVE) || !!closestAcross(el, '[data-agent-sensitive]');
  }

  // The elements of doc (a document, default this one) and of its open shadow roots that
  // isSensitive says yes to, outermost only (what is inside one is covered with it): what a
  // screenshot must cover (BR-3), by the rule the text follows. null when the page has more
  // than budget elements (its shadow roots are then not all searched).
  function sensitiveElements(budget, doc = document) {
    const roots = openShadowRoots(budget, null, doc);
    const found = [];
    for (const root of [doc, ...(roots || [])]) {
      for (const el of root.querySelectorAll(SENSITIVE)) {
        if (isSensitive(el)) found.push(el);
      }
    }
    const outer = found.filter((el) => {
      const up = el.parentElement || el.getRootNode().host || null;
      return !up || !closestAcross(up, SENSITIVE);
    });
    return roots ? outer : null;
  }

  // el's text with the text of each sensitive element inside it masked (OB-2);
  // with skipHidden, aria-hidden parts are left out (as a screen reader reads it).
  // Inside a shadow tree, a <slot> shows the nodes assigned to it (else its own
  // fallback content): el's text is read through its slots. With nested (a selector), the
  // elements inside el that match it are left out (a tree item's child items).
  function pageText(el, skipHidden, nested) {
    const slotted = el.getRootNode() !== document && (el.tagName === 'SLOT' || !!el.querySelector('slot'));
    const masks = anySensitive !== false && !!el.querySelector(SENSITIVE);
    const hides = skipHidden && anyHidden !== false && !!el.querySelector(HIDDEN);
    const leaves = !!nested && !!el.querySelector(nested);
    if (!masks && !hides && !slotted && !leaves) return el.textContent;
    let out = '';
    const visit = (c) => {
      if (c.nodeType === Node.TEXT_NODE) out += c.data;
      else if (c.nodeType !== Node.ELEMENT_NODE) return;
      else if (leaves && c.matches(nested)) return;
      else if (hides && c.getAttribute('aria-hidden') === 'true') return;
      else if (masks && isSensitive(c)) out += squash(c.textContent) ? ` ${MASK} ` : '';
      else walk(c);
    };
    const walk = (node) => {
      const assigned = slotted && node.tagName === 'SLOT' ? node.assignedNodes({ flatten: true }) : [];
      if (assigned.length) for (const c of assigned) visit(c);
      else for (let c = node.firstChild; c; c = c.nextSibling) visit(c);
    };
    walk(el);
    return out;
  }

  const textOf = (el, max, skipHidden) => clip(pageText(el, skipHidden), max);
  // An editable element's text as a person reads it: its lines (block children, <br>) apart,
  // where textContent runs them together ("x = 1y = 2" for a code editor's two lines). A
  // sensitive part inside is masked as textOf does.
  const editableText = (el, max) => (el.querySelector(SENSITIVE) ? textOf(el, max) : clip(el.innerText, max));

  // The text of the elements ids names, looked up in tree (el's document or shadow
  // root); a referenced sensitive element reads as MASK.
  // A referenced element says its aria-label before its content (accname 1.2 step 2C comes
  // before 2F): a slider's group labelled "Budget" that holds the ticks "0" and "500" says
  // "Budget"; the same words said twice (a control that references itself and its group,
  // both labelled alike) are said once.
  function byIdText(ids, max, tree) {
    const parts = [];
    for (const id of String(ids || '').split(/\s+/)) {
      const ref = id && (tree || document).getElementById(id);
      if (!ref) continue;
      const aria = squash(ref.getAttribute('aria-label') || '');
      const said = isSensitive(ref) ? MASK : aria || squash(pageText(ref));
      if (said && !parts.includes(said)) parts.push(said);
    }
    return clip(parts.join(' '), max);
  }

  // What an invalid field (aria-invalid) says is wrong: the text its aria-errormessage,
  // else its aria-describedby names, else the browser's validation message; '' when none.
  function invalidMessage(el, max) {
    const tree = el.getRootNode();
    return byIdText(el.getAttribute('aria-errormessage'), max, tree) ||
      byIdText(el.getAttribute('aria-describedby'), max, tree) ||
      (el.validationMessage ? clip(el.validationMessage, max) : '');
  }

  // --- naming ------------------------------------------------------------------------

  // aria-labelledby, then aria-label (accname 1.2 steps 2B and 2C).
  function ariaName(el, max) {
    const by = el.getAttribute('aria-labelledby');
    const t = by ? byIdText(by, max, el.getRootNode()) : '';
    if (t) return t;
    const aria = el.getAttribute('aria-label');
    return aria ? clip(aria, max) : '';
  }

  // The text of el's <label>s (masked), from labelMap (control -> label elements,
  // built once per pass by a collector) or else el.labels.
  function labelText(el, max, labelMap) {
    // The pass's map holds the document's labels; a control in a shadow tree asks its own.
    const list = labelMap ? labelMap.get(el) || (el.getRootNode() !== document ? el.labels : null) : el.labels;
    // A label that is only an image (a magnifier before a search field) says its alt text.
    const said = (l) => {
      const t = pageText(l, true);
      return squash(t) ? t : Array.from(l.querySelectorAll('img[alt]'), (i) => i.alt).join(' ');
    };
    return list && list.length ? clip(Array.from(list, said).join(' '), max) : '';
  }

  // What a tree item holds besides its label: its child items and their group.
  const BRANCH_PARTS = '[role=treeitem],[role=group]';
  const FIELD = /^(INPUT|TEXTAREA|SELECT)$/;
  const BUTTON_INPUT = /^(button|submit|reset)$/;
  // Whether el's name may come from its content: never a field's, never an editor's
  // (its content is what the user typed, and changes with every keystroke).
  const namedByContent = (el) => !FIELD.test(el.tagName) && !el.isContentEditable;

  // The accessible name from what names el itself: ARIA, labels, a button's value,
  // content (not of fields or editors), an image's alt. Never placeholder or title.
  function ownName(el, max, labelMap) {
    // A link that holds text alone and has no ARIA name is named by its text (no <label>
    // labels a link, and its text has nothing to mask or leave out): most links of a long
    // page, each read without the steps below.
    if (el.tagName === 'A' && !el.firstElementChild && !el.hasAttribute('aria-labelledby') && !el.hasAttribute('aria-label')) {
      return el.isContentEditable ? '' : clip(el.textContent, max);
    }
    const named = ariaName(el, max);
    if (named) return named;
    const labelled = labelText(el, max, labelMap);
    if (labelled) return labelled;
    if (el.tagName === 'INPUT' && BUTTON_INPUT.test(el.type)) return clip(el.value, max);
    if (el.tagName === 'INPUT' && el.type === 'image') return clip(el.alt, max);
    if (!namedByContent(el)) return '';
    // A tree item is named by its own label: the items of its branch are its children, not
    // its name (a person reads "Museums", not "Museums Art museum Science museum").
    const text = firstRole(el) === 'treeitem' ? clip(pageText(el, true, BRANCH_PARTS), max) : textOf(el, max, true);
    if (text) return text;
    const img = el.querySelector('img[alt]');
    return img && img.alt ? clip(img.alt, max) : '';
  }

  // The accessible name as accname computes it for the cases that matter here:
  // ownName, then placeholder, then title.
  function accessibleName(el, max, labelMap) {
    return ownName(el, max, labelMap) || clip(el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || '', max) ||
      clip(el.getAttribute('title') || '', max);
  }

  // The role an element declares: the first token of its role attribute, or null.
  const firstRole = (el) => {
    const role = el.getAttribute('role');
    return role ? role.trim().split(/\s+/)[0] : null;
  };

  // --- kinds ---------------------------------------------------------------------------

  const INPUT_KINDS = new Map([['checkbox', 'check'], ['radio', 'check'], ['range', 'set'], ['file', 'upload'],
    ['button', 'click'], ['submit', 'click'], ['reset', 'click'], ['image', 'click'], ['color', 'click']]);
  const CHECKS = [['checkbox', 'check'], ['switch', 'check'], ['radio', 'check'], ['slider', 'set'], ['spinbutton', 'set']];
  // How each reader of a page decides a kind beyond the element's tag:
  //   declared       a data-agent-kind among the declarable kinds decides first;
  //   editableFirst  an editable element is typed into even when it is an input;
  //   roles          role -> kind, for an element its tag does not decide.
  // The declared collector honours what the page declares and reads a radio group as one
  // choose action and a combobox as a text field; the inference reads neither (it finds
  // radio groups itself, and a combobox that is no field is clicked open). Both set a spin
  // button that is no input to a number, by its keys, even when it is editable (a date
  // field's segment): its value is aria-valuenow, not its text.
  const KIND_READERS = {
    declared: {
      declared: true, editableFirst: false,
      roles: new Map([...CHECKS, ['radiogroup', 'choose'], ['textbox', 'type'], ['searchbox', 'type'], ['combobox', 'type']]),
    },
    inferred: {
      declared: false, editableFirst: true,
      roles: new Map([...CHECKS, ['textbox', 'type'], ['searchbox', 'type']]),
    },
  };

  // The kind of action el takes as `reader` ('declared' or 'inferred') reads it: a select
  // is selected, a text area or text input typed into, a checkbox or radio checked, a range
  // set, a file input uploaded, a button input clicked; a spin button that is no input is
  // set; an editable element is typed into; else its role decides (role: the reader's role of el, by default its role attribute),
  // and anything else is clicked. declarable: the kinds a page may declare with
  // data-agent-kind (the declared reader's; the collector's options carry them from the
  // kinds table, cdpagent.snapshot.kinds, so this script lists none of its own).
  function kindOf(el, reader, role, declarable) {
    const rules = KIND_READERS[reader];
    if (rules.declared) {
      const declared = el.getAttribute('data-agent-kind');
      if (declared && declarable.includes(declared)) return declared;
    }
    const tag = el.tagName;
    if (tag === 'SELECT') return 'select';
    const spin = (role === undefined ? el.getAttribute('role') : role) === 'spinbutton';
    if (spin && tag !== 'INPUT' && tag !== 'TEXTAREA') return 'set';
    if (tag === 'TEXTAREA' || (rules.editableFirst && el.isContentEditable)) return 'type';
    if (tag === 'INPUT') return INPUT_KINDS.get(el.type) || 'type';
    if (el.isContentEditable) return 'type';
    return rules.roles.get(role === undefined ? el.getAttribute('role') : role) || 'click';
  }

  // --- geometry ----------------------------------------------------------------------

  // The options for checkVisibility on n elements of one phase of a pass: VIS, or none
  // where no style can make an element invisible by its visibility (then the answers are
  // the same). Reading the options costs as much as the check itself (0.2 µs a call), and
  // asking the page (noVisibilityStyle: three selectors over its elements) about a
  // fifth of that per element: it is asked, once per pass, for a phase that checks at least
  // an eighth as many elements as the document holds (the 50,000-link page: yes; a table,
  // whose rows are a tenth of its elements: no).
  // The running pass's answer ('ask' until asked); null outside a pass (asked each time).
  let visPlain = null;
  function visFor(n, roots) {
    if (visPlain === true || visPlain === false) return visPlain ? undefined : VIS;
    if (n * 8 < document.getElementsByTagName('*').length) return VIS;
    if (visPlain === null) return noVisibilityStyle(roots) ? undefined : VIS;
    visPlain = noVisibilityStyle(roots);
    return visPlain ? undefined : VIS;
  }
  const SETS_VISIBILITY = '[style*="visibility" i],[visibility],[attributeName=visibility]';
  // Whether nothing sets the visibility of an element of the document: no open shadow root
  // (roots), no style attribute naming it, no SVG visibility attribute or animation, no rule of a
  // readable sheet (nested, imported or in @media, @layer, @keyframes... included) but
  // `visibility: visible`, and no running animation of it. The user agent's sheet sets it
  // on no element (tests/test_inference_visibility.py holds that for every element kind).
  function noVisibilityStyle(roots) {
    if ((roots && roots.length) || document.querySelector(SETS_VISIBILITY)) return false;
    const plain = (rules) => {
      for (const rule of rules) {
        if (rule instanceof CSSImportRule) {
          const inner = rule.styleSheet && rulesOf(rule.styleSheet);
          if (!inner || !plain(inner)) return false;
          continue;
        }
        const value = rule.style ? rule.style.getPropertyValue('visibility').trim() : '';
        if (value && value !== 'visible') return false;
        if (rule.cssRules && !plain(rule.cssRules)) return false;
      }
      return true;
    };
    return everySheet(null, plain) && !document.getAnimations().some((a) => a.effect && a.effect.getKeyframes &&
      a.effect.getKeyframes().some((frame) => 'visibility' in frame));
  }

  function inViewport(r, vw, vh) {
    return (r.width > 0 || r.height > 0) && r.bottom > 0 && r.right > 0 && r.top < vh && r.left < vw;
  }

  // Viewport membership of items in document order (sets each .visible; elOf(item)
  // is its element); returns those in view. Lists are laid out top to bottom almost
  // always, so a binary search finds the window with O(log n) layout reads; 33
  // probes check that order first, else every item is read.
  function markViewport(list, vw, vh, elOf) {
    const n = list.length;
    const shown = [];
    const rectOf = (i) => elOf(list[i]).getBoundingClientRect();
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
    const mark = (i, r) => {
      list[i].visible = inViewport(r, vw, vh);
      if (list[i].visible) shown.push(list[i]);
    };
    if (!ordered) {
      for (let i = 0; i < n; i++) mark(i, rectOf(i));
      return shown;
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
      mark(i, r);
    }
    return shown;
  }

  // --- style -------------------------------------------------------------------------

  // The style sheet lists of the document and of the open shadow roots `roots`.
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

  // Whether lists a and b hold the same items in the same order.
  const sameList = (a, b) => a === b || (a.length === b.length && a.every((x, i) => x === b[i]));

  // Whether every style sheet of the document and of `roots` can be read and passes
  // test(rules).
  function everySheet(roots, test) {
    for (const sheets of sheetLists(roots)) {
      for (const sheet of sheets) {
        const rules = rulesOf(sheet);
        if (!rules || !test(rules)) return false;
      }
    }
    return true;
  }

  // Rule counts of every style sheet of the document and of `roots`: a rule added or
  // removed through the CSSOM changes style without a mutation.
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

  // The animations of the document and of the open shadow roots `roots`
  // (document.getAnimations() leaves those out).
  function allAnimations(roots) {
    const all = document.getAnimations();
    for (const root of roots || []) all.push(...root.getAnimations());
    return all;
  }

  // allAnimations(roots) but those the browser drops at its next frame: a finished script
  // animation still in effect whose every property a later such animation of the same
  // element overrides is removed as replaced (Web Animations, "removing replaced
  // animations"). Its removal changes nothing on screen, so a print of the animations
  // must not count it.
  function lastingAnimations(roots) {
    const all = allAnimations(roots);
    const overridden = new Map(); // target element -> pseudo-element -> properties set later
    const out = [];
    for (let i = all.length - 1; i >= 0; i--) {
      const a = all[i];
      const props = replaceableProperties(a);
      if (!props) { out.push(a); continue; }
      const { target, pseudoElement } = a.effect;
      if (!overridden.has(target)) overridden.set(target, new Map());
      const byPseudo = overridden.get(target);
      if (!byPseudo.has(pseudoElement)) byPseudo.set(pseudoElement, new Set());
      const later = byPseudo.get(pseudoElement);
      const replaced = props.every((p) => later.has(p));
      for (const p of props) later.add(p);
      if (!replaced) out.push(a);
    }
    return out.reverse();
  }
  const KEYFRAME_META = new Set(['offset', 'computedOffset', 'easing', 'composite']);
  // The properties animation a sets when the browser may remove it as replaced, else null.
  function replaceableProperties(a) {
    if (a.replaceState !== 'active' || a.playState !== 'finished' || a.timeline !== document.timeline) return null;
    if ((typeof CSSAnimation !== 'undefined' && a instanceof CSSAnimation) ||
        (typeof CSSTransition !== 'undefined' && a instanceof CSSTransition)) return null;
    const e = a.effect;
    if (!e || !e.target || !e.getKeyframes || e.getComputedTiming().progress === null) return null;
    const props = new Set();
    for (const frame of e.getKeyframes()) for (const k of Object.keys(frame)) if (!KEYFRAME_META.has(k)) props.add(k);
    return [...props];
  }

  // --- regions -----------------------------------------------------------------------

  // A region's state: hidden when not rendered, else inert (inert(el)), else covered by the
  // open dialog (covered(el)), else active; inside a hidden or inert region, that region's.
  function regionState(el, parentState, inert, covered) {
    let state = 'active';
    if (!el.checkVisibility(VIS)) state = 'hidden';
    else if (inert(el)) state = 'inert';
    else if (covered(el)) state = 'covered';
    if (parentState === 'hidden' || parentState === 'inert') state = parentState;
    return state;
  }

  // Why what the open dialog covers cannot be used.
  const behindDialog = (label) => `behind the open dialog "${label}"`;

  // --- actions -----------------------------------------------------------------------

  // Numbers page actions and folded groups (their .order) in document order, by their
  // elements (pageEls[i], group.first) and a comparator of two elements; then drops the
  // groups' elements.
  function orderActions(pageActions, pageEls, groupList, compare) {
    const entries = pageActions.map((a, i) => [pageEls[i], a]).concat(groupList.map((g) => [g.first, g]));
    entries.sort((x, y) => compare(x[0], y[0]));
    entries.forEach((e, i) => { e[1].order = i; });
    for (const g of groupList) delete g.first;
  }

  // --- passes ------------------------------------------------------------------------

  const now = () => performance.now();

  // What of a collector's options its kept model depends on (all but the included ids).
  const optionsKey = (opts) => JSON.stringify(Object.assign({}, opts, { include: null }));

  // Milliseconds per phase of a collector's last pass (bench/observe.py and
  // bench/observe_inferred.py read them): start(t0) as a pass begins, mark(name) as each
  // phase ends (a phase marked twice adds up), json() for the last pass.
  function phaseClock() {
    let last = 0;
    let phases = {};
    return {
      start(t0) {
        phases = {};
        last = t0;
      },
      mark(name) {
        const t = now();
        phases[name] = (phases[name] || 0) + t - last;
        last = t;
      },
      json: () => JSON.stringify(phases),
    };
  }

  // The namespace the files of one collector share (name: the global it publishes, e.g.
  // '__cdpagentObserve'), made by its first file: each file adds what it defines
  // (Object.assign) and takes, as it is installed, what earlier files added, so a call
  // costs what a call within one file costs. It starts with the collector's phase clock.
  const spaces = new Map();
  function space(name) {
    let s = spaces.get(name);
    if (!s) {
      s = { clock: phaseClock() };
      spaces.set(name, s);
    }
    return s;
  }

  Object.defineProperty(globalThis, '__cdpagentPrelude', {
    value: Object.freeze({
      MASK, VIS, SENSITIVE, squash, clip, cutLong, head, fold, slug, humanise, asciiJson, closestAcross, containsAcross,
      composedParent, closestComposed, containsComposed, composedOrder,
      pass, isSensitive, sensitiveElements, pageText, textOf, editableText, byIdText, invalidMessage, ariaName, labelText, ownName,
      accessibleName,
      firstRole, COMPOSITES, kindOf, docOrder, shapeOf, ancestorWalk, isElement, WATCH, MAY_HOST, openShadowRoots,
      sameList, sheetLists, rulesOf, everySheet, sheetsPrint, allAnimations, lastingAnimations, inViewport, markViewport, anySensitiveNow, regionState,
      visFor,
      behindDialog, orderActions, now, optionsKey, phaseClock, space,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
