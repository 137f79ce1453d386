"""WebArena's task configs as eval tasks: ``cdpagent eval webarena:CONFIGS.json``.

A WebArena config (``config_files/*.json`` of the WebArena repository, or what
``browsergym-webarena`` ships) names a start URL, an ``intent`` (the goal) and an
``eval`` block. This module reads a JSON file holding one config or a list of them,
and scores each episode the way WebArena's evaluators do, for the three evaluator
types that need no model and no site-specific code:

- ``string_match``: the agent's final answer against ``reference_answers``
  (``exact_match``, ``must_include``; text compared lower-cased and trimmed);
- ``url_match``: the tab's final URL against ``reference_url`` (alternatives joined by
  `` |OR| ``): the reference's path is in the page's, and its query parameters are all there;
- ``program_html``: for each target, the text a ``document.…`` locator gives on the
  last page (``url: "last"``) or on a page opened for the check, against
  ``required_contents`` (``exact_match``, ``must_include``).

The reward is the product over ``eval_types`` (1 or 0), as in WebArena. The sites are
the user's to run: ``__SHOPPING__``, ``__SHOPPING_ADMIN__``, ``__REDDIT__``,
``__GITLAB__``, ``__WIKIPEDIA__``, ``__MAP__`` and ``__HOMEPAGE__`` are replaced with
the environment variables BrowserGym reads (``WA_SHOPPING`` …). A config that needs
what this module does not do (``fuzzy_match`` needs a model as judge; ``func:``
locators and URLs run WebArena's site helpers) is refused when the file is read.
Logins: start the run with ``--storage-state FILE`` (the state WebArena's
``auto_login`` saves).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

import msgspec

from ..browser.tabs import Tab
from ..errors import TaskFileError
from .tasks import DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_S, Task

__all__ = ["PREFIX", "SITES", "WebArenaReward", "load_configs", "parse_configs"]

PREFIX: Final = "webarena:"
SITES: Final = {
    "__SHOPPING_ADMIN__": "WA_SHOPPING_ADMIN",
    "__SHOPPING__": "WA_SHOPPING",
    "__REDDIT__": "WA_REDDIT",
    "__GITLAB__": "WA_GITLAB",
    "__WIKIPEDIA__": "WA_WIKIPEDIA",
    "__MAP__": "WA_MAP",
    "__HOMEPAGE__": "WA_HOMEPAGE",
}
"""Each placeholder of a config and the environment variable that gives its site's URL."""
EVALUATORS: Final = ("string_match", "url_match", "program_html")
OR: Final = " |OR| "


class _Target(msgspec.Struct, frozen=True):
    url: str
    locator: str
    required_contents: dict[str, Any]


class _Eval(msgspec.Struct, frozen=True):
    eval_types: list[str]
    reference_answers: dict[str, Any] | None = None
    reference_url: str | None = ""
    program_html: list[_Target] = []


class _Config(msgspec.Struct, frozen=True):
    task_id: int | str
    start_url: str
    intent: str
    eval: _Eval
    sites: list[str] = []
    require_login: bool = False


def _clean(text: Any) -> str:
    return " ".join(str(text).split()).strip().strip("\"'").lower()


def _sites(text: str, where: str) -> str:
    for placeholder, variable in SITES.items():
        if placeholder in text:
            value = os.environ.get(variable)
            if not value:
                raise TaskFileError(f"{where}: {placeholder} needs {variable}, the site's URL")
            text = text.replace(placeholder, value.rstrip("/"))
    return text


def _contents_score(required: dict[str, Any], text: str) -> bool:
    """WebArena's ``exact_match`` / ``must_include`` of ``required`` against ``text``."""
    got = _clean(text)
    for kind, wanted in required.items():
        if kind == "exact_match":
            if _clean(wanted) != got:
                return False
        elif kind == "must_include":
            for item in wanted if isinstance(wanted, list) else [wanted]:
                if not any(_clean(alternative) in got for alternative in str(item).split(OR)):
                    return False
    return True


def _url_score(reference: str, url: str) -> bool:
    """WebArena's ``url_match`` ("GOLD in PRED"): some reference's path is within the page's,
    and every query parameter of it has a value the page's query has too."""
    got = urlsplit(url.rstrip("/"))
    got_query = parse_qs(got.query)
    for alternative in reference.split(OR):
        want = urlsplit(alternative.strip().rstrip("/"))
        if f"{want.netloc}{want.path}" not in f"{got.netloc}{got.path}":
            continue
        if all(set(v) <= set(got_query.get(k, [])) for k, v in parse_qs(want.query).items()):
            return True
    return False


class WebArenaReward:
    """The reward of one config: ``await reward(tab, answer)`` → 1.0 or 0.0
    (a :data:`cdpagent.eval.tasks.AnswerReward`)."""

    def __init__(self, config: _Config, where: str) -> None:
        self.config = config
        self.where = where
        self.__qualname__ = f"webarena:{config.task_id}"

    async def __call__(self, tab: Tab, answer: str | None) -> float:
        """Score the episode; raises what navigating or evaluating in ``tab`` raises."""
        spec = self.config.eval
        for kind in spec.eval_types:
            if kind == "string_match":
                if not _contents_score(spec.reference_answers or {}, answer or ""):
                    return 0.0
            elif kind == "url_match":
                url = await _evaluate(tab, "location.href")
                if not _url_score(_sites(spec.reference_url or "", self.where), str(url)):
                    return 0.0
            elif kind == "program_html":
                for target in spec.program_html:
                    if target.url != "last":
                        await tab.navigate(_sites(target.url, self.where))
                    locator = target.locator.strip() or "document.documentElement.outerHTML"
                    guarded = f"(() => {{ try {{ return {locator}; }} catch (e) {{ return ''; }} }})()"
                    text = await _evaluate(tab, guarded)
                    if not _contents_score(target.required_contents, "" if text is None else str(text)):
                        return 0.0
        return 1.0


async def _evaluate(tab: Tab, expression: str) -> Any:
    reply = await tab.session.send(
        "Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}
    )
    return (reply.get("result") or {}).get("value")


def _task(raw: Any, where: str, max_steps: int, timeout_s: float) -> Task:
    try:
        config = msgspec.convert(raw, _Config)
    except msgspec.ValidationError as error:
        raise TaskFileError(f"{where}: not a WebArena config ({error})") from None
    where = f"{where} (task {config.task_id})"
    spec = config.eval
    for kind in spec.eval_types:
        if kind not in EVALUATORS:
            known = ", ".join(EVALUATORS)
            raise TaskFileError(f"{where}: evaluator {kind!r} is not supported (only {known})")
    if "fuzzy_match" in (spec.reference_answers or {}):
        raise TaskFileError(f"{where}: fuzzy_match needs a model as judge; it is not supported")
    for target in spec.program_html:
        if target.url.startswith("func:") or target.locator.strip().startswith("func:"):
            raise TaskFileError(f"{where}: func: targets run WebArena's site helpers; not supported")
        if target.locator.strip() and not target.locator.strip().startswith(("document.", "[...document.")):
            raise TaskFileError(f"{where}: locator {target.locator[:60]!r} is not a document.… expression")
    start = config.start_url.split(OR)[0].strip()
    return Task(
        id=f"webarena.{config.task_id}",
        url=_sites(start, where),
        goal=config.intent,
        reward=WebArenaReward(config, where),
        judges_answer=True,
        max_steps=max_steps,
        timeout_s=timeout_s,
    )


def parse_configs(
    text: str,
    *,
    name: str = "<configs>",
    max_steps: int = DEFAULT_MAX_STEPS,
    timeout_s: float = DEFAULT_TIMEOUT_S,
) -> list[Task]:
    """The tasks of a JSON ``text`` holding one WebArena config or a list of them.

    Raises :class:`TaskFileError` for bad JSON, a config without the fields WebArena's
    have, an evaluator this module does not support, a site whose environment variable
    is not set, a duplicate ``task_id``, or no configs.
    """
    try:
        raw = json.loads(text)
    except ValueError as error:
        raise TaskFileError(f"{name}: not JSON ({error})") from None
    configs = raw if isinstance(raw, list) else [raw]
    tasks = [_task(c, f"{name}[{i}]", max_steps, timeout_s) for i, c in enumerate(configs)]
    if not tasks:
        raise TaskFileError(f"{name}: no configs")
    ids = [t.id for t in tasks]
    for task_id in ids:
        if ids.count(task_id) > 1:
            raise TaskFileError(f"{name}: task_id {task_id.removeprefix('webarena.')} is used twice")
    return tasks


def load_configs(path: str | os.PathLike[str], **bounds: Any) -> list[Task]:
    """Read the config file at ``path`` (see :func:`parse_configs`); raises :class:`TaskFileError`
    also when it cannot be read."""
    where = Path(path)
    try:
        text = where.read_text(encoding="utf-8")
    except OSError as error:
        raise TaskFileError(f"{where}: cannot read the config file ({error.strerror})") from None
    return parse_configs(text, name=str(where), **bounds)
