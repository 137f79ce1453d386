// The Page Agent API shim: window.agotalk for local documents (SPEC PA-1 … PA-6).
//
// Installed with Page.addScriptToEvaluateOnNewDocument, so it runs in every new
// document before the page's own scripts. cdpagent replaces the config token
// on the last line with a JSON object:
//
//   binding    name of the Runtime.addBinding function (unguessable, per browser)
//   entry      name of the runtime's non-enumerable entry point on window.agotalk
//   key        per-browser secret the entry point requires; it lives only in this closure
//   origins    origins that count as local besides file: URLs
//   resultMax  cap, in characters of JSON text, on a method's result
//   postMax    cap, in characters of JSON text, on a post() payload
//   maxDepth   how deeply a result or a post() payload may nest
//   codes      the failure codes the shim answers with, by their Python names
//
// Every value the shim shares with Python comes from there (cdpagent/runtime/pageapi.py).
//
// Theory of operation. Everything the shim relies on later is captured now, while
// the document has run no script of its own: the binding function and the built-ins
// (as functions called through Reflect.apply, never as methods looked up later), so a
// page that patches JSON, Array, String, RegExp or Promise methods, or adds toJSON,
// getters or setters to Object.prototype or Array.prototype, changes nothing the shim
// does. The shim's own objects that a built-in reads (property descriptors, listener
// options, scratch arrays, envelopes) have no prototype, so nothing inherited reaches them.
// The global binding is deleted in every document (local or not), so no page script
// can reach it. A non-local document then gets nothing at all.
//
// A local document gets a frozen, non-writable, non-configurable window.agotalk with
// expose(table) and post(topic, payload), plus a non-enumerable entry point that the
// runtime calls through Runtime.callFunctionOn with the secret key (a page can find
// the entry point, but not the key, so calling it gets nothing):
//
//   agotalk[entry](key, "invoke", method, argsJson)  -> Promise<string> | string
//   agotalk[entry](key, "reply", postId, replyJson)  -> undefined
//
// invoke answers with one JSON text, {"ok":true,"value":…} or
// {"ok":false,"code":"PAGE_API_…","message":"…"}; the result has been checked to be
// pure JSON and copied into prototype-free containers before it is serialised, so
// getters run once, no inherited toJSON applies, and the text is exactly the value
// that was checked. Pure JSON includes well-formed Unicode: a string or key holding a
// lone UTF-16 surrogate is not JSON text (RFC 8259 §8.1) and is refused with its path;
// text the shim writes itself (error messages) has lone surrogates replaced by U+FFFD.
// post() checks its payload with the same walk, so the binding only ever carries pure,
// well-formed JSON.
(function installAgotalk(config) {
  "use strict";

  const G = globalThis;
  const bindingName = config.binding;
  const binding = G[bindingName];
  try {
    delete G[bindingName];
  } catch (_) {
    // A binding that cannot be deleted is still shadowed below for local pages.
  }

  const location = G.location;
  let local = location.protocol === "file:";
  const origin = location.origin;
  for (let i = 0; i < config.origins.length; i += 1) {
    if (config.origins[i] === origin) local = true;
  }
  if (!local || typeof binding !== "function") return;

  // --- captured built-ins -------------------------------------------------------
  const ObjectProto = Object.prototype;
  const ArrayProto = Array.prototype;
  const objectCreate = Object.create;
  const objectKeys = Object.keys;
  const objectFreeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const setPrototypeOf = Object.setPrototypeOf;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const reflectOwnKeys = Reflect.ownKeys;
  const reflectApply = Reflect.apply;
  const hasOwnProperty = ObjectProto.hasOwnProperty;
  const isArray = Array.isArray;
  const numberIsFinite = Number.isFinite;
  const numberIsNaN = Number.isNaN;
  const jsonStringify = JSON.stringify;
  const jsonParse = JSON.parse;
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const promiseResolve = Promise.resolve;
  const ErrorCtor = Error;
  const StringCtor = String;
  const stringSlice = String.prototype.slice;
  const stringIsWellFormed = String.prototype.isWellFormed;
  const stringToWellFormed = String.prototype.toWellFormed;
  const regexpExec = RegExp.prototype.exec;
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
  const setTimeoutFn = G.setTimeout;
  const addEventListener = EventTarget.prototype.addEventListener;
  const readyStateGetter = getOwnPropertyDescriptor(Document.prototype, "readyState").get;
  const doc = G.document;

  const codes = config.codes;
  const METADATA_KEYS = ["version", "methods", "description", "effect", "inputSchema"];
  const MESSAGE_MAX = 1000;

  const hasOwn = (obj, key) => reflectApply(hasOwnProperty, obj, [key]);
  const then = (promise, onOk, onErr) => reflectApply(promiseThen, promise, [onOk, onErr]);
  const slice = (s, a, b) => reflectApply(stringSlice, s, [a, b]);
  const wellFormed = (s) => reflectApply(stringIsWellFormed, s, []);
  // Text the shim writes is well-formed even when the page's is not (U+FFFD for a lone surrogate).
  const text = (s) => reflectApply(stringToWellFormed, s, []);
  const bound = (s, n) => (s.length > n ? slice(s, 0, n) + "…" : s);
  const isIdentifier = (s) => reflectApply(regexpExec, IDENTIFIER, [s]) !== null;
  // A prototype-free object from key/value pairs: built-ins read no inherited field from it.
  function bare(pairs) {
    const obj = objectCreate(null);
    for (let i = 0; i < pairs.length; i += 2) obj[pairs[i]] = pairs[i + 1];
    return obj;
  }
  const bareArray = () => setPrototypeOf([], null);

  function codedError(code, message) {
    const error = new ErrorCtor(message);
    defineProperty(error, "code", bare(["value", code, "enumerable", true]));
    return error;
  }

  function describe(value) {
    if (value === null) return "null";
    if (isArray(value)) return "an array";
    const type = typeof value;
    if (type === "object") {
      const proto = getPrototypeOf(value);
      if (proto === ObjectProto || proto === null) return "an object";
      return "an instance of " + constructorName(value);
    }
    if (type === "undefined") return "undefined";
    if (type === "bigint") return "a BigInt";
    if (type === "function") return "a function";
    if (type === "symbol") return "a symbol";
    if (type === "number") {
      if (numberIsNaN(value)) return "NaN";
      if (!numberIsFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
      return "a number";
    }
    return "a " + type;
  }

  function constructorName(value) {
    try {
      const proto = getPrototypeOf(value);
      const ctor = proto && getOwnPropertyDescriptor(proto, "constructor");
      const fn = ctor && hasOwn(ctor, "value") ? ctor.value : undefined;
      const name = typeof fn === "function" ? fn.name : "";
      return typeof name === "string" && name ? text(bound(name, 60)) : "a class";
    } catch (_) {
      return "a class";
    }
  }

  function keyText(key) {
    return typeof key === "symbol" ? "a symbol key" : jsonStringify(bound(key, 60));
  }

  // --- registration (PA-2) ------------------------------------------------------
  let registered = null; // the frozen copy of the accepted table
  let receiver = null; // the object the page passed, used as `this` for its methods
  let lastRejection = "";

  function tableProblem(args) {
    if (args.length !== 1) return "expose() takes exactly one argument, got " + args.length;
    const table = args[0];
    if (table === null || typeof table !== "object" || isArray(table)) {
      return "expose() needs a plain object of functions, got " + describe(table);
    }
    const proto = getPrototypeOf(table);
    if (proto !== ObjectProto && proto !== null) {
      return "expose() needs a plain object of functions, got " + describe(table);
    }
    const keys = reflectOwnKeys(table);
    if (keys.length === 0) return "expose() needs at least one method, got an empty object";
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i];
      if (typeof key === "symbol") return "method names must be strings, got a symbol key";
      for (let j = 0; j < METADATA_KEYS.length; j += 1) {
        if (key === METADATA_KEYS[j]) {
          return (
            "API metadata key " + keyText(key) + " is not accepted; document methods in the role " +
            "package instead"
          );
        }
      }
      const desc = getOwnPropertyDescriptor(table, key);
      if (!hasOwn(desc, "value")) return "method " + keyText(key) + " is a getter, not a function";
      const value = desc.value;
      if (typeof value !== "function") {
        const nested = value !== null && typeof value === "object";
        return (
          "method " + keyText(key) + " is " + describe(value) + ", not a function" +
          (nested ? " (the table must be flat)" : "")
        );
      }
    }
    return "";
  }

  function expose() {
    if (registered !== null) {
      throw codedError(
        codes.PAGE_API_ALREADY_EXPOSED,
        "this document already registered its method table; it cannot be replaced or merged",
      );
    }
    const args = arguments;
    let problem;
    try {
      problem = tableProblem(args);
    } catch (error) {
      // A Proxy table whose traps throw.
      problem = "expose() could not read its table (" + errorText(error) + ")";
    }
    if (problem) {
      lastRejection = problem;
      throw codedError(codes.PAGE_API_CONTRACT_INVALID, problem);
    }
    const table = args[0];
    const copy = objectCreate(null);
    const keys = reflectOwnKeys(table);
    for (let i = 0; i < keys.length; i += 1) {
      const value = getOwnPropertyDescriptor(table, keys[i]).value;
      defineProperty(copy, keys[i], bare(["value", value, "enumerable", true]));
    }
    registered = objectFreeze(copy);
    receiver = table;
  }

  // --- pure JSON (PA-4, PA-5) -------------------------------------------------------
  // One walk copies the value into prototype-free containers while checking it, so a
  // page that patched Object.prototype.toJSON or Array.prototype cannot change what
  // JSON.stringify emits, and a getter is read exactly once. Each walk has its own state:
  // a getter may call post(), which walks its payload in the middle of this walk.
  const OFFENCE = bare([]);

  function walker(max) {
    return bare(["max", max, "budget", max, "keys", bareArray(), "ancestors", bareArray(), "offence", "", "depth", 0]);
  }

  function offend(w, depth, what) {
    w.offence = what;
    w.depth = depth;
    throw OFFENCE;
  }

  function pathText(w) {
    let path = "$";
    for (let i = 0; i < w.depth; i += 1) {
      const key = w.keys[i];
      if (typeof key === "number") path += "[" + key + "]";
      else if (isIdentifier(key)) path += "." + key;
      else path += "[" + jsonStringify(bound(key, 60)) + "]";
    }
    return path;
  }

  function overCap(w) {
    return "is over the size cap (" + w.max + " characters of JSON)";
  }

  function pure(w, value, depth) {
    switch (typeof value) {
      case "string":
        w.budget -= value.length + 2;
        if (w.budget < 0) offend(w, depth, overCap(w));
        if (!wellFormed(value)) offend(w, depth, "is a string with a lone surrogate, which is not Unicode text");
        return value;
      case "number":
        if (!numberIsFinite(value)) offend(w, depth, "is " + describe(value));
        w.budget -= 24;
        return value;
      case "boolean":
        w.budget -= 5;
        return value;
      case "object":
        if (value === null) {
          w.budget -= 4;
          return null;
        }
        break;
      default:
        offend(w, depth, "is " + describe(value));
    }
    if (w.budget < 0) offend(w, depth, overCap(w));
    if (depth >= config.maxDepth) offend(w, depth, "is nested deeper than " + config.maxDepth + " levels");
    const ancestors = w.ancestors;
    for (let i = 0; i < depth; i += 1) {
      if (ancestors[i] === value) offend(w, depth, "is a cycle (a reference to an enclosing value)");
    }
    ancestors[depth] = value;
    // A Proxy's traps may throw anywhere here; say where, as for a getter that threw.
    let array;
    let proto;
    try {
      array = isArray(value);
      proto = getPrototypeOf(value);
    } catch (error) {
      offend(w, depth, "could not be inspected (" + errorText(error) + ")");
    }
    const keys = w.keys;
    let copy;
    if (array) {
      if (proto !== ArrayProto) offend(w, depth, "is " + describe(value) + " (a subclass of Array)");
      const length = read(w, value, "length", depth);
      if (typeof length !== "number") offend(w, depth, "could not be inspected (its length is not a number)");
      copy = bareArray();
      w.budget -= 2 + length;
      for (let i = 0; i < length; i += 1) {
        keys[depth] = i;
        if (!owns(w, value, i, depth)) offend(w, depth + 1, "is a hole (a sparse array)");
        copy[i] = pure(w, read(w, value, i, depth + 1), depth + 1);
      }
    } else {
      if (proto !== ObjectProto && proto !== null) offend(w, depth, "is " + describe(value));
      let names;
      try {
        names = objectKeys(value);
      } catch (error) {
        offend(w, depth, "could not be inspected (" + errorText(error) + ")");
      }
      copy = objectCreate(null);
      w.budget -= 2;
      for (let i = 0; i < names.length; i += 1) {
        const key = names[i];
        keys[depth] = key;
        w.budget -= key.length + 4;
        if (!wellFormed(key)) offend(w, depth + 1, "is under a key with a lone surrogate, which is not Unicode text");
        copy[key] = pure(w, read(w, value, key, depth + 1), depth + 1);
      }
    }
    ancestors[depth] = undefined;
    return copy;
  }

  function read(w, container, key, depth) {
    try {
      return container[key];
    } catch (error) {
      return offend(w, depth, "has a getter that threw (" + errorText(error) + ")");
    }
  }

  function owns(w, container, key, depth) {
    try {
      return hasOwn(container, key);
    } catch (error) {
      return offend(w, depth, "could not be inspected (" + errorText(error) + ")");
    }
  }

  // The JSON text of `value` if it is pure JSON within `max` characters; otherwise ""
  // with the offence and its depth left in `w`.
  function pureJson(w, value) {
    try {
      const json = jsonStringify(pure(w, value, 0));
      if (json.length > w.max) {
        w.depth = 0;
        w.offence = "is " + json.length + " characters of JSON, over the size cap (" + w.max + ")";
        return "";
      }
      return json;
    } catch (error) {
      if (error !== OFFENCE) {
        w.depth = 0;
        w.offence = "could not be serialised (" + errorText(error) + ")";
      }
      return "";
    }
  }

  function errorText(error) {
    try {
      if (error !== null && typeof error === "object") {
        const name = typeof error.name === "string" ? error.name : "Error";
        const message = typeof error.message === "string" ? error.message : "";
        return text(bound(message ? name + ": " + message : name, MESSAGE_MAX));
      }
      return text(bound(typeof error === "symbol" ? "a symbol" : StringCtor(error), MESSAGE_MAX));
    } catch (_) {
      return "an unprintable error";
    }
  }

  // --- invoke (PA-4) ---------------------------------------------------------------
  function failure(code, message) {
    return '{"ok":false,"code":' + jsonStringify(code) + ',"message":' + jsonStringify(text(message)) + "}";
  }

  function settle(value) {
    const w = walker(config.resultMax);
    const json = pureJson(w, value);
    if (json === "") return failure(codes.PAGE_API_RESULT_NOT_JSON, "the result " + pathText(w) + " " + w.offence);
    return '{"ok":true,"value":' + json + "}";
  }

  function methodFailed(error) {
    return failure(codes.PAGE_API_METHOD_FAILED, "the method failed: " + errorText(error));
  }

  function notExposed() {
    if (lastRejection) {
      return failure(
        codes.PAGE_API_NOT_EXPOSED,
        "the page has no registered method table: its expose() call was rejected " +
          "(" + codes.PAGE_API_CONTRACT_INVALID + ": " + lastRejection + ")",
      );
    }
    return failure(codes.PAGE_API_NOT_EXPOSED, "the page has not registered a method table with window.agotalk.expose()");
  }

  // A promise of the answer (a JSON text) that onOk / onErr make of `promise`'s outcome.
  // It is the shim's own promise: `then` reads the page's Promise species (its
  // Promise.prototype.constructor) to build the promise it returns, so whoever defines
  // that species decides what that promise resolves to; the shim ignores it and
  // resolves its own promise from its reactions, which only ever see `promise` itself.
  // Answers are strings or promises made here, never other thenables, so resolving
  // reads no `then` of the page's.
  function after(promise, onOk, onErr) {
    return new PromiseCtor((resolve) => {
      const finish = (answer) => (typeof answer === "string" ? resolve(answer) : then(answer, resolve, resolve));
      try {
        then(promise, (value) => finish(onOk(value)), (error) => finish(onErr(error)));
      } catch (error) {
        // Not a real promise (an object that only inherits from Promise.prototype).
        finish(onErr(error));
      }
    });
  }

  // The readiness wait of PA-4: a document that is still loading may register in a
  // later script or a load handler, so wait for `load` and one more task first.
  function afterLoad() {
    return new PromiseCtor((resolve) => {
      reflectApply(addEventListener, G, ["load", () => setTimeoutFn(resolve, 0), bare(["once", true])]);
    });
  }

  function invoke(method, argsJson, waited) {
    if (registered === null) {
      if (!waited && reflectApply(readyStateGetter, doc, []) !== "complete") {
        const again = () => invoke(method, argsJson, true);
        return after(afterLoad(), again, again);
      }
      return notExposed();
    }
    if (typeof method !== "string" || method === "") {
      return failure(codes.PAGE_API_ARGS_INVALID, "method must be a non-empty string");
    }
    if (!hasOwn(registered, method)) {
      return failure(codes.PAGE_API_METHOD_NOT_FOUND, "the page registered no method named " + keyText(method));
    }
    let args;
    try {
      args = jsonParse(argsJson);
    } catch (error) {
      return failure(codes.PAGE_API_ARGS_INVALID, "args are not JSON: " + errorText(error));
    }
    let result;
    try {
      result = reflectApply(registered[method], receiver, [args]);
    } catch (error) {
      return methodFailed(error);
    }
    if (result === null || (typeof result !== "object" && typeof result !== "function")) return settle(result);
    let proto;
    try {
      proto = getPrototypeOf(result);
    } catch (_) {
      // A Proxy whose trap throws is no promise; the walk reports it with its path.
      return settle(result);
    }
    if (proto === PromiseCtor.prototype) return after(result, settle, methodFailed);
    // A foreign thenable: adopt it the way `await` would, failures included.
    let thenable = false;
    try {
      thenable = typeof result.then === "function";
    } catch (error) {
      return methodFailed(error);
    }
    if (thenable) return after(reflectApply(promiseResolve, PromiseCtor, [result]), settle, methodFailed);
    return settle(result);
  }

  // --- post (PA-5) -------------------------------------------------------------------
  const pending = objectCreate(null);
  let postSeq = 0;

  function badMessage(message) {
    return { ok: false, error: { code: codes.THREAD_NOTIFY_BAD_MESSAGE, message: message } };
  }

  function post(topic, payload) {
    return new PromiseCtor((resolve) => {
      const topicWalk = walker(config.postMax);
      const topicJson = pureJson(topicWalk, topic === undefined ? null : topic);
      if (topicJson === "") {
        resolve(badMessage("post() topic " + topicWalk.offence));
        return;
      }
      // Room for the id and the brackets of the binding's [id, topic, payload] text.
      const w = walker(config.postMax - topicJson.length - 24);
      const payloadJson = pureJson(w, payload === undefined ? null : payload);
      if (payloadJson === "") {
        resolve(badMessage("post() payload " + pathText(w) + " " + w.offence));
        return;
      }
      postSeq += 1;
      pending[postSeq] = resolve;
      binding("[" + postSeq + "," + topicJson + "," + payloadJson + "]");
    });
  }

  function reply(id, replyJson) {
    const resolve = pending[id];
    if (typeof resolve !== "function") return;
    delete pending[id];
    resolve(jsonParse(replyJson));
  }

  // --- the frozen public object (PA-6) ----------------------------------------------
  function entry(key, op, a, b) {
    if (key !== config.key) throw codedError(codes.PAGE_API_CALL_FAILED, "not the runtime");
    if (op === "invoke") return invoke(a, b, false);
    if (op === "reply") return reply(a, b);
    throw codedError(codes.PAGE_API_CALL_FAILED, "unknown operation");
  }

  const agotalk = objectCreate(null);
  defineProperty(agotalk, "expose", { value: objectFreeze(expose), enumerable: true });
  defineProperty(agotalk, "post", { value: objectFreeze(post), enumerable: true });
  defineProperty(agotalk, config.entry, { value: objectFreeze(entry), enumerable: false });
  objectFreeze(agotalk);
  defineProperty(G, "agotalk", { value: agotalk, writable: false, enumerable: false, configurable: false });
  if (hasOwn(G, bindingName)) {
    // Deleting failed: at least make the name useless to the page.
    try {
      defineProperty(G, bindingName, { value: undefined, writable: false, configurable: false });
    } catch (_) {
      // Nothing more can be done from inside the page.
    }
  }
})(__AGOTALK_CONFIG__);
