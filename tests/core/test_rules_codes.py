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
            # the preset key's label: the form's "Rules (preset)" once toy is registered
            "toy has no “huge”; choose one of: plain, big",
            "toy não tem «huge»; escolha uma de: plain, big",
        ),
        (
            {"colour": "red"},
            "rules.unknown_option",
            "toy has no option 'colour'; its options are: factor, mode, allow_double, seats",
            "toy não tem a opção 'colour'; as suas opções são: factor, mode, allow_double, seats",
        ),
        (
            {"colour": "red", "size": 2},
            "rules.unknown_option",
            "toy has no options 'colour', 'size'; "
            "its options are: factor, mode, allow_double, seats",
            "toy não tem as opções 'colour', 'size'",
        ),
        (
            {"factor": 0},
            "rules.out_of_range",
            "“factor” must be a whole number from 1 to 100 (it was 0)",
            "«factor» tem de ser um número inteiro de 1 a 100 (era 0)",
        ),
        (
            {"factor": "2"},
            "rules.wrong_type",
            "“factor” must be a whole number, not '2'",
            "«factor» tem de ser um número inteiro, não '2'",
        ),
        (
            {"mode": "c"},
            "rules.not_a_choice",
            "“mode” cannot be “c”; choose one of: a, b",
            "não pode ser «c»; escolha uma de: a, b",
        ),
    ],
)
def test_rules_errors_are_coded(
    options: dict[str, Any], code: str, english: str, portuguese: str
) -> None:
    with pytest.raises(RulesError) as err:
        ToyRules.resolve(**options)
    assert err.value.code == code
    assert str(err.value).endswith(english)
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
    assert err.value.params["options"] == ["colour"]
    assert str(err.value) == "“colour” cannot be “green”; choose one of: red, blue"
    assert err.value.render("pt") == "«colour» não pode ser «green»; escolha uma de: red, blue"


def test_parse_option_names_the_unknown_option() -> None:
    with pytest.raises(RulesError) as err:
        ToyRules.parse_option("zz", "1")
    assert err.value.code == "rules.unknown_option" and err.value.params["count"] == 1
    assert str(err.value).startswith("toy has no option 'zz'; its options are: factor")
    assert err.value.render("pt").startswith("toy não tem a opção 'zz'")


def test_contradiction_names_both_options() -> None:
    rules = ToyRules.resolve(mode="b", allow_double=False)
    err = contradiction(rules, "mode", "allow_double")
    assert err.code == "rules.contradiction"
    assert str(err) == "“mode: b” contradicts “allow_double: no”"
    assert err.render("pt") == "«mode: b» contradiz «allow_double: não»"
    assert err.params["options"] == ["mode", "allow_double"]
    assert (err.params["value"], err.params["other_value"]) == ("b", False)
