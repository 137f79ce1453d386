"""SF-2: every requirement id the repository cites is listed in docs/requirements.md, so an id
resolves inside the repository; and the user-facing help and README cite none."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from scripts_support import load_script

from cdpagent.commandline.main import _parser

ROOT = Path(__file__).resolve().parent.parent
LISTED = ROOT / "docs" / "requirements.md"
PREFIXES = "DR|PA|OB|CX|SF|WM|SC|BR|EV"
CITED = re.compile(rf"\b({PREFIXES})-(\d+)\b")
TEST_NAME = re.compile(rf"\bdef test_({PREFIXES.lower()})(\d+)_")


def _tracked() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.splitlines()
    kinds = (".py", ".md", ".js", ".toml", ".html")
    return [ROOT / n for n in names if n.endswith(kinds) and (ROOT / n).is_file()]


def test_sf2_every_cited_requirement_id_is_listed() -> None:
    listed = set(re.findall(rf"^- \*\*(({PREFIXES})-\d+)\b", LISTED.read_text(), re.MULTILINE))
    listed_ids = {full for full, _ in listed}
    used: dict[str, str] = {}
    for path in _tracked():
        if path == LISTED:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for prefix, number in CITED.findall(text):
            used.setdefault(f"{prefix}-{number}", str(path.relative_to(ROOT)))
        for prefix, number in TEST_NAME.findall(text):
            used.setdefault(f"{prefix.upper()}-{number}", str(path.relative_to(ROOT)))
    missing = {i: where for i, where in used.items() if i not in listed_ids}
    assert not missing, f"ids used but not in docs/requirements.md: {missing}"
    assert len(used) > 30  # the scan found the repository's ids


def test_sf2_help_and_readme_cite_no_requirement_ids() -> None:
    parser, commands = _parser()
    texts = {"cdpagent --help": parser.format_help()}
    action = next(a for a in parser._actions if a.dest == "command")
    for name in commands:
        texts[f"cdpagent {name} --help"] = action.choices[name].format_help()  # type: ignore[index]
    texts["README.md"] = (ROOT / "README.md").read_text()
    cited = {where: CITED.findall(text) for where, text in texts.items() if CITED.search(text)}
    assert not cited, cited
    assert "SPEC" not in texts["README.md"]


def test_sf1_the_docs_reference_check_tells_a_broken_reference() -> None:
    """``make docs`` (scripts/check_docs.py) fails on a docstring reference that names nothing.

    The full scan imports every module (seconds) and is left to ``make docs``.
    """
    check_docs = load_script("check_docs")
    import cdpagent.errors

    assert check_docs.resolves("~cdpagent.errors.PageApiError", cdpagent.errors)
    assert not check_docs.resolves("cdpagent.errors.NoSuchError", cdpagent.errors)
    assert not check_docs.resolves("NoSuchName", cdpagent.errors)
