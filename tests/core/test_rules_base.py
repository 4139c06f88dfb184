"""Rules as data: presets, overrides, validation messages, round trips."""

from __future__ import annotations

import pytest

from aceydeucey.core.errors import RulesError, UnknownGameError
from aceydeucey.core.registry import load_game
from tests.core.toy import ToyRules


def test_preset_values_and_overrides() -> None:
    assert ToyRules.resolve().factor == 1
    assert ToyRules.resolve(preset="big").factor == 10
    assert ToyRules.resolve(preset="big", factor=2).factor == 2


def test_unknown_preset_lists_accepted() -> None:
    with pytest.raises(RulesError, match=r"”: toy has no “huge”; choose one of: plain, big"):
        ToyRules.resolve(preset="huge")


def test_unknown_option_lists_accepted() -> None:
    with pytest.raises(
        RulesError,
        match=r"toy has no option 'colour'; its options are: factor, mode, allow_double, seats",
    ):
        ToyRules.resolve(colour="red")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"factor": 0}, r"“factor” must be a whole number from 1 to 100 \(it was 0\)"),
        ({"factor": "2"}, r"“factor” must be a whole number, not '2'"),
        ({"factor": True}, r"“factor” must be a whole number, not True"),
        ({"mode": "c"}, r"“mode” cannot be “c”; choose one of: a, b"),
        ({"allow_double": 1}, r"“allow_double” must be yes or no, not 1"),
        ({"seats": "x"}, r"“seats” must be a list of values separated by commas, not 'x'"),
        ({"seats": [1]}, r"“seats” must be a list of values separated by commas, not \(1,\)"),
    ],
)
def test_bad_values_are_named(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        ToyRules.resolve(**options)


def test_contradictory_options_name_both() -> None:
    with pytest.raises(RulesError, match=r"'mode'.*contradicts option 'allow_double'"):
        ToyRules.resolve(mode="b")
    assert ToyRules.resolve(mode="b", allow_double=False).mode == "b"


def test_dict_round_trip_and_describe() -> None:
    rules = ToyRules.resolve(preset="big", seats=("p", "q", "r"))
    data = rules.to_dict()
    assert data["seats"] == ["p", "q", "r"] and data["preset"] == "big"
    assert ToyRules.from_dict(data) == rules
    assert rules.describe() == "preset=big seats=['p', 'q', 'r']"
    assert ToyRules.resolve().describe() == "preset=plain"


def test_lists_from_json_or_the_command_line_become_tuples() -> None:
    assert ToyRules.resolve(seats=["p", "q"]).seats == ("p", "q")
    rules = ToyRules.resolve(seats=("p", "q"))
    assert ToyRules.resolve(**rules.to_dict()) == rules


def test_replace_validates() -> None:
    rules = ToyRules.resolve()
    assert rules.replace(factor=5).factor == 5
    with pytest.raises(RulesError):
        rules.replace(factor=500)


def test_option_help_lists_defaults() -> None:
    info = ToyRules.option_help()
    assert info["factor"]["default"] == 1 and info["factor"]["help"] == "payout multiplier"


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(
        UnknownGameError, match=r"unknown game 'chess'; accepted: inbetween, backgammon"
    ):
        load_game("chess")


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("factor", "7", 7),
        ("factor", "seven", "seven"),  # left as text: validation then names the problem
        ("mode", "B", "b"),
        ("allow_double", "no", False),
        ("allow_double", "true", True),
        ("seats", "p, q", ("p", "q")),
    ],
)
def test_parse_option_reads_text_by_the_options_type(name: str, text: str, value: object) -> None:
    assert ToyRules.parse_option(name, text) == value


def test_parse_option_refuses_unknown_names() -> None:
    with pytest.raises(RulesError, match="toy has no option 'colour'; its options are: factor"):
        ToyRules.parse_option("colour", "red")
