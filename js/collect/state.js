// cdpagent collector, state (SPEC OB-1): the declared state values, parsed and cut
// before transfer.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { MASK, clip, textOf, isSensitive } = P;
  const { fieldValue } = C;

  function parseJson(text) {
    try {
      return JSON.parse(text);
    } catch (_) {
      return text;
    }
  }

  // Cut deep or long JSON before transfer; the summary says what was left out.
  function prune(value, depth, opts) {
    if (typeof value === 'string') return clip(value, opts.max_string);
    if (value === null || typeof value !== 'object') return value;
    const items = opts.list_items;
    if (Array.isArray(value)) {
      if (depth >= opts.max_depth) return `[… ${value.length} items]`;
      const out = value.slice(0, items).map((v) => prune(v, depth + 1, opts));
      if (value.length > items) out.push(`… ${value.length - items} more items`);
      return out;
    }
    const keys = Object.keys(value);
    if (depth >= opts.max_depth) return `{… ${keys.length} keys}`;
    const out = {};
    for (const k of keys.slice(0, items)) out[clip(k, opts.name_chars)] = prune(value[k], depth + 1, opts);
    if (keys.length > items) out['…'] = `${keys.length - items} more keys`;
    return out;
  }

  function stateValue(el, opts) {
    if (isSensitive(el)) return MASK;
    if (el.hasAttribute('data-agent-value')) return parseJson(el.getAttribute('data-agent-value'));
    if (el.tagName === 'SCRIPT') return parseJson(el.textContent);
    const script = el.querySelector('script[type="application/json"]');
    if (script) return parseJson(script.textContent);
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) return fieldValue(el, opts);
    return textOf(el, opts.max_string);
  }

  function collectState(ctx, R) {
    const opts = ctx.opts;
    const state = [];
    for (const el of ctx.few.state) {
      if (state.length >= opts.max_state) break;
      const region = R.of(el);
      state.push({
        name: clip(el.getAttribute('data-agent-state'), opts.name_chars),
        value: prune(stateValue(el, opts), 0, opts),
        description: clip(el.getAttribute('data-agent-description') || '', opts.label_chars),
        region: region ? region.id : null,
      });
    }
    return state;
  }

  Object.assign(C, { parseJson, prune, collectState });
})();
