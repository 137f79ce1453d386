// cdpagent inference, state and feedback (OB-12): aria-current, selected tabs, pressed,
// checked, expanded and sorted controls, <output>, counts next to record lists; alerts,
// status and live regions, invalid controls and the browser's own constraint validation.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { MASK, VIS, squash, clip, isSensitive, firstRole, docOrder } = P;
  const { nameOf, textOf, slugless } = C;

  const FEEDBACK_ROLES = new Set(['alert', 'status', 'log']);
  const FEEDBACK = '[role=alert],[role=status],[role=log],[aria-live=polite],[aria-live=assertive],[aria-invalid=true]';
  const ERRORISH = /\b(error|invalid|failed|fail|required|wrong|cannot|can't|must|denied|expired|incorrect)\b/i; // clicks
  const COUNT = /\b\d[\d,.]*\s+(results?|items?|matches|entries|rows?|records?|hits)\b(\s+left)?/i;
  // :user-invalid matches only a control a person changed or a form that tried to submit:
  // after an input, change or invalid event, which this world hears from the document's
  // start (a document it joined late may have had them). Until then no query is needed.
  let validity = document.readyState !== 'loading';
  if (!validity) {
    for (const type of ['input', 'change', 'invalid']) addEventListener(type, () => { validity = true; }, { capture: true, once: true });
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
    for (const out of scan.outputs) {
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
        const message = P.invalidMessage(el, opts.max_string) || clip('invalid value', opts.max_string);
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
    for (const el of validity ? document.querySelectorAll(':user-invalid') : []) {
      if (!el.checkVisibility(VIS)) continue;
      push('error', clip(el.validationMessage, opts.max_string), clip(nameOf(el, 80) || el.getAttribute('name') || '', 80) || null, el, 'validation');
    }
    return { items, total };
  }

  Object.assign(C, { inferState, inferFeedback });
})();
