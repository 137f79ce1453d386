// cdpagent collector, row actions folded per (name, region) (SPEC OB-1, OB-3): the
// totals the index's style tier keeps, and this view's counts, reasons and samples.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { VIS, cutLong } = P;
  const {
    ACTION, RECORD, composedCompare, actionDeclaration, BLOCKED, actsOf, rowActionName, blockedReason,
  } = C;

  // The folded row action totals of the style tier (counted natively when records
  // are flat and in one region, else from each record's row actions).
  function foldTotals(B, S, opts) {
    return (B.flat && tallyNative(B, S, opts)) || tally(B, S.active, opts);
  }

  // tally() for flat records in one region, without reading every row: each name's
  // rows are counted by a query, less those of records that do not count (inactive,
  // refused, duplicate ids); declared-unavailable and inert row actions are the only
  // ones visited. Names come from the first records, then from queries for names not
  // seen yet. Returns null (use tally) past max_row_names names.
  function tallyNative(B, S, opts) {
    const regionEl = B.recs.length ? B.recs[0].regionEl : null;
    const raws = [];
    const known = new Set();
    let nots = '';
    const learn = (raw) => {
      if (known.has(raw)) return;
      known.add(raw);
      raws.push(raw);
      nots += `:not([data-agent-action="${CSS.escape(raw)}"])`;
    };
    for (let i = 0; i < S.active.length && i < opts.name_scan; i++) {
      for (const a of actsOf(B, S.active[i], opts)) learn(a.raw);
    }
    for (;;) {
      if (raws.length > opts.max_row_names) return null;
      const el = document.querySelector(`${RECORD} ${ACTION}${nots}`);
      if (!el) break;
      learn(el.getAttribute('data-agent-action'));
    }
    const sel = (raw) => `${RECORD} [data-agent-action="${CSS.escape(raw)}"]`;
    const groups = new Map();
    const byName = new Map();
    groups.set(regionEl, byName);
    const groupOf = (raw) => {
      const name = rowActionName(raw, opts);
      let g = byName.get(name);
      if (!g) {
        g = { name, regionEl, first: null, rows: 0, available: 0, reasons: {} };
        byName.set(name, g);
      }
      return g;
    };
    for (const raw of raws) {
      const g = groupOf(raw);
      const n = document.querySelectorAll(sel(raw)).length;
      g.rows += n;
      g.available += n;
    }
    if (byName.size > opts.max_row_names) return null;
    const discount = (raw) => {
      const g = groupOf(raw);
      g.rows--;
      g.available--;
    };
    // Records that do not count: refused or duplicate ids, inactive (few where it
    // matters: a set of them, not an element -> entry map of every record, keeps the
    // first observation of a long page from starting V8's major GC of the whole DOM).
    const uncounted = new Set(B.skipped);
    if (S.active.length < B.recs.length) {
      for (const rec of B.recs) {
        if (rec.active) continue;
        uncounted.add(rec.el);
        for (const a of actsOf(B, rec, opts)) discount(a.raw);
      }
    }
    for (const el of B.skipped) {
      for (const a of el.querySelectorAll(ACTION)) discount(a.getAttribute('data-agent-action'));
    }
    const counted = (el) => !uncounted.has(el.closest(RECORD));
    const unavailable = (el, reason) => {
      const g = groupOf(el.getAttribute('data-agent-action'));
      g.available--;
      g.reasons[reason] = (g.reasons[reason] || 0) + 1;
    };
    const blocked = new Set();
    for (const el of document.querySelectorAll(`${RECORD} ${ACTION}:is(${BLOCKED})`)) {
      if (!counted(el)) continue;
      blocked.add(el);
      unavailable(el, blockedReason(el, opts));
    }
    if (B.hasInert) {
      for (const el of document.querySelectorAll(
        `[inert] ${RECORD} ${ACTION},${RECORD} [inert] ${ACTION},${RECORD} ${ACTION}[inert]`)) {
        if (!blocked.has(el) && counted(el)) unavailable(el, 'inert');
      }
    }
    // Each group's first row action of a counted record, in document order.
    const list = [];
    for (const raw of raws) {
      const g = groupOf(raw);
      if (g.rows <= 0) continue;
      let first = document.querySelector(sel(raw));
      if (first && !counted(first)) {
        first = null;
        for (const rec of S.active) {
          const a = actsOf(B, rec, opts).find((x) => x.raw === raw);
          if (a) {
            first = a.el;
            break;
          }
        }
      }
      if (first && (!g.first || composedCompare(first, g.first) < 0)) g.first = first;
      if (!list.includes(g)) list.push(g);
    }
    for (const [name, g] of byName) if (!list.includes(g)) byName.delete(name);
    return { groups, list };
  }

  // Row actions of the active records per (name, region): rows, available rows,
  // reasons the others are not, and the first element (it describes the group).
  function tally(B, active, opts) {
    const groups = new Map();
    const list = [];
    const names = new Set();
    for (const rec of active) {
      for (const a of actsOf(B, rec, opts)) {
        let byName = groups.get(a.regionEl);
        if (!byName) {
          byName = new Map();
          groups.set(a.regionEl, byName);
        }
        let g = byName.get(a.name);
        if (!g) {
          if (!names.has(a.name)) {
            if (names.size >= opts.max_row_names) continue;
            names.add(a.name);
          }
          g = { name: a.name, regionEl: a.regionEl, first: a.el, rows: 0, available: 0, reasons: {} };
          byName.set(a.name, g);
          list.push(g);
        }
        g.rows++;
        if (a.reason) g.reasons[a.reason] = (g.reasons[a.reason] || 0) + 1;
        else g.available++;
      }
    }
    return { groups, list };
  }

  // The folded row actions of this view: the style tier's totals less the rows
  // without a box, with the rows in view counted, the reasons of rows behind the
  // dialog and of hidden controls of full records, each full record's action
  // states and the sample ids. Groups left without rows are dropped.
  function foldRowActions(ctx, B, S, V, R, chosen) {
    const opts = ctx.opts;
    const views = new Map();
    for (const g of S.fold.list) {
      views.set(g, { g, rows: g.rows, available: g.available, visible: 0, reasons: Object.assign({}, g.reasons) });
    }
    const viewOf = (a) => {
      const byName = S.fold.groups.get(a.regionEl);
      const g = byName && byName.get(a.name);
      return g ? views.get(g) : null;
    };
    for (const rec of V.demoted) {
      for (const a of actsOf(B, rec, opts)) {
        const v = viewOf(a);
        if (!v) continue;
        v.rows--;
        if (!a.reason) v.available--;
        else if (--v.reasons[a.reason] <= 0) delete v.reasons[a.reason];
      }
    }
    const coveredReason = cutLong(P.behindDialog(ctx.modalLabel), opts.label_chars);
    const visit = (rec) => {
      for (const a of actsOf(B, rec, opts)) {
        const v = viewOf(a);
        if (!v) continue;
        if (rec.visible) v.visible++;
        let reason = a.reason;
        if (!reason) {
          if (rec.covered) reason = coveredReason;
          else if (rec.full && !a.el.checkVisibility(VIS)) reason = 'hidden';
          if (reason) {
            v.available--;
            v.reasons[reason] = (v.reasons[reason] || 0) + 1;
          }
        }
        if (rec.full) rec.full.actions[v.g.name] = reason ? { available: false, reason } : { available: true };
      }
    };
    if (ctx.modal) {
      for (const rec of S.active) if (!V.demoted.has(rec) && (rec.visible || rec.covered || rec.full)) visit(rec);
    } else {
      const seen = new Set(V.shown);
      for (const rec of V.shown) visit(rec);
      for (const rec of chosen) if (rec.active && !seen.has(rec) && !V.demoted.has(rec)) visit(rec);
    }
    const list = [];
    for (const v of views.values()) {
      if (v.rows <= 0) continue;
      list.push(finishGroup(ctx, B, V, R, v));
    }
    return list;
  }

  // A folded group's entry: its declaration (from its first row), counts, region
  // counts, and sample ids (available rows in view first, then in document order).
  function finishGroup(ctx, B, V, R, v) {
    const opts = ctx.opts;
    const g = v.g;
    const region = R.at(g.regionEl);
    if (region && region.out) {
      region.out.actions_total += v.rows;
      region.out.actions_visible += v.visible;
    }
    const entry = Object.assign(actionDeclaration(g.first, g.name, P.kindOf(g.first, 'declared', undefined, opts.kinds), opts, false), {
      region: region ? region.id : null, region_path: region ? region.path : [],
      rows: v.rows, available: v.available, offscreen: v.rows - v.visible, visible: v.visible,
      sample: [], available_ids: [], reasons: v.reasons, order: 0, first: g.first,
    });
    const want = Math.max(opts.sample, v.available <= opts.enum_limit ? v.available : 0);
    const ids = entry.available_ids;
    const taken = new Set();
    const offer = (rec) => {
      if (!rec.active || rec.covered || V.demoted.has(rec) || taken.has(rec)) return;
      if (actsOf(B, rec, opts).some((a) => a.name === g.name && a.regionEl === g.regionEl && !a.reason)) {
        ids.push(rec.id);
        taken.add(rec);
      }
    };
    for (const rec of V.shown) {
      if (ids.length >= want) break;
      offer(rec);
    }
    let budget = opts.sample_scan; // rows examined for samples: bounded even when few rows qualify
    for (const rec of B.recs) {
      if (ids.length >= want || --budget < 0) break;
      offer(rec);
    }
    entry.sample = ids.slice(0, opts.sample);
    if (v.available > opts.enum_limit || ids.length > opts.enum_limit) entry.available_ids = null;
    return entry;
  }

  Object.assign(C, { foldTotals, foldRowActions });
})();
