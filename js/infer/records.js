// cdpagent inference, records (OB-12): table and grid rows (fields named by column
// headers), items of lists whose items hold controls, and cards; ids from the row's id,
// data-id, data-key or first link (its words where they name the row, see linkId), else a
// hash of its text (never a position).
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { squash, clip, COMPOSITES } = P;
  const { CELL, controlsIn, byTagAndRole, textOf, fieldValue, CARD_TITLE, cardContainers } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  const LIST_ROLES = new Set(['list', 'feed']);
  const TABLE_ROLES = new Set(['grid', 'treegrid', 'table']);
  // Lists that are navigation or composite widgets are not records.
  const NOT_RECORDS = `nav,[role=navigation],${COMPOSITES}`;

  // A link list: a list whose items are each one link and nothing else (a side bar's
  // links, a list's filters). A person reads it as one list of places to go, so its items
  // are records named by their links' text, and one folded action opens any of them: a
  // long list does not take one action entry per link, nor starve what stands beside it.
  const LINK_LIST_MIN = 3;
  // What may stand beside an item's link: the separators a bar of links draws ("next |",
  // "Python »"), never words.
  const SEPARATOR = /^[\s|»«›‹·•/:,>–—-]*$/u;
  const WORD = /\p{L}/u;
  // lines: the items are a block's lines (any element: a line block's lines in a layout
  // table's cell), not a list's <li>s. Returns {items, links, texts} (links[i]: items[i]'s
  // bare link, else null; texts[i]: that link's words, squashed), or null when list is no
  // link list.
  function linkItems(list, lines) {
    const items = [];
    const links = [];
    const texts = [];
    for (const li of list.children) {
      if (!lines && li.tagName !== 'LI') return null;
      // An item that is one bare link (its only node, holding text alone, without a role)
      // is a control, and one of a link list, when the link has an href and words: most
      // items of a long side bar, each read without a selector match (20,000 items: 40 ms).
      const bare = li.firstChild;
      if (bare && bare === li.lastChild && bare.tagName === 'A' && !bare.firstElementChild && !bare.hasAttribute('role')) {
        if (!bare.hasAttribute('href')) continue;
        const words = squash(bare.textContent);
        if (!WORD.test(words)) return null;
        items.push(li);
        links.push(bare);
        texts.push(words);
        continue;
      }
      const controls = controlsIn(li);
      if (!controls.length) continue; // a heading or the current place, not a link
      // A search in a bar of links (its field and button stay the page's own actions).
      if (li.querySelector('form,[role=search]') && controls.every((c) => c.closest('form,[role=search]'))) continue;
      const link = controls[0];
      if (controls.length > 1 || link.tagName !== 'A' || !link.hasAttribute('href')) return null;
      // A pager's "2" and ">" are positions, not names of places: its links stay actions.
      const text = squash(link.textContent);
      if (!WORD.test(text) || !SEPARATOR.test(squash(li.textContent).replace(text, ''))) return null;
      items.push(li);
      links.push(null); // its first a[href] names it (see rowEntry), an SVG link's too
      texts.push(null);
    }
    return items.length >= LINK_LIST_MIN ? { items, links, texts } : null;
  }

  function findContainers(ctx) {
    const containers = [];
    const skip = (el) => ctx.declared(el) || ctx.holdsDeclared(el) || ctx.hidden(el);
    // Tables and lists inside open shadow roots are records as in the document (a web
    // component's table); ctx.roots is null without any.
    for (const table of byTagAndRole(['table'], TABLE_ROLES, ctx.roled, null, ctx.roots)) {
      if (skip(table)) continue;
      const rows = tableRows(table);
      if (table.tagName === 'TABLE' && !table.hasAttribute('role') && layoutTable(table, rows)) {
        // A layout table's cell set out as lines of links (a function index in columns) is
        // a link list, as a <ul> of links is.
        for (const row of rows.body) {
          for (const cell of row.cells || []) {
            const block = cell.children.length === 1 && !controlsIn(cell.firstElementChild).includes(cell.firstElementChild) ? cell.firstElementChild : cell;
            const found = block.children.length >= LINK_LIST_MIN ? linkItems(block, true) : null;
            if (found) containers.push({ el: block, rows: found.items, headers: null, table: false, owner: null, links: found.links, texts: found.texts });
          }
        }
        continue;
      }
      if (rows.body.length) containers.push({ el: table, rows: rows.body, headers: rows.headers, table: true, heads: rows.heads });
    }
    for (const list of byTagAndRole(['ul', 'ol'], LIST_ROLES, ctx.roled, null, ctx.roots)) {
      if (skip(list) || list.closest(NOT_RECORDS)) continue;
      const items = [];
      for (const li of list.children) {
        if (/^(LI|ARTICLE)$/.test(li.tagName) || li.getAttribute('role') === 'listitem' || li.getAttribute('role') === 'article') items.push(li);
      }
      // owner: the first item that holds controls (what keeps the list a record list).
      const owner = items.find(hasOwnControls);
      if (!owner) continue;
      containers.push({ el: list, rows: items, headers: null, table: false, owner });
    }
    for (const list of byTagAndRole(['ul', 'ol'], new Set(), [], null, ctx.roots)) {
      if (skip(list) || list.closest(COMPOSITES)) continue;
      const found = linkItems(list);
      if (found) containers.push({ el: list, rows: found.items, headers: null, table: false, owner: null, links: found.links, texts: found.texts });
    }
    for (const c of cardContainers(containers, ctx.regionInfo, ctx.roled)) {
      if (!skip(c.el)) containers.push(c);
    }
    if (CLICK) for (const c of CLICK.containers(containers)) if (!ctx.declared(c.el) && !ctx.hidden(c.el)) containers.push(c); // clicks
    return containers;
  }

  function indexRecords(ctx, containers, entries) {
    const { opts } = ctx;
    const recordOf = new Map();
    const seenIds = new Map();
    const ids = [];
    const active = [];
    let inactive = 0;
    // A pass from scratch reads every row's entry; a kept one, the few a change dropped.
    ctx.rowVis = entries.size ? P.VIS : P.visFor(containers.reduce((n, c) => n + c.rows.length, 0), ctx.roots);
    for (const c of containers) {
      const region = ctx.regionOf(c.el);
      c.region = region;
      const regionActive = !region || region.state === 'active' || region.state === 'covered';
      for (let i = 0; i < c.rows.length; i++) {
        const row = c.rows[i];
        if (recordOf.has(row)) continue;
        let e = entries.get(row);
        if (!e || e.container !== c) {
          e = rowEntry(ctx, row, c, i);
          entries.set(row, e);
        }
        let id = e.id;
        const n = (seenIds.get(id) || 0) + 1;
        seenIds.set(id, n);
        if (n > 1) id = `${id}~${n}`; // identical rows: told apart by their order among equals only
        const on = regionActive && e.shown && !e.inert;
        const rec = { id, row, container: c, region, active: on, visible: false, full: null };
        recordOf.set(row, rec);
        if (!on) {
          inactive++;
          continue;
        }
        ids.push(id);
        active.push(rec);
        if (region && region.out) region.out.records_total++;
      }
    }
    P.markViewport(active, ctx.vw, ctx.vh, (r) => r.row);
    const viewport = [];
    for (const rec of active) {
      if (!rec.visible) continue;
      viewport.push(rec.id);
      if (rec.region && rec.region.out) rec.region.out.records_visible++;
    }
    const byId = opts.include.length ? new Map(active.map((r) => [r.id, r])) : null;
    const chosen = [];
    for (const id of opts.include) {
      const rec = byId.get(id);
      if (rec && !rec.full) { rec.full = true; chosen.push(rec); }
    }
    let picked = 0;
    for (const rec of active) {
      if (picked >= opts.full_records) break;
      if (rec.visible && !rec.full) { rec.full = true; picked++; chosen.push(rec); }
    }
    const records = [];
    for (const rec of chosen) {
      rec.full = { id: rec.id, label: '', region: rec.region ? rec.region.id : null, in_viewport: rec.visible, fields: {}, actions: {}, source: 'inferred' };
      readRecord(rec, opts);
      records.push(rec.full);
    }
    ctx.recordOf = recordOf;
    // Each control goes to its nearest record row (walks memoised), or to the page.
    const rowAt = P.ancestorWalk((p) => (recordOf.has(p) ? p : undefined), null);
    ctx.rowAbove = (el) => rowAt(el.parentElement);
    return { records, index: { ids, viewport, inactive, duplicates: [] } };
  }

  // A record row's entry in the kept model (see "the inferred index"): what its inference
  // reads of the row alone (its id, whether it is rendered and inert), kept until something
  // inside the row changes, or anything global does. Its controls are added by the fold.
  // i: the row's index in c.rows. text and bare: a link list's item's bare link's words
  // and that link (see linkItems), else null.
  function rowEntry(ctx, row, c, i) {
    // A link list's item is named by its link's words (what a person calls it).
    const text = c.links && c.texts[i];
    const link = c.links && !text && row.querySelector('a[href]');
    let id = text || (c.links ? squash((link || row).textContent) : row.id || row.getAttribute('data-id') || row.getAttribute('data-key'));
    if (!id) {
      const first = row.querySelector('a[href]');
      id = first ? linkId(first, row, c.table) : hashId(keyText(row, c.table));
    }
    return {
      container: c, id: clip(id, ctx.opts.record_id_chars), shown: row.checkVisibility(ctx.rowVis), text: text || null, bare: text ? c.links[i] : null,
      inert: !!(ctx.hasInert && row.closest('[inert]')), controls: null, inPlace: null, shape: undefined, named: false,
    };
  }


  // A table row whose key cell (its first cell with text) is its first link's words is
  // called by those words, as a person calls a row of a change list by its title ("Emma",
  // not "/admin/library/book/3/change/"): its id reads like the link. So is a list's item
  // that begins with its link (a contents entry over its sub-entries, a feed item's title).
  // Any other row is called by the link's target (a row's "Edit" link says nothing of which
  // row it is).
  const ID_WORDS = 80;
  function linkId(link, row, table) {
    const words = squash(link.textContent);
    if (words && words.length <= ID_WORDS && WORD.test(words) && (table ? keyText(row, true) === words : leads(link, row))) return words;
    return link.getAttribute('href');
  }
  // Whether the first text of ``row`` a person reads is inside ``link``.
  function leads(link, row) {
    const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (/\S/.test(t.data)) return link.contains(t);
    }
    return false;
  }

  // 53-bit FNV-style hash of a row's text: the same text gives the same id after a re-render.
  function hashId(text) {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    return 'r' + ((h1 >>> 0).toString(36) + (h2 >>> 11).toString(36)).slice(0, 10);
  }

  function tableRows(table) {
    const body = [];
    const heads = [];
    let headers = [];
    const rows = table.tagName === 'TABLE' ? table.rows : table.querySelectorAll('[role=row]');
    for (let r = 0, n = rows.length; r < n; r++) {
      const row = rows[r];
      const tr = row.tagName === 'TR';
      if (tr ? !row.firstElementChild : !row.querySelector(CELL)) continue;
      if (!isHeaderRow(row, tr)) body.push(row);
      else if (!body.length) {
        heads.push(row);
        const cells = tr ? row.cells : row.querySelectorAll(CELL);
        headers = Array.from(cells, (c, i) => slugless(textOf(c, 40)) || `column ${i + 1}`);
      }
    }
    return { body, headers, heads };
  }
  // A table that lays content out rather than listing records (as browsers tell layout
  // tables from data tables): one body row under no more than one column header (a page's
  // columns of links, a function index set out in four columns), or, with no header row,
  // cells that hold blocks (paragraphs, lists, line blocks). Its links and controls are the
  // page's own actions; a single row of a table whose header names its columns stays a record.
  const BLOCKS = 'p,ul,ol,dl,div,table,h1,h2,h3,h4,h5,h6';
  function layoutTable(table, rows) {
    const named = new Set(rows.headers.filter((h) => !/^column \d+$/.test(h))).size;
    if (rows.body.length <= 1 && named <= 1) return true;
    if (rows.heads.length || table.tHead || table.caption) return false;
    const first = rows.body[0];
    if (!first || first.tagName !== 'TR') return false;
    for (const cell of first.cells) {
      let blocks = 0;
      for (let c = cell.firstElementChild; c; c = c.nextElementSibling) if (c.matches(BLOCKS) && ++blocks >= 2) return true;
    }
    return false;
  }
  // A header row: in <thead>, or only header cells. Walks the children and stops at
  // the first data cell (collections per row of a 10,000-row table showed in profiles).
  function isHeaderRow(row, tr) {
    if (row.parentElement && row.parentElement.tagName === 'THEAD') return true;
    if (!tr) return Array.prototype.every.call(row.querySelectorAll(CELL), (c) => c.getAttribute('role') === 'columnheader');
    for (let c = row.firstElementChild; c; c = c.nextElementSibling) {
      if (c.tagName === 'TD' || (c.tagName !== 'TH' && c.getAttribute('role') !== 'columnheader')) return false;
    }
    return true;
  }
  const slugless = (s) => s.replace(/… \(cut.*$/, '…');

  // What a content-hash id is made of: a table row's first cell with text (its key
  // column, so editing another cell keeps the id), else the item's whole text.
  function keyText(row, table) {
    if (table) {
      const cells = row.tagName === 'TR' ? row.cells : row.querySelectorAll('[role=cell],[role=gridcell],[role=rowheader]');
      for (const cell of cells) {
        const t = squash(cell.textContent);
        if (t) return t;
      }
    }
    return squash(row.textContent);
  }

  function hasOwnControls(item) {
    const controls = controlsIn(item);
    if (!controls.length) return false;
    if (controls.length > 1) return true;
    // One link that is the whole item is a link, not a record with a link.
    return squash(item.textContent).length > squash(controls[0].textContent).length + 2;
  }

  function readRecord(rec, opts) {
    const row = rec.row;
    const fields = rec.full.fields;
    if (rec.container.table) {
      const cells = row.tagName === 'TR' ? row.cells : row.querySelectorAll('[role=cell],[role=gridcell],[role=rowheader]');
      const headers = rec.container.headers;
      Array.from(cells).forEach((cell, i) => {
        const name = headers[i] || `column ${i + 1}`;
        if (!(name in fields)) fields[name] = fieldValue(cell, opts);
      });
      // The row is called by its first cell with words (a title), not by a check box's state.
      const key = Array.prototype.find.call(cells, (cell) => textOf(cell, 200));
      rec.full.label = key ? textOf(key, 200) : cells.length ? clip(fieldValue(cells[0], opts), 200) : '';
    } else {
      // innerText: what is shown, so opening a disclosure changes the record.
      const text = clip(row.querySelector(P.SENSITIVE) ? P.pageText(row, true) : row.innerText, opts.max_string);
      fields.text = text;
      const title = rec.container.card && row.querySelector(CARD_TITLE);
      rec.full.label = clip(title ? textOf(title, 80) : text, 80);
    }
    const check = row.querySelector('input[type=checkbox],[role=checkbox],[role=switch]');
    if (check && !rec.container.table) fields.checked = 'checked' in check ? !!check.checked : check.getAttribute('aria-checked') === 'true';
    const expander = row.querySelector('[aria-expanded]');
    if (expander) fields.expanded = expander.getAttribute('aria-expanded') === 'true';
    const mark = row.getAttribute('aria-selected') || row.getAttribute('aria-current');
    if (mark && mark !== 'false') fields.selected = true;
  }

  Object.assign(C, { findContainers, indexRecords, hasOwnControls, slugless });
})();
