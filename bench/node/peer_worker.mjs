// The puppeteer-core worker of bench/peers.py: the same calls as the Python workers, over
// puppeteer's CDPSession on /usr/bin/chromium (its pipe transport), answering the same
// line protocol on stdin and stdout (see bench/peers.py).
import { performance } from "node:perf_hooks";
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const [page_url, tabCount] = [process.argv[2], Number(process.argv[3])];
const FUNCTION = "function() { return benchSmall(); }";

const browser = await puppeteer.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  pipe: true,
  args: process.getuid && process.getuid() === 0 ? ["--no-sandbox"] : [],
});
const ops = { evaluate: [], function: [] };
for (let i = 0; i < tabCount; i++) {
  const page = await browser.newPage();
  await page.goto(page_url);
  const session = await page.createCDPSession();
  const global = await session.send("Runtime.evaluate", { expression: "globalThis", objectGroup: "b" });
  const call = { functionDeclaration: FUNCTION, objectId: global.result.objectId, returnByValue: true };
  ops.evaluate.push(() => session.send("Runtime.evaluate", { expression: "1" }));
  ops.function.push(() => session.send("Runtime.callFunctionOn", call));
}
const check = await ops.function[0]();
if (check.result.value.name !== "small") throw new Error("unexpected answer " + JSON.stringify(check));

async function latency(op, calls) {
  for (let i = 0; i < Math.max(1, Math.floor(calls / 10)); i++) await op();
  const samples = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await op();
    samples.push((performance.now() - t0) / 1000);
  }
  return { samples };
}

async function throughput(tabOps, inFlight, seconds) {
  let done = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const worker = async (op) => {
    while (performance.now() < deadline) {
      await op();
      done += 1;
    }
  };
  const workers = [];
  for (const op of tabOps) for (let i = 0; i < inFlight; i++) workers.push(worker(op));
  await Promise.all(workers);
  return { calls: done, elapsed: (performance.now() - started) / 1000 };
}

const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
say({ ready: true });
for await (const line of readline.createInterface({ input: process.stdin })) {
  const cmd = JSON.parse(line);
  if (cmd.op === "quit") break;
  if (cmd.op === "latency") say(await latency(ops[cmd.call][0], cmd.calls));
  else if (cmd.op === "throughput") say(await throughput(ops[cmd.call].slice(0, cmd.tabs), cmd.in_flight, cmd.seconds));
  else say({ error: "unknown op " + cmd.op });
}
await browser.close();
