// cdpagent capture: what a screenshot covers and what it must hide (SPEC BR-3).
//
// Installed into the isolated world "cdpagent-observe" last, after the prelude and
// the collectors. It defines globalThis.__cdpagentCapture:
//
//   mask() -> {count}     covers every element the prelude's sensitiveElements() finds —
//       the rule the text observation masks by (isSensitive: password and hidden-value
//       fields, one-time codes, card fields, anything marked data-agent-sensitive) — in
//       the document, its open shadow roots and its same-origin frames, each over its
//       whole painted area: its own boxes and those of all its descendants (shadow
//       trees included), so text overflowing it and children placed outside it are
//       covered too. The opaque boxes are drawn in a closed shadow root of one element
//       added to the document, so that pixels hide what the observation masks as "[masked]".
//   unmask() -> 'ok' | 'removed' | 'moved'   measures the sensitive areas again, then
//       removes the boxes: 'removed' when the page removed or hid them meanwhile,
//       'moved' when a sensitive area moved, grew or appeared outside the boxes (the
//       capture then cannot be trusted and is discarded).
//   rectOf(locator) -> {x, y, width, height} | null   the page-coordinate box of
//       an action's element (collect.js / infer.js find), or of a declared record.
//
// The boxes are the only thing written to the page, and only for the time of one
// capture; their host carries no attribute a page could use to tell it apart.
(() => {
  'use strict';
  if (globalThis.__cdpagentCapture) return;

  const { VIS, sensitiveElements } = globalThis.__cdpagentPrelude;
  let host = null;
  let drawn = [];
  // The elements searched for sensitive ones, per document; past it the capture refuses.
  const BUDGET = 200000;
  // How many descendants of one sensitive element are measured; past it, its scroll area counts too.
  const DESCENDANTS = 5000;

  function boxOf(el) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || !el.checkVisibility(VIS)) return null;
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  }

  // The union of r's boxes with the box {x, y, right, bottom} u (either may be null).
  function join(u, r) {
    if (r.width <= 0 && r.height <= 0) return u;
    if (!u) return { x: r.left, y: r.top, right: r.right, bottom: r.bottom };
    return { x: Math.min(u.x, r.left), y: Math.min(u.y, r.top), right: Math.max(u.right, r.right),
      bottom: Math.max(u.bottom, r.bottom) };
  }

  // The viewport box of everything el paints: its boxes, its descendants' (open shadow
  // trees included), and its scrolled-away content when it has too many descendants to walk.
  function paintedArea(el) {
    let area = null;
    let seen = 0;
    const todo = [el];
    while (todo.length) {
      const node = todo.pop();
      for (const r of node.getClientRects()) area = join(area, r);
      if (++seen > DESCENDANTS) {
        const r = el.getBoundingClientRect();
        area = join(area, { left: r.left, top: r.top, width: 1, height: 1,
          right: r.left + Math.max(el.scrollWidth, r.width), bottom: r.top + Math.max(el.scrollHeight, r.height) });
        break;
      }
      if (node.shadowRoot) todo.push(...node.shadowRoot.children);
      todo.push(...node.children);
    }
    return area;
  }

  // Every sensitive area of win's document and of its same-origin frames, in this page's
  // coordinates ((dx, dy): where win's viewport is in this page). Throws when a document is
  // too large to search (a capture is then refused rather than left uncovered).
  function areas(win, dx, dy, out) {
    const doc = win.document;
    const found = sensitiveElements(BUDGET, doc);
    if (found === null) throw new Error('the page is too large to find its sensitive fields');
    for (const el of found) {
      const a = paintedArea(el);
      if (a) out.push({ x: a.x + dx, y: a.y + dy, width: a.right - a.x, height: a.bottom - a.y });
    }
    for (const frame of doc.querySelectorAll('iframe, frame')) {
      let inner = null;
      try {
        inner = frame.contentWindow && frame.contentDocument ? frame.contentWindow : null;
      } catch (e) {
        inner = null; // another origin's frame: its own process, not readable from here
      }
      if (!inner) continue;
      const r = frame.getBoundingClientRect();
      const style = getComputedStyle(frame);
      areas(inner, dx + r.left + frame.clientLeft + parseFloat(style.paddingLeft || 0),
        dy + r.top + frame.clientTop + parseFloat(style.paddingTop || 0), out);
    }
    return out;
  }

  // The sensitive areas now, in page coordinates.
  const measure = () => areas(window, scrollX, scrollY, []);

  function mask() {
    unmask();
    const boxes = measure().map((b) => ({ x: b.x - 2, y: b.y - 2, width: b.width + 4, height: b.height + 4 }));
    if (!boxes.length) return { count: 0 };
    host = document.createElement('div');
    host.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;margin:0;padding:0;border:0;' +
      'overflow:visible;z-index:2147483647;pointer-events:none;display:block';
    const root = host.attachShadow({ mode: 'closed' });
    for (const b of boxes) {
      const d = document.createElement('div');
      d.style.cssText = `position:absolute;left:${b.x}px;top:${b.y}px;width:${b.width}px;` +
        `height:${b.height}px;background:#000;pointer-events:none`;
      root.appendChild(d);
    }
    document.documentElement.appendChild(host);
    drawn = boxes;
    return { count: boxes.length };
  }

  // Whether box b lies inside one of the drawn boxes (half a pixel of rounding allowed).
  const covered = (b) => drawn.some((d) => b.x >= d.x - 0.5 && b.y >= d.y - 0.5 &&
    b.x + b.width <= d.x + d.width + 0.5 && b.y + b.height <= d.y + d.height + 0.5);

  function unmask() {
    if (!host) return 'ok';
    const intact = host.isConnected && host.parentNode === document.documentElement &&
      getComputedStyle(host).display === 'block';
    let still = false;
    try {
      still = measure().every(covered);
    } catch (e) {
      still = false;
    }
    host.remove();
    host = null;
    drawn = [];
    return !intact ? 'removed' : still ? 'ok' : 'moved';
  }

  function rectOf(locator) {
    let el = null;
    if (locator.kind === 'record') {
      el = document.querySelector(`[data-agent-record="${CSS.escape(String(locator.record))}"]`);
    } else if (locator.source === 'inferred') {
      el = globalThis.__cdpagentInfer.find(locator);
    } else {
      el = globalThis.__cdpagentObserve.find(locator);
    }
    if (!el) return null;
    el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    return boxOf(el);
  }

  globalThis.__cdpagentCapture = { mask, unmask, rectOf };
})();
