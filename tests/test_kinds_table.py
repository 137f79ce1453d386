"""The action kinds as one table (issue 21), without a browser: the performers, the operation's
act arguments, the argument check, the page scripts' kind list and the chord parser all read it.
tests/test_actions_kinds.py proves each kind on real Chromium."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec

from cdpagent.act.inputs import ACT_INPUTS, ActArgs, argument_refusal
from cdpagent.act.perform import PERFORMERS
from cdpagent.cdp.input import parse_chord
from cdpagent.snapshot.kinds import KINDS, PAGE_KINDS, Kind
from cdpagent.snapshot.options import ObserveOptions

JS = Path(__file__).resolve().parent.parent / "js"


def test_every_kind_is_one_row_of_the_table_that_performers_schemas_and_page_scripts_read() -> None:
    assert set(KINDS) == set(typing.get_args(Kind))
    assert PERFORMERS.keys() == KINDS.keys()
    # Every act input is some kind's argument, of the type the operation's Struct decodes.
    arguments = {spec.argument.name: spec.argument for spec in KINDS.values() if spec.argument}
    assert set(arguments) == set(ACT_INPUTS)
    info = msgspec.inspect.type_info(ActArgs)
    assert isinstance(info, msgspec.inspect.StructType)
    fields = {f.name: f.type for f in info.fields}
    python: dict[type[msgspec.inspect.Type], type] = {
        msgspec.inspect.StrType: str, msgspec.inspect.BoolType: bool, msgspec.inspect.FloatType: float,
        msgspec.inspect.DictType: dict, msgspec.inspect.ListType: list,
    }  # fmt: skip
    for name, argument in arguments.items():
        field = fields[name]
        if isinstance(field, msgspec.inspect.Metadata):
            field = field.type
        assert isinstance(field, msgspec.inspect.UnionType), name
        (given,) = [t for t in field.types if not isinstance(t, msgspec.inspect.NoneType)]
        assert python[type(given)] is argument.type, name
    # The page scripts are handed the kinds the page performs, and list none of their own
    # (test_the_page_scripts_read_the_declarable_kinds_from_the_table proves they read them).
    assert tuple(k for k in KINDS if k != "tool") == PAGE_KINDS
    assert ObserveOptions().collector_args()["kinds"] == PAGE_KINDS
    for script in JS.rglob("*.js"):
        assert not re.search(r"KINDS\s*=\s*\[", script.read_text()), script


def test_the_argument_check_reads_the_kind_table() -> None:
    assert argument_refusal("volume", "set", ActArgs(action="volume", value=3)) is None
    assert argument_refusal("volume", "set", ActArgs(action="volume")) == "volume needs value (a number)"
    assert argument_refusal("volume", "set", ActArgs(action="volume", value=True)) == (
        "volume needs value (a number)"
    )
    assert argument_refusal("volume", "set", ActArgs(action="volume", text="9")) == (
        "volume is a set action and takes no text"
    )
    assert argument_refusal("terms", "scroll", ActArgs(action="terms")) is None  # to is optional
    assert argument_refusal("agree", "check", ActArgs(action="agree", checked=False)) is None
    # A click given files is performed as an upload: files are its argument then.
    assert argument_refusal("attach", "click", ActArgs(action="attach", files=["a.txt"])) is None
    assert argument_refusal("save", "click", ActArgs(action="save", key="Enter")) == (
        "save is a click action and takes no key"
    )


def test_chords_parse_with_their_modifiers_and_refuse_unknown_keys() -> None:
    assert parse_chord("Shift+Tab").mask == 8 and parse_chord("Shift+Tab").key.key == "Tab"
    chord = parse_chord("Ctrl+a")
    assert chord.modifiers == ("Control",) and chord.key.code == "KeyA"
    assert parse_chord("Enter").key.text == "\r"
    for bad in ("", "Hyper+a", "Enterr", "Shift+Shift+a", "a+"):
        try:
            parse_chord(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} parsed")
