// Generic edits of any page (tests/test_inference_index.py evaluates this file in
// the page's main world). window.__genericEdit(op, element, argument, rows) edits the
// element-th element of the body (or, rows, of its table rows and list items), taken
// modulo their number: its text, an attribute toggled, the element removed, cloned or
// moved before another; a field's value set by script (no event); the window scrolled.
// window.__todos() adds five todos to TodoMVC's vanilla build (on its field's change event).
(() => {
  if (window.__genericEdit) return true;
  const all = (rows) => Array.from(document.body.querySelectorAll(rows ? 'tr, tr *, li, li *, article, article *' : '*'))
    .filter((el) => !/^(SCRIPT|STYLE|LINK|META|TEMPLATE|NOSCRIPT)$/.test(el.tagName));
  const pick = (list, i) => (list.length ? list[((i % list.length) + list.length) % list.length] : null);
  const ATTRS = {
    hidden: '', disabled: '', 'aria-hidden': 'true', 'aria-expanded': 'true', 'aria-selected': 'true',
    'aria-checked': 'true', class: 'edited', role: 'button', 'aria-label': 'Edited', inert: '',
    style: 'display: none', id: 'edited', href: '#edited', tabindex: '0', 'aria-disabled': 'true',
    'aria-current': 'page',
  };
  function setValue(field, b) {
    if (field.type === 'checkbox' || field.type === 'radio') field.checked = !field.checked;
    else if (field.tagName === 'SELECT') field.selectedIndex = field.options.length ? b % field.options.length : -1;
    else field.value = b % 2 ? 'typed by script' : '';
  }
  window.__genericEdit = (op, a, b, rows) => {
    if (op === 'scroll') {
      window.scrollTo(0, b * 40);
      return true;
    }
    if (op === 'value') {
      const field = pick(Array.from(document.querySelectorAll('input,textarea,select')), a);
      if (field) setValue(field, b);
      return true;
    }
    const el = pick(all(rows), a);
    if (!el) return false;
    if (op === 'text') {
      if (!el.firstElementChild) el.textContent = b % 2 ? 'edited text' : '';
      else el.append(' edited');
    } else if (op === 'attr') {
      const name = pick(Object.keys(ATTRS), b);
      if (el.hasAttribute(name)) el.removeAttribute(name);
      else el.setAttribute(name, ATTRS[name]);
    } else if (op === 'remove') {
      el.remove();
    } else if (op === 'clone') {
      el.after(el.cloneNode(true));
    } else if (op === 'move') {
      const to = pick(all(rows), b);
      if (to && to !== el && !el.contains(to)) to.before(el);
    }
    return true;
  };
  window.__todos = () => {
    const field = document.querySelector('.new-todo');
    if (!field || window.React) return 0;
    for (const title of ['Buy milk', 'Write the report', 'Call Ada', 'Water plants', 'Book train']) {
      field.value = title;
      field.dispatchEvent(new Event('change'));
    }
    return document.querySelectorAll('.todo-list li').length;
  };
  return true;
})();
