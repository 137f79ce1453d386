// cdpagent acting helpers (SPEC OB-5, OB-7).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the same isolated
// world as collect.js ("cdpagent-observe"), after it; finds elements through
// globalThis.__cdpagentObserve.find(locator), or __cdpagentInfer.find for an
// inferred locator (source "inferred", js/infer.js). Defines globalThis.__cdpagentAct:
//
//   prepare(locator, kind) -> {found, reason, cover, hover, x, y, checked, reveal}
//       re-checks availability now (connected, enabled, not inert, not hidden,
//       not behind an open modal, editable for type), scrolls the element into
//       view and hit-tests its visible centre; x/y are viewport CSS pixels for
//       Input.dispatchMouseEvent. reveal: an inferred in-place edit whose field
//       appears on a double-click at x/y (js/infer.js reveals). cover: the name
//       of what covers the element (page data). hover: where to move the mouse so
//       that a hidden element appears (its nearest shown ancestor, a hover menu).
//   focusForTyping(locator) -> {ok, reason, empty, picked, drawn}   focus and select the
//       whole value; picked: a date/colour/range control that takes no typing; drawn: an
//       input surface whose widget draws the text (the caller selects all with the keyboard)
//   pick(locator, text) -> {found, ok, length}   set a picked control's value
//   valueIs(locator, text) -> {found, ok, length}   post-condition of type
//   choose(locator, option) -> {found, ok, reason, options}
//       select the option whose label, text or value is `option`, then fire
//       input and change like a person's choice would
//   state(locator) -> {found, checked}   post-condition of check
//   hovered(locator) -> {found, ok, click}   post-condition of hover (:hover
//       holds); click: an inferred hover-menu item, clicked once shown
//   branch(locator) -> {found, closed}   closed: a tree item whose branch is collapsed
//       (aria-expanded="false"); a click that leaves it so opens it with the tree's key
//   pressable(locator, x, y, ms) -> {found, closed, under}   before a press, the mouse
//       already over el: resolves once el is under (x, y) (a hover may redraw it: an icon
//       swapped on :hover has no box until its image is decoded), or after ms; closed as
//       branch()
//   shownAfterHover(locator, ms) -> {found, ok}   resolves once el, or the next
//       level of its hover menu, is shown (ok: el is), or after ms
//   watch() / changed() -> {ok, listed}   whether the page changed in between (a picker
//       opened); listed: a list of choices was added or shown meanwhile (suggestions)
//   aim(locator) / pressedOn() -> {found, ok, cover}   whether the press of the click sent in
//       between reached el (its target is el, inside it, or a label of it); cover: what it
//       reached instead (page data); ok when no press was seen (nothing to tell)
//   expectInput() / inputLanded(ms) -> {ok}   (a frame of another process) whether the
//       frame handled an event of the input delivered in between, waiting up to ms;
//       pointerMoved(ms) -> {ok}   whether a pointer move reached the frame since
//       expectInput, waiting up to ms
//   leaveField(locator) -> {found, ok}   blur a field typed into (ok: left), unless it
//       offers suggestions (combobox, autocomplete, a list it controls)
//   focusFor(locator) -> {ok, reason}   focus a control before a key press
//   scrollState(locator, wait) -> {found, top, max, client}   where the scroller
//       of a scroll action is; wait: a promise that resolves once the position
//       has stopped moving (a wheel scroll may be animated)
//   slider(locator) -> {found, native, spin, empty, positional, shown, value, said, min, max,
//       step, thumb, track}
//       spin: a spin button (keys up and down, no track); empty: it has no value yet;
//       said: its aria-valuetext; positional: an ARIA-less slider whose scale is unknown
//       (value: % of its track); shown: value, min and max are the numbers the page
//       showed (measureScale)
//   measureScale(locator, phase) -> {found, ok, start, min, max}   phases "start",
//       "min" (after Home) and "max" (after End): finds the number the page shows
//       beside an ARIA-less slider and keeps its scale for slider() and sliderScale(el)
//   radio(locator, option) -> {found, ok, reason, cover, options, x, y, checked}
//       the radio of a choose group whose label (or value) is `option`,
//       scrolled into view and hit-tested
//   groupOptions(el, max, items) -> {options, value}   the labels of a choose
//       group's radios (collect.js lists them as the action's options)
//   dateFormat(locator) -> {found, type, date, month, time, twelve}   the segment
//       order of the browser's locale for a date/time/month/week input (the keys
//       to type are worked out from it in cdpagent.act.text)
//   fileInput(locator) -> Element | null   (files: an upload) the <input type=file>
//       the control stands for: itself, a label's control, or the one file input
//       inside it; null: only clicking it can tell (the driver intercepts the chooser)
//   fileInfo(input) -> {multiple, disabled, accept}   of a file input element
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
    // A disabled text area still scrolls (an agreement to read to its end).
    const disabledOk = kind === 'scroll';
    if (!disabledOk && (el.disabled === true || el.matches(':disabled'))) return 'disabled';
    if (!disabledOk && el.getAttribute('aria-disabled') === 'true') return 'disabled';
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
    // A declared or inferred slider may have no role at all (jQuery UI's have none).
    if (kind === 'set' && el.tagName === 'INPUT' && !isSlider(el)) return 'not a slider';
    if (kind === 'choose' && !radiosOf(el).length) return 'not a radio group';
    if (kind === 'scroll' && !scrollerOf(el)) return 'not scrollable';
    return null;
  }

  const isSlider = (el) => (el.tagName === 'INPUT' && el.type === 'range') || el.getAttribute('role') === 'slider';

  // What a hit element is to a person: the named popup, menu or dialog it is part
  // of, else its own name or text (page data: the caller fences it).
  const COVERS = '[role=listbox],[role=menu],[role=dialog],[role=alertdialog],[role=tooltip],dialog,ul,ol,[aria-label]';
  function coverName(hit) {
    if (!hit) return '';
    if (observer.isSensitive(hit)) return '[masked]';
    const box = hit.closest(COVERS) || hit;
    const name = box.getAttribute('aria-label') || box.getAttribute('title') || box.innerText || box.textContent;
    return squash(name).slice(0, 120);
  }

  // A hidden element's nearest shown ancestor (a hover menu's parent item), if
  // it is smaller than the viewport: hovering it may show the element.
  function hoverParent(el) {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (!up.checkVisibility(VIS)) continue;
      const r = up.getBoundingClientRect();
      if (r.width * r.height >= window.innerWidth * window.innerHeight / 2) return null;
      return up;
    }
    return null;
  }

  // The centre of the part of el inside the viewport, scrolled into view first;
  // null when none of it is.
  function visibleCentre(el) {
    el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    const r = el.getBoundingClientRect();
    const left = Math.max(r.left, 0);
    const top = Math.max(r.top, 0);
    const right = Math.min(r.right, window.innerWidth);
    const bottom = Math.min(r.bottom, window.innerHeight);
    if (right <= left || bottom <= top) return null;
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
  }

  // The element at (x, y) counts as the target when it is the target, inside
  // it, or a label that activates it.
  function hits(el, hit) {
    if (!hit) return false;
    if (hit === el || el.contains(hit)) return true;
    const label = hit.closest('label');
    return !!label && label.control === el;
  }

  // What a person could mean besides the control itself, inside the box that draws it.
  const CONTROLS = 'input,textarea,select,button,a[href],[contenteditable],[role=button],[role=textbox],' +
    '[role=slider],[role=combobox],[role=checkbox],[role=radio],[role=spinbutton]';
  // The widget that draws a control: its largest ancestor below the body that holds no
  // other shown control (a code editor around its input surface, a slider around its
  // handle and value label); null when its parent already holds another.
  function widgetOf(el) {
    let widget = null;
    for (let up = el.parentElement; up && up !== document.body && up !== document.documentElement; up = up.parentElement) {
      for (const c of up.querySelectorAll(CONTROLS)) {
        if (c !== el && !el.contains(c) && !c.contains(el) && c.checkVisibility(VIS)) return widget;
      }
      widget = up;
    }
    return widget;
  }
  // An input surface nobody sees (a code editor's hidden textarea: a pixel wide, or
  // transparent) whose widget draws the text it takes.
  function drawnSurface(el) {
    if (el.isContentEditable || el.value) return null;
    let { left, top, right, bottom } = el.getBoundingClientRect();
    // What is left of its box once the ancestors that clip it have.
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const u = up.getBoundingClientRect();
      left = Math.max(left, u.left); top = Math.max(top, u.top);
      right = Math.min(right, u.right); bottom = Math.min(bottom, u.bottom);
    }
    if (right - left > 4 && bottom - top > 4 && getComputedStyle(el).opacity !== '0') return null;
    const widget = widgetOf(el);
    return widget && squash(widget.innerText) ? widget : null;
  }
  // A field or slider under its own widget's drawing (an editor's rendered text, a slider's
  // value label) is not covered: a person clicks there to reach it.
  function drawnBy(el, hit) {
    const widget = hit && widgetOf(el);
    return !!widget && widget.contains(hit);
  }

  function prepare(locator, kind) {
    const el = find(locator, true);
    if (!el) return { found: false };
    // An inferred in-place edit: the caller double-clicks here, then prepares again.
    const reveal = kind === 'type' && locator.source === 'inferred' && !editable(el) && globalThis.__cdpagentInfer.reveals(el);
    const reason = reasonOf(el, kind, reveal);
    if (reason === 'hidden' && (kind === 'click' || kind === 'hover')) {
      const parent = hoverParent(el);
      const at = parent && visibleCentre(parent);
      if (at && hits(parent, parent.getRootNode().elementFromPoint(at.x, at.y))) return { found: true, reason, hover: at };
    }
    // A read-only field may open a picker when clicked: the caller does that.
    if (reason && !(reason === 'read-only' && kind === 'type')) return { found: true, reason };
    if (kind === 'scroll') {
      const scroller = scrollerOf(el);
      if (scroller === document.scrollingElement) {
        return { found: true, reason: null, x: window.innerWidth / 2, y: window.innerHeight / 2 };
      }
      const at = visibleCentre(scroller);
      return at ? { found: true, reason: null, x: at.x, y: at.y } : { found: true, reason: 'not visible after scrolling into view' };
    }
    const at = visibleCentre(el);
    if (!at) return { found: true, reason: 'not visible after scrolling into view' };
    // Inside a shadow tree, ask that tree: the document would answer with its host.
    const hit = el.getRootNode().elementFromPoint(at.x, at.y);
    if (!hits(el, hit) && !((kind === 'type' || kind === 'set') && drawnBy(el, hit))) {
      return { found: true, reason: 'covered by another element', cover: coverName(hit) };
    }
    const checked = 'checked' in el ? !!el.checked : el.getAttribute('aria-checked') === 'true';
    return { found: true, reason, x: at.x, y: at.y, checked, reveal };
  }

  // Whether the page changed between watch() and changed(): a click on a read-only
  // field that opens its picker adds or shows elements.
  // listed: among what was added or shown, a list of choices is now shown (typing that
  // opened suggestions: their items, or the list holding them).
  let watcher = null;
  let mutated = false;
  let touched = [];
  const TOUCHED_MAX = 200;
  const CHOICES = 'li,option,[role=option],[role=listbox],[role=menu],[role=menuitem],[role=grid],[role=gridcell],[role=tree],[role=treeitem]';
  function note(records) {
    mutated = mutated || records.length > 0;
    for (const r of records) {
      if (touched.length >= TOUCHED_MAX) return;
      if (r.type === 'childList') for (const n of r.addedNodes) { if (n.nodeType === Node.ELEMENT_NODE) touched.push(n); }
      else if (r.target.nodeType === Node.ELEMENT_NODE) touched.push(r.target);
    }
  }
  function watch() {
    if (watcher) watcher.disconnect();
    mutated = false;
    touched = [];
    watcher = new MutationObserver(note);
    watcher.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'style', 'class', 'open', 'aria-expanded'] });
    return { found: true, ok: true };
  }
  function changed() {
    if (watcher) {
      note(watcher.takeRecords());
      watcher.disconnect();
      watcher = null;
    }
    const shows = (n) => n.isConnected && n.checkVisibility(VIS);
    const listed = touched.some((n) => (n.matches(CHOICES) && shows(n)) || Array.prototype.some.call(n.querySelectorAll(CHOICES), shows));
    touched = [];
    return { found: true, ok: mutated, listed };
  }

  // Where the press of a click went: the page may move between the hit test and the press
  // (a list it redraws over the control), and the press then reaches what is drawn there.
  let aimed = null;
  function aim(locator) {
    const el = find(locator);
    if (aimed) aimed.off();
    aimed = null;
    if (!el) return { found: false, ok: false, cover: '' };
    const shot = { el, path: null, off: null };
    const on = (e) => {
      if (!e.isTrusted) return;
      shot.path = e.composedPath();
      shot.off();
    };
    addEventListener('pointerdown', on, true);
    shot.off = () => removeEventListener('pointerdown', on, true);
    aimed = shot;
    return { found: true, ok: true, cover: '' };
  }
  function pressedOn() {
    const shot = aimed;
    aimed = null;
    if (!shot) return { found: false, ok: false, cover: '' };
    shot.off();
    const target = shot.path && shot.path[0];
    if (!target || target.nodeType !== Node.ELEMENT_NODE) return { found: true, ok: true, cover: '' };
    const ok = shot.path.includes(shot.el) || hits(shot.el, target);
    return { found: true, ok, cover: ok ? '' : coverName(target) };
  }

  // Input into a frame drawn by another process reaches it through the browser, not through
  // the session that asks about it: expectInput() before the input, then inputLanded(ms)
  // resolves once the frame has handled an event of it (and the task that dispatched it is
  // over), or after ms (an input that fires none of these events).
  const LANDS = ['pointerup', 'click', 'keyup', 'input', 'change', 'wheel'];
  let landed = null;
  // The browser routes a pointer by what the tab last drew: until a frame just shown has
  // drawn, a move over it reaches the parent's <iframe>, which pointerMoved(ms) tells.
  function expectInput() {
    let done;
    const promise = new Promise((resolve) => { done = resolve; });
    const on = () => setTimeout(done, 0);
    let moved;
    const move = new Promise((resolve) => { moved = resolve; });
    for (const type of LANDS) addEventListener(type, on, { capture: true, once: true });
    addEventListener('pointermove', moved, { capture: true, once: true });
    landed = {
      promise, move,
      off: () => {
        for (const type of LANDS) removeEventListener(type, on, { capture: true });
        removeEventListener('pointermove', moved, { capture: true });
      },
    };
    return { found: true, ok: true };
  }
  function pointerMoved(ms) {
    if (!landed) return { found: true, ok: false };
    return Promise.race([landed.move.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))])
      .then((ok) => ({ found: true, ok }));
  }
  function inputLanded(ms) {
    const wait = landed;
    landed = null;
    if (!wait) return { found: true, ok: false };
    return Promise.race([wait.promise.then(() => true), new Promise((r) => setTimeout(() => r(false), ms))])
      .then((ok) => { wait.off(); return { found: true, ok }; });
  }

  // Leave a field typed into, as a person moving on does (its blur and change fire: pages
  // that apply a field when it loses focus get its value), unless it offers suggestions
  // (a combobox, an autocomplete, a list it controls), whose list the next act picks from.
  const SUGGESTS = '[role=combobox],[aria-autocomplete]:not([aria-autocomplete=none]),[aria-haspopup]:not([aria-haspopup=false]),[aria-expanded],[aria-controls],[aria-owns],[aria-activedescendant],input[list]';
  function leaveField(locator) {
    const el = find(locator);
    if (!el || el.getRootNode().activeElement !== el) return { found: !!el, ok: false };
    if (el.matches(SUGGESTS) || (el.parentElement && el.parentElement.closest('[role=combobox]'))) return { found: true, ok: false };
    el.blur();
    return { found: true, ok: true };
  }

  // Resolves once a hover has shown el, or shown the next level of its menu (its
  // nearest shown ancestor changed), or after ms: menus often open after a delay.
  function shownAfterHover(locator, ms) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    const hovered = hoverParent(el);
    return new Promise((resolve) => {
      const until = performance.now() + ms;
      const tick = () => {
        const shown = el.checkVisibility(VIS);
        if (shown || hoverParent(el) !== hovered || performance.now() > until) resolve({ found: true, ok: shown });
        else setTimeout(tick, 16);
      };
      tick();
    });
  }

  // ok: the mouse is over it. click: it is an inferred item of a hover menu
  // (js/clickables.js), which a hover action clicks once shown.
  function hovered(locator) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    const clickables = globalThis.__cdpagentClickables;
    const item = locator.source === 'inferred' && !!clickables && !clickables.hoverOnly(el);
    return { found: true, ok: el.matches(':hover'), click: item };
  }

  // Whether a tree item's branch is collapsed: a person clicks a closed branch to open it,
  // and where the click only selects it the tree pattern's Right arrow opens it.
  function closedBranch(el) {
    const role = (el.getAttribute('role') || '').trim().split(/\s+/)[0];
    return role === 'treeitem' && el.getAttribute('aria-expanded') === 'false';
  }
  function branch(locator) {
    const el = find(locator);
    return el ? { found: true, closed: closedBranch(el) } : { found: false, closed: false };
  }
  // A person moves the mouse, sees what the hover drew, then presses: where the hover
  // redrew el, the press waits (every 16 ms, at most ms: a timer, since a hidden tab draws
  // no frames) until el is under the pointer.
  function pressable(locator, x, y, ms) {
    const el = find(locator);
    if (!el) return { found: false, closed: false, under: false };
    const closed = closedBranch(el);
    const under = () => hits(el, el.getRootNode().elementFromPoint(x, y));
    if (under()) return { found: true, closed, under: true };
    const until = performance.now() + ms;
    return new Promise((resolve) => {
      const frame = () => {
        const now = under();
        if (now || performance.now() > until) resolve({ found: true, closed, under: now });
        else setTimeout(frame, 16);
      };
      setTimeout(frame, 16);
    });
  }

  // A slider track that takes no focus itself: its focusable handle (jQuery UI style).
  function handleOf(el) {
    if (el.tabIndex >= 0 || el.tagName === 'INPUT') return null;
    return el.querySelector('[role=slider],[tabindex]:not([tabindex="-1"])');
  }

  function focusFor(locator) {
    const found = find(locator);
    if (!found) return { ok: false, reason: 'no longer on the page' };
    const el = handleOf(found) || found;
    el.focus({ preventScroll: true });
    const active = el.getRootNode().activeElement;
    if (active !== el && !(active && el.contains(active))) return { ok: false, reason: 'it does not take the focus' };
    return { ok: true, reason: null };
  }

  // --- scroll ------------------------------------------------------------------------

  function scrolls(el) {
    if (el.scrollHeight <= el.clientHeight + 1) return false;
    if (el === document.scrollingElement) return true;
    return /^(auto|scroll|overlay)$/.test(getComputedStyle(el).overflowY);
  }

  // The element a scroll action moves: el, else its first scrollable descendant
  // (a region around a list), else its nearest scrollable ancestor, else the page.
  function scrollerOf(el) {
    if (scrolls(el)) return el;
    let n = 0;
    for (const d of el.querySelectorAll('*')) {
      if (++n > 500) break;
      if (d.clientHeight > 0 && scrolls(d)) return d;
    }
    for (let up = el.parentElement; up; up = up.parentElement) if (scrolls(up)) return up;
    const page = document.scrollingElement;
    return page && scrolls(page) ? page : null;
  }

  function scrollPosition(scroller) {
    const page = scroller === document.scrollingElement;
    const client = page ? window.innerHeight : scroller.clientHeight;
    return { found: true, top: Math.round(scroller.scrollTop), max: Math.max(Math.round(scroller.scrollHeight - client), 0), client };
  }

  // Resolves once the scroll position has held still for three frames (or after 1.5 s).
  function scrollState(locator, wait) {
    const el = find(locator);
    const scroller = el && scrollerOf(el);
    if (!scroller) return { found: false };
    if (!wait) return scrollPosition(scroller);
    return new Promise((resolve) => {
      const until = performance.now() + 1500;
      let last = scroller.scrollTop;
      let still = 0;
      const tick = () => {
        const now = scroller.scrollTop;
        still = now === last ? still + 1 : 0;
        last = now;
        if (still >= 3 || performance.now() > until) resolve(scrollPosition(scroller));
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  // --- set (sliders) -----------------------------------------------------------------

  const num = (v, d) => { const n = parseFloat(v); return Number.isFinite(n) ? n : d; };

  function slider(locator) {
    const el = find(locator);
    if (!el) return { found: false };
    const native = el.tagName === 'INPUT';
    const handle = native ? null : handleOf(el);
    const knob = handle || el;
    const aria = (k) => knob.getAttribute(k) || el.getAttribute(k);
    const min = native ? num(el.min, 0) : num(aria('aria-valuemin'), 0);
    const max = native ? num(el.max, 100) : num(aria('aria-valuemax'), 100);
    const step = native ? (el.step === 'any' ? null : num(el.step, 1)) : null;
    const r = knob.getBoundingClientRect();
    if (!native && el.getAttribute('role') === 'spinbutton') {
      // A spin button has no track: its value is aria-valuenow, or none yet (an empty
      // date segment, which its first key gives one); no declared bound is no bound.
      const value = num(el.getAttribute('aria-valuenow'), NaN);
      const low = num(el.getAttribute('aria-valuemin'), -Number.MAX_SAFE_INTEGER);
      const high = num(el.getAttribute('aria-valuemax'), Number.MAX_SAFE_INTEGER);
      return {
        found: true, native, spin: true, empty: Number.isNaN(value), positional: false, shown: false, vertical: true,
        value: Number.isNaN(value) ? low : value, said: squash(el.getAttribute('aria-valuetext') || '').slice(0, 80),
        min: low, max: high, step, tolerance: 0, thumb: { x: r.left + r.width / 2, y: r.top + r.height / 2 },
        track: { left: r.left, top: r.top, width: r.width, height: r.height },
      };
    }
    // An ARIA slider is often only its thumb: its track is the element (when the
    // thumb is its handle) or the nearest wider ancestor.
    let track = handle ? el.getBoundingClientRect() : r;
    const body = native || handle ? el : bodyOf(el); // fit: a jQuery UI handle's track is its parent
    if (body !== el) track = body.getBoundingClientRect();
    else if (!native && !handle && r.width < 40) {
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        const u = up.getBoundingClientRect();
        if (u.width >= 3 * r.width) { track = u; break; }
      }
    }
    const centre = { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    const now = native ? num(el.value, min) : num(aria('aria-valuenow'), NaN);
    // No aria-valuenow (an ARIA-less slider): its value is the number the page shows
    // beside it once measureScale found it, else where its thumb is, to a pixel.
    const scale = !native && Number.isNaN(now) ? shownScale(el) : null;
    const positional = !native && Number.isNaN(now) && !scale;
    const vertical = (aria('aria-orientation') || '') === 'vertical' || (positional || scale ? track.height > track.width : false);
    const span = vertical ? track.height : track.width;
    const at = vertical ? (track.top + track.height - centre.y) / span : (centre.x - track.left) / span;
    const value = scale ? scale.value : positional ? min + Math.max(0, Math.min(1, at)) * (max - min) : now;
    const frac = max > min ? (value - min) / (max - min) : 0;
    const thumb = native ? { x: r.left + frac * r.width, y: centre.y } : centre;
    return {
      found: true, native, positional, shown: !!scale, vertical, thumb,
      value, min: scale ? scale.min : min, max: scale ? scale.max : max, step,
      tolerance: positional && span > 0 ? (max - min) / span : 0,
      track: { left: track.left, top: track.top, width: track.width, height: track.height },
    };
  }

  // fit: an ARIA-less slider's own scale (jQuery UI's keeps it in script, not the DOM),
  // measured as a person would: move the handle to each end (Home, End) and read the
  // number the page shows beside it. Kept per slider; the readout is re-read each time.
  const SCALES = new WeakMap();
  const PENDING = new WeakMap();
  const NUMBER = /^\s*[-\u2212]?\d+(?:[.,]\d+)?\s*$/;
  const readNumber = (node) => {
    const t = node.tagName === 'INPUT' ? node.value : node.textContent;
    return NUMBER.test(t) ? parseFloat(t.replace('\u2212', '-').replace(',', '.')) : null;
  };
  // The slider's body: the handle's track when el is a handle, else el.
  const bodyOf = (el) => (el.tabIndex >= 0 && el.parentElement &&
    /slider/i.test(String(el.parentElement.className)) ? el.parentElement : el);
  // Elements near the slider that show one number: within its parent, then its
  // grandparent, outside the slider itself, in document order (at most 12).
  function readoutsOf(el) {
    const body = bodyOf(el);
    const out = [];
    let up = body.parentElement;
    for (let depth = 0; up && depth < 2 && out.length < 12; up = up.parentElement, depth++) {
      let n = 0;
      for (const c of up.querySelectorAll('*')) {
        if (++n > 200 || out.length >= 12) break;
        if (body.contains(c) || c.contains(body) || out.includes(c)) continue;
        if ((c.firstElementChild && c.tagName !== 'INPUT') || !c.checkVisibility()) continue;
        if (observer.isSensitive(c)) continue;
        if (readNumber(c) !== null) out.push(c);
      }
    }
    return out;
  }
  function shownScale(el) {
    const s = SCALES.get(el);
    const readout = s && s.readout.deref();
    const value = readout && readout.isConnected ? readNumber(readout) : null;
    return value === null ? null : { value, min: s.min, max: s.max };
  }
  // phase "start" (before any key), "min" (after Home), "max" (after End):
  // -> {found, ok, start, min, max}; ok: a number beside the slider followed the keys.
  function measureScale(locator, phase) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    if (phase === 'start') {
      const nodes = readoutsOf(el);
      PENDING.set(el, { nodes, start: nodes.map(readNumber) });
      return { found: true, ok: nodes.length > 0 };
    }
    const p = PENDING.get(el);
    if (!p) return { found: true, ok: false };
    const seen = p.nodes.map((n) => (n.isConnected ? readNumber(n) : null));
    if (phase === 'min') { p.min = seen; return { found: true, ok: true }; }
    PENDING.delete(el);
    for (let i = 0; i < p.nodes.length; i++) {
      const [a, b, start] = [p.min ? p.min[i] : null, seen[i], p.start[i]];
      if (a === null || b === null || start === null || !(b > a) || start < a || start > b) continue;
      SCALES.set(el, { readout: new WeakRef(p.nodes[i]), min: a, max: b });
      return { found: true, ok: true, start, min: a, max: b };
    }
    return { found: true, ok: false };
  }
  // The measured scale of an inferred slider element (js/infer.js shows it), or null.
  function sliderScale(el) {
    const s = shownScale(el);
    return s ? { min: s.min, max: s.max, value: s.value } : null;
  }

  // --- choose (radio groups) ---------------------------------------------------------

  function radiosOf(el) {
    // The group inference offered (radios grouped by their container, a component's radios
    // among them), else the group the markup says.
    const inferred = globalThis.__cdpagentInfer ? globalThis.__cdpagentInfer.choices(el) : [];
    if (inferred.length) return inferred;
    if (el.tagName === 'INPUT' && el.type === 'radio') {
      if (!el.name) return [el];
      const scope = el.form || el.getRootNode();
      return Array.from(scope.querySelectorAll('input[type=radio]')).filter((r) => r.name === el.name);
    }
    if (el.getAttribute('role') === 'radio') {
      const group = el.closest('[role=radiogroup]');
      return group ? radiosOf(group) : [el];
    }
    return Array.from(el.querySelectorAll('input[type=radio],[role=radio]'));
  }

  function radioLabel(r) {
    let t = r.getAttribute('aria-label');
    const by = r.getAttribute('aria-labelledby');
    if (!t && by) t = by.split(/\s+/).map((id) => (r.getRootNode().getElementById(id) || {}).textContent || '').join(' ');
    if (!t && r.labels && r.labels.length) t = Array.from(r.labels, (l) => l.textContent).join(' ');
    if (!t && r.tagName !== 'INPUT') t = r.textContent;
    return squash(t || r.value || '').slice(0, 80);
  }

  const radioChecked = (r) => ('checked' in r && r.tagName === 'INPUT' ? r.checked : r.getAttribute('aria-checked') === 'true');
  const radioDisabled = (r) => r.disabled === true || r.getAttribute('aria-disabled') === 'true';

  function groupOptions(el, max, items) {
    const radios = radiosOf(el);
    if (observer.isSensitive(el)) return { options: [], value: null };
    const options = [];
    let value = null;
    for (const r of radios) {
      const label = radioLabel(r).slice(0, max);
      if (radioChecked(r)) value = label;
      if (!radioDisabled(r) && options.length < items) options.push(label);
    }
    return { options, value };
  }

  function radio(locator, option) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    const radios = radiosOf(el);
    const want = squash(option);
    const pick = radios.find((r) => radioLabel(r) === want) || radios.find((r) => r.value === option);
    const options = observer.isSensitive(el) ? [] : radios.map(radioLabel).slice(0, 50);
    if (!pick) return { found: true, ok: false, reason: 'no such option', options };
    if (radioDisabled(pick)) return { found: true, ok: false, reason: 'the option is disabled', options };
    if (radioChecked(pick)) return { found: true, ok: true, checked: true, options };
    // A styled radio hides its input: a person clicks its label.
    const r = pick.getBoundingClientRect();
    const target = (r.width < 4 || r.height < 4 || !pick.checkVisibility(VIS)) && pick.labels && pick.labels.length
      ? pick.labels[0] : pick;
    const at = visibleCentre(target);
    if (!at) return { found: true, ok: false, reason: 'the option is not visible', options };
    const hit = target.getRootNode().elementFromPoint(at.x, at.y);
    if (!hits(target, hit) && !hits(pick, hit)) {
      return { found: true, ok: false, reason: 'covered by another element', cover: coverName(hit), options };
    }
    return { found: true, ok: true, checked: false, x: at.x, y: at.y, options };
  }

  function radioIs(locator, option) {
    const el = find(locator);
    if (!el) return { found: false, checked: null };
    const want = squash(option);
    const pick = radiosOf(el).find((r) => radioLabel(r) === want || r.value === option);
    return { found: true, checked: !!pick && radioChecked(pick) };
  }

  // --- dates and times, typed ----------------------------------------------------------

  // The segment order of the browser's locale, as the date/time input shows it.
  function order(options) {
    return new Intl.DateTimeFormat(undefined, options).formatToParts(new Date(2026, 11, 24, 13, 45))
      .map((p) => p.type).filter((t) => t !== 'literal');
  }

  // How the locale shows a date/time input's segments; the keys a person types from
  // ISO text are worked out from it in Python (cdpagent.act.text.date_keys).
  function dateFormat(locator) {
    const el = find(locator);
    if (!el) return { found: false };
    const cycle = new Intl.DateTimeFormat(undefined, { hour: 'numeric' }).resolvedOptions().hourCycle;
    const twelve = cycle === 'h12' || cycle === 'h11';
    return {
      found: true,
      type: el.type,
      date: order({ year: 'numeric', month: '2-digit', day: '2-digit' }),
      month: order({ year: 'numeric', month: '2-digit' }),
      time: order({ hour: 'numeric', minute: '2-digit', hour12: twelve }),
      twelve,
    };
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
    // The text of a surface its widget draws is selected with the keyboard's select-all.
    const drawn = !!drawnSurface(el);
    return { ok: true, reason: null, empty: el.isContentEditable ? !el.textContent : !el.value && !drawn, drawn };
  }

  function valueIs(locator, text) {
    const el = find(locator);
    if (!el) return { found: false, ok: false };
    const value = el.isContentEditable ? el.innerText.replace(/\n$/, '') : el.value;
    const widget = value !== text && drawnSurface(el);
    // The text of a surface its widget draws is where the widget draws it.
    if (widget && text && squash(widget.innerText).includes(squash(text))) {
      return { found: true, ok: true, length: text.length };
    }
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

  // --- upload (files) ------------------------------------------------------------------
  // Sites hide the native input behind a styled label or button; the label's control
  // or the single file input inside the control is the input it opens.
  const isFile = (el) => !!el && el.tagName === 'INPUT' && el.type === 'file';
  function fileInput(locator) {
    const el = find(locator);
    if (!el) return null;
    if (isFile(el)) return el;
    if (el.tagName === 'LABEL' && isFile(el.control)) return el.control;
    const inner = el.querySelectorAll('input[type=file]');
    return inner.length === 1 ? inner[0] : null;
  }
  function fileInfo(input) {
    return {
      multiple: !!input.multiple, disabled: !!input.disabled || input.matches(':disabled'),
      accept: squash(input.accept).slice(0, 200),
    };
  }

  function state(locator) {
    const el = find(locator);
    if (!el) return { found: false };
    return { found: true, checked: 'checked' in el ? !!el.checked : el.getAttribute('aria-checked') === 'true' };
  }

  Object.defineProperty(globalThis, '__cdpagentAct', {
    value: Object.freeze({
      prepare, ownerPoint, focusForTyping, valueIs, pick, choose, state,
      hovered, branch, pressable, shownAfterHover, focusFor, scrollState, watch, changed, leaveField, expectInput, inputLanded, pointerMoved, aim, pressedOn, slider, measureScale, sliderScale, radio, radioIs,
      groupOptions, dateFormat, fileInput, fileInfo,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
