"""A scripted policy for the stand-in shop of ``tests/webarena/`` (``--policy webarena_support:policy``).

It does the same thing for both configs of an evaluator type — answers the blue mug's
price, opens the blue mug's page, posts "great" on the blue mug — so that one config
of each pair matches and the other does not (tests/test_eval_webarena.py).
"""

from __future__ import annotations

import re

from cdpagent.eval.policy import PolicyEpisode


async def _tool(episode: PolicyEpisode, word: str) -> str:
    seen = await episode.observe()
    names = [str(t["function"]["name"]) for t in seen.tools]
    found = next((n for n in names if word in n), None)
    assert found is not None, f"no tool with {word!r} in its name: {names}"
    return found


async def policy(episode: PolicyEpisode) -> str:
    """Play configs 1-6 of tests/webarena/configs.json."""
    number = int(episode.task.removeprefix("webarena."))
    if number in (1, 2):
        return "$12"
    if number in (3, 4):
        # The shop's links are rows: "- 1. Blue mug (Blue mug — $12)" (an item that begins
        # with its link is cited by the link's words); the row action opens one.
        seen = await episode.observe()
        row = re.search(r"^- \d+\. (.+?) \(Blue mug", seen.text, re.M)
        assert row is not None, seen.text
        await episode.call(await _tool(episode, "open"), {"record": row[1]})
        return "Opened."
    await episode.call(await _tool(episode, "comment"), {"text": "great"})
    await episode.call(await _tool(episode, "post"))
    return "Posted."

