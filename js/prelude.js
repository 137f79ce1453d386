// cdpagent prelude: the page-side helpers every collector shares (OB-2, OB-12).
//
// Installed first into the isolated world "cdpagent-observe" (see
// cdpagent.cdp.pagescripts.WORLD_SCRIPTS), before collect.js, clickables.js,
// infer.js and act.js. It defines globalThis.__cdpagentPrelude, a frozen object
// of pure helpers over the DOM; the collectors take their strings, masking,
// names, visibility and geometry from here, so a declared page and its
// undeclared twin are cut and masked by one rule:
//
//   strings   squash(s), clip(s, max) (cut by code point: never half a surrogate
//             pair), cutLong(s, max), fold(s) (accents and ligatures folded to
//             ASCII letters before a string becomes an identifier), slug(s),
//             humanise(s) ("userName" -> "user name");
//   masking   MASK, SENSITIVE, isSensitive(el), pageText(el, skipHidden) and
//             textOf(el, max, skipHidden) (the text with every sensitive element
//             inside masked; skipHidden leaves aria-hidden parts out),
//             byIdText(ids, max, tree) (a referenced sensitive element is masked);
//   naming    ariaName(el, max), labelText(el, max, labelMap), ownName(el, max,
//             labelMap) (the accessible name from ARIA, labels, a button's value,
//             content and alt text; never a placeholder or title),
//             accessibleName(el, max, labelMap) (ownName, then placeholder, title);
//   trees     closestAcross(el, selector), containsAcross(outer, el) (across
//             open shadow boundaries);
//   geometry  VIS, inViewport(rect, vw, vh), markViewport(list, vw, vh, elOf).
//
// Nothing here keeps state between calls except pass(): a collector may say,
// for one synchronous pass, whether the document holds any sensitive or
// aria-hidden element at all (most pages hold none, which spares one query per
// text read); anySensitiveNow() is that answer for a collector's own phases.
(() => {
  'use strict';
  if (globalThis.__cdpagentPrelude) return;

  const MASK = '[masked]';
  // visibility:hidden controls cannot be used either, so they count as hidden.
  const VIS = { visibilityProperty: true };
  // OB-2: values of these are masked wherever they are read, and so is the text
  // of every such element inside something whose text is read.
  const SENSITIVE = ['input[type="password"]', 'input[type="hidden"]', '[data-agent-sensitive]']
    .concat(['cc-number', 'cc-csc', 'one-time-code', 'current-password', 'new-password']
      .map((t) => `[autocomplete~="${t}" i]`)).join(',');
  const HIDDEN = '[aria-hidden="true"]';

  // --- strings --------------------------------------------------------------------

  // Lone surrogates become U+FFFD here, so no string leaves the page half a character.
  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim().toWellFormed();
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
  const slug = (s) => fold(squash(s)).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_+|_+$/g, '')
    .slice(0, 40).replace(/_+$/, '');
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

  // --- masking ------------------------------------------------------------------------

  // For one pass: whether the document holds sensitive / aria-hidden elements (null: ask).
  let anySensitive = null;
  let anyHidden = null;
  // Run fn with the two document-wide answers fixed (one query each instead of one per read).
  // known: {sensitive, hidden} when the caller knows them (infer.js's kept model; a stale
  // true only costs the full check of each element, never a wrong answer).
  function pass(fn, known) {
    const before = [anySensitive, anyHidden];
    anySensitive = known ? known.sensitive : !!document.querySelector(SENSITIVE);
    anyHidden = known ? known.hidden : !!document.querySelector(HIDDEN);
    try {
      return fn();
    } finally {
      [anySensitive, anyHidden] = before;
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

  // el's text with the text of each sensitive element inside it masked (OB-2);
  // with skipHidden, aria-hidden parts are left out (as a screen reader reads it).
  function pageText(el, skipHidden) {
    const masks = anySensitive !== false && !!el.querySelector(SENSITIVE);
    const hides = skipHidden && anyHidden !== false && !!el.querySelector(HIDDEN);
    if (!masks && !hides) return el.textContent;
    let out = '';
    const walk = (node) => {
      for (let c = node.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === Node.TEXT_NODE) out += c.data;
        else if (c.nodeType !== Node.ELEMENT_NODE) continue;
        else if (hides && c.getAttribute('aria-hidden') === 'true') continue;
        else if (masks && isSensitive(c)) out += squash(c.textContent) ? ` ${MASK} ` : '';
        else walk(c);
      }
    };
    walk(el);
    return out;
  }

  const textOf = (el, max, skipHidden) => clip(pageText(el, skipHidden), max);

  // The text of the elements ids names, looked up in tree (el's document or shadow
  // root); a referenced sensitive element reads as MASK.
  function byIdText(ids, max, tree) {
    const parts = [];
    for (const id of String(ids || '').split(/\s+/)) {
      const ref = id && (tree || document).getElementById(id);
      if (ref) parts.push(squash(isSensitive(ref) ? MASK : pageText(ref)));
    }
    return clip(parts.join(' '), max);
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
    const list = labelMap ? labelMap.get(el) : el.labels;
    return list && list.length ? clip(Array.from(list, (l) => pageText(l, true)).join(' '), max) : '';
  }

  const FIELD = /^(INPUT|TEXTAREA|SELECT)$/;
  const BUTTON_INPUT = /^(button|submit|reset)$/;
  // Whether el's name may come from its content: never a field's, never an editor's
  // (its content is what the user typed, and changes with every keystroke).
  const namedByContent = (el) => !FIELD.test(el.tagName) && !el.isContentEditable;

  // The accessible name from what names el itself: ARIA, labels, a button's value,
  // content (not of fields or editors), an image's alt. Never placeholder or title.
  function ownName(el, max, labelMap) {
    const named = ariaName(el, max);
    if (named) return named;
    const labelled = labelText(el, max, labelMap);
    if (labelled) return labelled;
    if (el.tagName === 'INPUT' && BUTTON_INPUT.test(el.type)) return clip(el.value, max);
    if (el.tagName === 'INPUT' && el.type === 'image') return clip(el.alt, max);
    if (!namedByContent(el)) return '';
    const text = textOf(el, max, true);
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

  // --- geometry ----------------------------------------------------------------------

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

  Object.defineProperty(globalThis, '__cdpagentPrelude', {
    value: Object.freeze({
      MASK, VIS, SENSITIVE, squash, clip, cutLong, head, fold, slug, humanise, closestAcross, containsAcross,
      pass, isSensitive, pageText, textOf, byIdText, ariaName, labelText, ownName, accessibleName,
      inViewport, markViewport, anySensitiveNow,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
