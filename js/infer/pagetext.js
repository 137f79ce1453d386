// cdpagent inference, page text (OB-12): the visible text of the page in reading order.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { MASK, VIS, squash, inViewport, firstRole, composedParent } = P;
  const { HEADING, passLabels } = C;

  // The visible text of the page, block by block in document (reading) order:
  // headings, paragraphs, list items, cells, captions, the words around controls.
  // Left out: what the observation shows elsewhere (record rows, the labels that
  // name controls, field values, a block that is only a button's or link's name),
  // scripts and styles, aria-hidden and invisible parts; sensitive elements read
  // as MASK. Blocks in the viewport come first; at most opts.text_chars characters
  // are sent (cut by code point), at most opts.text_scan nodes are read, and what
  // is left out is counted.

  const BLOCK_TAGS = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'CENTER', 'DD', 'DETAILS',
    'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6',
    'HEADER', 'HR', 'LABEL', 'LEGEND', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY',
    'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'OUTPUT']);
  const TEXT_SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|SVG|svg|CANVAS|SELECT|TEXTAREA|INPUT|OPTION|DATALIST|IFRAME|FRAME|OBJECT|EMBED|VIDEO|AUDIO|HEAD|MAP)$/;
  const INLINE_CONTROL = 'a[href],button,summary,[role=button],[role=link],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=switch],[role=radio]';

  function readPageText(ctx, skipped) {
    const { opts } = ctx;
    const budget = opts.text_chars;
    const scanMax = opts.text_scan;
    const sensitive = P.anySensitiveNow(); // the pass's answer: no third document-wide query
    const blocks = [];
    let scanned = 0;
    let complete = true;
    const shownMemo = new Map();
    const shown = (el) => {
      let v = shownMemo.get(el);
      if (v === undefined) { v = el.checkVisibility(VIS); shownMemo.set(el, v); }
      return v;
    };
    // Reading stops once four budgets' worth of text is read and the walk is below the
    // viewport: the rest could not be shown anyway (it is then not counted, and said so).
    const enough = budget * 4;
    let read = 0;
    const open = (el) => {
      const b = { el, parts: [], own: false, heading: HEADING.test(el.tagName) || firstRole(el) === 'heading' };
      if (read > enough && el.getBoundingClientRect().top > ctx.vh) complete = false;
      blocks.push(b);
      return b;
    };
    // With open shadow roots the walk follows the flat tree a person sees: a host's shadow
    // tree instead of its children, and at each <slot> what is assigned to it (else its
    // fallback content). A slot has no box of its own: a text's visibility is its nearest
    // element's that is not a slot.
    const flat = !!ctx.roots;
    const childrenOf = (node) => {
      if (node.shadowRoot) return node.shadowRoot.childNodes;
      if (node.tagName === 'SLOT') {
        const assigned = node.assignedNodes();
        if (assigned.length) return assigned;
      }
      return node.childNodes;
    };
    const boxOf = (node) => {
      let p = node;
      while (p && p.tagName === 'SLOT') p = composedParent(p);
      return p;
    };
    const walk = (node, cursor, inControl) => {
      const kids = flat ? childrenOf(node) : null;
      for (let i = 0, c = flat ? kids[0] : node.firstChild; c; c = flat ? kids[++i] : c.nextSibling) {
        if (++scanned > scanMax) { complete = false; return; }
        if (c.nodeType === Node.TEXT_NODE) {
          if (!/\S/.test(c.data) || skipped.has(c)) { if (cursor.block) cursor.block.parts.push(' '); continue; }
          const box = flat ? boxOf(c.parentElement || (c.parentNode && c.parentNode.host)) : node;
          if (!box || !shown(box)) continue;
          if (!cursor.block) cursor.block = open(cursor.el);
          if (!complete) return;
          cursor.block.parts.push(c.data);
          read += c.data.length;
          if (!inControl) cursor.block.own = true;
          continue;
        }
        if (c.nodeType !== Node.ELEMENT_NODE || TEXT_SKIP.test(c.tagName) || skipped.has(c) || c.isContentEditable) continue;
        if (ctx.anyAriaHidden && c.getAttribute('aria-hidden') === 'true' && (!ctx.ariaHides || ctx.ariaHides(c))) continue;
        if (sensitive && c.matches(P.SENSITIVE)) {
          if (squash(c.textContent) && shown(c)) {
            if (!cursor.block) cursor.block = open(cursor.el);
            cursor.block.parts.push(` ${MASK} `);
            cursor.block.own = true;
          }
          continue;
        }
        if (c.tagName === 'BR') { if (cursor.block) cursor.block.parts.push(' '); continue; }
        const ctl = inControl || c.matches(INLINE_CONTROL);
        if (BLOCK_TAGS.has(c.tagName) || firstRole(c) === 'heading') {
          walk(c, { el: c, block: null }, ctl);
          cursor.block = null; // the parent's text after a block is a block of its own
        } else {
          walk(c, cursor, ctl);
        }
        if (!complete) return;
      }
    };
    if (document.body) walk(document.body, { el: document.body, block: null }, false);
    // Viewport first, each part in reading order.
    const rects = new Map();
    const inView = (el) => {
      let v = rects.get(el);
      if (v === undefined) { v = inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh); rects.set(el, v); }
      return v;
    };
    const lines = [];
    for (const b of blocks) {
      if (!b.own) continue;
      const text = squash(b.parts.join(''));
      if (!text) continue;
      lines.push({ text: b.heading ? `# ${text}` : text, view: inView(b.el) });
    }
    const ordered = lines.filter((l) => l.view).concat(lines.filter((l) => !l.view));
    const out = [];
    let used = 0;
    let chars = 0;
    let viewportLeft = 0;
    let viewportBlocks = 0;
    for (const l of ordered) {
      chars += l.text.length;
      if (used >= budget) {
        if (l.view) viewportLeft++;
        continue;
      }
      const room = budget - used;
      const text = l.text.length <= room ? l.text : P.head(l.text, room) + '…';
      out.push(text);
      if (l.view) viewportBlocks++;
      used += text.length;
      if (text.length < l.text.length && l.view) viewportLeft++;
    }
    return {
      blocks: out, blocks_total: ordered.length, chars_total: chars, viewport_blocks: viewportBlocks, viewport_left: viewportLeft,
      scanned_all: complete,
    };
  }

  // The parts of record containers the records show (their rows and header rows): a
  // table body or list whose children are all records is left out whole, so the page
  // text does not visit every row of a long list.
  function shownParts(containers) {
    const out = [];
    for (const c of containers) {
      if (c.heads) out.push(...c.heads);
      const parents = new Map();
      for (const row of c.rows) {
        const p = row.parentElement;
        parents.set(p, (parents.get(p) || 0) + 1);
      }
      for (const [p, n] of parents) {
        if (p && n === p.childElementCount && p !== document.body) out.push(p);
        else for (const row of c.rows) if (row.parentElement === p) out.push(row);
      }
    }
    return out;
  }

  // Elements whose text the page text leaves out (shown elsewhere): record rows, the
  // labels tied to controls, the captions and labels used as names.
  function textSkips(ctx, rows) {
    const skipped = new Set(rows);
    for (const list of passLabels().labels.values()) for (const l of list) skipped.add(l);
    for (const el of ctx.named) skipped.add(el);
    return skipped;
  }

  Object.assign(C, { readPageText, shownParts, textSkips });
})();
