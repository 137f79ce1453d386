// cdpagent inference, inputs (OB-12): what a control takes (its input spec) and what a
// cell holds (its value), read as the declared collector reads them.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { MASK, clip, isSensitive } = P;
  const { textOf } = C;

  // How a date or time field's text is written (the executor fills it as a person would).
  const ISO = {
    date: 'ISO date, e.g. 2026-12-01', time: '24-hour time, e.g. 13:45', 'datetime-local': 'ISO date and time, e.g. 2026-12-01T13:45',
    month: 'ISO month, e.g. 2026-12', week: 'ISO week, e.g. 2026-W49',
  };

  // A control's input spec as the declared collector builds it (the same bounds from
  // Python, the same masking: a sensitive select lists no options), with what
  // inference adds: a slider's bounds and step, a date field's format.
  function inputSpec(el, kind, opts) {
    if (kind === 'hover' || kind === 'scroll') return null; // clicks: they take no input
    if (kind === 'set' && el.tagName !== 'INPUT') return sliderSpec(el, opts);
    const spec = globalThis.__cdpagentObserve.inputSpec(el, kind === 'set' ? 'type' : kind, opts, true);
    if (!spec) return spec;
    if (kind === 'set') {
      const step = el.getAttribute('step');
      if (step) spec.step = clip(step, opts.bound_chars);
      if (!spec.min) spec.min = '0';
      if (!spec.max) spec.max = '100';
    }
    if (el.tagName === 'INPUT' && ISO[el.type] && !spec.doc) spec.doc = ISO[el.type];
    if (el.isContentEditable && spec.value !== undefined && !isSensitive(el)) spec.value = P.editableText(el, opts.max_string);
    return spec;
  }
  function sliderSpec(el, opts) {
    const spec = { input_type: el.getAttribute('role') === 'spinbutton' ? 'spinbutton' : 'slider' };
    for (const [k, a] of [['min', 'aria-valuemin'], ['max', 'aria-valuemax']]) {
      const v = el.getAttribute(a);
      if (v) spec[k] = clip(v, opts.bound_chars);
    }
    const value = el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow');
    if (value) spec.value = isSensitive(el) ? MASK : clip(value, opts.bound_chars);
    // fit: an ARIA-less slider's range as a set action measured it (the numbers shown beside it).
    const scale = !value && !spec.min && !spec.max && globalThis.__cdpagentAct && globalThis.__cdpagentAct.sliderScale(el);
    if (scale && !isSensitive(el)) Object.assign(spec, { min: String(scale.min), max: String(scale.max), value: String(scale.value) });
    return spec;
  }

  // A cell's value: a control (or anything sensitive) is read exactly as the declared
  // collector reads a field; other cells give their visible text.
  function fieldValue(el, opts) {
    if (isSensitive(el) || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)) {
      return globalThis.__cdpagentObserve.fieldValue(el, opts);
    }
    const text = textOf(el, opts.max_string);
    if (text) return text;
    const control = el.querySelector('input,select,textarea');
    if (control) return fieldValue(control, opts);
    return '';
  }

  // A read-only field that opens a picker (a date picker, a popup list) is filled
  // through the picker (the executor opens it): it stays available.
  const PICKER = /date|time|picker|calendar/i;
  const opensPicker = (el) => el.hasAttribute('aria-haspopup') || el.getAttribute('role') === 'combobox' ||
    PICKER.test(`${el.id} ${el.className} ${el.getAttribute('name') || ''}`);

  Object.assign(C, { inputSpec, fieldValue, opensPicker });
})();
