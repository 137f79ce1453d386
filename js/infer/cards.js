// cdpagent inference, cards (OB-12): repeated siblings of one shape that are records.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { firstRole, docOrder, shapeOf } = P;
  const { controlsIn, roleOf } = C;

  // Cards: siblings of one shape (tag and classes) outside lists and tables, at least
  // CARDS of them holding a title (heading or link) and an action that is not a link
  // (repeated documentation sections hold links only: they are not records). Found
  // upward from headings and links, so the cost follows those, not the page's size.
  const CARDS = 3;
  const CARD_TITLE = 'h1,h2,h3,h4,h5,h6,[role=heading],a[href]';
  const CARD_DEPTH = 6;
  // Siblings of one shape are cards when CARDS of their first CARD_SAMPLE are: 10,000
  // documentation sections that hold links only are not read to the end to find that out.
  const CARD_SAMPLE = 64;
  const CARD_SEEDS = 3000;
  const CARD_TITLE_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'a'];
  // What stops the walk up from a title: tables, lists and NOT_RECORDS.
  const CARD_STOP_TAGS = ['table', 'ul', 'ol', 'nav'];
  const CARD_STOP_ROLES = new Set(['grid', 'treegrid', 'table', 'list', 'feed', 'navigation', 'menu', 'menubar',
    'tablist', 'listbox', 'tree', 'radiogroup', 'toolbar']);
  const isCard = (el) => !!el.querySelector(CARD_TITLE) && controlsIn(el).some((c) => roleOf(c) !== 'link');

  function cardContainers(containers, regionInfo, roled) {
    // Elements inside a table, list or composite widget (true) or not (false), memoised per walk.
    const inside = new Map();
    for (const tag of CARD_STOP_TAGS) for (const el of document.getElementsByTagName(tag)) inside.set(el, true);
    for (const el of roled) if (CARD_STOP_ROLES.has(firstRole(el))) inside.set(el, true);
    for (const c of containers) inside.set(c.el, true);
    const within = P.ancestorWalk(() => undefined, false, inside);
    const checked = new Map(); // parent -> shapes of children already looked for there
    const out = [];
    // Yielded as asked: the CARD_SEEDS bound stops the collection too (inferbudget).
    const seeds = (function* () {
      for (const tag of CARD_TITLE_TAGS) yield* document.getElementsByTagName(tag);
      for (const el of roled) if (firstRole(el) === 'heading') yield el;
    })();
    // Candidate -> the least depth a walk reached it at: a walk that reaches it again no
    // shallower would only repeat what the first one did above it (50,000 links share a
    // few hundred ancestors).
    const walked = new Map();
    // Walked up from at most CARD_SEEDS titles outside lists and tables: a card list shows
    // in its first cards' titles, and a page of 50,000 links is not walked up from each.
    let seeded = 0;
    for (const seed of seeds) {
      if (within(seed) || (seed.tagName === 'A' && !seed.hasAttribute('href'))) continue;
      if (++seeded > CARD_SEEDS) break;
      let card = seed.parentElement;
      for (let depth = 0; card && depth < CARD_DEPTH; card = card.parentElement, depth++) {
        const before = walked.get(card);
        if (before !== undefined && before <= depth) break;
        walked.set(card, depth);
        const parent = card.parentElement;
        if (!parent || card === document.body || regionInfo.has(card)) break;
        const shape = shapeOf(card);
        const shapes = checked.get(parent) || new Set();
        if (shapes.has(shape)) break;
        checked.set(parent, shapes.add(shape));
        // The siblings of the shape are all read only once the first CARD_SAMPLE prove them
        // cards (10,000 sections of links are not).
        const like = (sib) => shapeOf(sib) === shape;
        const sample = sameShape(parent, like, CARD_SAMPLE);
        if (sample.length >= CARDS && atLeast(sample, isCard, CARDS)) {
          out.push({ el: parent, rows: Array.prototype.filter.call(parent.children, like), headers: null, table: false, card: true });
          break;
        }
      }
    }
    return out.sort((a, b) => docOrder(a.el, b.el));
  }
  // The first (at most) max children of parent that pass like, in order.
  function sameShape(parent, like, max) {
    const out = [];
    for (let sib = parent.firstElementChild; sib && out.length < max; sib = sib.nextElementSibling) if (like(sib)) out.push(sib);
    return out;
  }
  // Whether n of items pass test.
  function atLeast(items, test, n) {
    let found = 0;
    for (const item of items) if (test(item) && ++found >= n) return true;
    return false;
  }

  Object.assign(C, { CARD_TITLE, cardContainers });
})();
