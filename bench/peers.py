"""The driver's peer table: the same CDP calls on the same Chromium through every client.

Clients (each a worker process with its own ``/usr/bin/chromium``, its page
``bench/invoke_page.html`` open in 4 tabs):

* **floor** / **floor websocket** — ``bench/floor.py``'s blocking clients over the pipe and
  over the websocket (one call at a time only: what the browser's transport costs any client);
* **cdpagent pipe** / **cdpagent websocket** — ``Session.send`` on each transport;
* **playwright CDPSession** — Playwright for Python's ``CDPSession.send`` (the same
  commands, through its Node driver), and **playwright page.evaluate** — its idiomatic
  ``page.evaluate("1")`` / ``page.evaluate("() => benchSmall()")``;
* **cdp-use** — the typed CDP client browser-use is built on (websockets), flat sessions;
* **pydoll** — pydoll-python's command path (one websocket per tab);
* **puppeteer-core** — Node, ``CDPSession.send`` over its pipe (``bench/node/``).

Calls: ``Runtime.evaluate("1")``, and a ``Runtime.callFunctionOn`` of the page's
function (``function() { return benchSmall(); }`` on ``globalThis``, by value). For each:
p50 and p99 of one call at a time, and calls per second with 4 tabs × 64 in flight. The
clients take turns in blocks (latency) and in short runs (throughput), round after round,
so load drift hits them alike. A client that is not installed is a row saying how to
install it. Python peers: ``pip install -e '.[bench]'``; puppeteer-core is installed on
first use with ``npm ci --prefix bench/node`` (Node ≥ 18 and npm needed).

    .venv/bin/python bench/peers.py [--rounds N] [--block N] [--seconds S] [--only NAME ...]

Protocol between this coordinator and a worker (JSON lines): the worker prints
``{"ready": true}`` (or ``{"error": why}``) once set up, then answers
``{"op": "latency", "call": C, "calls": N}`` with ``{"samples": [seconds, ...]}``,
``{"op": "throughput", "call": C, "tabs": T, "in_flight": F, "seconds": S}`` with
``{"calls": n, "elapsed": s}`` (or ``{"unsupported": why}``), and stops at ``{"op": "quit"}``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floor import BlockingPipeClient, BlockingWebSocketClient, launch_on_port
from timing import percentiles, throughput, throughput_asyncio, timed, timed_blocking

from cdpagent.cdp.launcher import find_browser

HERE = Path(__file__).resolve().parent
PAGE = HERE / "invoke_page.html"
NODE_DIR = HERE / "node"
TABS = 4
IN_FLIGHT = 64
CALLS = ("evaluate", "function")
FUNCTION = "function() { return benchSmall(); }"
LOADED = "new Promise(r => document.readyState === 'complete' ? r() : addEventListener('load', r))"
INSTALL_PY = "pip install -e '.[bench]'"

AsyncOp = Callable[[], Awaitable[Any]]

#: Worker name → (what its figure includes, how to install it when missing).
CLIENTS: dict[str, tuple[str, str]] = {
    "floor": ("blocking pipe client, no event loop (bench/floor.py)", ""),
    "floor websocket": ("blocking websocket client, no event loop (bench/floor.py)", ""),
    "cdpagent pipe": ("Session.send over the pipe", ""),
    "cdpagent websocket": ("Session.send over the DevTools websocket", ""),
    "playwright CDPSession": ("CDPSession.send through Playwright's Node driver", INSTALL_PY),
    "playwright page.evaluate": ("page.evaluate('1') / page.evaluate('() => benchSmall()')", INSTALL_PY),
    "cdp-use": ("client.send.Runtime.* (websockets, flat sessions)", INSTALL_PY),
    "pydoll": ("tab._execute_command (websockets, one connection per tab)", INSTALL_PY),
    "puppeteer-core": ("CDPSession.send over the pipe (Node)", "npm ci --prefix bench/node (Node ≥ 18)"),
}


# -- workers ---------------------------------------------------------------------------


class Reply:
    """The worker's answers, on a private copy of stdout: libraries that print go to stderr."""

    def __init__(self) -> None:
        self.out: IO[str] = os.fdopen(os.dup(1), "w")
        os.dup2(2, 1)

    def say(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message) + "\n")
        self.out.flush()


async def _serve(
    reply: Reply,
    ops: dict[str, list[AsyncOp]],
    readline: Callable[[], Awaitable[str]],
    throughput_of: Callable[[list[AsyncOp], int, float], Awaitable[tuple[int, float, float]]],
) -> None:
    """Answer the coordinator's commands with ``ops`` (per call, one per tab): ``readline``
    reads stdin without blocking the loop, ``throughput_of`` is the loop's own runner."""
    reply.say({"ready": True})
    while True:
        command = json.loads(await readline() or '{"op": "quit"}')
        if command["op"] == "quit":
            return
        tab_ops = ops[command["call"]]
        if command["op"] == "latency":
            reply.say({"samples": await timed(tab_ops[0], command["calls"])})
        else:
            tabs, in_flight, seconds = command["tabs"], command["in_flight"], command["seconds"]
            done, elapsed, _ = await throughput_of(tab_ops[:tabs], in_flight, seconds)
            reply.say({"calls": done, "elapsed": elapsed})


async def serve_trio(reply: Reply, ops: dict[str, list[AsyncOp]]) -> None:
    """:func:`_serve` for Trio clients."""
    import trio

    await _serve(reply, ops, lambda: trio.to_thread.run_sync(sys.stdin.readline), throughput)


async def serve_asyncio(reply: Reply, ops: dict[str, list[AsyncOp]]) -> None:
    """:func:`_serve` for asyncio clients (stdin is read in a thread, so the loop keeps
    answering its websockets' pings between commands)."""
    loop = asyncio.get_running_loop()
    await _serve(reply, ops, lambda: loop.run_in_executor(None, sys.stdin.readline), throughput_asyncio)


def run_floor(reply: Reply, client: BlockingPipeClient | BlockingWebSocketClient) -> None:
    try:
        session = client.session
        client.call("Page.enable", session=session)
        client.call("Page.navigate", {"url": PAGE.as_uri()}, session)
        client.call("Runtime.evaluate", {"expression": LOADED, "awaitPromise": True}, session)
        obj = client.call("Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"}, session)
        call = {"functionDeclaration": FUNCTION, "objectId": obj["result"]["objectId"], "returnByValue": True}
        ops = {
            "evaluate": lambda: client.call("Runtime.evaluate", {"expression": "1"}, session),
            "function": lambda: client.call("Runtime.callFunctionOn", call, session),
        }
        reply.say({"ready": True})
        for line in sys.stdin:
            command = json.loads(line)
            if command["op"] == "quit":
                break
            if command["op"] == "latency":
                reply.say({"samples": timed_blocking(ops[command["call"]], command["calls"])})
            else:
                reply.say({"unsupported": "one call at a time only"})
    finally:
        client.close()


async def _cdp_ops(send: Callable[[str, dict[str, Any]], Awaitable[Any]]) -> dict[str, AsyncOp]:
    """The two calls through ``send(method, params)`` returning the result object."""
    found = await send("Runtime.evaluate", {"expression": "globalThis", "objectGroup": "b"})
    call = {"functionDeclaration": FUNCTION, "objectId": found["result"]["objectId"], "returnByValue": True}
    answer = await send("Runtime.callFunctionOn", call)
    assert answer["result"]["value"]["name"] == "small", answer
    return {
        "evaluate": lambda: send("Runtime.evaluate", {"expression": "1"}),
        "function": lambda: send("Runtime.callFunctionOn", call),
    }


def _gather(per_tab: list[dict[str, AsyncOp]]) -> dict[str, list[AsyncOp]]:
    return {name: [ops[name] for ops in per_tab] for name in CALLS}


def run_cdpagent(reply: Reply, transport: str) -> None:
    import trio

    import cdpagent

    async def main() -> None:
        async with cdpagent.launch(transport=transport, extensions=[]) as browser:
            per_tab = []
            for _ in range(TABS):
                tab = await browser.open(PAGE)
                per_tab.append(await _cdp_ops(tab.session.send))
            await serve_trio(reply, _gather(per_tab))

    trio.run(main)


def run_playwright(reply: Reply, idiomatic: bool) -> None:
    from playwright.async_api import async_playwright

    async def main() -> None:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=find_browser(), headless=True)
            per_tab: list[dict[str, AsyncOp]] = []
            for _ in range(TABS):
                page = await browser.new_page()
                await page.goto(PAGE.as_uri())
                if idiomatic:
                    ops: dict[str, AsyncOp] = {
                        "evaluate": partial(page.evaluate, "1"),
                        "function": partial(page.evaluate, "() => benchSmall()"),
                    }
                    assert (await ops["function"]())["name"] == "small"
                else:
                    session = await page.context.new_cdp_session(page)
                    ops = await _cdp_ops(session.send)
                per_tab.append(ops)
            await serve_asyncio(reply, _gather(per_tab))
            await browser.close()

    asyncio.run(main())


@contextlib.contextmanager
def port_browser() -> Iterator[str]:
    """A Chromium with the same flags as cdpagent's, on a DevTools port; yields its ws:// url."""
    workdir = tempfile.mkdtemp(prefix="cdpagent-peers-")
    proc, url = launch_on_port(workdir)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(workdir, ignore_errors=True)


def run_cdp_use(reply: Reply) -> None:
    from cdp_use.client import CDPClient

    async def main(url: str) -> None:
        async with CDPClient(url) as client:
            runtime = client.send.Runtime
            per_tab = []
            for _ in range(TABS):
                target = await client.send.Target.createTarget(params={"url": PAGE.as_uri()})
                attached = await client.send.Target.attachToTarget(
                    params={"targetId": target["targetId"], "flatten": True}
                )
                session = attached["sessionId"]
                wait = {"expression": LOADED, "awaitPromise": True}
                await runtime.evaluate(params=wait, session_id=session)

                async def send(method: str, params: dict[str, Any], session: str = session) -> Any:
                    if method == "Runtime.evaluate":
                        return await runtime.evaluate(params=params, session_id=session)
                    return await runtime.callFunctionOn(params=params, session_id=session)

                per_tab.append(await _cdp_ops(send))
            await serve_asyncio(reply, _gather(per_tab))

    with port_browser() as url:
        asyncio.run(main(url))


def run_pydoll(reply: Reply) -> None:
    from pydoll.browser.chromium import Chrome
    from pydoll.browser.options import ChromiumOptions
    from pydoll.commands.runtime_commands import RuntimeCommands

    async def main() -> None:
        options = ChromiumOptions()  # type: ignore[no-untyped-call, unused-ignore]
        options.binary_location = find_browser()
        options.headless = True
        if os.geteuid() == 0:
            options.add_argument("--no-sandbox")
        async with Chrome(options=options) as browser:
            tabs = [await browser.start()]
            tabs += [await browser.new_tab() for _ in range(TABS - 1)]
            per_tab = []
            for tab in tabs:
                await tab.go_to(PAGE.as_uri())

                async def send(method: str, params: dict[str, Any], tab: Any = tab) -> Any:
                    command: Any
                    if method == "Runtime.evaluate":
                        command = RuntimeCommands.evaluate(**_snake(params))
                    else:
                        command = RuntimeCommands.call_function_on(**_snake(params))
                    return (await tab._execute_command(command))["result"]

                per_tab.append(await _cdp_ops(send))
            await serve_asyncio(reply, _gather(per_tab))

    asyncio.run(main())


def _snake(params: dict[str, Any]) -> dict[str, Any]:
    """pydoll's keyword names for CDP params (``objectId`` → ``object_id``)."""
    names = {
        "objectGroup": "object_group",
        "objectId": "object_id",
        "functionDeclaration": "function_declaration",
        "returnByValue": "return_by_value",
    }
    return {names.get(key, key): value for key, value in params.items()}


WORKERS: dict[str, Callable[[Reply], None]] = {
    "floor": lambda reply: run_floor(reply, BlockingPipeClient()),
    "floor websocket": lambda reply: run_floor(reply, BlockingWebSocketClient()),
    "cdpagent pipe": lambda reply: run_cdpagent(reply, "pipe"),
    "cdpagent websocket": lambda reply: run_cdpagent(reply, "websocket"),
    "playwright CDPSession": lambda reply: run_playwright(reply, idiomatic=False),
    "playwright page.evaluate": lambda reply: run_playwright(reply, idiomatic=True),
    "cdp-use": run_cdp_use,
    "pydoll": run_pydoll,
}


def worker_main(name: str) -> None:
    reply = Reply()
    try:
        WORKERS[name](reply)
    except ImportError as exc:
        reply.say({"error": f"not installed ({exc.name}): {CLIENTS[name][1]}"})


# -- the coordinator -------------------------------------------------------------------


class Worker:
    """One client's worker process, spoken to with JSON lines."""

    def __init__(self, name: str, argv: list[str]) -> None:
        self.name = name
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (closed in close())
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1
        )
        self.problem: str | None = None

    def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.log.seek(0)
            tail = self.log.read().decode(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"the worker ended: {' | '.join(tail)[:300]}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def ask(self, command: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(command) + "\n")
        return self.read()

    def close(self) -> None:
        if self.proc.poll() is None and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.write('{"op": "quit"}\n')
                self.proc.stdin.close()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


def start(name: str) -> Worker:
    if name == "puppeteer-core":
        node, npm = shutil.which("node"), shutil.which("npm")
        if node is None or npm is None:
            worker = Worker(name, [sys.executable, "-c", ""])
            worker.problem = f"not installed (node and npm): {CLIENTS[name][1]}"
            return worker
        if not (NODE_DIR / "node_modules" / "puppeteer-core").is_dir():
            print(f"installing puppeteer-core: npm ci --prefix {NODE_DIR}", flush=True)
            subprocess.run(
                [npm, "ci", "--prefix", str(NODE_DIR), "--no-audit", "--no-fund"],
                check=False,
                stdout=subprocess.DEVNULL,
            )
        argv = [node, str(NODE_DIR / "peer_worker.mjs"), PAGE.as_uri(), str(TABS)]
    else:
        argv = [sys.executable, str(Path(__file__).resolve()), "--worker", name]
    return Worker(name, argv)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of turns (latency and throughput)")
    parser.add_argument("--block", type=int, default=200, help="calls per client's latency turn")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a client's throughput turn")
    parser.add_argument("--only", nargs="+", choices=list(CLIENTS), help="these clients only")
    parser.add_argument("--worker", choices=list(WORKERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args.worker)
        return

    names = args.only or list(CLIENTS)
    workers = [start(name) for name in names]  # the browsers start side by side
    try:
        live: list[Worker] = []
        for worker in workers:
            if worker.problem is None:
                try:
                    hello = worker.read()
                except RuntimeError as exc:
                    hello = {"error": str(exc)}
                worker.problem = hello.get("error")
            if worker.problem is None:
                live.append(worker)
        samples: dict[tuple[str, str], list[float]] = {}
        rates: dict[tuple[str, str], list[float]] = {}
        latency = {"op": "latency", "calls": args.block}
        rate = {"op": "throughput", "tabs": TABS, "in_flight": IN_FLIGHT, "seconds": args.seconds}
        for _ in range(args.rounds):
            for call in CALLS:
                for command in (latency, rate):
                    for worker in list(live):
                        try:
                            answer = worker.ask(command | {"call": call})
                        except RuntimeError as exc:  # its row says why, the others go on
                            worker.problem = f"failed during the run: {exc}"
                            live.remove(worker)
                            continue
                        if "samples" in answer:
                            samples.setdefault((worker.name, call), []).extend(answer["samples"])
                        elif "calls" in answer:
                            figure = answer["calls"] / answer["elapsed"]
                            rates.setdefault((worker.name, call), []).append(figure)
    finally:
        for worker in workers:
            worker.close()
    report(workers, samples, rates, args)


def report(
    workers: list[Worker],
    samples: dict[tuple[str, str], list[float]],
    rates: dict[tuple[str, str], list[float]],
    args: argparse.Namespace,
) -> None:
    print("What each figure includes (all on /usr/bin/chromium, headless, bench/invoke_page.html):")
    for worker in workers:
        print(f"  {worker.name:26} {CLIENTS[worker.name][0]}")
    print()
    where = f"{TABS} tabs x {IN_FLIGHT}"
    titles = ("Runtime.evaluate('1')", "Runtime.callFunctionOn of benchSmall")
    for call, title in zip(CALLS, titles, strict=True):
        print(f"{title}: p50/p99 one call at a time, calls/s with {where} in flight")
        head = f"  {'client':26} {'p50 µs':>8} {'p99 µs':>8} {'÷ floor':>8} {'calls/s':>8} {'÷ ours':>7}"
        print(head)
        floor = samples.get(("floor", call))
        ours = rates.get(("cdpagent pipe", call))
        for worker in workers:
            if worker.problem is not None:
                print(f"  {worker.name:26} {worker.problem}")
                continue
            p50, p99 = percentiles(samples[(worker.name, call)])
            ratio = f"{p50 / percentiles(floor)[0]:7.2f}x" if floor else f"{'':8}"
            rate = rates.get((worker.name, call))
            if rate:
                median = statistics.median(rate)
                versus = f"{median / statistics.median(ours):6.2f}x" if ours else ""
                print(f"  {worker.name:26} {p50:8.0f} {p99:8.0f} {ratio} {median:8.0f} {versus:>7}")
            else:
                print(f"  {worker.name:26} {p50:8.0f} {p99:8.0f} {ratio} {'—':>8}")
        print()
    turns = f"{args.rounds} rounds of {args.block}-call latency turns and {args.seconds:g} s throughput turns"
    print(f"({turns}, clients interleaved; calls/s is the median of the rounds;")
    print(f" ÷ ours: ÷ cdpagent pipe; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
