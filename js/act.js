// cdpagent acting helpers (SPEC OB-5, OB-7).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the same isolated
// world as collect.js ("cdpagent-observe"), after it; finds elements through
// globalThis.__cdpagentObserve.find(locator), or __cdpagentInfer.find for an
// inferred locator (source "inferred", js/infer.js). Defines globalThis.__cdpagentAct:
//
//   prepare(locator, kind) -> {found, reason, x, y, checked, reveal}
//       re-checks availability now (connected, enabled, not inert, not hidden,
//       not behind an open modal, editable for type), scrolls the element into
//       view and hit-tests its visible centre; x/y are viewport CSS pixels for
//       Input.dispatchMouseEvent. reveal: an inferred in-place edit whose field
//       appears on a double-click at x/y (js/infer.js reveals).
//   focusForTyping(locator) -> {ok, reason, empty, picked}   focus and select the
//       whole value; picked: a date/colour/range control that takes no typing
//   pick(locator, text) -> {found, ok, length}   set a picked control's value
//   valueIs(locator, text) -> {found, ok, length}   post-condition of type
//   choose(locator, option) -> {found, ok, reason, options}
//       select the option whose label, text or value is `option`, then fire
//       input and change like a person's choice would
//   state(locator) -> {found, checked}   post-condition of check
//   ownerPoint(owner, x, y) -> {x, y, reason}   owner: a frame's owner element
//       (iframe); (x, y) of the frame in the owner's viewport, and why the frame
//       cannot be clicked there (hidden, inert, covered)
//
// Nothing here returns markup, selectors or values of sensitive controls.
(() => {
  'use strict';
  if (globalThis.__cdpagentAct) return;

  // prepare() always finds the element afresh; the calls after it within the
  // same action reuse that element while it is still connected and still
  // declares the same action (one attribute scan of a large page costs ms).
  let last = null;
  const keyOf = (l) => JSON.stringify([l.name, l.record, l.region_path, l.ordinal, l.source]);
  function find(locator, fresh) {
    const key = keyOf(locator);
    const inferred = locator.source === 'inferred';
    if (!fresh && last && last.key === key) {
      const el = last.ref.deref();
      if (el && el.isConnected && (inferred || el.getAttribute('data-agent-action') === String(locator.name))) return el;
    }
    const el = inferred ? globalThis.__cdpagentInfer.find(locator) : globalThis.__cdpagentObserve.find(locator);
    last = el ? { key, ref: new WeakRef(el) } : null;
    if (el && globalThis.__cdpagentClickables) globalThis.__cdpagentClickables.acted(el); // clicks: popup memory
    return el;
  }
  const squash = (s) => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();

  function openModal() {
    let modal = null;
    for (const d of document.querySelectorAll('dialog')) if (d.matches(':modal')) modal = d;
    if (modal) return modal;
    for (const d of document.querySelectorAll('[aria-modal="true"]')) {
      if (d.checkVisibility()) modal = d;
    }
    return modal;
  }

  function modalLabel(modal) {
    return squash(modal.getAttribute('aria-label') || modal.getAttribute('data-agent-label') ||
      (modal.querySelector('h1,h2,h3,h4,h5,h6') || {}).textContent || 'dialog').slice(0, 80);
  }

  function editable(el) {
    return el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable;
  }

  // The collector's rules, so that acting agrees with what was observed.
  // (looked up per call: this script may be installed before collect.js.)
  const observer = {
    rowShown: (el) => globalThis.__cdpagentObserve.rowShown(el),
    isSensitive: (el) => globalThis.__cdpagentObserve.isSensitive(el),
    // Shadow trees (OB-11): a row, inert ancestor or dialog may be outside el's tree.
    closest: (el, selector) => globalThis.__cdpagentObserve.closestAcross(el, selector),
    contains: (outer, el) => globalThis.__cdpagentObserve.containsAcross(outer, el),
  };
  const VIS = { visibilityProperty: true };

  function reasonOf(el, kind, reveal) {
    if (!el.isConnected) return 'no longer on the page';
    const declared = el.getAttribute('data-agent-unavailable');
    if (declared) return squash(declared).slice(0, 200);
    if (el.disabled === true || el.matches(':disabled')) return 'disabled';
    if (el.getAttribute('aria-disabled') === 'true') return 'disabled';
    if (observer.closest(el, '[inert]')) return 'inert';
    if (!el.checkVisibility(VIS)) return 'hidden';
    const row = observer.closest(el, '[data-agent-record]');
    if (row && !observer.rowShown(row)) return 'hidden';
    const modal = openModal();
    if (modal && !observer.contains(modal, el)) return `behind the open dialog "${modalLabel(modal)}"`;
    if (kind === 'type') {
      if (!editable(el) && !reveal) return 'not a text field';
      if (el.readOnly) return 'read-only';
    }
    if (kind === 'select' && el.tagName !== 'SELECT') return 'not a select control';
    return null;
  }

  // The element at (x, y) counts as the target when it is the target, inside
  // it, or a label that activates it.
  function hits(el, hit) {
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return true;
    const label = hit.closest('label');
    return !!label && label.control === el;
  }

  function prepare(locator, kind) {
    const el = find(locator, true);
    if (!el) return { found: false };
    // An inferred in-place edit: the caller double-clicks here, then prepares again.
    const reveal = kind === 'type' && locator.source === 'inferred' && !editable(el) && globalThis.__cdpagentInfer.reveals(el);
    const reason = reasonOf(el, kind, reveal);
    if (reason) return { found: true, reason };
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const r = el.getBoundingClientRect();
    // Centre of the part of the element inside the viewport (large elements).
    const left = Math.max(r.left, 0);
    const top = Math.max(r.top, 0);
    const right = Math.min(r.right, window.innerWidth);
    const bottom = Math.min(r.bottom, window.innerHeight);
    if (right <= left || bottom <= top) return { found: true, reason: 'not visible after scrolling into view' };
    const x = (left + right) / 2;
    const y = (top + bottom) / 2;
    // Inside a shadow tree, ask that tree: the document would answer with its host.
    const hit = el.getRootNode().elementFromPoint(x, y);
    if (!hits(el, hit)) return { found: true, reason: 'covered by another element' };
    const checked = 'checked' in el ? !!el.checked : el.getAttribute('aria-checked') === 'true';
    return { found: true, reason: null, x, y, checked, reveal };
  }

  // OB-11: a point (x, y) of the frame whose owner element (iframe) is el, in the
  // owner's document's viewport, and whether the frame is what is drawn there.
  function ownerPoint(el, x, y) {
    const owner = globalThis.__cdpagentObserve.frameOwner(el, 80);
    if (!owner.visible) return { x, y, reason: 'its frame is hidden' };
    const px = owner.left + x;
    const py = owner.top + y;
    if (observer.closest(el, '[inert]')) return { x: px, y: py, reason: 'inert' };
    const hit = el.getRootNode().elementFromPoint(px, py);
    if (hit !== el) return { x: px, y: py, reason: 'its frame is covered by another element' };
    return { x: px, y: py, reason: null };
  }

  // Controls whose value is picked, not typed: they take no text insertion.
  const PICKED = /^(date|time|datetime-local|month|week|color|range)$/;

  function focusForTyping(locator) {
    const el = find(locator);
    if (!el) return { ok: false, reason: 'no longer on the page' };
    el.focus({ preventScroll: true });
    if (el.tagName === 'INPUT' && PICKED.test(el.type)) return { ok: true, reason: null, picked: true };
    const active = el.getRootNode().activeElement;
    if (active !== el) return { ok: false, reason: 'the field did not take the focus' };
    if (el.isContentEditable) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    } else {
      el.select();
    }
    return { ok: true, reason: null, empty: el.isContentEditable ? !el.textContent : !el.value };
  }

  function valueIs(locator, text) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    const value = el.isContentEditable ? el.innerText.replace(/\n$/, '') : el.value;
    return { found: true, ok: value === text, length: value.length };
  }

  // The value of a picked control (date, colour, range…): set natively, then
  // input and change as the browser's own picker would fire them.
  function pick(locator, text) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    el.value = text;
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { found: true, ok: el.value === text, length: el.value.length };
  }

  function choose(locator, option) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    const want = squash(option);
    let pick = null;
    for (const o of el.options) {
      if (squash(o.label) === want || squash(o.text) === want) { pick = o; break; }
    }
    if (!pick) for (const o of el.options) if (o.value === option) { pick = o; break; }
    // A sensitive select's options would tell its value: never listed (OB-2).
    const options = observer.isSensitive(el) ? []
      : Array.from(el.options, (o) => squash(o.label || o.text).slice(0, 80)).slice(0, 50);
    if (!pick) return { found: true, ok: false, reason: 'no such option', options };
    if (pick.disabled) return { found: true, ok: false, reason: 'the option is disabled', options };
    if (!pick.selected) {
      el.focus({ preventScroll: true });
      pick.selected = true;
      el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }
    return { found: true, ok: el.selectedOptions[0] === pick, options };
  }

  function state(locator) {
    const el = find(locator);
    if (!el) return { found: false };
    return { found: true, checked: 'checked' in el ? !!el.checked : el.getAttribute('aria-checked') === 'true' };
  }

  Object.defineProperty(globalThis, '__cdpagentAct', {
    value: Object.freeze({ prepare, ownerPoint, focusForTyping, valueIs, pick, choose, state }),
    writable: false, configurable: false, enumerable: false,
  });
})();
