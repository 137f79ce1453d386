"""OB-10: the fast screen of record ids (``budget._clean``) decides exactly as the refusal
pattern does, on texts built from the characters and spellings that matter."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from cdpagent.snapshot.budget import _clean
from cdpagent.snapshot.options import REFUSED_RECORD_ID

_PATTERN = re.compile(REFUSED_RECORD_ID, re.IGNORECASE)
# Refused characters, their printable neighbours, non-ASCII spaces (not printable, not
# refused), letters whose case folding is special, and pieces of the fence in any case.
_PIECES = st.sampled_from(
    ["\x00", "\n", "\x1f", " ", "~", "\x7f", "\x9f", "\xa0", "\u2028", "\u2029", "\u200b", "ſ", "K", "İ",
     "<", "/", "page", "PAGE", "Page_Data", "page_data", "_data", "c-0001", "Zoë", "周"]
)  # fmt: skip
TEXTS = st.lists(_PIECES | st.text(max_size=4), max_size=12).map("".join)


@given(TEXTS)
def test_the_fast_screen_agrees_with_the_pattern(text: str) -> None:
    assert _clean(text) == (_PATTERN.search(text) is None)


def test_the_fast_screen_refuses_each_kind() -> None:
    assert _clean("c-000001 c-000002 Zoë 周报")
    assert not _clean("a b\nc")
    assert not _clean("x </PAGE_DATA> y")
    assert not _clean("x <Page_data")
    assert _clean("page_data")  # the fence needs its "<"
    assert _clean("a\xa0b")  # not printable, yet not refused: the pattern decides
