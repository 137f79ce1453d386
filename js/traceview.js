// The trace viewer of `cdpagent trace show`: replays a run step by step.
//
// The page data is the JSON of <script type="application/json" id="trace-data">,
// written by cdpagent/trace/viewer.py. Everything from it is page data from the run
// (titles, texts, receipts a hostile page may have filled): it only ever reaches
// the document as text nodes (textContent) or as a data: image URL the Python side
// checked; never as HTML.
//
// The viewer declares itself with data-agent-* attributes, so cdpagent can observe
// and operate it like any other page (its tests do).
"use strict";

(function () {
  const data = JSON.parse(document.getElementById("trace-data").textContent);
  const items = [];
  for (const step of data.steps) items.push({ kind: "step", at: step.started, step });
  for (const turn of data.turns) items.push({ kind: "model", at: turn.started, turn });
  items.sort((a, b) => a.at - b.at || (a.kind === "model") - (b.kind === "model"));
  let current = 0;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function seconds(value) {
    return value >= 1 ? `${value.toFixed(2)} s` : `${(value * 1000).toFixed(0)} ms`;
  }

  function bytes(value) {
    if (value >= 1048576) return `${(value / 1048576).toFixed(1)} MB`;
    if (value >= 1024) return `${(value / 1024).toFixed(1)} KB`;
    return `${value} B`;
  }

  function json(value) {
    return JSON.stringify(value, null, 2);
  }

  function label(item) {
    if (item.kind === "model") {
      const calls = item.turn.tool_calls || [];
      return `model → ${calls.length ? calls.map((c) => c.name).join(", ") : "answer"}`;
    }
    const step = item.step;
    const first = Object.values(step.args || {})[0];
    const arg = typeof first === "string" ? ` ${first.slice(0, 40)}` : "";
    return `${step.op}${arg}`;
  }

  function previousText(index) {
    for (let i = index - 1; i >= 0; i--) {
      const item = items[i];
      if (item.kind === "step" && typeof item.step.text === "string") return item.step.text;
    }
    return null;
  }

  // What changed in the observation since the previous one: lines gone and lines new.
  function textChanges(before, after) {
    const was = new Set(before.split("\n"));
    const now = new Set(after.split("\n"));
    const lines = [];
    for (const line of before.split("\n")) if (!now.has(line) && line.trim()) lines.push(["gone", `- ${line}`]);
    for (const line of after.split("\n")) if (!was.has(line) && line.trim()) lines.push(["new", `+ ${line}`]);
    return lines;
  }

  function section(title, ...body) {
    return el("section", { class: "part" }, el("h3", {}, title), ...body);
  }

  function showStep(step, index) {
    const parts = [];
    const head = el("div", { class: "facts" });
    const fact = (name, value) => head.append(el("span", { class: "fact" }, el("b", {}, `${name} `), value));
    fact("operation", step.op);
    if (step.tab) fact("tab", step.tab);
    fact("started", seconds(step.started));
    fact("took", seconds(step.ended - step.started));
    if (step.cdp) fact("CDP", `${step.cdp.calls} calls, ${bytes(step.cdp.bytes_out)} out, ${bytes(step.cdp.bytes_in)} in`);
    parts.push(head);
    if (step.url) parts.push(el("p", { class: "url" }, el("b", {}, "url "), step.url));
    if (typeof step.title === "string") {
      parts.push(el("p", {}, el("b", {}, "title "), el("span", { "data-agent-state": "page_title" }, step.title)));
    }
    parts.push(section("What it did", el("pre", { "data-agent-state": "arguments" }, json(step.args || {}))));
    if (step.error) {
      parts.push(section("Error", el("p", { class: "error", "data-agent-state": "error_code" }, step.error.code),
        el("pre", {}, step.error.message)));
    }
    if (step.receipt) parts.push(section("Receipt (what changed)", el("pre", { "data-agent-state": "receipt" }, json(step.receipt))));
    if (step.result !== undefined && step.result !== null) parts.push(section("Result", el("pre", {}, json(step.result))));
    if (step.thumbnail) {
      const img = el("img", {
        class: "thumb",
        alt: `the tab after step ${step.index}`,
        width: String(step.thumbnail.width),
        height: String(step.thumbnail.height),
      });
      const size = el("span", { "data-agent-state": "thumbnail_width", hidden: "" }, "0");
      img.addEventListener("load", () => { size.textContent = String(img.naturalWidth); });
      img.src = `data:image/${step.thumbnail.format};base64,${step.thumbnail.data}`;
      parts.push(section("The tab afterwards", img, size));
    }
    if (typeof step.text === "string") {
      const before = previousText(index);
      if (before !== null) {
        const changes = textChanges(before, step.text);
        const list = el("pre", { class: "changes" });
        for (const [kind, line] of changes) list.append(el("span", { class: kind }, line), "\n");
        parts.push(section("Changed since the last observation", changes.length ? list : el("p", {}, "nothing")));
      }
      parts.push(section("What the model saw", el("pre", { class: "observation", "data-agent-state": "observation" }, step.text)));
    }
    return parts;
  }

  function showTurn(turn) {
    const parts = [];
    const head = el("div", { class: "facts" });
    const fact = (name, value) => head.append(el("span", { class: "fact" }, el("b", {}, `${name} `), value));
    fact("model request", `#${turn.index}`);
    fact("started", seconds(turn.started));
    fact("took", seconds(turn.ended - turn.started));
    fact("request", `${bytes(turn.request_bytes)}, ~${turn.request_tokens} tokens`);
    parts.push(head);
    const calls = turn.tool_calls || [];
    if (calls.length) {
      const list = el("ul", {});
      for (const call of calls) list.append(el("li", {}, el("code", {}, call.name), " ", call.arguments));
      parts.push(section("Tool calls", list));
    }
    if (turn.content) parts.push(section("Answer", el("pre", {}, turn.content)));
    return parts;
  }

  function show(index) {
    if (!items.length) return;
    current = Math.max(0, Math.min(items.length - 1, index));
    const item = items[current];
    const detail = document.getElementById("detail");
    detail.replaceChildren(...(item.kind === "step" ? showStep(item.step, current) : showTurn(item.turn)));
    document.getElementById("position").textContent = `${current + 1} of ${items.length}`;
    document.getElementById("current").textContent = String(current + 1);
    for (const row of document.querySelectorAll("#steps li")) {
      row.classList.toggle("selected", Number(row.dataset.position) === current);
    }
    const selected = document.querySelector("#steps li.selected");
    if (selected) selected.scrollIntoView({ block: "nearest" });
    document.getElementById("prev").disabled = current === 0;
    document.getElementById("next").disabled = current === items.length - 1;
    if (location.hash !== `#${current + 1}`) history.replaceState(null, "", `#${current + 1}`);
  }

  function header() {
    const info = document.getElementById("info");
    const h = data.header;
    const end = data.summary ? data.summary.ended : Math.max(0, ...items.map((i) => (i.step || i.turn).ended));
    info.append(
      el("span", { class: "fact" }, el("b", {}, "started "), new Date(h.started * 1000).toISOString()),
      el("span", { class: "fact" }, el("b", {}, "steps "), String(data.steps.length)),
      el("span", { class: "fact" }, el("b", {}, "model requests "), String(data.turns.length)),
      el("span", { class: "fact" }, el("b", {}, "run "), seconds(end)),
      el("span", { class: "fact" }, el("b", {}, "cdpagent "), h.cdpagent),
    );
    const notes = document.getElementById("notes");
    if (!data.summary) notes.append(el("p", { class: "error" }, "The trace has no summary: the run ended before its browser closed (it crashed or was killed)."));
    if (data.capped) notes.append(el("p", { class: "error" }, `The trace reached its cap of ${bytes(data.capped.max_bytes)} at ${seconds(data.capped.at)}; ${data.summary ? data.summary.dropped : "later"} steps were not written.`));
    for (const problem of data.problems) notes.append(el("p", { class: "error" }, problem));
  }

  function list() {
    const steps = document.getElementById("steps");
    items.forEach((item, position) => {
      const failed = item.kind === "step" && !item.step.ok;
      const row = el("li", {
        class: `${item.kind}${failed ? " failed" : ""}`,
        "data-position": String(position),
        "data-agent-record": `s${position + 1}`,
      });
      const took = (item.step || item.turn).ended - (item.step || item.turn).started;
      row.append(
        el("span", { class: "n" }, String(position + 1)),
        el("span", { class: "op", "data-agent-field": "op" }, label(item)),
        el("span", { class: "code", "data-agent-field": "outcome" }, failed ? item.step.error?.code || "failed" : "ok"),
        el("span", { class: "took" }, seconds(took)),
      );
      row.addEventListener("click", () => show(position));
      steps.append(row);
    });
  }

  function traffic() {
    const table = document.getElementById("traffic");
    if (!data.summary) return;
    const head = el("tr", {}, ...["method", "calls", "failed", "total", "p50", "max", "out", "in"].map((h) => el("th", {}, h)));
    table.append(head);
    for (const m of data.summary.methods) {
      table.append(el("tr", {}, el("td", {}, m.method), el("td", {}, String(m.count)), el("td", {}, String(m.failed)),
        el("td", {}, `${m.total_ms.toFixed(1)} ms`), el("td", {}, `${m.p50_ms.toFixed(1)} ms`),
        el("td", {}, `${m.max_ms.toFixed(1)} ms`), el("td", {}, bytes(m.bytes_out)), el("td", {}, bytes(m.bytes_in))));
    }
    const events = document.getElementById("events");
    events.append(el("tr", {}, el("th", {}, "event"), el("th", {}, "count"), el("th", {}, "bytes")));
    for (const e of data.summary.events) {
      events.append(el("tr", {}, el("td", {}, e.method), el("td", {}, String(e.count)), el("td", {}, bytes(e.bytes))));
    }
  }

  header();
  list();
  traffic();
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === "ArrowRight" || event.key === "j") show(current + 1);
    if (event.key === "ArrowLeft" || event.key === "k") show(current - 1);
  });
  const start = Number(location.hash.slice(1));
  show(Number.isInteger(start) && start > 0 ? start - 1 : 0);
  if (!items.length) document.getElementById("detail").append(el("p", {}, "This trace has no steps."));
})();
