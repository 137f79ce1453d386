"""Issue 20's corpus: MiniWoB++ task pages solved through ``act`` from the observation alone.

Each test opens one vendored MiniWoB++ page (``tests/realworld/miniwob/``, MIT) in a
fresh tab of the session browser with its episode seeded, lets the scripted policy of
``tests/miniwob_policy.py`` solve it from the observation's text and tools, and asserts
the page's own reward: MiniWoB's ``WOB_RAW_REWARD_GLOBAL`` is 1 only when the page's
success check passed. The reward is the one thing read from the page.
"""

from __future__ import annotations

import pytest
from conftest import evaluate
from miniwob_policy import POLICIES, REWARD, Episode, Unseen, task_url

import cdpagent

# Tasks of the corpus this test leaves out for now, and why: each is a gap of the
# observation or of an action kind (issue 20), not of the page or the policy.
# bench/realworld.py still runs them (the policy success rate counts them as failures).
# Empty since the last four (date picker days, ARIA-less sliders) were solved.
NOT_YET: dict[str, str] = {}

TASKS = sorted(t for t in POLICIES if t not in NOT_YET)


@pytest.mark.parametrize("task", TASKS)
async def test_miniwob_task_solved_from_the_observation(browser: cdpagent.Browser, task: str) -> None:
    tab = await browser.open(task_url(task))
    episode = Episode(tab)
    try:
        await POLICIES[task](episode)
    except Unseen as unseen:
        pytest.fail(f"{task}: {unseen}\n" + "\n".join(episode.log))
    done, reward, reason = await evaluate(tab, REWARD)
    transcript = "\n".join(episode.log)
    assert done, f"{task}: the episode did not end after the policy's {episode.acts} acts\n{transcript}"
    assert reward == 1, f"{task}: reward {reward} ({reason})\n{transcript}"
