// cdpagent collector, feedback (SPEC OB-1): declared feedback, live regions, and invalid
// fields with their messages.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { MASK, VIS, clip, textOf, accessibleName, isSensitive } = P;
  const { SEP } = C;

  const fieldNameOf = (el, opts) => el.getAttribute('data-agent-action') || el.getAttribute('data-agent-field') ||
    el.getAttribute('name') || accessibleName(el, opts.name_chars) || null;

  // Messages name their field through the invalid control that points at them.
  function describedByMap(feedbackEls) {
    const describedBy = new Map();
    for (const el of feedbackEls) {
      if (el.getAttribute('aria-invalid') !== 'true') continue;
      for (const attr of ['aria-errormessage', 'aria-describedby']) {
        for (const id of (el.getAttribute(attr) || '').split(/\s+/)) if (id) describedBy.set(id, el);
      }
    }
    return describedBy;
  }

  // One feedback item {level, source, message, field} of el, or null when hidden.
  function feedbackItem(el, opts, describedBy) {
    if (el.getAttribute('aria-invalid') === 'true') {
      const message = P.invalidMessage(el, opts.max_string) || 'invalid value';
      const field = fieldNameOf(el, opts);
      if (!el.checkVisibility(VIS)) return null;
      return { level: 'error', source: 'invalid', message, field };
    }
    if (!el.checkVisibility(VIS)) return null;
    const declared = el.getAttribute('data-agent-feedback');
    const role = el.getAttribute('role');
    const source = declared ? 'declared' : (role === 'alert' ? 'alert' : 'status');
    const level = declared && /^(error|warning|info)$/.test(declared) ? declared : (role === 'alert' ? 'error' : 'info');
    const message = isSensitive(el) ? MASK : textOf(el, opts.max_string);
    let field = null;
    const f = el.getAttribute('data-agent-for');
    if (f) field = clip(f, opts.name_chars);
    else if (el.id && describedBy.has(el.id)) field = fieldNameOf(describedBy.get(el.id), opts);
    return { level, source, message, field };
  }

  // Declared feedback, live regions, invalid fields with their messages; returns [items, total].
  function collectFeedback(ctx, R) {
    const opts = ctx.opts;
    const feedback = [];
    let total = 0;
    const seen = new Set();
    const describedBy = describedByMap(ctx.few.feedback);
    for (const el of ctx.few.feedback) {
      const item = feedbackItem(el, opts, describedBy);
      if (!item || !item.message) continue;
      const key = item.message + SEP + (item.field || '');
      if (seen.has(key)) continue;
      seen.add(key);
      total++;
      if (feedback.length >= opts.max_feedback) continue;
      const region = R.of(el);
      feedback.push({
        level: item.level, message: item.message, field: item.field ? clip(item.field, opts.name_chars) : null,
        region_path: region ? region.path : [], source: item.source,
      });
    }
    return [feedback, total];
  }

  Object.assign(C, { collectFeedback });
})();
