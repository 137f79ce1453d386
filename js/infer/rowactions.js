// cdpagent inference, row actions (OB-12): a record row's controls, folded per (name,
// region) across the rows.
//
// Every row's controls are read for what the fold needs besides their names: role, kind,
// whether disabled, its in-place edit (and, in a long container, the row's shape: those
// with each control's column, in document order). Names (accessible names, the costly
// part) are read only of the rows the fold reads, which is every row of a container of at
// most opts.row_box_checks rows (the bound past which rows are no longer checked one by
// one either). A longer container is read from a sample when the sample proves its rows
// alike (see alike):
//   read     the exact rows (in the viewport or in full), and SAMPLE_ROWS rows picked
//            by position (the first, the last, evenly spaced between: the same rows for a
//            kept pass and a pass from scratch);
//   proof    every picked row and every row not read has the first row's shape (so no
//            control among them is extra, missing, disabled, hidden or in another
//            column), and each control's name on the picked rows is one name on all of
//            them, empty on all, or differs on every one (starting with one same word or
//            none) and is found on no other row read; or, in a link list whose rows
//            are each one bare link (js/infer/records.js linkItems) and where nothing
//            names a link otherwise, every row's name is known from the words its id
//            was read from: it differs on every row, and no first word starts more than
//            half of them (so no row is named by its first word; see leadOf), counted
//            on every row;
//   counted  each row not read counts as the first row does: its names, its rows,
//            offscreen rows, available rows and reasons, its ids in the samples and
//            available_ids (known without reading the row);
//   else     every row's names are read, as below opts.row_box_checks.
// Limit: a name that is one row's own among the rows not read, or repeated by a row not
// read, is not seen (that row's control is named as the picked rows say).
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { VIS, docOrder, cutLong } = P;
  const {
    POPUP_ITEM, IN_PLACE, roleOf, controlKind, effectOf, slug, columnOf, controlName, genericName, rowDescription,
    inputSpec, keyOf,
  } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // The row's controls as the fold reads them (own: the row's controls; inPlace: its
  // in-place edit label or null): role, kind, whether disabled; column, generic (what
  // the name falls back to) and expanded when first needed. Their names (label) are read
  // by namesOf. plain: the role and kind of every bare link of the row's link list (see
  // plainLinks), else null; such a link's control is plain (neither disabled nor
  // expandable, known without a read).
  function rowControlsOf(ctx, e, own, inPlace, plain) {
    const controls = [];
    let typed = false;
    const add = (el, role, kind, label, isPlain) => controls.push({
      el, role, kind, label, own: !!(CLICK && CLICK.ownName(el)), column: undefined, generic: undefined,
      blocked: !isPlain && (el.disabled === true || el.getAttribute('aria-disabled') === 'true'),
      expanded: isPlain ? false : undefined, plain: isPlain,
    });
    if (own.length > 1) own.sort(docOrder);
    for (const el of own) {
      if (ctx.hidden(el)) continue;
      if (plain && el === e.bare && !(CLICK && CLICK.foundKind(el))) {
        add(el, plain.role, plain.kind, undefined, true);
        continue;
      }
      const role = roleOf(el);
      if (POPUP_ITEM.test(role)) continue;
      const kind = controlKind(el, role);
      if (kind === 'type') typed = true;
      add(el, role, kind, undefined, false);
    }
    const label = typed ? null : inPlace;
    if (label) add(label, IN_PLACE, 'type', '', false);
    e.controls = controls;
    e.inPlace = label;
    e.shape = undefined;
    e.named = false;
  }

  // The shape of the row of entry e in container c (its controls read): what must be the
  // same for a row to be counted as another is (role, kind, column, whether disabled or
  // expandable, in order), or null when a control is the clickables pass's (its names and
  // verbs are its own).
  function shapeOf(e, c) {
    if (e.shape !== undefined) return e.shape;
    const lone = e.controls.length === 1 && e.controls[0];
    if (lone && lone.plain) return (e.shape = c.plain.shapes[+lone.own]);
    let shape = '';
    for (const k of e.controls) {
      if (CLICK && CLICK.foundKind(k.el)) { shape = null; break; }
      if (k.column === undefined) k.column = columnOf(k.el, c);
      if (k.expanded === undefined) k.expanded = k.el.hasAttribute('aria-expanded');
      shape += controlShape(k);
    }
    e.shape = shape;
    return shape;
  }
  // One control's part of a row's shape (its column and expanded read).
  const controlShape = (k) =>
    `${k.role}\u0001${k.kind}\u0001${k.own}\u0001${k.blocked}\u0001${k.expanded}\u0001${k.column}\u0002`;

  // Reads the names of the row's controls (entry e, its controls read).
  function namesOf(ctx, e) {
    const { opts } = ctx;
    for (const k of e.controls) {
      if (k.label === undefined) k.label = controlName(k.el, k.role, k.kind, opts.action_name_chars, ctx.named, true)[0];
    }
    e.named = true;
  }

  // At most this many rows of a container may have controls named by their own label
  // (see particular in foldRowActions): each such label is a group of its own.
  const PARTICULAR_ROWS = 3;
  // The first word of a label, when it is a word (letters, two or more).
  const LEAD = /^(\p{L}{2,})(?=\s|$)/u;

  // Rows picked by position for the sample of a long container (see the header).
  const SAMPLE_ROWS = 8;
  // The lead word of a label ('' when none), lower case.
  const leadWord = (label) => {
    const word = LEAD.exec(label);
    return word ? word[1].toLowerCase() : '';
  };

  // What the picked rows of a long container (rows: its records in order, entries read)
  // prove of the rows not read, or null when they prove nothing (see the header): the rows
  // read (a Set of records) and, per control of the shape, the name the picked rows agree
  // on ({same: label}, '' included) or that differs on every one ({differs: true}).
  function alike(ctx, c, rows, entries) {
    const n = rows.length;
    const shape = shapeOf(entries.get(rows[0].row), c);
    if (shape === null) return null;
    const picked = [];
    for (let i = 0; i < SAMPLE_ROWS; i++) {
      const rec = rows[Math.round((i * (n - 1)) / (SAMPLE_ROWS - 1))];
      if (picked[picked.length - 1] !== rec) picked.push(rec);
    }
    const pickedEntries = picked.map((rec) => entries.get(rec.row));
    if (pickedEntries.some((e) => shapeOf(e, c) !== shape)) return null;
    let leads = null;
    // The picked rows' names first: when they prove nothing, the other rows' shapes are
    // not read (the rows' names are, by the fold).
    for (const e of pickedEntries) if (!e.named) namesOf(ctx, e);
    const names = [];
    for (let i = 0; i < pickedEntries[0].controls.length; i++) {
      const labels = pickedEntries.map((e) => e.controls[i].label);
      if (labels.every((l) => l === labels[0])) {
        names.push({ same: labels[0] });
        continue;
      }
      const lead = leadWord(labels[0]);
      if (labels.some((l) => !l || leadWord(l) !== lead) || new Set(labels).size !== labels.length) {
        leads = knownLeads(ctx, c, rows, entries);
        if (!leads) return null;
      }
      names.push({ differs: true });
    }
    const read = new Set(picked);
    for (const rec of rows) {
      if (rec.visible || rec.full) read.add(rec);
      else if (shapeOf(entries.get(rec.row), c) !== shape) return null;
    }
    return { read, picked: pickedEntries, names, unread: n - read.size, leads };
  }

  // What inside a link list can make one of its bare links (js/infer/records.js
  // linkItems: a link with an href and text alone, without a role) read otherwise than
  // another: a name of its own, an editor, a slider's tab stop, a disabled or expandable
  // state.
  const UNLIKE_LINKS = '[aria-label],[aria-labelledby],[contenteditable],[tabindex],[aria-disabled],[aria-expanded]';
  // The role and kind of every bare link of link list c, read from one of them when
  // nothing in the list (one query) makes them differ: each is named by its words, is
  // neither disabled nor expandable, and the shape of a row of one such link is known
  // without a read (shapes, by whether the clickables pass names it: see shapeOf). null
  // when the list holds no bare link, or something that may make them differ.
  function plainLinks(c, entries) {
    if (!c.links || c.el.isContentEditable || c.el.querySelector(UNLIKE_LINKS)) return null;
    const first = c.rows.find((row) => entries.get(row) && entries.get(row).bare);
    if (!first) return null;
    const el = entries.get(first).bare;
    const role = roleOf(el);
    const kind = controlKind(el, role);
    const column = columnOf(el, c);
    const shapes = [false, true].map((own) => controlShape({ role, kind, own, blocked: false, expanded: false, column }));
    return { role, kind, shapes };
  }

  // The first word of each row's name in link list c (rows: its records, in order), known
  // without reading a name: each row is one bare link named by its words, which its id
  // was read from (entry.text), when the list's bare links are plain (see plainLinks and
  // ownName in js/prelude.js). null when a row is not such a link, two rows have one
  // name, or one first word starts more than half of the names (it names those rows'
  // action: see leadOf in foldRowActions). Else a Map of record -> first word ('' none).
  function knownLeads(ctx, c, rows, entries) {
    if (!c.plain) return null;
    const max = ctx.opts.action_name_chars;
    const names = new Set();
    const words = new Map();
    const per = new Map();
    for (const rec of rows) {
      const e = entries.get(rec.row);
      if (!e.text || e.controls.length !== 1 || !e.controls[0].plain) return null;
      const name = cutLong(e.text, max); // e.text is squashed
      if (names.has(name)) return null;
      names.add(name);
      const word = leadWord(name);
      per.set(rec, word);
      if (word) words.set(word, (words.get(word) || 0) + 1);
    }
    for (const n of words.values()) if (n >= 2 && n * 2 > rows.length) return null;
    return per;
  }

  // Counts record rec's control of group g (reason: why it is unavailable, or null).
  function countIn(g, rec, reason, region, opts) {
    g.rows++;
    if (rec.visible) g.visible++;
    else g.offscreen++;
    if (region && region.out) {
      region.out.actions_total++;
      if (rec.visible) region.out.actions_visible++;
    }
    if (reason) {
      g.reasons[reason] = (g.reasons[reason] || 0) + 1;
    } else {
      g.available++;
      listIn(g, rec, opts);
    }
  }
  // Lists rec's id in group g's sample and available ids while they have room; whether
  // they still have.
  function listIn(g, rec, opts) {
    if (g.sample.length < opts.sample) g.sample.push(rec.id); // document order: viewport rows first on a list read top down
    if (g.available_ids && g.available_ids.length <= opts.enum_limit) g.available_ids.push(rec.id);
    return g.sample.length < opts.sample || (!!g.available_ids && g.available_ids.length <= opts.enum_limit);
  }

  // ownOf(row): the row's controls; inPlaceOf(row): its in-place edit label or null (see
  // IN_PLACE). Both are asked only of rows whose entry holds no controls yet. Sets
  // ctx.unread: the rows counted from a sample, their names not read.
  function foldRowActions(ctx, containers, entries, ownOf, inPlaceOf) {
    const { opts } = ctx;
    const groups = new Map();
    const groupList = [];
    const taken = new Map();
    ctx.unread = 0;
    for (const c of containers) {
      const rows = [];
      c.plain = plainLinks(c, entries);
      for (const row of c.rows) {
        const rec = ctx.recordOf.get(row);
        if (!rec || rec.container !== c) continue;
        const e = entries.get(row);
        if (!e.controls) rowControlsOf(ctx, e, ownOf(row), inPlaceOf(row), c.plain);
        if (e.inPlace && (rec.visible || rec.full)) ctx.revealers.set(e.inPlace, row);
        rows.push(rec);
      }
      const long = !opts.unbounded && rows.length > opts.row_box_checks;
      // The kept counts of every row's names (below) do not hold once a sample is read.
      if (long) c.counts = null;
      let like = long ? alike(ctx, c, rows, entries) : null;
      let counts = null;
      if (like) {
        // Counted anew from the rows read and what the rows not read repeat.
        counts = new Map();
        for (const rec of like.read) {
          const e = entries.get(rec.row);
          if (!e.named) namesOf(ctx, e);
          for (const k of e.controls) if (k.label) counts.set(k.label, (counts.get(k.label) || 0) + 1);
        }
        for (const name of like.names) if (name.same) counts.set(name.same, counts.get(name.same) + like.unread);
        // A name that differs on every picked row is on no other row read.
        const sole = like.picked.every((e) => e.controls.every((k, i) => !like.names[i].differs || counts.get(k.label) === 1));
        if (!sole) like = null;
      }
      if (!like) {
        // How many rows have each control name: kept with a kept model's container and
        // patched (keptModel takes a dropped entry's names out, a new entry adds its own).
        const counted = !!c.counts;
        counts = c.counts || (c.counts = new Map());
        for (const rec of rows) {
          const e = entries.get(rec.row);
          const fresh = !e.named;
          if (fresh) namesOf(ctx, e);
          if (fresh || !counted) for (const k of e.controls) if (k.label) counts.set(k.label, (counts.get(k.label) || 0) + 1);
        }
      }
      if (like) ctx.unread += like.unread;
      const isRead = like ? (rec) => like.read.has(rec) : () => true;
      const rowsOf = rows.length;
      // A label found on one row only names the row ("Delete Ada", a title, a day) when
      // many rows have such a control of its role and kind; on a few rows it names an
      // action of those rows ("Execute" in the one expanded operation), and is its name,
      // not a position among the row's controls (press_2) that a new control would shift.
      // When most rows with such a label of a role and kind start it with the same word
      // ("Delete Ada", "Delete Alan"), that word names the action (lead: rows per word).
      const particular = new Map();
      const lead = new Map();
      // A row counts once per key however many of its controls have it.
      const seenKinds = new Set();
      const seenLeads = new Set();
      const tally = (controls, times) => {
        for (const k of controls) {
          if (!k.label || counts.get(k.label) !== 1) continue;
          const key = k.role + '\u0000' + k.kind;
          seenKinds.add(key);
          const word = leadWord(k.label);
          if (word) seenLeads.add(key + '\u0000' + word);
        }
        for (const key of seenKinds) particular.set(key, (particular.get(key) || 0) + times);
        for (const key of seenLeads) lead.set(key, (lead.get(key) || 0) + times);
        seenKinds.clear();
        seenLeads.clear();
      };
      for (const rec of rows) if (isRead(rec)) tally(entries.get(rec.row).controls, 1);
      // A row not read has the first picked row's names (one on all, or its own), and in a
      // link list its own first word (like.leads).
      if (like && like.unread && like.leads) {
        const k = like.picked[0].controls[0];
        const key = k.role + '\u0000' + k.kind;
        particular.set(key, (particular.get(key) || 0) + like.unread);
        for (const rec of rows) {
          const word = !like.read.has(rec) && like.leads.get(rec);
          if (word) lead.set(key + '\u0000' + word, (lead.get(key + '\u0000' + word) || 0) + 1);
        }
      } else if (like && like.unread) tally(like.picked[0].controls, like.unread);
      const leadOf = (role, kind, label) => {
        const word = LEAD.exec(label);
        if (!word) return '';
        const key = role + '\u0000' + kind;
        const n = lead.get(key + '\u0000' + word[1].toLowerCase()) || 0;
        return n >= 2 && n * 2 > (particular.get(key) || 0) ? slug(word[1]) : '';
      };
      const few = (role, kind) => {
        const n = particular.get(role + '\u0000' + kind) || 0;
        return n * 2 <= rowsOf && n <= PARTICULAR_ROWS;
      };
      const region = c.region;
      const path = region ? region.path : [];
      const pathKey = path.join('\u0000');
      // The groups of the first row, and whether each is disabled there: what a row not read
      // adds to. Those rows are counted at the end; their ids are listed on the way, in
      // document order, while a group still lists ids.
      let pattern = null;
      let unreadActive = 0;
      let listing = true;
      for (const rec of rows) {
        if (!isRead(rec)) {
          if (!rec.active) continue;
          // Reasons keep the order they were first found in (a row's reasons are objects).
          if (++unreadActive === 1) for (const [g, blocked] of pattern) if (blocked) g.reasons.disabled = g.reasons.disabled || 0;
          if (listing) {
            listing = false;
            for (const [g, blocked] of pattern) if (!blocked) listing = listIn(g, rec, opts) || listing;
          }
          continue;
        }
        const controls = entries.get(rec.row).controls;
        const first = like && !pattern ? [] : null;
        taken.clear();
        for (const k of controls) {
          const { el, role, kind, label } = k;
          // A name that differs on every row names the row, not the action (and is
          // never slugged: 10,000 unique names cost more than the rest of the row).
          const s = label && (rowsOf === 1 || counts.get(label) > 1 || k.own || few(role, kind))
            ? slug(label) : ''; // clicks: popup and menu items keep their names
          if (!s && k.column === undefined) k.column = columnOf(el, c);
          const column = s ? '' : k.column; // fit: a cell's control is named by its column ("Th")
          let name = s || slug(column);
          if (!name && label && counts.get(label) === 1) name = leadOf(role, kind, label);
          if (!name) {
            if (k.generic === undefined) k.generic = genericName(el, role, kind, label);
            name = k.generic;
          }
          if (!name) continue;
          const n = (taken.get(name) || 0) + 1;
          taken.set(name, n);
          if (n > 1) name = `${name}_${n}`;
          const gkey = name + '\u0000' + pathKey;
          let g = groups.get(gkey);
          if (!g) {
            g = {
              name, kind, effect: effectOf(el, role, kind, label),
              description: column && slug(column) === name ? `${column} cell of the row` : rowDescription(el, role, kind, name, opts),
              region: region ? region.id : null, region_path: path, confirm: null, handoff: null,
              submit: kind === 'type' && el.tagName !== 'TEXTAREA', input: inputSpec(el, kind, opts),
              rows: 0, available: 0, offscreen: 0, visible: 0, sample: [], available_ids: [], reasons: {},
              order: 0, source: 'inferred', first: el,
            };
            if (g.input) { delete g.input.value; delete g.input.checked; }
            groups.set(gkey, g);
            groupList.push(g);
          }
          if (first) first.push([g, k.blocked]);
          if (!rec.active) continue;
          // Only rows the agent can name now are registered; find() re-infers for any other.
          if (rec.visible || rec.full) ctx.registry.set(keyOf(name, rec.id, path, 0), new WeakRef(el));
          const exact = rec.visible || rec.full;
          let reason = null;
          if (k.blocked) reason = 'disabled';
          else if (exact) reason = ctx.reasonOf(el, el.checkVisibility(VIS), kind);
          countIn(g, rec, reason, region, opts);
          if (rec.full) rec.full.actions[name] = reason ? { available: false, reason } : { available: true };
        }
        if (first) pattern = first;
      }
      if (unreadActive) {
        for (const [g, blocked] of pattern) {
          g.rows += unreadActive;
          g.offscreen += unreadActive;
          if (blocked) g.reasons.disabled = (g.reasons.disabled || 0) + unreadActive;
          else g.available += unreadActive;
        }
        if (region && region.out) region.out.actions_total += unreadActive * pattern.length;
      }
    }
    for (const g of groupList) {
      if (g.available_ids && (g.available > opts.enum_limit || g.available_ids.length > opts.enum_limit)) g.available_ids = null;
    }
    return groupList;
  }

  Object.assign(C, { foldRowActions });
})();
