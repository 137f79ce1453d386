// cdpagent collector, declarations: what the page's data-agent-* attributes name, and
// what one declared element says of itself (SPEC OB-1, OB-2).
//
// The first of the collector's files (see js/collect.js): the selectors of the
// declarations, whether a record's row can be seen, and an action's declaration (kind,
// effect, description, confirmation, hand-off, input spec with the current value) and
// a field's value. Masking is one rule (isSensitive) applied to every value read.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { MASK, squash, clip, textOf, accessibleName, isSensitive } = P;

  const ACTION = '[data-agent-action]';
  const RECORD = '[data-agent-record]';
  const REGION = '[data-agent-region]';
  const FEEDBACK = '[data-agent-feedback],[role="alert"],[role="status"],[aria-invalid="true"]';
  const MODAL = 'dialog,[aria-modal="true"],[inert]';
  const STATE = '[data-agent-state]';
  const SEP = '\u0000';
  // A row nobody can see is hidden, also when only its opacity says so; a control
  // may be transparent itself (a styled checkbox behind its label) and still work.
  const ROW_VIS = { visibilityProperty: true, opacityProperty: true };

  // --- names, kinds and masking of one element ---------------------------------------

  // Whether a record's row can be seen at all: rendered, not transparent, with
  // an area, its content not skipped (content-visibility: hidden). act.js asks
  // the same before acting on a row, so observation and act agree.
  function rowShown(el) {
    return el.checkVisibility(ROW_VIS) && rowHasBox(el);
  }

  // The costly half of rowShown (layout and style reads), asked only of the rows
  // markRecordViewport looks at.
  function rowHasBox(el) {
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) return false;
    // A rendered child proves the content is not skipped; only otherwise is the
    // style read (getComputedStyle is the costly call here).
    const child = el.firstElementChild;
    return !child || child.checkVisibility() || getComputedStyle(el).contentVisibility !== 'hidden';
  }

  // A choose group's spec: its radios' labels as options, the chosen one as value (js/act.js).
  function groupSpec(el, opts, withValue) {
    const group = globalThis.__cdpagentAct.groupOptions(el, opts.name_chars, opts.list_items);
    const spec = { input_type: 'radio', options: group.options };
    if (isSensitive(el)) spec.sensitive = true;
    if (withValue) spec.value = isSensitive(el) ? MASK : (group.value || '');
    return spec;
  }

  function effectOf(el) {
    const e = el.getAttribute('data-agent-effect');
    if (e === 'read' || e === 'write' || e === 'navigate') return e;
    return el.tagName === 'A' && el.hasAttribute('href') ? 'navigate' : 'write';
  }

  function selectOptions(el, opts) {
    const options = [];
    for (const o of el.options) {
      if (options.length >= opts.list_items) break;
      if (!o.disabled) options.push(clip(o.label || o.text, opts.name_chars));
    }
    return options;
  }

  function currentValue(el, kind, sensitive, opts) {
    if (kind === 'check') return ['checked', !!el.checked];
    if (kind === 'set' && el.tagName !== 'INPUT') return ['value', clip(el.getAttribute('aria-valuenow') || '', opts.bound_chars)];
    if (el.tagName === 'SELECT') {
      const o = el.selectedOptions && el.selectedOptions[0];
      return ['value', sensitive ? MASK : (o ? clip(o.label || o.text, opts.name_chars) : '')];
    }
    if ('value' in el) return ['value', sensitive ? (el.value ? MASK : '') : clip(el.value, opts.max_string)];
    if (el.isContentEditable) return ['value', sensitive ? MASK : P.editableText(el, opts.max_string)];
    return null;
  }

  // files: what an upload takes, in words (the tool's `files` description).
  function fileDoc(el, opts) {
    const input = el.tagName === 'INPUT' ? el : el.querySelector('input[type=file]');
    const several = input && input.multiple;
    const accept = input && input.accept ? `; accepts ${clip(input.accept, opts.label_chars)}` : '';
    return (several ? 'one or more files' : 'one file') + accept;
  }

  function inputSpec(el, kind, opts, withValue) {
    if (kind === 'click' || kind === 'hover' || kind === 'press' || kind === 'scroll') return null;
    if (kind === 'choose') return groupSpec(el, opts, withValue);
    const spec = {};
    const doc = el.getAttribute('data-agent-input');
    if (doc) spec.doc = clip(doc, opts.max_string);
    const sensitive = isSensitive(el);
    if (sensitive) spec.sensitive = true;
    if (el.tagName === 'INPUT') spec.input_type = el.type;
    else if (el.tagName === 'SELECT') spec.input_type = 'select';
    else if (el.tagName === 'TEXTAREA') spec.input_type = 'textarea';
    if (el.required || el.getAttribute('aria-required') === 'true') spec.required = true;
    if (el.readOnly) spec.read_only = true;
    const pattern = el.getAttribute('pattern');
    if (pattern) spec.pattern = clip(pattern, opts.label_chars);
    for (const k of ['min', 'max']) {
      const v = el.getAttribute(kind === 'set' && el.tagName !== 'INPUT' ? `aria-value${k}` : k);
      if (v) spec[k] = clip(v, opts.bound_chars);
    }
    if (el.maxLength > 0) spec.maxlength = el.maxLength;
    if (el.minLength > 0) spec.minlength = el.minLength;
    // A sensitive select's options would tell its value: never listed.
    if (el.tagName === 'SELECT' && !sensitive) spec.options = selectOptions(el, opts);
    if (kind === 'upload') { // files
      if (!spec.doc) spec.doc = fileDoc(el, opts);
      const input = el.tagName === 'INPUT' ? el : el.querySelector('input[type=file]');
      if (input && input.multiple) spec.multiple = true;
    }
    const value = withValue ? currentValue(el, kind, sensitive, opts) : null;
    if (value) spec[value[0]] = value[1];
    return spec;
  }

  function fieldValue(el, opts) {
    if (isSensitive(el)) return MASK;
    const tag = el.tagName;
    if (tag === 'INPUT' && /^(checkbox|radio)$/.test(el.type)) return !!el.checked;
    if (tag === 'INPUT' || tag === 'TEXTAREA') return clip(el.value, opts.max_string);
    if (tag === 'SELECT') {
      const o = el.selectedOptions[0];
      return o ? clip(o.label || o.text, opts.max_string) : '';
    }
    const control = el.querySelector('input,select,textarea');
    if (control && !squash(el.textContent)) return fieldValue(control, opts);
    const a = el.getAttribute('aria-checked');
    if (a === 'true' || a === 'false') return a === 'true';
    return textOf(el, opts.max_string);
  }

  // The declared attributes an action entry and a folded group share.
  function actionDeclaration(el, name, kind, opts, withValue) {
    return {
      name, kind, effect: effectOf(el),
      description: clip(el.getAttribute('data-agent-description') || accessibleName(el, opts.label_chars), opts.max_string),
      confirm: el.hasAttribute('data-agent-confirm') ? clip(el.getAttribute('data-agent-confirm') || 'Confirm?', opts.note_chars) : null,
      handoff: el.hasAttribute('data-agent-handoff')
        ? clip(el.getAttribute('data-agent-handoff') || 'a person must do this', opts.note_chars) : null,
      submit: el.hasAttribute('data-agent-submit'),
      input: inputSpec(el, kind, opts, withValue),
    };
  }

  Object.assign(C, {
    ACTION, RECORD, REGION, FEEDBACK, MODAL, STATE, SEP, ROW_VIS, rowShown, rowHasBox, inputSpec, fieldValue,
    actionDeclaration,
  });
})();
