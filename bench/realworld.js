// Bench only (bench/realworld.py): what a person sees on a page, counted from the DOM, to
// compare with what an inferred observation offered. Called with Runtime.callFunctionOn
// in cdpagent's isolated world, so the observation's own finders (infer.js, collect.js)
// resolve the observation's action locators to elements here.
//
//   (locators, rootSelector) -> {controls: [{category, offered, what}], words: [string]}
//
// controls: every visible, enabled form control or ARIA widget of the document, with the
// category the bench reports it under and whether an action of the observation targets
// it (the element itself, an element inside it, or, for a radio group or a label, the
// group or label holding it); what (tag#id.class) names a control not offered. words: the visible words under rootSelector (the page's
// main content), in document order; the text of form controls is their value, not page
// text, and is left out.
function (locators, rootSelector) {
  'use strict';
  const CATEGORIES = [
    ['text field', 'input:not([type]), input[type=text], input[type=search], input[type=email], input[type=url],' +
      ' input[type=tel], input[type=password], input[type=number], input[type=date], input[type=time],' +
      ' input[type=datetime-local], input[type=month], input[type=week], textarea, [contenteditable=""],' +
      ' [contenteditable=true], [role=textbox], [role=searchbox], [role=spinbutton]'],
    ['select', 'select, [role=combobox], [role=listbox]'],
    ['button', 'button, input[type=button], input[type=submit], input[type=reset], input[type=image], [role=button]'],
    ['checkbox', 'input[type=checkbox], [role=checkbox], [role=switch]'],
    ['radio', 'input[type=radio], [role=radio]'],
    ['slider', 'input[type=range], [role=slider]'],
    ['link', 'a[href], [role=link]'],
    ['tab / menu item / option', '[role=tab], [role=menuitem], [role=option], [role=treeitem]'],
  ];
  const visible = (el) => el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
    el.getClientRects().length > 0;
  const enabled = (el) => !el.matches(':disabled') && !el.closest('[aria-disabled=true], [inert]');

  const ALL = CATEGORIES.map(([, selector]) => selector).join(', ');
  const targets = [];
  const grouped = new Set();
  for (const loc of locators) {
    const inferred = loc.source === 'inferred';
    const finder = inferred ? globalThis.__cdpagentInfer : globalThis.__cdpagentObserve;
    const el = finder && finder.find(loc);
    if (!el) continue;
    targets.push({ el, kind: loc.kind });
    // A radio group's one choose action offers every radio of the group.
    if (loc.kind === 'choose' && inferred && finder.choices) for (const r of finder.choices(el)) grouped.add(r);
  }
  // An action offers the control it targets, the control around it (a span inside a
  // button), or the one control inside it (a tab's link, a label's box, a group's radios).
  const offered = (c) => grouped.has(c) || targets.some(({ el, kind }) =>
    el === c || c.contains(el) ||
    (el.contains(c) && (kind === 'choose' || kind === 'select' || el.tagName === 'LABEL' ||
      el.querySelectorAll(ALL).length === 1)));
  const what = (c) => c.tagName.toLowerCase() + (c.id ? '#' + c.id : '') +
    (c.getAttribute('role') ? `[role=${c.getAttribute('role')}]` : '') +
    (c.className && typeof c.className === 'string' ? '.' + c.className.trim().split(/\s+/).slice(0, 2).join('.') : '');

  const seen = new Set();
  const controls = [];
  for (const [category, selector] of CATEGORIES) {
    for (const c of document.querySelectorAll(selector)) {
      if (seen.has(c)) continue;
      seen.add(c);
      if (!visible(c) || !enabled(c)) continue;
      const on = offered(c);
      controls.push(on ? { category, offered: on } : { category, offered: on, what: what(c) });
    }
  }

  const root = document.querySelector(rootSelector) || document.body;
  const words = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, noscript, template, textarea, select, option')) continue;
    if (!visible(parent)) continue;
    for (const m of node.data.matchAll(/[\p{L}\p{N}]+/gu)) words.push(m[0]);
  }
  return { controls, words };
}
