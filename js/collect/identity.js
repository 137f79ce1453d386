// cdpagent collector, identity (SPEC OB-1): the page's title, path, declared route and
// the query parameters it allows; never the full URL.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { clip } = P;
  const { parseJson, prune } = C;

  // Identity: never the full URL.
  function collectIdentity(opts) {
    const meta = (name) => {
      // Head only: a missing meta must not cost a walk of a large body.
      const m = document.head && document.head.querySelector(`meta[name="${name}"]`);
      return m ? m.getAttribute('content') : null;
    };
    const query = {};
    const allowed = (meta('agent-query') || '').split(',').map((s) => s.trim()).filter(Boolean);
    const params = new URLSearchParams(location.search);
    for (const k of allowed) if (params.has(k)) query[clip(k, opts.name_chars)] = clip(params.get(k), opts.label_chars);
    const routeParams = meta('agent-route-params');
    const identity = {
      title: clip(document.title, opts.note_chars), path: clip(location.pathname, opts.note_chars),
      route: meta('agent-route') ? clip(meta('agent-route'), opts.action_name_chars) : null,
      route_params: routeParams ? prune(parseJson(routeParams), 0, opts) : {},
      query,
    };
    if (typeof identity.route_params !== 'object' || Array.isArray(identity.route_params) || identity.route_params === null) {
      identity.route_params = {};
    }
    return identity;
  }

  Object.assign(C, { collectIdentity });
})();
