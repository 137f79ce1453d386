// cdpagent observation collector (SPEC OB-1, OB-2, OB-5, OB-6).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the isolated world
// "cdpagent-observe", so page scripts can neither see nor patch it. It defines
// globalThis.__cdpagentObserve with:
//
//   collect(optionsJson, fresh, have) -> string   one JSON snapshot (cdpagent.snapshot.model.Snapshot;
//       fresh: drop the index first; have: the token of the snapshot the caller holds)
//   settle(quietMs, timeoutMs, fresh, shadowScan) -> Promise<{settled, waited_ms, reason}>
//       (shadowScan: the element budget of the search for open shadow roots)
//   find(locator) -> Element | null  the element of an ActionLocator, for acting
//   phases() -> string   JSON {phase: ms} of the last collect (bench/observe.py)
//
// collect() takes every bound from optionsJson (ObserveOptions.collector_args()
// in Python owns them all); it runs in phases, one function each, each in its file
// of js/collect/ (installed before this one, in the order of
// cdpagent.cdp.pagescripts.WORLD_SCRIPTS; they share the namespace
// P.space('__cdpagentObserve')): the selectors and one element's declaration
// (declarations.js), queries into open shadow roots (shadow.js), the page context
// (context.js: viewport, open modal, inert), regions (regions.js), what is kept
// between observations (kept.js, with sheets.js: what style can hide), records
// (records.js: active, in the viewport, in full), row actions folded per name and
// region (rowactions.js), page actions (pageactions.js), state (state.js),
// feedback (feedback.js) and identity (identity.js); frames.js answers for a
// frame's owner, settle.js waits for quiet. Masking is one rule (isSensitive)
// applied by every phase that reads a value.
//
// The snapshot carries business facts only: never markup, selectors, styles or
// coordinates; sensitive values are replaced by "[masked]" before they leave.
// Cost follows what changed: the index (js/collect/kept.js) keeps what the DOM
// and style decide between calls; fields and per-row action state are read only
// for the records that will be shown in full.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { now, openShadowRoots, isSensitive, closestAcross, containsAcross } = P;
  const {
    clock, RECORD, SEP, rowShown, inputSpec, fieldValue, useShadowRoots, queryAll, up, regionIds, pageContext,
    collectRegions, currentBase, finishInIdle, heldShadowRoots, heldRecord, styleFor, keepStyle, styleTier,
    recordView, chooseFullRecords, recordDetails, foldTotals, foldRowActions, collectPageActions, orderActions,
    collectState, collectFeedback, collectIdentity, frameOwner, settle,
  } = C;

  // The last snapshot text sent (without its timing) and its token.
  let sent = { token: 0, rest: '', ids: [] };
  const INDEX_START = '{"record_index":{';


  // The snapshot JSON; fresh drops the index first (js/collect/kept.js). A caller
  // that holds the snapshot of token `have` gets {"same": have, "collect_ms"} when
  // the text would be the same (a still page costs no transfer), and a snapshot with
  // "ids_from": have and no record ids when only the ids are the same (the caller
  // takes them from its own); every text carries a new token.
  function collect(optionsJson, fresh, have) {
    const t0 = now();
    clock.start(t0);
    const { mark } = clock;
    const opts = JSON.parse(optionsJson);
    const B = currentBase(opts, fresh === true);
    mark('base');
    const ctx = pageContext(opts, B);
    const R = collectRegions(ctx, B);
    mark('context');
    const S = styleFor(ctx.modal) || keepStyle(styleTier(ctx, B, R));
    mark('style');
    if (!S.fold) S.fold = foldTotals(B, S, opts);
    mark('fold');
    const V = recordView(ctx, B, S, R);
    mark('view');
    const chosen = chooseFullRecords(ctx, B, V);
    const records = recordDetails(ctx, R, chosen);
    const groupList = foldRowActions(ctx, B, S, V, R, chosen);
    mark('records');
    const [pageActions, pageEls] = collectPageActions(ctx, R, B.pageEls);
    orderActions(pageActions, pageEls, groupList);
    const state = collectState(ctx, R);
    const [feedback, feedbackTotal] = collectFeedback(ctx, R);
    const identity = collectIdentity(ctx.opts);
    mark('page');
    // The record index goes first, its ids apart: they are most of a large page's text.
    const rest = JSON.stringify({
      record_index: {
        viewport: V.shown.map((rec) => rec.id), inactive: S.inactive, hidden: S.hidden + V.demoted.size,
        duplicates: Array.from(B.duplicates),
      },
      identity, regions: R.list, regions_total: R.els.length,
      actions: pageActions, actions_total: B.pageEls.length, row_actions: groupList,
      records,
      state, state_total: ctx.few.state.length, feedback, feedback_total: feedbackTotal,
      modal: ctx.modalLabel, warnings: ctx.warnings, unseen: {
        shadow_searched: !!ctx.shadowRoots, components: ctx.stats.components,
      },
    });
    mark('json');
    finishInIdle(B);
    const idsHeld = have === sent.token && P.sameList(V.ids, sent.ids);
    if (idsHeld && rest === sent.rest) return `{"same":${have},"collect_ms":${now() - t0}}`;
    sent = { token: sent.token + 1, rest, ids: V.ids };
    const ids = idsHeld ? '[]' : JSON.stringify(V.ids);
    return `${INDEX_START}"ids":${ids},${rest.slice(INDEX_START.length, -1)},"ids_from":${idsHeld ? have : 0},` +
      `"token":${sent.token},"collect_ms":${now() - t0}}`;
  }
  // OB-7 helper for acting: the element an ActionLocator names, or null. Elements
  // are visited in the collector's order, so an ordinal means the same element.
  // Acting collects a snapshot just before it finds its element, so the index's
  // shadow roots are current (a second walk of a large page is spared).
  function find(locator) {
    const known = heldShadowRoots();
    useShadowRoots(!known || known.some((r) => !r.host.isConnected) ? openShadowRoots(Infinity) : known);
    const name = String(locator.name);
    const path = (locator.region_path || []).join(SEP);
    const sel = `[data-agent-action="${CSS.escape(name)}"]`;
    const pathOf = (el) => regionIds(el).join(SEP);
    if (locator.record != null) {
      const id = String(locator.record);
      // The index knows the record's element while nothing changed since it was read.
      const held = heldRecord(id);
      const candidates = held ? [held.el] : queryAll(document, `[data-agent-record="${CSS.escape(id)}"]`);
      for (const rec of candidates) {
        for (const el of queryAll(rec, sel)) if (up(el, RECORD) === rec) return el;
        return null; // only the first element of a duplicate id is addressable
      }
      return null;
    }
    let n = 0;
    for (const el of queryAll(document, sel)) {
      if (up(el, RECORD) || pathOf(el) !== path) continue;
      if (n++ === (locator.ordinal || 0)) return el;
    }
    return null;
  }

  Object.defineProperty(globalThis, '__cdpagentObserve', {
    value: Object.freeze({
      collect, settle, find, phases: clock.json, frameOwner, isSensitive, rowShown, inputSpec, fieldValue, closestAcross,
      containsAcross,
    }),
    writable: false, configurable: false, enumerable: false,
  });
})();
