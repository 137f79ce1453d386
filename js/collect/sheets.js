// cdpagent collector, style sheets: what the page's sheets and animations can do to
// whether a record's row is rendered (the index's style tier, js/collect/kept.js).
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { rulesOf, everySheet, lastingAnimations } = P;
  const { clock } = C;

  // Properties whose animation can change which rows are rendered.
  const SHOWING = new Set(['opacity', 'visibility', 'display', 'contentVisibility', 'content-visibility']);

  // Selectors whose match at an element depends on its descendants or the pointer.
  const LOOKS_DOWN = /:has\(|:hover|:focus-within|:active|:target/;
  const HIDES = ['display', 'visibility', 'opacity', 'content-visibility'];

  // Whether no rule of the sheets can make a change inside a record hide or show a
  // record (see the style tier above); a sheet that cannot be read is not safe.
  function sheetsSafe(roots) {
    const safe = (rules) => {
      for (const rule of rules) {
        if (rule instanceof CSSContainerRule) return false;
        if (rule instanceof CSSStyleRule && LOOKS_DOWN.test(rule.selectorText) &&
          HIDES.some((p) => rule.style.getPropertyValue(p))) return false;
        if (rule.cssRules && !safe(rule.cssRules)) return false;
      }
      return true;
    };
    return everySheet(roots, safe);
  }

  // The state of every animation that can change which rows are rendered (its play
  // state and time): script animations (element.animate) fire no event and no
  // mutation, so a change of this text is what says they moved.
  function animationsPrint(shadowRoots) {
    let print = '';
    for (const a of showingAnimations(shadowRoots)) print += `${a.playState}@${a.currentTime},`;
    return print;
  }

  // The animations of properties that can change which rows are rendered, in the
  // document and in its open shadow roots (document.getAnimations() leaves those out).
  function showingAnimations(shadowRoots) {
    return lastingAnimations(shadowRoots).filter((a) => a.effect && a.effect.getKeyframes &&
      a.effect.getKeyframes().some((frame) => Object.keys(frame).some((key) => SHOWING.has(key))));
  }

  // Which rows can be hidden, asked in bulk. A row is hidden only when it or an
  // element around it is matched by a declaration that can hide (display,
  // visibility, opacity, content-visibility with a value that may hide), by the
  // user agent's hiding rules, or has a style attribute, or when an animation of
  // those properties runs. hidingSelector() is that set of selectors, read from
  // the page's sheets, or null when a sheet cannot be read or decided (another
  // origin, CSS nesting, @scope, pseudo-elements, open shadow roots): then every
  // row is asked (checkVisibility), as from scratch.
  // (Elements inside replaced or fallback-content elements are not rendered either.)
  const UA_HIDES = ['[hidden]', '[style]', '[slot]', 'details:not([open])', 'dialog:not([open])', 'template',
    'noscript', 'datalist', 'rp', '[popover]', 'input[type="hidden"]', 'head', 'script', 'style', 'select',
    'canvas', 'video', 'audio', 'iframe', 'object', 'embed', 'picture', 'meter', 'progress', 'textarea', 'svg',
    'frameset', 'noembed', 'noframes'];
  const SAFE_VALUE = {
    display: (v) => !/none|contents|var\(|inherit|unset|revert/.test(v),
    visibility: (v) => v === 'visible',
    'content-visibility': (v) => v === 'visible' || v === 'auto',
    opacity: (v) => /^\d*\.?\d+%?$/.test(v) && parseFloat(v) > 0,
  };

  function hidingSelector(B) {
    if (B.shadowRoots && B.shadowRoots.length) return null;
    const found = UA_HIDES.slice();
    const visit = (rules) => {
      for (const rule of rules) {
        if (rule instanceof CSSImportRule) {
          const inner = rule.styleSheet && rulesOf(rule.styleSheet);
          if (!inner || !visit(inner)) return false;
          continue;
        }
        if (typeof CSSScopeRule !== 'undefined' && rule instanceof CSSScopeRule) return false;
        if (rule instanceof CSSStyleRule) {
          if (rule.cssRules && rule.cssRules.length) return false;
          const hides = Object.keys(SAFE_VALUE).some((p) => {
            const v = rule.style.getPropertyValue(p).trim();
            return v && !SAFE_VALUE[p](v);
          });
          if (!hides) continue;
          if (rule.selectorText.includes('::')) return false;
          found.push(rule.selectorText);
          continue;
        }
        if (rule.cssRules && !visit(rule.cssRules)) return false;
      }
      return true;
    };
    if (!everySheet(null, visit) || showingAnimations(B.shadowRoots).length) return null;
    clock.mark('style: sheets');
    return `:is(${found.join(',')})`;
  }

  Object.assign(C, { sheetsSafe, animationsPrint, hidingSelector });
})();
