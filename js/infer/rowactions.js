// cdpagent inference, row actions (OB-12): a record row's controls, folded per (name,
// region) across the rows.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { VIS, docOrder } = P;
  const {
    POPUP_ITEM, IN_PLACE, roleOf, controlKind, effectOf, slug, columnOf, controlName, genericName, rowDescription,
    inputSpec, keyOf,
  } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // The row's controls as the fold reads them (own: the row's controls; inPlace: its
  // in-place edit label or null): role, kind, name and what the name falls back to.
  function rowControlsOf(ctx, e, c, own, inPlace) {
    const { opts } = ctx;
    const controls = [];
    let typed = false;
    // column and generic (what the name falls back to) are read when first needed.
    const add = (el, role, kind, label) => controls.push({
      el, role, kind, label, own: !!(CLICK && CLICK.ownName(el)), column: undefined, generic: undefined,
      blocked: el.disabled === true || el.getAttribute('aria-disabled') === 'true',
    });
    if (own.length > 1) own.sort(docOrder);
    for (const el of own) {
      if (ctx.hidden(el)) continue;
      const role = roleOf(el);
      if (POPUP_ITEM.test(role)) continue;
      const kind = controlKind(el, role);
      if (kind === 'type') typed = true;
      add(el, role, kind, controlName(el, role, kind, opts.action_name_chars, ctx.named, true)[0]);
    }
    const label = typed ? null : inPlace;
    if (label) add(label, IN_PLACE, 'type', '');
    e.controls = controls;
    e.inPlace = label;
  }

  // At most this many rows of a container may have controls named by their own label
  // (see particular in foldRowActions): each such label is a group of its own.
  const PARTICULAR_ROWS = 3;
  // The first word of a label, when it is a word (letters, two or more).
  const LEAD = /^(\p{L}{2,})(?=\s|$)/u;

  // ownOf(row): the row's controls; inPlaceOf(row): its in-place edit label or null (see
  // IN_PLACE). Both are asked only of rows whose entry holds no controls yet.
  function foldRowActions(ctx, containers, entries, ownOf, inPlaceOf) {
    const { opts } = ctx;
    const groups = new Map();
    const groupList = [];
    const taken = new Map();
    for (const c of containers) {
      const named = [];
      // How many rows have each control name: kept with a kept model's container and
      // patched (keptModel takes a dropped entry's names out, a new entry adds its own).
      const counted = !!c.counts;
      const counts = c.counts || (c.counts = new Map());
      for (const row of c.rows) {
        const rec = ctx.recordOf.get(row);
        if (!rec || rec.container !== c) continue;
        const e = entries.get(row);
        const read = !e.controls;
        if (read) rowControlsOf(ctx, e, c, ownOf(row), inPlaceOf(row));
        const controls = e.controls;
        if (e.inPlace && (rec.visible || rec.full)) ctx.revealers.set(e.inPlace, row);
        if (read || !counted) for (const k of controls) if (k.label) counts.set(k.label, (counts.get(k.label) || 0) + 1);
        named.push([rec, controls]);
      }
      const rowsOf = named.length;
      // A label found on one row only names the row ("Delete Ada", a title, a day) when
      // many rows have such a control of its role and kind; on a few rows it names an
      // action of those rows ("Execute" in the one expanded operation), and is its name,
      // not a position among the row's controls (press_2) that a new control would shift.
      // When most rows with such a label of a role and kind start it with the same word
      // ("Delete Ada", "Delete Alan"), that word names the action (lead: rows per word).
      const particular = new Map();
      const lead = new Map();
      for (const [, controls] of named) {
        const seen = new Set();
        for (const k of controls) {
          if (!k.label || counts.get(k.label) !== 1) continue;
          const key = k.role + '\u0000' + k.kind;
          seen.add(key);
          const word = LEAD.exec(k.label);
          if (word) seen.add(key + '\u0000' + word[1].toLowerCase());
        }
        for (const key of seen) {
          const map = key.split('\u0000').length > 2 ? lead : particular;
          map.set(key, (map.get(key) || 0) + 1);
        }
      }
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
      for (const [rec, controls] of named) {
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
          if (!rec.active) continue;
          // Only rows the agent can name now are registered; find() re-infers for any other.
          if (rec.visible || rec.full) ctx.registry.set(keyOf(name, rec.id, path, 0), new WeakRef(el));
          g.rows++;
          if (rec.visible) g.visible++;
          else g.offscreen++;
          if (region && region.out) {
            region.out.actions_total++;
            if (rec.visible) region.out.actions_visible++;
          }
          const exact = rec.visible || rec.full;
          let reason = null;
          if (k.blocked) reason = 'disabled';
          else if (exact) reason = ctx.reasonOf(el, el.checkVisibility(VIS), kind);
          if (reason) {
            g.reasons[reason] = (g.reasons[reason] || 0) + 1;
          } else {
            g.available++;
            if (g.sample.length < opts.sample) g.sample.push(rec.id); // document order: viewport rows first on a list read top down
            if (g.available_ids && g.available_ids.length <= opts.enum_limit) g.available_ids.push(rec.id);
          }
          if (rec.full) rec.full.actions[name] = reason ? { available: false, reason } : { available: true };
        }
      }
    }
    for (const g of groupList) {
      if (g.available_ids && (g.available > opts.enum_limit || g.available_ids.length > opts.enum_limit)) g.available_ids = null;
    }
    return groupList;
  }

  Object.assign(C, { foldRowActions });
})();
