// cdpagent collector, settle (OB-6): measuring quiet instead of waiting for it.
(() => {
  'use strict';
  if (globalThis.__cdpagentObserve) return;

  const P = globalThis.__cdpagentPrelude;
  const C = P.space('__cdpagentObserve');
  const { now, WATCH, allAnimations } = P;
  const { currentShadowRoots } = C;

  // OB-6 settle measures instead of waiting. From the document's start this world
  // notes when the page last moved (a DOM mutation, a scroll, a load), so a page that
  // has been still for quietMs settles after one task, in a few milliseconds.
  // Quietness is judged at each check's *due* time, not the time it ran: page
  // timers due earlier have run before the check (one timer queue), so a renderer
  // the OS stalled cannot pass for a still page.
  let lastMove = now();
  const moved = () => { lastMove = now(); };
  new MutationObserver(moved).observe(document, WATCH);
  addEventListener('scroll', moved, true);
  // Pages start rendering from their load handlers: the moment of load (and of
  // every resource load, caught on the way down) counts as a move.
  addEventListener('load', moved, true);

  // Whether a finite animation runs in the document or in one of its open shadow roots
  // (document.getAnimations() leaves those out).
  function busyAnimations(shadowRoots) {
    for (const a of allAnimations(shadowRoots)) {
      if (a.playState !== 'running') continue;
      const end = a.effect && a.effect.getComputedTiming().endTime;
      if (Number.isFinite(end)) return true; // infinite spinners never settle; ignore them
    }
    return false;
  }

  // Resolve once the document is loaded, nothing moved for quietMs and no finite
  // animation runs, with what it last waited for (null when it did not wait); at
  // timeoutMs resolve anyway with the reason it did not settle.
  // With fresh (right after an input) the quiet window starts now: what the input
  // set off may begin a little later, so past stillness proves nothing.
  function settle(quietMs, timeoutMs, fresh, shadowScan) {
    const start = now();
    // After an input the window may end early on evidence: nothing the page started is
    // pending (js/quiet.js, cdpagent.snapshot.quiet); checked often, so it ends soon.
    const early = fresh && globalThis.__cdpagentQuiet ? globalThis.__cdpagentQuiet.since(start, quietMs) : null;
    const period = early ? 5 : Math.max(5, Math.min(quietMs, 25));
    let waitedFor = null;
    // The shadow roots are searched again only after the page moved.
    let roots = null;
    let rootsAt = -1;
    const shadowRoots = () => {
      if (roots === null || rootsAt !== lastMove) {
        roots = currentShadowRoots(shadowScan == null ? Infinity : shadowScan);
        rootsAt = lastMove;
      }
      return roots;
    };
    // An animation seen running may have ended since without its end event yet: Chromium
    // sends transitionend and animationend with the next rendering frame, and a page that
    // reacts to them (shows a row, marks a step done) has not reacted yet. So once one was
    // seen, the settle ends only after a frame (or 100 ms, where no frame comes: a hidden
    // tab), and what the page did then is judged by the quiet window as any move.
    let animated = false;
    return new Promise((resolve) => {
      const check = (due) => {
        const t = now();
        const still = due - (fresh ? Math.max(lastMove, start) : lastMove) >= quietMs || (early !== null && early());
        const animating = still && busyAnimations(shadowRoots());
        const busy = !still || animating;
        if (animating) animated = true;
        if (document.readyState === 'complete' && !busy && animated && t - start < timeoutMs) {
          animated = false;
          let again = false;
          const next = () => {
            if (again) return;
            again = true;
            setTimeout(() => check(now()), 0);
          };
          requestAnimationFrame(next);
          setTimeout(next, 100);
          return;
        }
        if (document.readyState === 'complete' && !busy) {
          resolve({ settled: true, waited_ms: t - start, reason: waitedFor });
          return;
        }
        waitedFor = document.readyState !== 'complete' ? 'document still loading'
          : !still ? 'page kept changing' : 'animations still running';
        if (t - start >= timeoutMs) {
          resolve({ settled: false, waited_ms: t - start, reason: waitedFor });
          return;
        }
        const next = now() + period;
        setTimeout(() => check(next), period);
      };
      const first = now();
      setTimeout(() => check(first), 0);
    });
  }

  Object.assign(C, { settle });
})();
