"""Every RulesError raised by ``core/rules.py`` has a code, JSON-ready params and en/pt text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import pytest

from aceydeucey.core.errors import RulesError
from aceydeucey.core.rules import Preset, RulesBase, contradiction, option
from tests.core.toy import ToyRules


@pytest.mark.parametrize(
    ("options", "code", "english", "portuguese"),
    [
        (
            {"preset": "huge"},
            "rules.unknown_preset",
            "unknown preset 'huge' for toy; accepted: plain, big",
            "preset desconhecido 'huge' para toy; aceites: plain, big",
        ),
        (
            {"colour": "red"},
            "rules.unknown_option",
            "unknown option 'colour' for toy; accepted: factor, mode, allow_double, seats",
            "opção desconhecida 'colour' para toy; aceites: factor, mode, allow_double, seats",
        ),
        (
            {"colour": "red", "size": 2},
            "rules.unknown_option",
            "unknown options 'colour', 'size' for toy; accepted: factor, mode, allow_double, seats",
            "opções desconhecidas 'colour', 'size' para toy",
        ),
        (
            {"factor": 0},
            "rules.out_of_range",
            "option 'factor' of toy = 0 is out of range 1..100",
            "a opção 'factor' de toy = 0 está fora do intervalo 1..100",
        ),
        (
            {"factor": "2"},
            "rules.wrong_type",
            "option 'factor' of toy must be int, not '2'",
            "a opção 'factor' de toy tem de ser int, não '2'",
        ),
        (
            {"mode": "c"},
            "rules.not_a_choice",
            "option 'mode' of toy cannot be 'c'; accepted: a, b",
            "não pode ser 'c'; aceites: a, b",
        ),
    ],
)
def test_rules_errors_are_coded(
    options: dict[str, Any], code: str, english: str, portuguese: str
) -> None:
    with pytest.raises(RulesError) as err:
        ToyRules.resolve(**options)
    assert err.value.code == code
    assert str(err.value) == english
    assert portuguese in err.value.render("pt")
    assert json.loads(json.dumps(err.value.to_dict("pt")))["code"] == code


@dataclass(frozen=True)
class _ColourRules(RulesBase):
    GAME: ClassVar[str] = "paint"
    PRESETS: ClassVar[dict[str, Preset]] = {"plain": Preset("plain", {}, "tests")}
    DEFAULT_PRESET: ClassVar[str] = "plain"

    preset: str = "plain"
    colour: Literal["red", "blue"] = option("red", help="a colour")


def test_a_value_outside_the_choices_is_coded() -> None:
    with pytest.raises(RulesError) as err:
        _ColourRules.resolve(colour="green")
    assert err.value.code == "rules.not_a_choice"
    assert err.value.params["accepted"] == ["red", "blue"]
    assert str(err.value) == "option 'colour' of paint cannot be 'green'; accepted: red, blue"
    assert err.value.render("pt") == (
        "a opção 'colour' de paint não pode ser 'green'; aceites: red, blue"
    )


def test_parse_option_names_the_unknown_option() -> None:
    with pytest.raises(RulesError) as err:
        ToyRules.parse_option("zz", "1")
    assert err.value.code == "rules.unknown_option" and err.value.params["count"] == 1
    assert str(err.value).startswith("unknown option 'zz' for toy; accepted: factor")
    assert err.value.render("pt").startswith("opção desconhecida 'zz' para toy")


def test_contradiction_names_both_options() -> None:
    rules = ToyRules.resolve(mode="b", allow_double=False)
    err = contradiction(rules, "mode", "allow_double")
    assert err.code == "rules.contradiction"
    assert str(err) == "option 'mode' = 'b' contradicts option 'allow_double' = False"
    assert err.render("pt") == "a opção 'mode' = 'b' contradiz a opção 'allow_double' = False"
