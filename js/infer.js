// cdpagent inference: the observation of a page that declares nothing (SPEC OB-12).
//
// Installed with Page.addScriptToEvaluateOnNewDocument into the isolated world
// "cdpagent-observe", after js/prelude.js (whose strings, masking, naming and
// geometry it uses, so a page is cut and masked as its declared twin would be)
// and collect.js. It defines globalThis.__cdpagentInfer:
//
//   plan(mode) -> "off" | "undeclared" | "all"
//       what to infer: mode null means "all" when the page declares nothing
//       (no data-agent-* region, action, record or state), else "off".
//   infer(optionsJson, mode, fresh, have) -> string   one JSON snapshot
//       (cdpagent.snapshot.model.Snapshot) built from semantic HTML and ARIA;
//       every region, action, row-action group and record has source "inferred".
//       have (a number) is the token of the snapshot the caller holds (0: none): the
//       answer then carries a token of its own, and when its record ids are that
//       snapshot's it leaves them out ("ids_from": have).
//       mode "undeclared" skips what the page declares and the feedback that
//       collect.js already reports; "all" reads the whole page. Later passes answer
//       from the model kept between them (see "the inferred index"); fresh === true
//       drops it and infers from scratch.
//   find(locator) -> Element | null   the element of an inferred ActionLocator
//       (for an in-place edit, the text field it revealed once there is one).
//   reveals(el) -> boolean   el is an in-place edit label: typing into it means
//       double-clicking it first, which reveals the row's text field.
//   choices(el) -> Element[]   the radios of the group whose choose action el is,
//       in the order of the action's options.
//   text(optionsJson) -> string   the page text alone (JSON PageText), for a
//       declared page that opts in (ObserveOptions.page_text).
//   phases() -> string   JSON {phase: ms} of the last infer() pass (bench/observe_inferred.py).
//   model() -> string   JSON {model, rows, clickables, unread} of the last pass: "built"
//       (from scratch), "kept" (nothing changed) or "patched" (rows re-read alone), see
//       "the inferred index"; clickables: the clickables pass ran again; unread: the record
//       rows whose row actions were counted from a sample (js/infer/rowactions.js).
//
// infer() runs in phases, one function each, each in its file of js/infer/ (installed
// before this one, in the order of cdpagent.cdp.pagescripts.WORLD_SCRIPTS; they share the
// namespace P.space('__cdpagentInfer')): what a control is, its role, kind and effect
// (controls.js), naming (naming.js), input specs and values (inputs.js), regions
// (regions.js), the page context (context.js), records (records.js, with cards.js),
// row actions (rowactions.js), page actions (pageactions.js), state and feedback
// (state.js), page text (pagetext.js) and what is kept between passes (kept.js, "the
// inferred index"); every bound comes from optionsJson (ObserveOptions.collector_args()).
//
// Theory of operation:
//   regions   landmarks (main, nav, header, footer, aside, form, search, named
//             section/article, dialogs, named tab panels), labelled by their
//             accessible name or first heading;
//   actions   every interactive element: buttons and links (links navigate;
//             same-page anchors, tabs, disclosures and search fields read), text
//             fields, date and time fields, editors (type; a lone field submits
//             with Enter), selects (select), checkboxes and switches (check), a
//             radio group (one choose action, its options named by their labels),
//             ranges and sliders (set), visible options and menu items; named as
//             a person reads the page (see NAMING), a weak name marked with its
//             name_source; one element is one action (a control inside another
//             of the same name, like a tab's link, is the outer one);
//             a row's in-place edit (type: a double-click on the row's text opens
//             its editor, see IN_PLACE);
//   records   table and grid rows (fields named by column headers), items of
//             lists whose items hold controls, and cards (repeated siblings of
//             one shape with a title and an action, see cardContainers); ids
//             from the row's id, data-id, data-key or first link (its words when
//             they are a table row's key cell or begin a list item or card), else a
//             hash of its text (never a position);
//             their controls fold into row actions per (name, region);
//   state     aria-current, aria-selected tabs, aria-pressed, aria-checked,
//             aria-sort, aria-expanded, <output>, counts next to record lists;
//   feedback  role=alert/status/log, aria-live, aria-invalid controls, and the
//             browser's own constraint validation of fields the user touched;
//   text      the visible text in reading order, block by block (headings,
//             paragraphs, list items, captions, plain values, text around
//             controls), viewport first, without what records, fields and labels
//             already show, within opts.text_chars, the rest counted.
//
// Nothing is written to the page's DOM (pages can see attributes): every
// inferred action's element is kept in a registry of WeakRefs keyed by its
// locator, rebuilt by each pass; find() falls back to a fresh pass when the
// element is gone. Sensitive values (passwords, hidden inputs, one-time codes,
// card fields) are replaced by "[masked]" before they leave.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { VIS, squash, clip, now } = P;
  const {
    clock, TEXT_FIELD, controlsByRow, useLabels, keyOf, pageContext, inferRegions, findContainers, indexRecords,
    foldRowActions, inferPageActions, orderActions, readPageText, shownParts, textSkips, inferState, inferFeedback,
    dropKept, declaresMaybe, keptModel, keep, heldModel, modelJson, noteUnread, controlsInRow, inPlaceIn,
  } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;
  const DECLARING = ['data-agent-region', 'data-agent-action', 'data-agent-record', 'data-agent-state'];

  // The registry of inferred elements: locator key -> WeakRef<Element>.
  let registry = new Map();
  // In-place edit labels of the rows the agent can name -> their row (see IN_PLACE).
  let revealers = new WeakMap();
  // The first radio of each offered group -> the group's radios, in option order.
  let groups = new WeakMap();
  let lastOptions = null;
  let lastMode = 'all';
  // The record ids of the last snapshot sent to a caller that holds snapshots, and its token.
  let sent = { token: 0, ids: [] };

  // The answer of plan(null), kept while no element and no data-agent-* attribute came or
  // went (see declaresMaybe, js/infer/kept.js): a page that declares nothing is not
  // scanned for declarations on every observation (nor twice on its first: the listener
  // probe asks too).
  let planned = null;
  const PLAN_WATCH = { subtree: true, childList: true, attributes: true,
    attributeFilter: DECLARING };
  const planObserver = new MutationObserver((records) => {
    if (planned && records.some(declaresMaybe)) forgetPlan();
  });
  function forgetPlan() {
    planned = null;
    planObserver.disconnect();
  }
  function plan(mode) {
    if (mode === 'off' || mode === 'undeclared' || mode === 'all') return mode;
    if (planned && !planObserver.takeRecords().some(declaresMaybe)) return planned;
    forgetPlan();
    // One attribute at a time: Chromium skips the subtrees whose attribute filter rules a
    // lone attribute selector out (a page that declares nothing answers at once), where a
    // selector list matches every element against each (100,000 rows: 0-18 ms, not 71).
    planned = DECLARING.some((a) => document.querySelector(`[${a}]`)) ? 'off' : 'all';
    planObserver.observe(document, PLAN_WATCH);
    return planned;
  }

  function infer(optionsJson, mode, fresh, have) {
    const opts = JSON.parse(optionsJson);
    lastOptions = optionsJson;
    lastMode = mode;
    const t0 = now();
    if (fresh === true) dropKept();
    const change = keptModel(opts, mode); // see "the inferred index"
    return P.pass(() => inferPass(opts, mode, change, t0, have), change.K ? change.K.facts : null);
  }

  function inferPass(opts, mode, change, t0, have) {
    clock.start(t0);
    const { mark } = clock;
    const { K, click } = change;
    mark('index');
    const { orphans } = useLabels(K);
    const ctx = pageContext(opts, mode, K ? K.scan : null);
    // clicks: before the containers, which add the repeated clickable blocks this pass finds.
    mark('context');
    const clickables = K ? K.clickables : click || (CLICK ? CLICK.pass(opts) : []);
    mark('clickables');
    if (K) ctx.landmarks = K.landmarks;
    const regions = inferRegions(ctx);
    mark('regions');
    const containers = K ? K.containers : findContainers(ctx);
    mark('containers');
    const entries = K ? K.entries : new Map();
    const recs = indexRecords(ctx, containers, entries);
    mark('records');
    let pageControls;
    let pageOrdered;
    let ownOf;
    let inPlaceOf;
    if (K) {
      // Only rows whose entry a change dropped are read, each alone (see rowOfChange, js/infer/kept.js).
      pageControls = K.pageControls;
      pageOrdered = K.pageOrdered;
      ownOf = (row) => controlsInRow(row, clickables);
      inPlaceOf = inPlaceIn;
    } else {
      const byRow = controlsByRow(ctx, containers, clickables);
      const rowControls = byRow.rowControls;
      pageControls = byRow.pageControls;
      pageOrdered = byRow.pageOrdered;
      const inPlace = new Map();
      for (const l of orphans) {
        const row = ctx.rowAbove(l);
        if (row && !inPlace.has(row) && squash(l.textContent)) inPlace.set(row, l);
      }
      ownOf = (row) => rowControls.get(row) || [];
      inPlaceOf = (row) => inPlace.get(row) || null;
    }
    mark('controls');
    const groupList = foldRowActions(ctx, containers, entries, ownOf, inPlaceOf);
    noteUnread(ctx.unread);
    mark('row actions');
    if (!K) {
      keep(ctx, opts, mode, { containers, entries, clickables, pageControls, pageOrdered, landmarks: ctx.landmarks });
      mark('keep');
    }
    const page = inferPageActions(ctx, pageControls, pageOrdered);
    if (CLICK) for (const [el, a] of CLICK.extra(ctx.regionOf, ctx.vw, ctx.vh)) { page.total++; page.els.push(el); page.actions.push(a); } // clicks: scroll a text area
    orderActions(page.actions, page.els, groupList);
    mark('page actions');
    registry = ctx.registry;
    revealers = ctx.revealers;
    groups = ctx.groups;
    const state = inferState(containers, opts, ctx.scan);
    mark('state');
    const feedback = inferFeedback(opts, ctx.skipDeclared, ctx.regionOf, ctx.scan);
    mark('feedback');
    // inferindex: the kept containers' shown parts are kept with them.
    const held = heldModel();
    const shown = held && held.containers === containers ? held.shown || (held.shown = shownParts(containers)) : shownParts(containers);
    const text = opts.page_text === false ? null : readPageText(ctx, textSkips(ctx, shown));
    mark('page text');
    // A caller that holds snapshots (have: the token of the last it holds, or 0) is sent the
    // record ids only when they differ from that snapshot's ("ids_from": have).
    let index = recs.index;
    let tokens = null;
    if (typeof have === 'number') {
      const same = have !== 0 && have === sent.token && P.sameList(index.ids, sent.ids);
      sent = { token: sent.token + 1, ids: index.ids };
      tokens = { token: sent.token, ids_from: same ? have : 0 };
      if (same) index = { ...index, ids: [] };
    }
    return JSON.stringify({
      identity: { title: clip(document.title, opts.note_chars), path: clip(location.pathname, opts.note_chars), route: null, route_params: {}, query: {} },
      regions: regions.regions, regions_total: regions.total,
      actions: page.actions, actions_total: page.total, actions_visible_unnamed: page.pastVisible, controls_unoffered: page.unoffered, row_actions: groupList.filter((g) => g.rows > 0),
      records: recs.records, record_index: index,
      state: state.items.slice(0, opts.max_state), state_total: state.items.length,
      feedback: feedback.items, feedback_total: feedback.total,
      page_text: text,
      modal: ctx.modalLabel, warnings: CLICK ? CLICK.warnings() : [], collect_ms: now() - t0, // clicks: what the clickables pass left out
      ...tokens,
    });
  }

  // The page text of a declared page (ObserveOptions.page_text): declared records are
  // the rows left out.
  function text(optionsJson) {
    const opts = JSON.parse(optionsJson);
    return P.pass(() => {
      useLabels(null);
      const ctx = { opts, vw: window.innerWidth, vh: window.innerHeight, named: [], anyAriaHidden: !!document.querySelector('[aria-hidden="true"]') };
      return JSON.stringify(readPageText(ctx, textSkips(ctx, document.querySelectorAll('[data-agent-record]'))));
    });
  }

  // The text field an in-place edit label revealed in its row: the focused one, else
  // the first shown; null while none is shown.
  function revealedField(label) {
    const row = revealers.get(label);
    if (!row) return null;
    const active = document.activeElement;
    if (active && row.contains(active) && active.matches(TEXT_FIELD)) return active;
    for (const f of row.querySelectorAll(TEXT_FIELD)) if (f.checkVisibility(VIS)) return f;
    return null;
  }

  function find(locator) {
    const mine = CLICK && CLICK.find(locator); // clicks: second actions (js/clickables.js extra)
    if (mine) return mine;
    const key = keyOf(String(locator.name), locator.record, locator.region_path || [], locator.ordinal);
    const look = () => {
      const ref = registry.get(key);
      const el = ref && ref.deref();
      return el && el.isConnected ? el : null;
    };
    let el = look();
    if (!el && lastOptions) {
      const opts = JSON.parse(lastOptions);
      if (locator.record != null) opts.include = [String(locator.record)];
      infer(JSON.stringify(opts), lastMode);
      el = look();
    }
    return el && revealers.has(el) ? revealedField(el) || el : el;
  }

  // Whether el is an in-place edit label: typing into it means double-clicking it first.
  const reveals = (el) => revealers.has(el);
  // The radios of the group whose choose action el is (in option order), or [].
  const choices = (el) => (groups.get(el) || []).slice();

  Object.defineProperty(globalThis, '__cdpagentInfer', {
    value: Object.freeze({ plan, infer, find, reveals, choices, text, phases: clock.json, model: modelJson }),
    writable: false, configurable: false, enumerable: false,
  });
})();
