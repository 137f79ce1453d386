from conftest import PAGES

import cdpagent


async def test_open_and_evaluate(browser: cdpagent.Browser) -> None:
    tab = await browser.open(PAGES / "basic.html")
    result = await tab.session.send(
        "Runtime.evaluate", {"expression": "document.title", "returnByValue": True}
    )
    assert result["result"]["value"] == "Basic page"
