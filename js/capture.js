// cdpagent capture: what a screenshot covers and what it must hide (SPEC BR-3).
//
// Installed into the isolated world "cdpagent-observe" last, after the prelude and
// the collectors. It defines globalThis.__cdpagentCapture:
//
//   mask() -> {count}     covers every visible element of the prelude's masking rule
//       (SENSITIVE: password and hidden-value fields, one-time codes, card fields,
//       anything marked data-agent-sensitive, whose box covers what is inside it)
//       with an opaque box, drawn in a closed shadow root of one element added to
//       the document, so that pixels hide what the observation masks as "[masked]".
//   unmask() -> boolean   removes the boxes; false when the page removed or moved
//       them meanwhile (the capture then cannot be trusted and is discarded).
//   rectOf(locator) -> {x, y, width, height} | null   the page-coordinate box of
//       an action's element (collect.js / infer.js find), or of a declared record.
//
// The boxes are the only thing written to the page, and only for the time of one
// capture; their host carries no attribute a page could use to tell it apart.
(() => {
  'use strict';
  if (globalThis.__cdpagentCapture) return;

  const { SENSITIVE, VIS } = globalThis.__cdpagentPrelude;
  let host = null;

  function boxOf(el) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0 || r.height <= 0 || !el.checkVisibility(VIS)) return null;
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  }

  function mask() {
    unmask();
    const boxes = [];
    for (const el of document.querySelectorAll(SENSITIVE)) {
      const b = boxOf(el);
      if (b) boxes.push(b);
    }
    if (!boxes.length) return { count: 0 };
    host = document.createElement('div');
    host.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;margin:0;padding:0;border:0;' +
      'overflow:visible;z-index:2147483647;pointer-events:none;display:block';
    const root = host.attachShadow({ mode: 'closed' });
    for (const b of boxes) {
      const d = document.createElement('div');
      d.style.cssText = `position:absolute;left:${b.x - 2}px;top:${b.y - 2}px;width:${b.width + 4}px;` +
        `height:${b.height + 4}px;background:#000;pointer-events:none`;
      root.appendChild(d);
    }
    document.documentElement.appendChild(host);
    return { count: boxes.length };
  }

  function unmask() {
    if (!host) return true;
    const intact = host.isConnected && host.parentNode === document.documentElement &&
      getComputedStyle(host).display === 'block';
    host.remove();
    host = null;
    return intact;
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
