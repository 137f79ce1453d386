// cdpagent inference, naming (OB-12): every control's name, as a person reads the page.
(() => {
  'use strict';
  if (globalThis.__cdpagentInfer) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentInfer');
  const { squash, clip, firstRole, VIS } = P;
  const { CONTROL, isControl, controlsIn, isSliderHandle, LANDMARK_ROLES, HEADING, CELL, IN_PLACE, roleOf } = C;

  // clicks: non-semantic controls, hover menus, scrollables, popups (js/clickables.js).
  const CLICK = globalThis.__cdpagentClickables || null;

  // Control -> its <label> elements, built once per pass: Element.labels walks the
  // whole document on every call, which made large tables quadratic.
  let labels = null;
  // Labels that label no control (captions before fields, in-place edits, see IN_PLACE).
  let orphans = [];
  function labelMap() {
    const map = new Map();
    orphans = [];
    for (const l of document.getElementsByTagName('label')) {
      const c = l.control;
      if (!c) {
        if (!l.htmlFor) orphans.push(l);
        continue;
      }
      const list = map.get(c);
      if (list) list.push(l);
      else map.set(c, [l]);
    }
    return map;
  }

  // This pass's labels: those of a kept model (see js/infer/kept.js), or read now.
  function useLabels(K) {
    if (K) ({ labels, orphans } = K);
    else labels = labelMap();
    return { labels, orphans };
  }
  // The label map and the orphan labels of this pass.
  const passLabels = () => ({ labels, orphans });

  // The accessible name (ARIA, labels, content, alt, then placeholder and title).
  const nameOf = (el, max) => (CLICK && CLICK.nameOf(el, max)) || P.accessibleName(el, max, labels); // clicks
  // Text as a screen reader would read it: aria-hidden parts left out, sensitive parts masked.
  const textOf = (el, max) => P.textOf(el, max, true);
  const slugs = new Map();
  function slug(text) {
    let out = slugs.get(text);
    if (out === undefined) {
      out = P.slug(text);
      if (slugs.size > 5000) slugs.clear();
      slugs.set(text, out);
    }
    return out;
  }

  // A number for el that stays its own while the document lives, and is never another
  // element's: what lets the runtime keep a control's tool name across observations
  // (cdpagent/snapshot/toolnames.py). It starts at a random base so that two frames'
  // numbers do not meet.
  const uids = new WeakMap();
  let lastUid = Math.floor(Math.random() * 1e6) * 1e6;
  function uidOf(el) {
    let uid = uids.get(el);
    if (uid === undefined) {
      uid = ++lastUid;
      uids.set(el, uid);
    }
    return uid;
  }

  // The name from what names el itself (P.ownName, with this pass's labels).
  const ownName = (el, max) => P.ownName(el, max, labels);

  // --- naming (NAMING) -------------------------------------------------------------------
  //
  // Every control gets a name, the way a person reads the page: its accessible name
  // (ARIA, tied labels, its content for buttons and links); else an untied <label>
  // or caption just before it in the same block (after it, for a checkbox or
  // radio); its placeholder; its title; its column header or the caption of its
  // row; its humanised name or id ("user_name" -> "user name"); finally its
  // position ("text field 2 in Login"). Each weak source is said in name_source.

  const FIELD_KINDS = /^(type|select|check|set)$/;
  const CELL_TAGS = /^(TD|TH)$/;
  const BLOCK_STOP = /^(FORM|FIELDSET|MAIN|NAV|SECTION|ARTICLE|ASIDE|HEADER|FOOTER|BODY|DIALOG|TABLE|UL|OL|TR)$/;
  // A caption is a few words ("Username", "5 x 5 =", "Date:"); a longer text next to a
  // field is content of the page (the page text shows it), not the field's name.
  const CAPTION_CHARS = 48;
  // Prose: more than four words with a sentence's or a clause's punctuation in them.
  const PROSE = /[.,;!?](\s|$)/;
  const notCaption = (t) => t.length > CAPTION_CHARS || (PROSE.test(t) && t.split(' ').length > 4);
  // The caption next to el at one level: the first content of node's siblings in
  // direction dir. Returns its text, null when another control comes first (the
  // caption is that control's), undefined when the level holds no content there.
  function captionAt(el, node, dir, used) {
    for (let s = node[dir]; s; s = s[dir]) {
      if (s.nodeType === Node.TEXT_NODE) {
        const t = squash(s.data);
        if (!t) continue;
        if (notCaption(t)) return null;
        used.push(s);
        return t;
      }
      if (s.nodeType !== Node.ELEMENT_NODE || /^(SCRIPT|STYLE|TEMPLATE|BR)$/.test(s.tagName)) continue;
      if (s.tagName === 'LABEL' && s.control && s.control !== el) return null;
      if (HEADING.test(s.tagName) || firstRole(s) === 'heading') return null; // a heading titles a section, not a field
      if ((s.matches(CONTROL) && isControl(s)) || controlsIn(s).length) return null;
      if (!s.checkVisibility(VIS) || s.getAttribute('aria-hidden') === 'true') continue;
      const t = squash(P.pageText(s, true));
      if (!t) continue;
      if (notCaption(t)) return null;
      used.push(s);
      return t;
    }
    return undefined;
  }
  function captionOf(el, kind, max, used) {
    const dirs = kind === 'check' ? ['nextSibling', 'previousSibling'] : ['previousSibling'];
    for (const dir of dirs) {
      let node = el;
      for (let depth = 0; depth < 3 && node; depth++) {
        const t = captionAt(el, node, dir, used);
        if (t) return clip(t, max);
        if (t === null) break;
        const parent = node.parentElement;
        if (!parent || BLOCK_STOP.test(parent.tagName) || CELL_TAGS.test(parent.tagName) || isLandmarkEl(parent)) break;
        node = parent;
      }
    }
    return '';
  }
  const isLandmarkEl = (el) => { const r = firstRole(el); return !!r && (LANDMARK_ROLES.has(r) || r === 'row' || r === 'gridcell' || r === 'cell'); };

  // The column header of el's table cell, or the caption of its row (a first cell
  // without controls, or a row header).
  function headerOf(el, max) {
    const cell = el.closest('td,th,[role=gridcell],[role=cell]');
    if (!cell) return '';
    const row = cell.parentElement;
    const table = cell.closest('table,[role=grid],[role=table],[role=treegrid]');
    if (table && cell.tagName === 'TD') {
      const head = table.tHead && table.tHead.rows[0];
      const th = head && head.cells[cell.cellIndex];
      const t = th ? textOf(th, max) : '';
      if (t) return t;
    }
    const first = row && row.firstElementChild;
    if (first && first !== cell && !controlsIn(first).length) return textOf(first, max);
    return '';
  }

  // fit: the header of the table column el's cell is in, for a row action whose own text
  // differs on every row (a date picker's day links: each column is a weekday).
  function columnOf(el, container) {
    if (!container.table || !container.headers) return '';
    // A control without a role right inside a table cell (most are) needs no selector
    // match: one per control of a 100,000-row table showed in profiles.
    const up = el.parentElement;
    const cell = up && (up.tagName === 'TD' || up.tagName === 'TH') && !el.hasAttribute('role') && !/^T[DH]$/.test(el.tagName)
      ? up : el.closest('td,th,[role=gridcell],[role=cell]');
    if (!cell || !container.el.contains(cell)) return '';
    const row = cell.parentElement;
    let i = -1;
    if (row && row.tagName === 'TR') i = 'cellIndex' in cell ? cell.cellIndex : Array.prototype.indexOf.call(row.cells, cell);
    else if (row) i = Array.prototype.indexOf.call(row.querySelectorAll(CELL), cell);
    const header = i >= 0 ? container.headers[i] : '';
    return header && !/^column \d+$/.test(header) ? header : '';
  }

  // A field's own name that only says what kind of field it is ("file upload", "text
  // field"): a person reads the label of the labelled element around it instead (a drop
  // zone labelled "Talk abstract" around its file input labelled "file upload").
  const FIELD_KINDS_OR_FILES = /^(type|select|check|set|upload)$/;
  const GENERIC_NAME = /^(files?( upload)?|upload( an?)?( files?)?|choose( an?)? files?|browse|input|text ?(field|box|input)?|field|edit|select|drop ?down|combo ?box|check ?box|slider|date|number)$/i;
  const CONTAINER_LEVELS = 3;
  function containerName(el, max) {
    let up = el.parentElement;
    for (let depth = 0; depth < CONTAINER_LEVELS && up; depth++, up = up.parentElement) {
      const named = P.ariaName(up, max);
      if (named && !GENERIC_NAME.test(named)) return named;
      if (BLOCK_STOP.test(up.tagName)) return '';
    }
    return '';
  }

  // An unlabelled field inside a labelled container (an editor in a box labelled "Code Cell
  // Content", a field in a fieldset whose legend says what it is for) is called by the
  // container's label, as a person reads the box the field sits in: the nearest ancestor,
  // within BOX_LEVELS and short of a landmark or a form, with an ARIA name (or a fieldset
  // with a legend) that holds no other field, so the label can only be this field's.
  const BOX_LEVELS = 8;
  const BOX_STOP = /^(FORM|MAIN|NAV|ASIDE|HEADER|FOOTER|DIALOG|TABLE|TR|TD|TH)$/;
  const FIELDS = 'input:not([type=hidden],[type=button],[type=submit],[type=reset],[type=image]),textarea,select,' +
    '[contenteditable=""],[contenteditable=true],[contenteditable=plaintext-only],[role=textbox],[role=searchbox],[role=combobox],[role=spinbutton]';
  function boxName(el, max) {
    let up = el.parentElement;
    for (let depth = 0; depth < BOX_LEVELS && up && up !== document.body; depth++, up = up.parentElement) {
      if (isLandmarkEl(up) || BOX_STOP.test(up.tagName)) return '';
      const legend = up.tagName === 'FIELDSET' && up.querySelector(':scope > legend');
      const named = P.ariaName(up, max) || (legend ? textOf(legend, max) : '');
      if (!named) continue;
      const others = Array.prototype.some.call(up.querySelectorAll(FIELDS), (f) => f !== el && !el.contains(f) && !f.contains(el));
      return others || GENERIC_NAME.test(named) ? '' : named;
    }
    return '';
  }

  const GENERATED_ID = /\d{3,}|^[a-z]{0,2}[-_:]|^:|[0-9a-f]{8,}/i;
  // A humanised name or id names a control only when it holds a word ("tt1" does not).
  const WORDY = /\p{L}{3,}/u;
  // A control's name and, when weak, where it came from (its name_source).
  // In a record row (inRow) the text next to a control is the row's, not the control's name.
  function controlName(el, role, kind, max, used, inRow) {
    const mine = CLICK && CLICK.named(el, max); // clicks: [name, name_source]
    if (mine) return mine;
    const own = ownName(el, max);
    if (own && !(FIELD_KINDS_OR_FILES.test(kind) && GENERIC_NAME.test(own))) return [own, null];
    if (own) return [containerName(el, max) || own, null];
    if (!inRow && (FIELD_KINDS.test(kind) || el.isContentEditable)) {
      const caption = captionOf(el, kind, max, used);
      if (caption) return [caption, 'label'];
    }
    const placeholder = el.getAttribute('placeholder') || el.getAttribute('aria-placeholder') || el.getAttribute('data-placeholder');
    if (placeholder && squash(placeholder)) return [clip(placeholder, max), 'placeholder'];
    const title = el.getAttribute('title');
    if (title && squash(title)) return [clip(title, max), 'title'];
    if (!inRow && (FIELD_KINDS.test(kind) || el.isContentEditable)) {
      const box = boxName(el, max);
      if (box) return [box, 'label'];
    }
    const header = headerOf(el, max);
    if (header) return [header, 'header'];
    for (const attr of ['name', 'id']) {
      const raw = el.getAttribute(attr);
      const words = raw && !GENERATED_ID.test(raw) ? P.humanise(raw) : '';
      if (WORDY.test(words)) return [clip(words, max), 'attribute'];
    }
    if (isSliderHandle(el) && el.parentElement) return controlName(el.parentElement, role, kind, max, used, inRow); // fit: a handle is named as its track
    return ['', 'position'];
  }

  // What a positional name calls a control.
  function controlWord(el, role, kind) {
    if (kind === 'type') return el.isContentEditable ? 'editor' : 'text field';
    if (kind === 'select') return 'list box';
    if (kind === 'set') return 'slider';
    if (kind === 'choose') return 'choice';
    if (kind === 'upload') return 'file field'; // files
    if (role === 'checkbox' || role === 'switch') return 'checkbox';
    if (role === 'radio') return 'radio button';
    if (role === 'link') return 'link';
    return 'button';
  }

  function genericName(el, role, kind, label) {
    const own = CLICK && CLICK.verb(el); // clicks
    if (own) return own;
    if (kind === 'check') return 'toggle';
    if (kind === 'type') return 'edit';
    if (kind === 'select') return 'choose';
    if (el.hasAttribute('aria-expanded')) return 'expand';
    if (role === 'link') return 'open';
    return label ? 'press' : '';
  }

  function rowDescription(el, role, kind, name, opts) {
    const own = CLICK && CLICK.describe(el, nameOf(el, 160)); // clicks
    if (own) return own;
    if (role === IN_PLACE) return 'Replace the row\'s text (double-clicks it to open the row\'s editor, types, presses Enter)';
    if (kind === 'check') return 'Check or uncheck the row';
    if (el.hasAttribute('aria-expanded')) return 'Expand or collapse the row';
    if (roleOf(el) === 'link') return 'Open the row\'s link';
    return clip(nameOf(el, 160) || name.replace(/_/g, ' '), opts.max_string);
  }

  function describe(el, role, label) {
    const own = CLICK && CLICK.describe(el, label); // clicks
    if (own) return own;
    if (role === 'tab') return `${label} (tab)`;
    if (el.hasAttribute('aria-expanded') && role !== 'combobox') return `${label} (expands or collapses)`;
    if (role === 'combobox' && el.tagName !== 'SELECT' && el.tagName !== 'INPUT') return `${label} (opens a list of options)`;
    if (role === 'option') return `${label} (option)`;
    if (/^menuitem/.test(role)) return `${label} (menu item)`;
    return label;
  }

  Object.assign(C, {
    useLabels, passLabels, nameOf, textOf, slug, ownName, uidOf, BLOCK_STOP, captionAt, GENERATED_ID, WORDY, columnOf,
    controlName, controlWord, genericName, rowDescription, describe,
  });
})();
