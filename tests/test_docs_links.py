"""Every relative link in the README and in docs/ names a file that exists, and a heading there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_relative_links_resolve() -> None:
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)


TEST_REF = re.compile(r"(tests/test_\w+\.py)::(\w+)")


def test_every_test_a_page_points_to_exists() -> None:
    """A sentence that names its test (``tests/test_x.py::test_y``, as docs/security.md) names a real one."""
    missing = []
    for page in PAGES:
        for path, name in TEST_REF.findall(page.read_text(encoding="utf-8")):
            source = ROOT / path
            if not source.exists() or not re.search(rf"^(async )?def {name}\(", source.read_text(), re.M):
                missing.append(f"{page.relative_to(ROOT)}: {path}::{name}")
    assert not missing, "\n".join(missing)
