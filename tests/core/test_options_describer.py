"""One option describer (``core.options``) for the rules, the command line and the server.

Every option is introspected once: its readable type, its choices (the ``Literal``'s
words, never declared a second time), its range, default and JSON schema; the same
description reaches ``/api/games`` and the lobby form, and the same reading of text
serves ``-o option=value`` and form fields.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.cli.common import parse_options
from aceydeucey.core.errors import RulesError
from aceydeucey.core.options import option_specs
from aceydeucey.core.registry import BUILTIN_GAME_IDS, game_class
from aceydeucey.core.rules import RulesBase
from aceydeucey.locale import option_label
from aceydeucey.server.api import describe_games

LANGS = ("en", "pt")


def _rules(game_id: str) -> type[RulesBase]:
    return game_class(game_id).rules_class


@pytest.mark.parametrize("lang", LANGS)
def test_the_server_describes_options_with_the_one_describer(lang: str) -> None:
    for game in describe_games(lang):
        assert game["options"] == RulesBase.describe_options(game["id"], lang)
        types = {o["type"] for o in game["options"]}
        assert not {"choice", "int|none"} & types  # the second describer's words are gone


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
def test_choices_come_from_the_literal_alone(game_id: str) -> None:
    rules = _rules(game_id)
    hints = typing.get_type_hints(rules)
    for f in dataclasses.fields(rules):  # type: ignore[arg-type]
        assert "choices" not in f.metadata, f"{f.name} repeats its Literal"
        spec = rules.option_spec(f.name)
        if typing.get_origin(hints[f.name]) is typing.Literal:
            assert spec.choices == typing.get_args(hints[f.name])
    assert rules.option_spec(rules.PRESET_KEY).choices == tuple(rules.PRESETS)


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
def test_the_json_schema_agrees_with_the_description(game_id: str) -> None:
    for entry in RulesBase.describe_options(game_id, "pt"):
        schema = entry["schema"]
        assert schema["default"] == entry["default"]
        assert schema.get("minimum") == entry["min"] and schema.get("maximum") == entry["max"]
        assert schema.get("description") == entry["help"]
        if entry["choices"] is not None:
            assert schema["enum"] == entry["choices"]
        kinds = {"int": "integer", "bool": "boolean", "list[int]": "array"}
        if entry["type"] in kinds:
            assert schema["type"] == kinds[entry["type"]]
        if entry["nullable"]:
            assert {"type": "null"} in schema["anyOf"]


def _texts(value: Any) -> list[str]:
    if isinstance(value, bool):
        return ["true" if value else "false", "YES" if value else "off"]
    if value is None:
        return ["none", "NULL"]
    if isinstance(value, tuple):
        return [",".join(map(str, value)), " , ".join(map(str, value))]
    return [str(value), f"  {str(value).upper()} "]


@pytest.mark.parametrize("game_id", BUILTIN_GAME_IDS)
def test_text_reads_back_to_every_value_a_form_or_the_command_line_offers(game_id: str) -> None:
    rules = _rules(game_id)
    for spec in option_specs(rules):
        values = list(spec.choices or ()) or [spec.default]
        if spec.min is not None:
            values.append(spec.min)
        for value in values:
            for text in _texts(value):
                assert rules.parse_option(spec.name, text) == value, (spec.name, text)
        parsed = parse_options(rules, [f"{spec.name}={_texts(values[0])[0]}"])
        assert parsed == {spec.name: values[0]}


@settings(max_examples=60, deadline=None)
@given(
    game_id=st.sampled_from(BUILTIN_GAME_IDS),
    text=st.text(alphabet="abcxyz-_0123456789, ", max_size=12),
)
def test_text_of_no_value_is_refused_with_a_code_naming_the_option(game_id: str, text: str) -> None:
    rules = _rules(game_id)
    for spec in option_specs(rules):
        if spec.preset_key:
            continue
        value = rules.parse_option(spec.name, text)
        try:
            spec.check(value)
        except RulesError as err:
            assert err.code in ("rules.wrong_type", "rules.not_a_choice", "rules.out_of_range")
            assert err.params["option"] == spec.name and err.params["options"] == [spec.name]
            assert option_label(game_id, spec.name, "pt") in err.render("pt")


def test_a_word_outside_a_literal_lists_the_accepted_words_in_both_languages() -> None:
    rules = _rules("inbetween")
    with pytest.raises(RulesError) as err:
        rules.resolve(reshuffle="sometimes")
    assert err.value.code == "rules.not_a_choice"
    assert err.value.params["accepted"] == ["round", "deck-out", "twice-through"]
    assert "Em cada volta, Quando o baralho acaba, Depois de" in err.value.render("pt")
    assert "deck-out" not in err.value.render("pt")
    with pytest.raises(RulesError) as wrong:
        rules.resolve(players="four")
    assert wrong.value.code == "rules.wrong_type" and wrong.value.params["expected"] == "int"
