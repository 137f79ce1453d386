// cdpagent collector, records (SPEC OB-1, OB-5): which records are active (the index's
// style tier), which are in the viewport (the view), and the fields of those collected
// in full.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { MASK, clip } = P;
  const { clock, recordById, RECORD, ROW_VIS, rowHasBox, fieldValue, up, queryAll, hidingSelector } = C;

  // The records the last view marked in view or in full (the next view clears them).
  let viewed = [];

  // Which records may be hidden (see hidingSelector, sheets.js): a test of a record, or null (ask
  // every row). A record's own match is one query; what is around it is asked once
  // per parent, up its ancestors (rows share their parents), never per row.
  function mayBeHidden(B) {
    if (B.reference) return null;
    const sel = hidingSelector(B);
    if (!sel) return null;
    let own;
    try {
      own = new Set(document.querySelectorAll(`${RECORD}${sel}`));
    } catch (_) {
      return null; // a selector this engine reads in a sheet but not in a query
    }
    clock.mark('style: own');
    const around = P.ancestorWalk((el) => (el.matches(sel) ? true : undefined), false);
    // A custom element may hold a closed shadow root whose ::slotted() rules hide some
    // of its children: rows right under one are always asked.
    const parents = new Set();
    let last;
    for (const rec of B.recs) {
      if (rec.parent === last) continue;
      last = rec.parent;
      if (last && (last.localName.includes('-') || around(last))) parents.add(last);
    }
    return (rec) => own.has(rec.el) || parents.has(rec.parent);
  }

  // Whether each record is rendered, by index in B.recs: asked of the rows that may
  // be hidden only, and of one row per parent as a proof that the bulk answer holds
  // (a shadow root that does not slot its light children hides them without any
  // declaration). null (a proof failed, or no bulk answer): ask every row.
  function rowsShown(B) {
    const maybe = mayBeHidden(B);
    if (!maybe) return null;
    const shown = new Array(B.recs.length);
    let proven;
    for (let i = 0; i < B.recs.length; i++) {
      const rec = B.recs[i];
      if (maybe(rec)) {
        shown[i] = rec.el.checkVisibility(ROW_VIS);
      } else if (rec.parent !== proven) {
        proven = rec.parent;
        if (!rec.el.checkVisibility(ROW_VIS)) return null;
        shown[i] = true;
      } else {
        shown[i] = true;
      }
    }
    return shown;
  }

  // The style tier: which records are active and behind the dialog, the ids of the
  // active ones, hidden and inactive counts, active records per region and the folded
  // row action totals.
  function styleTier(ctx, B, R) {
    const S = {
      modal: ctx.modal, active: [], ids: [], hidden: 0, inactive: 0, perRegion: new Map(), fold: null,
    };
    const shown = rowsShown(B);
    clock.mark('style: shown');
    // Records come in runs of one region: its state and count are looked up per run.
    let runRegion;
    let inRegion = true;
    let run = 0;
    const endRun = () => {
      if (runRegion && run) S.perRegion.set(runRegion, (S.perRegion.get(runRegion) || 0) + run);
      run = 0;
    };
    for (let i = 0; i < B.recs.length; i++) {
      const rec = B.recs[i];
      if (rec.regionEl !== runRegion || i === 0) {
        endRun();
        runRegion = rec.regionEl;
        const region = R.at(runRegion);
        inRegion = !region || region.state === 'active' || region.state === 'covered';
      }
      rec.active = inRegion && !rec.inert && (shown ? shown[i] : rec.el.checkVisibility(ROW_VIS));
      rec.covered = rec.active && !!ctx.modal && ctx.covered(rec.el);
      if (!rec.active) {
        if (inRegion) S.hidden++;
        else S.inactive++;
        continue;
      }
      S.active.push(rec);
      S.ids.push(rec.id);
      run++;
    }
    endRun();
    return S;
  }

  // Per collect: viewport membership, rows without a box (zero area, content skipped:
  // hidden; all rows of a short list are checked, of a long one those in view), the
  // record index and the region counts. Returns the view's facts.
  function recordView(ctx, B, S, R) {
    for (const rec of viewed) {
      rec.visible = false;
      rec.full = null;
    }
    const shown = P.markViewport(S.active, ctx.vw, ctx.vh, (r) => r.el);
    viewed = shown.slice();
    const all = S.active.length <= ctx.opts.row_box_checks;
    const demoted = new Set();
    for (const rec of all ? S.active : shown) {
      if (!rowHasBox(rec.el)) {
        demoted.add(rec);
        rec.visible = false;
      }
    }
    const V = {
      shown: demoted.size ? shown.filter((rec) => !demoted.has(rec)) : shown, demoted,
      ids: demoted.size ? S.active.filter((rec) => !demoted.has(rec)).map((rec) => rec.id) : S.ids,
    };
    const count = (regionEl, key, n) => {
      const f = R.at(regionEl);
      if (f && f.out) f.out[key] += n;
    };
    for (const [regionEl, n] of S.perRegion) count(regionEl, 'records_total', n);
    for (const rec of demoted) count(rec.regionEl, 'records_total', -1);
    for (const rec of V.shown) count(rec.regionEl, 'records_visible', 1);
    if (B.refused) {
      ctx.warnings.push(`${B.refused} records were left out: their ids hold control characters, line breaks or ` +
        'fence text, so they cannot be cited or acted on');
    }
    if (B.duplicates.size) {
      const some = Array.from(B.duplicates).slice(0, 10).join(', ');
      ctx.warnings.push(
        `duplicate record ids (only the first element of each is used): ${some}${B.duplicates.size > 10 ? ', …' : ''}`);
    }
    return V;
  }

  // The records collected in full: requested ids, then those in the viewport
  // (the seed: offscreen rows are ids only). Marks each chosen rec.full = true.
  function chooseFullRecords(ctx, B, V) {
    const chosen = [];
    for (const id of ctx.opts.include) {
      const rec = recordById(B, id);
      if (rec && !rec.full) {
        rec.full = true;
        chosen.push(rec);
        viewed.push(rec);
      }
    }
    let picked = 0;
    for (const rec of V.shown) {
      if (picked >= ctx.opts.full_records) break;
      if (!rec.full) {
        rec.full = true;
        picked++;
        chosen.push(rec);
      }
    }
    return chosen;
  }

  // Fields and label of each chosen record; rec.full becomes its snapshot entry.
  function recordDetails(ctx, R, chosen) {
    const opts = ctx.opts;
    const records = [];
    for (const rec of chosen) {
      const el = rec.el;
      const fields = {};
      let firstText = '';
      for (const f of queryAll(el, '[data-agent-field]')) {
        if (up(f, RECORD) !== el) continue;
        const name = clip(f.getAttribute('data-agent-field'), opts.name_chars);
        if (name in fields) continue;
        const v = fieldValue(f, opts);
        fields[name] = v;
        if (!firstText && typeof v === 'string' && v && v !== MASK) firstText = v;
      }
      const label = el.getAttribute('data-agent-label') || el.getAttribute('aria-label') || firstText;
      const region = R.at(rec.regionEl);
      rec.full = {
        id: rec.id, label: clip(label, opts.label_chars), region: region ? region.id : null,
        in_viewport: rec.visible, fields, actions: {},
      };
      records.push(rec.full);
    }
    return records;
  }

  Object.assign(C, { styleTier, recordView, chooseFullRecords, recordDetails });
})();
