"""A scripted OpenAI-compatible model: a real HTTP server on 127.0.0.1 for the agent tests.

It answers ``POST /v1/chat/completions`` with the next entry of its script and
records every request body it received (``requests``), so tests assert on what
the agent sent. An entry is a :class:`Reply` or a function of the request body
returning one (to check the request, or to do something while the agent waits).
:func:`check_request` validates a body against the ``CreateChatCompletionRequest``
schema of OpenAI's published OpenAPI document (pruned copy in ``tests/openapi/``).

Replies can also misbehave: any status with headers (429 + ``Retry-After``, 500,
401), a hang (no answer until the server stops), a connection dropped in the
middle of the response, a body trickled one byte at a time after prompt headers,
or an event stream nobody asked for that never ends.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA_PATH = Path(__file__).resolve().parent / "openapi" / "create_chat_completion_request.json"
_VALIDATOR = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def check_request(body: dict[str, Any]) -> None:
    """Fail (AssertionError) unless ``body`` is a valid ``CreateChatCompletionRequest``."""
    errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in _VALIDATOR.iter_errors(body)]
    assert not errors, errors


@dataclass
class Reply:
    """One scripted answer: a chat completion, or a failure of some kind."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False
    drop: bool = False
    trickle: float = 0.0
    """Seconds between the body's bytes (the headers come at once)."""
    sse: bool = False
    """Answer ``text/event-stream`` and send one event every 0.2 s until the server stops."""


def answer(content: str) -> Reply:
    """A final answer without tool calls."""
    return _completion({"role": "assistant", "content": content}, "stop")


def calls(*tool_calls: tuple[str, str], content: str | None = None) -> Reply:
    """A reply calling ``(name, arguments_text)`` tools in order (ids ``call_1``, ``call_2``, …)."""
    global _call_counter
    made = []
    for name, arguments in tool_calls:
        _call_counter += 1
        made.append(
            {
                "id": f"call_{_call_counter}",
                "type": "function",
                "function": {"name": name, "arguments": arguments},
            }
        )
    return _completion({"role": "assistant", "content": content, "tool_calls": made}, "tool_calls")


def status(code: int, message: str = "scripted failure", headers: dict[str, str] | None = None) -> Reply:
    """An HTTP error with an OpenAI-style error body."""
    return Reply(
        status=code,
        body={"error": {"message": message, "type": "scripted", "code": None}},
        headers=headers or {},
    )


_call_counter = 0


def _completion(message: dict[str, Any], finish: str) -> Reply:
    return Reply(
        body={
            "id": "chatcmpl-scripted",
            "object": "chat.completion",
            "created": 0,
            "model": "scripted",
            "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


Entry = Reply | Callable[[dict[str, Any]], Reply]


class ScriptedModel:
    """The server; ``url`` is the base URL to give the agent (``…/v1``)."""

    def __init__(self, script: list[Entry]) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        #: The HTTP headers of each request, names in lower case.
        self.headers: list[dict[str, str]] = []
        self.failures: list[Exception] = []
        self.released = threading.Event()
        self._lock = threading.Lock()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size))
                with owner._lock:
                    owner.requests.append(body)
                    owner.headers.append({k.lower(): v for k, v in self.headers.items()})
                    entry = owner.script.pop(0) if owner.script else status(500, "the script is over")
                try:
                    reply = entry(body) if callable(entry) else entry
                except Exception as error:  # a failed check in the script: report it to the test
                    owner.failures.append(error)
                    reply = status(500, f"the script failed: {error!r}")
                if reply.hang:
                    owner.released.wait(60)
                    return
                if reply.sse:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.end_headers()
                    while not owner.released.wait(0.2):
                        self.wfile.write(b"data: {}\n\n")
                        self.wfile.flush()
                    return
                data = json.dumps(reply.body).encode()
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in reply.headers.items():
                    self.send_header(key, value)
                self.end_headers()
                if reply.drop:
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if reply.trickle:
                    for i in range(len(data)):
                        if owner.released.wait(reply.trickle):
                            return
                        self.wfile.write(data[i : i + 1])
                        self.wfile.flush()
                    return
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_port}/v1"

    @contextmanager
    def running(self) -> Iterator[ScriptedModel]:
        """Serve in a background thread for the block; then release hangs and stop."""
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self.released.set()
            self._server.shutdown()
            self._server.server_close()
            thread.join(10)

    def checked_requests(self) -> list[dict[str, Any]]:
        """Every request received, each validated with :func:`check_request`.

        Fails first when a scripted check raised while the agent waited.
        """
        assert not self.failures, self.failures
        for body in self.requests:
            check_request(body)
        return self.requests
