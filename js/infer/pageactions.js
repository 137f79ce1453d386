// cdpagent inference, page actions (OB-12): the controls outside records, one radio
// group as one choose action, named and described; past the budgets, counted.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { MASK, VIS, clip, isSensitive, ariaName, inViewport } = P;
  const {
    CONTROL_TAG, BOXES_MAX, isSliderHandle, inDocumentOrder, orderedUntil, landmarkAbove, POPUP_ITEM, roleOf,
    controlKind, effectOf, TEXT_FIELD, ownName, textOf, slug, BLOCK_STOP, captionAt, GENERATED_ID, WORDY, controlName,
    controlWord, describe, inputSpec, keyOf, uidOf, inOrder,
  } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // A control inside another control of the same name is that control seen twice
  // (a tab's <li role=tab> and its <a>, a menu item and its link): one action, the outer.
  // A component's own control is the twin of its host (the flat tree is walked up).
  function twinOf(el, controlSet) {
    let p = P.composedParent(el);
    for (let depth = 0; p && depth < 4; p = P.composedParent(p), depth++) {
      if (!controlSet.has(p)) continue;
      const a = ownName(p, 200);
      return a !== '' && a === ownName(el, 200);
    }
    return false;
  }

  // The radio group of a radio: its form and name for native radios, its radiogroup
  // (else its parent) for ARIA radios.
  function radioKey(el) {
    if (el.tagName === 'INPUT') return el.name ? `${el.form ? 'f' : 'd'}\u0000${el.name}` : el;
    return el.closest('[role=radiogroup]') || el.parentElement || el;
  }
  // A slotted radio is in the group its slot is in (a component's own radiogroup).
  const up = (radio, selector) => (radio.assignedSlot ? P.closestComposed(radio, selector) : radio.closest(selector));
  const radioContainer = (radio, key) => (typeof key === 'string'
    ? up(radio, 'fieldset,[role=radiogroup]') : up(radio, '[role=radiogroup]') || up(radio, 'fieldset'));

  // The name of a radio group: its radiogroup's or fieldset's name or legend, else the
  // caption before its first radio, else its humanised name; else positional.
  function groupName(first, key, max, used) {
    const box = radioContainer(first, key);
    if (box) {
      const t = ariaName(box, max) || (box.tagName === 'FIELDSET' && box.querySelector('legend') ? textOf(box.querySelector('legend'), max) : '');
      if (t) return [t, null];
    }
    let node = box || first;
    for (let depth = 0; depth < 3 && node; depth++) {
      const t = captionAt(first, node, 'previousSibling', used);
      if (t) return [clip(t, max), 'label'];
      if (t === null) break;
      if (!node.parentElement || BLOCK_STOP.test(node.parentElement.tagName)) break;
      node = node.parentElement;
    }
    const words = first.tagName === 'INPUT' && first.name && !GENERATED_ID.test(first.name) ? P.humanise(first.name) : '';
    if (WORDY.test(words)) return [clip(words, max), 'attribute'];
    return ['', 'position'];
  }

  // One choose action per radio group: options named by the radios' labels.
  function radioChoice(ctx, radios, key) {
    const { opts } = ctx;
    const first = radios[0];
    const [name, source] = groupName(first, key, opts.action_name_chars, ctx.named);
    const options = [];
    let value = '';
    const members = [];
    for (const r of radios) {
      let label = controlName(r, 'radio', 'check', opts.name_chars, ctx.named)[0] || clip(r.getAttribute('value') || '', opts.name_chars);
      if (!label) label = `option ${options.length + 1}`;
      if (options.length >= opts.list_items) break;
      if (r.disabled || r.getAttribute('aria-disabled') === 'true') continue;
      options.push(label);
      members.push(r);
      if (r.checked === true || r.getAttribute('aria-checked') === 'true') value = label;
    }
    const spec = { input_type: 'radio', options };
    if (isSensitive(first)) { spec.sensitive = true; spec.options = []; if (value) spec.value = MASK; }
    else if (value) spec.value = value;
    if (radios.some((r) => r.required || r.getAttribute('aria-required') === 'true')) spec.required = true;
    return { name, source, spec, members };
  }

  // ordered: pageControls are in document order (see allControls).
  function inferPageActions(ctx, pageControls, ordered) {
    const { opts } = ctx;
    const out = [];
    const els = [];
    const ordinals = new Map();
    const positions = new Map();
    let total = 0;
    // Radios by their role attribute (the pass's [role] scan) or their type: the role of
    // each of 50,000 links is not asked for.
    const roled = new Set(ctx.roled);
    ctx.roledSet = roled;
    const isRadio = (c) => (roled.has(c) || (c.tagName === 'INPUT' && c.type === 'radio')) && roleOf(c) === 'radio';
    // One read of each control for what follows (50,000 links are each asked once):
    // fit: a slider's clickable track is the slider, offered once, as its handle's set action;
    // a twin is inside another control, and only controls with element children can hold
    // one (none of 50,000 text links), so most controls skip the walk up (with open shadow
    // roots a host holds its shadow tree's controls too).
    const offered = [];
    const holders = [];
    const radios = [];
    for (const el of pageControls) {
      const child = el.firstElementChild;
      if (child && !CONTROL_TAG.test(el.tagName) && !isSliderHandle(el) && !el.hasAttribute('role') &&
          Array.prototype.some.call(el.children, isSliderHandle)) continue;
      offered.push(el);
      if (child || (ctx.roots && el.shadowRoot)) holders.push(el);
      if (isRadio(el)) radios.push(el);
    }
    pageControls = offered;
    const controlSet = new Set(pageControls);
    const holds = ctx.roots ? P.containsComposed : (h, el) => h.contains(el);
    const mayBeTwin = holders.length > BOXES_MAX ? () => true : (el) => holders.some((h) => h !== el && holds(h, el));
    // Radio groups, each offered once, at its first radio.
    const radioGroups = new Map();
    for (const el of inDocumentOrder(radios)) {
      if (ctx.declared(el) || ctx.hidden(el) || !el.checkVisibility(VIS)) continue;
      const key = radioKey(el);
      const list = radioGroups.get(key);
      if (list) list.push(el);
      else radioGroups.set(key, [el]);
    }
    // Lone radios (each the only one of its name) in one fieldset or radiogroup are one
    // group: a person answers the legend's question, whatever names the markup gave them.
    const loneRadios = new Map();
    for (const [key, radios] of radioGroups) {
      const box = typeof key === 'string' && radios.length === 1 && radioContainer(radios[0], key);
      if (!box) continue;
      const keys = loneRadios.get(box);
      if (keys) keys.push(key);
      else loneRadios.set(box, [key]);
    }
    for (const [box, keys] of loneRadios) {
      if (keys.length < 2) continue;
      radioGroups.set(box, keys.map((k) => radioGroups.get(k)[0]));
      for (const k of keys) radioGroups.delete(k);
    }
    const groupAt = new Map();
    for (const [key, radios] of radioGroups) groupAt.set(radios[0], [key, radios]);
    const inGroup = new Set();
    for (const radios of radioGroups.values()) for (const r of radios) inGroup.add(r);
    let unoffered = 0;
    const past = [];
    let namedPastVisible = 0;
    const full = opts.unbounded ? () => false : () => out.length >= opts.max_page_actions;
    const pastVis = P.visFor(pageControls.length - opts.max_page_actions, ctx.roots);
    for (const el of orderedUntil(pageControls, full, ordered)) {
      const hovers = CLICK && CLICK.hoverPath(el).length; // clicks: items of closed hover menus
      if (ctx.declared(el)) continue;
      if (ctx.hidden(el) && !hovers) {
        // aria-hidden tells assistive technology to ignore it, so it is not offered; a person
        // may still see it and use it, so a shown, enabled one is counted (OB-13).
        if (el.checkVisibility(VIS) && inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh) &&
            !ctx.reasonOf(el, true, controlKind(el, roleOf(el)))) unoffered++;
        continue;
      }
      if (inGroup.has(el) && !groupAt.has(el)) continue;
      if (out.length >= opts.max_page_actions && !opts.unbounded) {
        // Past what any budget can show: counted, never named nor described (the work
        // stays bounded on a page of 50,000 links), with the checks that decide whether
        // a full pass would offer it; in the viewport or not is read in bulk below.
        if (countedPast(ctx, el, hovers, mayBeTwin(el) && controlSet, groupAt, pastVis)) {
          total++;
          past.push({ el, region: ctx.regionOf(el), visible: false });
        }
        continue;
      }
      let role = roleOf(el);
      const shown = el.checkVisibility(VIS);
      if (POPUP_ITEM.test(role) && !shown && !hovers) continue; // clicks
      if (mayBeTwin(el) && twinOf(el, controlSet)) continue;
      let kind = controlKind(el, role);
      let label;
      let source;
      let spec = null;
      let group = null;
      if (groupAt.has(el)) {
        const [key, radios] = groupAt.get(el);
        group = radioChoice(ctx, radios, key);
        kind = 'choose';
        role = 'radiogroup';
        label = group.name;
        source = group.source;
        spec = group.spec;
      } else {
        [label, source] = controlName(el, role, kind, opts.action_name_chars, ctx.named);
      }
      const region = ctx.regionOf(el);
      const path = region ? region.path : [];
      if (!label && !shown) continue; // nothing to call it by, and nobody sees it
      if (!label) {
        // Positional: "text field 2 in Login", counted per kind of control and region.
        const word = controlWord(el, role, kind);
        const counts = region ? region.counts : positions;
        const n = (counts.get(word) || 0) + 1;
        counts.set(word, n);
        label = `${word} ${n}` + (region ? ` in ${region.label}` : '');
        source = 'position';
      }
      const name = slug(label) || kind;
      const okey = name + '\u0000' + path.join('\u0000');
      const ordinal = ordinals.get(okey) || 0;
      ordinals.set(okey, ordinal + 1);
      ctx.registry.set(keyOf(name, null, path, ordinal), new WeakRef(el));
      if (group) ctx.groups.set(el, group.members);
      const visible = shown && inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh);
      total++;
      if (region && region.out) {
        region.out.actions_total++;
        if (visible) region.out.actions_visible++;
      }
      if (out.length >= opts.max_page_actions) {
        if (visible) namedPastVisible++; // opts.unbounded: named, then left out as the bounded pass counts it
        continue;
      }
      let reason = ctx.reasonOf(el, shown, kind === 'choose' ? 'check' : kind);
      if (group && reason === 'disabled' && group.members.length) reason = null;
      if (group && !group.members.length) reason = 'disabled';
      els.push(el);
      const action = {
        name, kind, effect: effectOf(el, role, kind, label), description: describe(el, role, label),
        region: region ? region.id : null, region_path: path, ordinal,
        available: !reason, reason, confirm: null, handoff: null,
        submit: kind === 'type' && lone(el), input: spec || inputSpec(el, kind, opts),
        in_viewport: visible, order: 0, source: 'inferred', uid: uidOf(el),
      };
      if (source) action.name_source = source;
      if (POPUP_ITEM.test(role)) action.popup = true;
      out.push(action);
    }
    const pastVisible = countPast(ctx, past) + namedPastVisible;
    return { actions: out, els, total, unoffered, pastVisible };
  }

  // Whether a control past the budget of named actions is one a full pass would offer
  // (and so count): what inferPageActions checks before it names one, with the
  // visibility read only when the answer depends on it and the name only for a
  // control nobody sees. controlSet is false when el cannot be a twin; vis: the
  // checkVisibility options (P.visFor).
  function countedPast(ctx, el, hovers, controlSet, groupAt, vis) {
    if (controlSet && twinOf(el, controlSet)) return false;
    if (el.checkVisibility(vis)) return true;
    // A popup item's role is always its role attribute.
    if (ctx.roledSet.has(el) && POPUP_ITEM.test(roleOf(el)) && !hovers) return false; // clicks
    if (groupAt.has(el)) {
      const [key, radios] = groupAt.get(el);
      return !!groupName(radios[0], key, ctx.opts.action_name_chars, [])[0];
    }
    const role = roleOf(el);
    return !!controlName(el, role, controlKind(el, role), ctx.opts.action_name_chars, [])[0];
  }

  // The controls counted past the budget that are in the viewport (their regions'
  // visible counts take them too): per region and tag, in document order, by the
  // layout search records use (P.markViewport: O(log n) reads on a list laid out top to
  // bottom), and a visibility check of the few in view.
  function countPast(ctx, past) {
    const runs = new Map();
    for (const item of past) {
      const key = item.region;
      let byTag = runs.get(key);
      if (!byTag) runs.set(key, (byTag = new Map()));
      const run = byTag.get(item.el.tagName);
      if (run) run.push(item);
      else byTag.set(item.el.tagName, [item]);
    }
    let visible = 0;
    for (const [region, byTag] of runs) {
      if (region && region.out) region.out.actions_total += [...byTag.values()].reduce((n, r) => n + r.length, 0);
      for (const run of byTag.values()) {
        for (const item of P.markViewport(run, ctx.vw, ctx.vh, (i) => i.el)) {
          if (!item.el.checkVisibility(VIS)) continue;
          visible++;
          if (region && region.out) region.out.actions_visible++;
        }
      }
    }
    return visible;
  }

  // Document order across page actions and groups.
  const orderActions = (pageActions, pageEls, groupList) => P.orderActions(pageActions, pageEls, groupList,
    inOrder);

  // A text field submits with Enter when it is alone in its form, or without a form
  // in its landmark: typing into one field of several must not send the others.
  // A field in a shadow tree is never taken as lone: its component's tree does not say
  // which fields share its form.
  function lone(el) {
    if (el.tagName === 'TEXTAREA' || el.isContentEditable || el.getRootNode() !== document) return false;
    const scope = el.form || landmarkAbove(el) || document.body;
    return scope.querySelectorAll(TEXT_FIELD).length <= 1;
  }

  Object.assign(C, { inferPageActions, orderActions });
})();
