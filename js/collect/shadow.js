// cdpagent collector, shadow roots (OB-11): queries that continue into open shadow trees.
//
// Declarations inside open shadow roots are collected like those of the light
// DOM, in composed order (a shadow tree's content right after its host). The
// index (js/collect/kept.js) lists the open shadow roots (P.openShadowRoots) when
// it is built and find() reuses them; when there are none (almost every page)
// every query below is the plain DOM one, at no extra cost.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { closestAcross } = P;
  const { REGION } = C;

  // The hosts of the open shadow roots in use, by the tree (document or shadow
  // root) each host is in, in document order; null when there are none.
  let hostsIn = null;

  function useShadowRoots(roots) {
    hostsIn = null;
    if (!roots || !roots.length) return;
    hostsIn = new Map();
    for (const root of roots) {
      const tree = root.host.getRootNode();
      if (!hostsIn.has(tree)) hostsIn.set(tree, []);
      hostsIn.get(tree).push(root.host);
    }
  }


  // Whether open shadow roots are in use (useShadowRoots).
  const hasShadowRoots = () => hostsIn !== null;

  // scope (an element, the document or a shadow root), in composed order.
  function queryAll(scope, selector) {
    const hits = scope.querySelectorAll(selector);
    const element = scope.nodeType === Node.ELEMENT_NODE;
    const hosts = hostsIn && hostsIn.get(element ? scope.getRootNode() : scope);
    if (!hosts) return hits;
    const out = [];
    let i = 0;
    for (const h of hosts) {
      if (element && h !== scope && !scope.contains(h)) continue;
      while (i < hits.length && (hits[i] === h || h.compareDocumentPosition(hits[i]) & Node.DOCUMENT_POSITION_PRECEDING)) {
        out.push(hits[i++]);
      }
      for (const el of queryAll(h.shadowRoot, selector)) out.push(el);
    }
    while (i < hits.length) out.push(hits[i++]);
    return out;
  }

  // closest() across shadow boundaries when the page has open shadow roots.
  const up = (el, selector) => (hostsIn ? closestAcross(el, selector) : el.closest(selector));

  // The parent element, or the host for the top element of a shadow tree.
  const parentAcross = (el) => el.parentElement || (el.parentNode && el.parentNode.host) || null;

  // The data-agent-region values of the regions el is in, outermost first.
  function regionIds(el) {
    const out = [];
    for (let r = closestAcross(el, REGION); r; r = parentAcross(r) && closestAcross(parentAcross(r), REGION)) {
      out.unshift(String(r.getAttribute('data-agent-region')));
    }
    return out;
  }

  // el and the hosts of the shadow trees it is in, outermost first.
  function hostChain(el) {
    const chain = [el];
    for (let host = el.getRootNode().host; host; host = host.getRootNode().host) chain.unshift(host);
    return chain;
  }

  // Composed order of two elements: a host before its shadow tree's content.
  function composedCompare(a, b) {
    const x = hostChain(a);
    const y = hostChain(b);
    for (let i = 0; i < x.length && i < y.length; i++) {
      if (x[i] !== y[i]) return x[i].compareDocumentPosition(y[i]) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
    }
    return x.length - y.length;
  }

  Object.assign(C, { useShadowRoots, hasShadowRoots, queryAll, up, parentAcross, regionIds, composedCompare });
})();
