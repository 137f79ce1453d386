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
//
// Theory of operation. Everything the shim relies on later is captured now, while
// the document has run no script of its own: the binding function and the built-ins.
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
// pure JSON and copied before it is serialised, so getters run once and the text
// is exactly the value that was checked.
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
  const regexpTest = RegExp.prototype.test;
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
  const setTimeoutFn = G.setTimeout;
  const addEventListener = EventTarget.prototype.addEventListener;
  const readyStateGetter = getOwnPropertyDescriptor(Document.prototype, "readyState").get;
  const doc = G.document;

  const METADATA_KEYS = ["version", "methods", "description", "effect", "inputSchema"];
  const MAX_DEPTH = 200;
  const MESSAGE_MAX = 1000;

  const hasOwn = (obj, key) => reflectApply(hasOwnProperty, obj, [key]);
  const then = (promise, onOk, onErr) => reflectApply(promiseThen, promise, [onOk, onErr]);
  const slice = (s, a, b) => reflectApply(stringSlice, s, [a, b]);
  const bound = (s, n) => (s.length > n ? slice(s, 0, n) + "…" : s);

  function codedError(code, message) {
    const error = new ErrorCtor(message);
    defineProperty(error, "code", { value: code, enumerable: true });
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
      const name = ctor && typeof ctor.value === "function" ? ctor.value.name : "";
      return typeof name === "string" && name ? bound(name, 60) : "a class";
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
        "PAGE_API_ALREADY_EXPOSED",
        "this document already registered its method table; it cannot be replaced or merged",
      );
    }
    const args = arguments;
    const problem = tableProblem(args);
    if (problem) {
      lastRejection = problem;
      throw codedError("PAGE_API_CONTRACT_INVALID", problem);
    }
    const table = args[0];
    const copy = objectCreate(null);
    const keys = reflectOwnKeys(table);
    for (let i = 0; i < keys.length; i += 1) {
      defineProperty(copy, keys[i], { value: getOwnPropertyDescriptor(table, keys[i]).value, enumerable: true });
    }
    registered = objectFreeze(copy);
    receiver = table;
  }

  // --- pure JSON results (PA-4) ---------------------------------------------------
  // The walk copies the value into null-prototype containers while checking it, so a
  // page that patched Object.prototype.toJSON or Array.prototype cannot change what
  // JSON.stringify emits, and a getter is read exactly once.
  const walkKeys = [];
  const walkAncestors = [];
  let budget = 0;
  let offence = "";
  let offenceDepth = 0;
  const OFFENCE = {};

  function offend(depth, what) {
    offence = what;
    offenceDepth = depth;
    throw OFFENCE;
  }

  function pathText(depth) {
    let path = "$";
    for (let i = 0; i < depth; i += 1) {
      const key = walkKeys[i];
      if (typeof key === "number") path += "[" + key + "]";
      else if (reflectApply(regexpTest, IDENTIFIER, [key])) path += "." + key;
      else path += "[" + jsonStringify(bound(key, 60)) + "]";
    }
    return path;
  }

  function pure(value, depth) {
    switch (typeof value) {
      case "string":
        budget -= value.length + 2;
        if (budget < 0) offend(depth, "is over the result size cap (" + config.resultMax + " characters of JSON)");
        return value;
      case "number":
        if (!numberIsFinite(value)) offend(depth, "is " + describe(value));
        budget -= 24;
        return value;
      case "boolean":
        budget -= 5;
        return value;
      case "object":
        if (value === null) {
          budget -= 4;
          return null;
        }
        break;
      default:
        offend(depth, "is " + describe(value));
    }
    if (budget < 0) offend(depth, "is over the result size cap (" + config.resultMax + " characters of JSON)");
    if (depth >= MAX_DEPTH) offend(depth, "is nested deeper than " + MAX_DEPTH + " levels");
    for (let i = 0; i < depth; i += 1) {
      if (walkAncestors[i] === value) offend(depth, "is a cycle (a reference to an enclosing value)");
    }
    walkAncestors[depth] = value;
    const proto = getPrototypeOf(value);
    let copy;
    if (isArray(value)) {
      if (proto !== ArrayProto) offend(depth, "is " + describe(value) + " (a subclass of Array)");
      const length = value.length;
      copy = setPrototypeOf([], null);
      budget -= 2 + length;
      for (let i = 0; i < length; i += 1) {
        walkKeys[depth] = i;
        if (!hasOwn(value, i)) offend(depth + 1, "is a hole (a sparse array)");
        copy[i] = pure(read(value, i, depth + 1), depth + 1);
      }
    } else {
      if (proto !== ObjectProto && proto !== null) offend(depth, "is " + describe(value));
      const keys = objectKeys(value);
      copy = objectCreate(null);
      budget -= 2;
      for (let i = 0; i < keys.length; i += 1) {
        const key = keys[i];
        walkKeys[depth] = key;
        budget -= key.length + 4;
        copy[key] = pure(read(value, key, depth + 1), depth + 1);
      }
    }
    walkAncestors[depth] = undefined;
    return copy;
  }

  function read(container, key, depth) {
    try {
      return container[key];
    } catch (error) {
      return offend(depth, "has a getter that threw (" + errorText(error) + ")");
    }
  }

  // Returns the JSON text of `value`, or "" with `offence` set.
  function pureJson(value) {
    budget = config.resultMax;
    offence = "";
    try {
      const text = jsonStringify(pure(value, 0));
      if (text.length > config.resultMax) {
        offenceDepth = 0;
        offence = "is " + text.length + " characters of JSON, over the result size cap (" + config.resultMax + ")";
        return "";
      }
      return text;
    } catch (error) {
      if (error !== OFFENCE) {
        offenceDepth = 0;
        offence = "could not be serialised (" + errorText(error) + ")";
      }
      return "";
    } finally {
      for (let i = 0; i < walkAncestors.length; i += 1) walkAncestors[i] = undefined;
    }
  }

  function errorText(error) {
    try {
      if (error !== null && typeof error === "object") {
        const name = typeof error.name === "string" ? error.name : "Error";
        const message = typeof error.message === "string" ? error.message : "";
        return bound(message ? name + ": " + message : name, MESSAGE_MAX);
      }
      return bound(typeof error === "symbol" ? "a symbol" : StringCtor(error), MESSAGE_MAX);
    } catch (_) {
      return "an unprintable error";
    }
  }

  // --- invoke (PA-4) ---------------------------------------------------------------
  function failure(code, message) {
    return jsonStringify({ ok: false, code: code, message: message });
  }

  function settle(value) {
    const text = pureJson(value);
    if (text === "") return failure("PAGE_API_RESULT_NOT_JSON", "the result " + pathText(offenceDepth) + " " + offence);
    return '{"ok":true,"value":' + text + "}";
  }

  function methodFailed(error) {
    return failure("PAGE_API_METHOD_FAILED", "the method failed: " + errorText(error));
  }

  function notExposed() {
    if (lastRejection) {
      return failure(
        "PAGE_API_NOT_EXPOSED",
        "the page has no registered method table: its expose() call was rejected " +
          "(PAGE_API_CONTRACT_INVALID: " + lastRejection + ")",
      );
    }
    return failure("PAGE_API_NOT_EXPOSED", "the page has not registered a method table with window.agotalk.expose()");
  }

  // The readiness wait of PA-4: a document that is still loading may register in a
  // later script or a load handler, so wait for `load` and one more task first.
  function afterLoad() {
    return new PromiseCtor((resolve) => {
      reflectApply(addEventListener, G, ["load", () => setTimeoutFn(resolve, 0), { once: true }]);
    });
  }

  function invoke(method, argsJson, waited) {
    if (registered === null) {
      if (!waited && reflectApply(readyStateGetter, doc, []) !== "complete") {
        return then(afterLoad(), () => invoke(method, argsJson, true));
      }
      return notExposed();
    }
    if (typeof method !== "string" || method === "") {
      return failure("PAGE_API_ARGS_INVALID", "method must be a non-empty string");
    }
    if (!hasOwn(registered, method)) {
      return failure("PAGE_API_METHOD_NOT_FOUND", "the page registered no method named " + keyText(method));
    }
    let args;
    try {
      args = jsonParse(argsJson);
    } catch (error) {
      return failure("PAGE_API_ARGS_INVALID", "args are not JSON: " + errorText(error));
    }
    let result;
    try {
      result = reflectApply(registered[method], receiver, [args]);
    } catch (error) {
      return methodFailed(error);
    }
    if (result !== null && typeof result === "object" && getPrototypeOf(result) === PromiseCtor.prototype) {
      return then(result, settle, methodFailed);
    }
    if (result !== null && (typeof result === "object" || typeof result === "function")) {
      // A foreign thenable: adopt it the way `await` would, failures included.
      let thenable = false;
      try {
        thenable = typeof result.then === "function";
      } catch (error) {
        return methodFailed(error);
      }
      if (thenable) return then(reflectApply(promiseResolve, PromiseCtor, [result]), settle, methodFailed);
    }
    return settle(result);
  }

  // --- post (PA-5) -------------------------------------------------------------------
  const pending = objectCreate(null);
  let postSeq = 0;

  function post(topic, payload) {
    return new PromiseCtor((resolve) => {
      let text;
      postSeq += 1;
      const id = postSeq;
      try {
        text = jsonStringify([id, topic, payload === undefined ? null : payload]);
      } catch (error) {
        text = "";
      }
      if (typeof text !== "string" || text === "" || text.length > config.postMax) {
        resolve({
          ok: false,
          error: {
            code: "THREAD_NOTIFY_BAD_MESSAGE",
            message: "post() needs a string topic and a JSON payload of at most " + config.postMax + " characters",
          },
        });
        return;
      }
      pending[id] = resolve;
      binding(text);
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
    if (key !== config.key) throw codedError("PAGE_API_CALL_FAILED", "not the runtime");
    if (op === "invoke") return invoke(a, b, false);
    if (op === "reply") return reply(a, b);
    throw codedError("PAGE_API_CALL_FAILED", "unknown operation");
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
