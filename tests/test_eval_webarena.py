"""WebArena-format task configs against a loopback stand-in site (never WebArena itself).

``tests/webarena/configs.json`` holds two configs per evaluator type the eval supports
(``string_match``, ``url_match``, ``program_html``); the scripted policy of
``tests/webarena_support.py`` plays all six the same way per pair, so each type scores
one pass and one fail. The site is served on 127.0.0.1 by the test.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import cdpagent.eval
from cdpagent.errors import TaskFileError
from cdpagent.eval.webarena import load_configs, parse_configs

SITE = Path(__file__).resolve().parent / "webarena"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def shop(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}"
    monkeypatch.setenv("WA_SHOPPING", url)
    try:
        yield url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.mark.browser
async def test_each_evaluator_type_scores_one_pass_and_one_fail(shop: str, tmp_path: Path) -> None:
    tasks = load_configs(SITE / "configs.json")
    assert tasks[0].url == f"{shop}/index.html" and tasks[0].goal == "What is the price of the blue mug?"
    records = await cdpagent.eval.run(
        tasks, model="", policy="webarena_support:policy", parallel=2, out=tmp_path / "run"
    )
    got = {r.task: (r.outcome, r.reward) for r in records}
    assert got == {
        "webarena.1": ("solved", 1.0), "webarena.2": ("failed", 0.0),  # string_match
        "webarena.3": ("solved", 1.0), "webarena.4": ("failed", 0.0),  # url_match
        "webarena.5": ("solved", 1.0), "webarena.6": ("failed", 0.0),  # program_html
    }  # fmt: skip
    assert all(r.error is None for r in records), [r.error for r in records]
    transcript = json.loads((tmp_path / "run" / "episodes" / "webarena.6__0.json").read_text())
    assert transcript["check"] == "python:webarena:6"


FUNC_TARGET = {"url": "func:shopping_get_latest_order_url()", "locator": "", "required_contents": {}}


def _config(**eval_block: object) -> str:
    config = {"task_id": 7, "start_url": "__SHOPPING__/", "intent": "Anything", "eval": eval_block}
    return json.dumps(config)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[", "not JSON"),
        ("[]", "no configs"),
        ('{"task_id": 1}', "not a WebArena config"),
        (_config(eval_types=["string_match"], reference_answers={"fuzzy_match": ["x"]}), "fuzzy_match"),
        (_config(eval_types=["page_image_query"]), "not supported"),
        (_config(eval_types=["program_html"], program_html=[FUNC_TARGET]), "func:"),
    ],
)
def test_configs_that_cannot_be_scored_are_refused_when_read(
    text: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WA_SHOPPING", "http://127.0.0.1:9")
    with pytest.raises(TaskFileError, match=why):
        parse_configs(text)


def test_a_site_without_its_url_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WA_SHOPPING", raising=False)
    with pytest.raises(TaskFileError, match="__SHOPPING__ needs WA_SHOPPING"):
        load_configs(SITE / "configs.json")
