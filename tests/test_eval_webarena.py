"""WebArena-format task configs against a loopback stand-in site (never WebArena itself).

``tests/webarena/configs.json`` holds two configs per evaluator type the eval supports
(``string_match``, ``url_match``, ``program_html``); the scripted policy of
``tests/webarena_support.py`` plays all six the same way per pair, so each type scores
one pass and one fail. The site is served on 127.0.0.1 by that test, which runs the browser
and lives in tests/test_eval.py; the configs' reading is tested here without one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cdpagent.errors import TaskFileError
from cdpagent.eval.webarena import load_configs, parse_configs

SITE = Path(__file__).resolve().parent / "webarena"


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
