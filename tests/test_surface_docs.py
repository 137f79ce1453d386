"""docs/surfaces/*.md are generated from the operations table and must be current."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripts_support import load_script

from cdpagent.ops.operations import OPERATIONS

ROOT = Path(__file__).resolve().parent.parent


gen = load_script("gen_surface_docs")


def test_the_surface_pages_are_current() -> None:
    """Fails when an operation changed and the pages were not regenerated
    (python scripts/gen_surface_docs.py)."""
    for surface in ("python", "script", "agent", "mcp"):
        path = ROOT / "docs" / "surfaces" / f"{surface}.md"
        assert path.read_text(encoding="utf-8") == gen.render(surface), f"{path} is stale"


def test_every_page_lists_every_operation_with_its_codes() -> None:
    pages = {s: gen.render(s) for s in ("python", "script", "agent", "mcp")}
    for op in OPERATIONS:
        assert f"### `{op.tool}`" in pages["mcp"] and f'"op": "{op.name}"' in pages["script"], op.name
        assert f"### `{op.tool}`" in pages["agent"], op.name
        for code in op.codes:
            assert code in pages["mcp"], (op.name, code)
    assert "`--vision`" in pages["mcp"] and "`--allow pdf`" in pages["mcp"]
    max_edge = "| `max_edge` | integer, ≥ 16, ≤ 8192 | `1568` | the longer edge in pixels at most |"
    assert max_edge in pages["python"]
    # A | inside a cell is escaped, or the table breaks.
    assert '| `format` | "jpeg" \\| "png" | `"png"` | png or jpeg |' in pages["mcp"]


def test_the_check_mode_reports_a_stale_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen, "OUT", tmp_path)
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    assert gen.main(["--check"]) == 1  # nothing written yet
    assert gen.main([]) == 0
    assert gen.main(["--check"]) == 0
    (tmp_path / "mcp.md").write_text("old\n", encoding="utf-8")
    assert gen.main(["--check"]) == 1
