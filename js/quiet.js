// cdpagent quiet: evidence that the work an input set off is done (OB-6, OB-8).
//
// After an action the receipt's snapshot waits for a quiet window (no DOM change for
// settle_quiet_ms). That window may end early when nothing the page started is still
// pending; this script is how the runtime knows. It is installed twice, configured
// by cdpagent.snapshot.quiet:
//
//   {role: "page"}     in the page's own world, before its scripts: counts what is
//                      pending (timers and intervals due within the asked horizon,
//                      animation frames, idle callbacks, fetches and their body reads,
//                      XMLHttpRequests, posted messages since the last question) and
//                      answers the question event;
//   {role: "observe"}  in the observation's isolated world: globalThis.__cdpagentQuiet
//                      .since(start, horizonMs) returns a check () -> bool that holds
//                      once an animation frame has passed since `start` and the page
//                      world reports nothing pending.
//
// The worlds share the DOM and its events but no JavaScript objects: the question is
// a cancelable event with an unguessable name, dispatched on window, and the page
// world cancels it to say "quiet". A document the page-world script never reached
// (or a page that swallows the event) answers nothing, which never reads as quiet.
// The wrappers are Proxies of the native functions (their name, length and source
// text stay native); a page that fetches natives from another frame escapes the count
// and only shortens its own receipts' wait.
((config) => {
  'use strict';
  const EVENT = config.event;

  if (config.role === 'observe') {
    if (globalThis.__cdpagentQuiet) return;
    const raf = globalThis.requestAnimationFrame.bind(globalThis);
    const ask = (horizonMs) => !globalThis.dispatchEvent(
      new CustomEvent(EVENT, { cancelable: true, detail: horizonMs }));
    // A frame must pass after the input: what the page queued for it (rAF callbacks,
    // observers fired in its rendering) has then run or is counted.
    function since(start, horizonMs) {
      let framed = false;
      raf(() => { framed = true; });
      return () => framed && ask(horizonMs);
    }
    Object.defineProperty(globalThis, '__cdpagentQuiet', { value: Object.freeze({ since }) });
    return;
  }

  // --- the page's world -------------------------------------------------------------
  const W = globalThis;
  if (!W.Proxy || !W.Reflect) return;
  // Installed once per document: a second run (the script is also run at once in the
  // document it was added in) finds the first one answering.
  if (!W.dispatchEvent(new CustomEvent(EVENT, { cancelable: true, detail: 'installed?' }))) return;
  const apply = Reflect.apply;
  const now = performance.now.bind(performance);
  const then = Promise.prototype.then;
  const listen = EventTarget.prototype.addEventListener;
  const MapCtor = Map;
  const mapSet = Map.prototype.set, mapDelete = Map.prototype.delete;
  const mapValues = Map.prototype.values;
  const timers = new MapCtor();   // id -> due time (intervals: the next tick's)
  const frames = new MapCtor();   // rAF id -> 1
  const idles = new MapCtor();    // requestIdleCallback id -> 1
  let inFlight = 0;               // fetches, body reads, XMLHttpRequests
  let posted = 0;                 // messages posted since the last question

  function wrap(owner, name, handler) {
    const native = owner && owner[name];
    if (typeof native !== 'function') return;
    Object.defineProperty(owner, name, {
      value: new Proxy(native, { apply: handler }), writable: true, configurable: true,
      enumerable: Object.getOwnPropertyDescriptor(owner, name).enumerable,
    });
  }
  // The callback the page passed, untouched when it is not a function (a string timer).
  const tracked = (fn, before) => (typeof fn !== 'function' ? fn : function () {
    before();
    return apply(fn, this, arguments);
  });

  function timer(repeat) {
    return (native, self, args) => {
      const delay = Math.max(0, Number(args[1]) || 0);
      let id = 0;
      const copy = Array.prototype.slice.call(args);
      copy[0] = tracked(args[0], () => {
        if (repeat) apply(mapSet, timers, [id, now() + delay]);
        else apply(mapDelete, timers, [id]);
      });
      id = apply(native, self, copy);
      if (typeof args[0] === 'function') apply(mapSet, timers, [id, now() + delay]);
      return id;
    };
  }
  const forget = (map) => (native, self, args) => {
    apply(mapDelete, map, [args[0]]);
    return apply(native, self, args);
  };
  function oneShot(map) {
    return (native, self, args) => {
      let id = 0;
      const copy = Array.prototype.slice.call(args);
      copy[0] = tracked(args[0], () => apply(mapDelete, map, [id]));
      id = apply(native, self, copy);
      if (typeof args[0] === 'function') apply(mapSet, map, [id, 1]);
      return id;
    };
  }
  const done = () => { inFlight--; };
  const PromiseCtor = Promise;
  // The page gets a promise that settles as the native one does; the native one is not
  // given a handler of ours, so a rejection the page leaves unhandled is still reported.
  function counted(native, self, args) {
    const promise = apply(native, self, args);
    inFlight++;
    return new PromiseCtor((resolve, reject) => apply(then, promise, [
      (value) => { done(); resolve(value); },
      (error) => { done(); reject(error); },
    ]));
  }

  wrap(W, 'setTimeout', timer(false));
  wrap(W, 'setInterval', timer(true));
  wrap(W, 'clearTimeout', forget(timers));
  wrap(W, 'clearInterval', forget(timers));
  wrap(W, 'requestAnimationFrame', oneShot(frames));
  wrap(W, 'cancelAnimationFrame', forget(frames));
  wrap(W, 'requestIdleCallback', oneShot(idles));
  wrap(W, 'cancelIdleCallback', forget(idles));
  wrap(W, 'fetch', counted);
  if (W.Response) {
    for (const name of ['json', 'text', 'arrayBuffer', 'blob', 'formData', 'bytes']) {
      wrap(W.Response.prototype, name, counted);
    }
  }
  if (W.XMLHttpRequest) {
    wrap(W.XMLHttpRequest.prototype, 'send', (native, self, args) => {
      inFlight++;
      apply(listen, self, ['loadend', done, { once: true }]);
      try {
        return apply(native, self, args);
      } catch (error) {
        inFlight--; // never sent: no loadend comes
        throw error;
      }
    });
  }
  const post = (native, self, args) => { posted++; return apply(native, self, args); };
  if (W.MessagePort) wrap(W.MessagePort.prototype, 'postMessage', post);
  wrap(W, 'postMessage', post);

  function quiet(horizonMs) {
    const wasPosted = posted;
    posted = 0;
    if (inFlight > 0 || wasPosted > 0 || frames.size > 0 || idles.size > 0) return false;
    const limit = now() + horizonMs;
    const dues = apply(mapValues, timers, []);
    for (let next = dues.next(); !next.done; next = dues.next()) {
      if (next.value <= limit) return false;
    }
    return true;
  }
  apply(listen, W, [EVENT, (event) => {
    const asked = event.detail;
    if (asked === 'installed?' || (typeof asked === 'number' && asked >= 0 && quiet(asked))) {
      event.preventDefault();
    }
  }, true]);
})(__AGOTALK_CONFIG__);
