// cdpagent inference, regions (OB-12): landmarks (main, nav, header, footer, aside,
// form, search, named section and article, dialogs, named tab panels), labelled by
// their accessible name or first heading.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { ariaName, inViewport, composedParent } = P;
  const {
    LANDMARK, LANDMARK_TAGS, LANDMARK_ROLES, NAMED_ONLY, NAMED_SECTIONS, isLandmark, byTagAndRole, inDocumentOrder,
    slug, textOf,
  } = C;

  function inferRegions(ctx) {
    const { opts, skipDeclared } = ctx;
    const regionInfo = new Map();
    const regions = [];
    const usedIds = new Map();
    // Inferred region ids never take a declared one: paths key labels and locators.
    if (skipDeclared) for (const el of document.querySelectorAll('[data-agent-region]')) usedIds.set(el.getAttribute('data-agent-region'), 1);
    let total = 0;
    // With open shadow roots, regions hold what the flat tree puts in them (a dialog's
    // slotted fields are the dialog's).
    const composedRegion = (el) => {
      for (let p = composedParent(el); p; p = composedParent(p)) {
        const info = regionInfo.get(p);
        if (info) return info;
      }
      return null;
    };
    const ancestorRegion = ctx.roots ? composedRegion : (el) => {
      for (let p = el.parentElement && el.parentElement.closest(LANDMARK); p; p = p.parentElement && p.parentElement.closest(LANDMARK)) {
        const info = regionInfo.get(p);
        if (info) return info;
      }
      return null;
    };
    // Landmarks that are landmarks only when named (10,000 unnamed sections) are left out
    // before the rest is put in document order.
    // Sections and articles without a role are asked for by selector with a name
    // attribute only (10,000 documentation sections are not read one by one); with a
    // role they come with the roled elements.
    // inferindex: a kept model holds them (ctx.landmarks): a row's change cannot add, remove
    // or name one (js/infer/kept.js).
    const candidates = ctx.landmarks || landmarks(ctx);
    ctx.landmarks = candidates;
    for (const el of candidates) {
      if (skipDeclared && el.hasAttribute('data-agent-region')) continue;
      const role = landmarkRole(el);
      const named = ariaName(el, opts.name_chars);
      if (!role || (NAMED_ONLY.test(role) && !named) || ctx.hidden(el)) continue;
      const label = named || headingOf(el) || role;
      let id = slug(label) || role;
      const n = (usedIds.get(id) || 0) + 1;
      usedIds.set(id, n);
      if (n > 1) id = `${id}_${n}`;
      const parent = ancestorRegion(el);
      const state = P.regionState(el, parent && parent.state, ctx.inert, ctx.covered);
      // el and holds (whether another region is inside it): see ctx.regionOf.
      const info = { id, label, state, path: parent ? parent.path.concat([id]) : [id], out: null, counts: new Map(), el, holds: false };
      if (parent) parent.holds = true;
      regionInfo.set(el, info);
      total++;
      if (regions.length < opts.max_regions) {
        info.out = {
          id, label, role, purpose: '', parent: parent ? parent.id : null, path: info.path, state,
          covered_by: state === 'covered' ? ctx.modalLabel : null,
          in_viewport: state !== 'hidden' && inViewport(el.getBoundingClientRect(), ctx.vw, ctx.vh),
          modal: el === ctx.modal, source: 'inferred',
          actions_total: 0, actions_visible: 0, records_total: 0, records_visible: 0,
        };
        regions.push(info.out);
      }
    }
    ctx.regionInfo = regionInfo;
    // The region above an element: its nearest ancestor that is a region, found by
    // closest() over the tags of the regions (a memo of every ancestor on the way cost
    // more on 50,000 links than the walks it spared; LANDMARK would stop at each of
    // 10,000 unnamed sections). The last region found that holds no other answers for
    // what it contains (no region lies between): one contains() instead of the walk, for
    // elements asked in document order (30,000 links ask a few regions in turn).
    const regionTags = [...new Set(Array.from(regionInfo.keys(), (el) => CSS.escape(el.localName)))].join(',');
    let leaf = null;
    ctx.regionOf = (el) => {
      const own = regionInfo.get(el);
      if (own) return own;
      if (!regionInfo.size) return null;
      if (ctx.roots) return composedRegion(el);
      if (leaf && leaf.el.contains(el)) return leaf;
      // From el itself (not a region: asked first), so its parent gets no wrapper here.
      for (let p = el.closest(regionTags); p; p = p.parentElement && p.parentElement.closest(regionTags)) {
        const info = p === el ? null : regionInfo.get(p);
        if (info) {
          if (!info.holds) leaf = info;
          return info;
        }
      }
      return null;
    };
    return { regions, total };
  }

  // The elements that can be regions, in document order: landmarks by tag or role, the ones
  // that count only when named with their name.
  function landmarks(ctx) {
    const keep = (el) => isLandmark(el) && !(NAMED_ONLY.test(landmarkRole(el) || '') && !ariaName(el, ctx.opts.name_chars));
    const namedSections = Array.prototype.filter.call(document.querySelectorAll(NAMED_SECTIONS), keep);
    const found = byTagAndRole(LANDMARK_TAGS.filter((t) => t !== 'section' && t !== 'article'), LANDMARK_ROLES, ctx.roled, keep, ctx.roots);
    return namedSections.length ? inDocumentOrder(found.concat(namedSections)) : found;
  }

  function landmarkRole(el) {
    const role = el.getAttribute('role');
    if (role) return role;
    const byTag = {
      MAIN: 'main', NAV: 'navigation', ASIDE: 'complementary', FORM: 'form', SEARCH: 'search',
      SECTION: 'region', ARTICLE: 'article', DIALOG: 'dialog',
    };
    if (byTag[el.tagName]) return byTag[el.tagName];
    // header and footer are page landmarks only outside sectioning content.
    const scoped = el.parentElement && el.parentElement.closest('article,aside,main,nav,section');
    if (el.tagName === 'HEADER') return scoped ? 'group' : 'banner';
    if (el.tagName === 'FOOTER') return scoped ? 'group' : 'contentinfo';
    return null;
  }

  function headingOf(el) {
    const h = el.querySelector('h1,h2,h3,h4,h5,h6,[role=heading],legend,caption');
    return h ? textOf(h, 80) : '';
  }

  Object.assign(C, { inferRegions, headingOf });
})();
