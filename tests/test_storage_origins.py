"""Loading a storage state reaches no network, however its origins are spelled (BR-6; issue 35, finding 5).

:func:`cdpagent.primitives.origins.web_origin` is pure and tested here on its own, without a
browser. The browser test (tests/test_primitives.py) serves a loopback probe and counts the
requests that reach it while a storage state naming it in every spelling is loaded: none.
"""

from __future__ import annotations

import pytest

from cdpagent.primitives.origins import web_origin


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("http://0x7f000001:8000", "http://127.0.0.1:8000"),
        ("http://127.1:8000", "http://127.0.0.1:8000"),
        ("http://0177.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http://2130706433:8000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1.:8000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:08000", "http://127.0.0.1:8000"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000"),
        ("HTTP://LocalHost:80", "http://localhost"),
        ("https://a.example:443", "https://a.example"),
        ("http://[::ffff:127.0.0.1]:9", "http://[::ffff:7f00:1]:9"),
        ("http://[0:0:0:0:0:0:0:1]", "http://[::1]"),
        ("http://[2001:db8:0:0:1:0:0:1]", "http://[2001:db8::1:0:0:1]"),
        ("http://bücher.example", "http://xn--bcher-kva.example"),
    ],
)
def test_br6_web_origin_is_the_browsers_own_form(text: str, origin: str) -> None:
    assert web_origin(text) == origin


@pytest.mark.parametrize(
    "text",
    [
        "http://127.0.0.1:8000#top", "http://127.0.0.1:8000/path", "http://127.0.0.1:8000?q", "ftp://x",
        "http://user@127.0.0.1", "http://256.0.0.1", "http://1.2.3.4.5", "http://1.2.3.09", "http://h:99999",
        "http://h:-1", "http://h:８０", "http://x y", "http://[::1", "http://[::g]", "http://",
        "127.0.0.1:80",
    ],
)  # fmt: skip
def test_br6_web_origin_refuses_what_is_no_origin(text: str) -> None:
    with pytest.raises(ValueError):
        web_origin(text)
