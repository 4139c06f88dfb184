"""Every error of the In-Between engine is coded, with params, in English and Portuguese.

Each precise reason of ``illegal_error`` is reached by a scenario; then seeded sessions of
every preset try bad input at every step and check that no error falls back to a ``.text``
code and that the Portuguese differs from the English.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from aceydeucey import load_game
from aceydeucey.core import Seeded
from aceydeucey.core.errors import (
    AceyDeuceyError,
    ActionSyntaxError,
    ArgumentError,
    IllegalActionError,
)
from aceydeucey.inbetween.game import InBetweenState
from aceydeucey.inbetween.rules import PRESET_NAMES
from aceydeucey.inbetween.settle import settle
from aceydeucey.locale import catalog
from tests.inbetween.inbetween_helpers import new, play

THREE = {"preset": "three-posts", "players": 2}
RED = {"preset": "red-dog", "players": 2}
SCENARIOS: list[tuple[dict[str, Any], tuple[str, ...], str, str, str, str]] = [
    # options, actions, bad input, code, English, Portuguese
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "bet 3",
        "stake.above_max",
        "bet 3: at most 2, the pot of 2",
        "apostar 3: no máximo 2, o pote de 2",
    ),
    (
        {"players": 8, "starting_chips": 10},
        ("2C", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "KC"),
        "bet 5",
        "stake.above_max",
        "bet 5: at most 4, half your 9 chips",
        "apostar 5: no máximo 4, metade das suas 9 fichas",
    ),
    (
        {"players": 5, "starting_chips": 10, "post_multiplier": 3},
        ("2C", "3C", "4C", "5C", "6C", "KD"),
        "bet 4",
        "stake.above_max",
        "bet 4: at most 3, your 9 chips must cover a loss of 3 stakes",
        "apostar 4: no máximo 3, as suas 9 fichas têm de cobrir uma perda de 3 apostas",
    ),
    (
        {"players": 5, "starting_chips": 3, "stake_cap": "chips"},
        ("2C", "3C", "4C", "5C", "6C", "KD"),
        "bet 3",
        "stake.above_max",
        "bet 3: at most 2, your 2 chips",
        "apostar 3: no máximo 2, as suas 2 fichas",
    ),
    (
        {"players": 3, "ante_back": True},
        ("2C", "3C", "4C", "KD"),
        "bet 2",
        "stake.above_max",
        "bet 2: at most 1, the ante of 1 until you have won a bet"
        " (the house rule ‘Stake the ante until a win’)",
        "apostar 2: no máximo 1, o ante de 1 até ganhar uma aposta"
        " (a regra da casa ‘Apostar só a entrada até ganhar’)",
    ),
    (
        {"players": 3, "round_limits": (1, 2)},
        ("2C", "3C", "4C", "KD"),
        "bet 2",
        "stake.above_max",
        "bet 2: at most 1, the round-1 limit of 1",
        "apostar 2: no máximo 1, o limite de 1 da volta 1",
    ),
    (
        {"players": 4, "first_round_limit": "half-pot"},
        ("2C", "3C", "4C", "5C", "KD"),
        "bet 3",
        "stake.above_max",
        "bet 3: at most 2, half the pot of 4 in the first round",
        "apostar 3: no máximo 2, metade do pote de 4 na primeira volta",
    ),
    (
        {"players": 4, "first_round_limit": "ante"},
        ("2C", "3C", "4C", "5C", "KD"),
        "bet 2",
        "stake.above_max",
        "bet 2: at most 1, the ante of 1 in the first round",
        "apostar 2: no máximo 1, o ante de 1 na primeira volta",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "bet -1",
        "stake.below_min",
        "bet -1: at least 1, the smallest stake",
        "apostar -1: pelo menos 1, a aposta mínima",
    ),
    (
        {"players": 2, "ante": 2, "min_stake": "ante"},
        ("2C", "3C", "AD"),
        "bet 1",
        "stake.below_min",
        "bet 1: at least 2, the ante of 2, the smallest stake these rules allow",
        "apostar 1: pelo menos 2, o ante de 2, a aposta mínima destas regras",
    ),
    (
        THREE,
        ("3C", "5C", "9D", "KH", "pass"),
        "bet 0",
        "stake.below_min",
        "bet 0: at least 1, the second bet of three posts is at least the ante of 1",
        "apostar 0: pelo menos 1, a segunda aposta das três balizas é de pelo menos o ante de 1",
    ),
    (
        THREE,
        ("3C", "5C", "9D", "KH", "pass"),
        "pass",
        "pass.compulsory",
        "pass: the second bet of three posts is compulsory while affordable",
        "passar: a segunda aposta das três balizas é obrigatória enquanto for possível",
    ),
    (
        {"players": 2, "starting_chips": 2},
        ("2C", "3C", "AD"),
        "bet 1",
        "stake.none_affordable",
        "bet 1: no stake is affordable now; you may only pass",
        "apostar 1: nenhuma aposta é possível agora; só pode passar",
    ),
    (
        {"preset": "sheets", "players": 2},
        ("2C", "AD"),
        "higher 1",
        "call.not_with_posts",
        "higher 1: not with these posts; you may bet, pass",
        "acima 1: não com estas balizas; pode: apostar, passar",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "split",
        "split.not_in_rules",
        "split: these rules do not let a pair of posts be split",
        "dividir: estas regras não deixam dividir um par de balizas",
    ),
    (
        {"players": 2, "pairs": "split"},
        ("2C", "3C", "AD"),
        "split",
        "split.not_a_pair",
        "split: only a pair of posts may be split",
        "dividir: só um par de balizas se pode dividir",
    ),
    (
        {"players": 2, "pairs": "split"},
        ("7C", "3C", "7D", "split", "7H"),
        "split",
        "split.once",
        "split: a pair is split only once",
        "dividir: um par só se divide uma vez",
    ),
    (
        {"players": 2, "pairs": "split", "ante": 2, "starting_chips": 3},
        ("7C", "3C", "7D"),
        "split",
        "split.cannot_pay",
        "split: a split costs the ante of 2; you have 1 chip",
        "dividir: dividir custa o ante de 2; tem 1 ficha",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "aces low",
        "aces.not_in_rules",
        "aces low: under these rules the dealer does not call the aces",
        "ases baixos: nestas regras o dador não declara os ases",
    ),
    (
        {"players": 2, "aces": "dealer-declares"},
        ("aces high", "2C", "3C", "AD"),
        "aces low",
        "aces.not_now",
        "aces low: the dealer calls the aces before the round's first card",
        "ases baixos: o dador declara os ases antes da primeira carta da volta",
    ),
    (
        {"players": 2, "aces": "dealer-declares"},
        (),
        "bet 1",
        "aces.declare_first",
        "bet 1: seat 1, the dealer, must first declare aces high or low",
        "apostar 1: o lugar 1, o dador, tem primeiro de declarar os ases altos ou baixos",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "ace low",
        "ace.not_in_rules",
        "ace low: under these rules an ace is not called high or low",
        "ás baixo: nestas regras um ás não se declara alto nem baixo",
    ),
    (
        {"players": 2, "aces": "first-card"},
        ("2C", "3C", "AD"),
        "ace low",
        "ace.not_now",
        "ace low: only an ace dealt as the first post may be called, when it is dealt",
        "ás baixo: só um ás dado como primeira baliza pode ser declarado, quando é dado",
    ),
    (
        {"players": 2, "aces": "first-card"},
        ("AC", "2C"),
        "bet 1",
        "ace.call_first",
        "bet 1: first call the ace: ace high or ace low",
        "apostar 1: declare primeiro o ás: ás alto ou ás baixo",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "stay",
        "raise.not_in_rules",
        "stay: only in Red Dog, where the house banks",
        "manter: só no Red Dog, em que a casa faz a banca",
    ),
    (
        RED,
        ("3C", "9D"),
        "raise 2",
        "raise.out_of_range",
        "raise 2: a raise is 1 to 1 (up to the ante, within your chips)",
        "aumentar 2: um aumento vai de 1 a 1 (até ao ante, dentro das suas fichas)",
    ),
    (
        {**RED, "starting_chips": 1},
        ("3C", "9D"),
        "raise 1",
        "raise.none_affordable",
        "raise 1: you have no chips left to raise; you may stay",
        "aumentar 1: não tem fichas para aumentar; pode manter",
    ),
    (
        RED,
        ("3C", "9D"),
        "bet 1",
        "raise.stay_or_raise",
        "bet 1: after the spread you may only stay or raise",
        "apostar 1: depois do intervalo só pode manter ou aumentar (aumentar N)",
    ),
    (
        {"players": 2},
        ("2C",),
        "2C",
        "card.none_left",
        "2C: no copy of that card is left in the deck",
        "2C: não resta nenhuma cópia dessa carta no baralho",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "5H",
        "card.not_now",
        "5H: a card cannot be dealt now; seat 2 must decide",
        "5H: agora não se pode dar uma carta; o lugar 2 tem de decidir",
    ),
    (
        {"players": 2},
        (),
        "pass",
        "decision.chance_deals",
        "pass: it is chance's turn to deal a card",
        "passar: é a vez do acaso dar uma carta",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "fold",
        "decision.unknown_here",
        "'fold' is not an In-Between action; you may now: pass, bet 1\u20132",
        "'fold' não é uma jogada do In-Between; agora pode: passar, apostar 1\u20132",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "bet five",
        "decision.amount_not_whole",
        "'bet five': the amount of 'bet' must be a whole number of chips",
        "'bet five': o valor de 'bet' tem de ser um número inteiro de fichas",
    ),
    (
        {"players": 2},
        ("2C", "3C", "AD"),
        "bet",
        "decision.amount_missing",
        "'bet': say how many chips, e.g. 'bet 2'",
        "'bet': diga quantas fichas, por exemplo 'bet 2'",
    ),
]


@pytest.mark.parametrize(
    ("options", "actions", "bad", "code", "en", "pt"),
    SCENARIOS,
    ids=[f"{s[3]}-{i}" for i, s in enumerate(SCENARIOS)],
)
def test_each_reason_is_reachable_and_rendered_in_both_languages(
    options: dict[str, Any], actions: tuple[str, ...], bad: str, code: str, en: str, pt: str
) -> None:
    state = play(new(**options), *actions)
    before = hash(state)
    with pytest.raises(AceyDeuceyError) as info:
        state.apply(bad)
    err = info.value
    assert (err.code, str(err), err.render("pt")) == (code, en, pt)
    assert hash(state) == before
    if code in ("decision.amount_not_whole", "decision.amount_missing", "decision.unknown_here"):
        assert isinstance(err, ActionSyntaxError)
    else:
        assert isinstance(err, IllegalActionError)
        assert state.explain_illegal(state.game.parse_action(bad)) == en


def test_the_issue_example_has_the_limit_and_its_reason_as_params() -> None:
    state = play(new(players=3), "2C", "3C", "4C", "AD")
    with pytest.raises(IllegalActionError) as info:
        state.apply("bet 9")
    err = info.value
    assert err.to_dict() == {
        "code": "stake.above_max",
        "params": {
            "action": "bet 9",
            "limit": 3,
            "because": {"code": "stake.because_pot", "params": {"pot": 3}},
        },
        "message": "bet 9: at most 3, the pot of 3",
    }


def test_one_chip_is_singular_in_both_languages() -> None:
    state = play(new(players=4, starting_chips=4, stake_cap="chips"), "2C", "3C", "4C", "5C")
    state = play(state, "KD", "bet 3", "KH")  # seat 1 hits the post: 3 - 2*3 = -3
    assert state.chips[1] == -3
    one = play(new(players=5, starting_chips=2, stake_cap="chips"), "2C", "3C", "4C", "5C", "6C")
    one = play(one, "KD")
    with pytest.raises(IllegalActionError) as info:
        one.apply("bet 2")
    assert str(info.value) == "bet 2: at most 1, your 1 chip"
    assert info.value.render("pt") == "apostar 2: no máximo 1, a sua 1 ficha"


def test_a_foreign_object_is_refused_with_what_is_legal() -> None:
    state = play(new(players=2), "2C", "3C", "AD")
    with pytest.raises(ActionSyntaxError) as info:
        state.apply(42)  # type: ignore[arg-type]
    assert info.value.code == "action.not_of_game"
    assert str(info.value).endswith("you may now: pass, bet 1\u20132")


def test_settle_refuses_a_pair_call_without_a_pair() -> None:
    with pytest.raises(ArgumentError) as info:
        settle(load_game("inbetween").rules, (3, 9), "higher", 5)  # type: ignore[arg-type]
    assert info.value.code == "settle.call_needs_pair"
    assert "par de balizas" in info.value.render("pt")


BAD_INPUTS = (
    "bet 999",
    "bet -1",
    "bet 0",
    "higher 1",
    "lower 999",
    "split",
    "ace low",
    "aces high",
    "raise 99",
    "stay",
    "fold",
    "bet",
    "bet x",
    "5H",
    "pass",
    "apostar 2",
)


def _codes(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["code"]] if isinstance(value.get("code"), str) else []
        for v in value.values():
            found.extend(_codes(v))
        return found
    if isinstance(value, list):
        return [c for v in value for c in _codes(v)]
    return []


def _check(err: AceyDeuceyError) -> None:
    codes = [err.code, *_codes(err.params)]
    assert not [c for c in codes if c.endswith(".text")], err.to_dict()
    pt = err.render("pt")
    assert ".text" not in pt and pt != str(err), err.to_dict()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_bad_input_at_every_step_is_coded_and_translated(preset: str) -> None:
    game = load_game("inbetween", preset=preset)
    refused = 0
    for seed in range(4):
        rng = random.Random(seed)
        chance = Seeded(seed)
        state = game.new_initial_state()
        assert isinstance(state, InBetweenState)
        while not state.is_terminal():
            before = hash(state)
            to_act = state.current_player()
            for text in BAD_INPUTS:
                try:
                    state.parse_action(text)
                except AceyDeuceyError as err:
                    _check(err)
                    refused += 1
            others = [s for s in range(game.num_players) if s != to_act]
            if others:
                legal = list(state.legal_actions())
                with pytest.raises(AceyDeuceyError) as info:
                    state.apply(legal[0], seat=others[0])
                _check(info.value)
            assert hash(state) == before
            if state.is_chance_node():
                action = chance.choose(state)
            else:
                action = rng.choice(list(state.legal_actions()))
            state = state.apply(action)
        for text in ("pass", "bet 1"):
            with pytest.raises(AceyDeuceyError) as info:
                state.apply(text)
            _check(info.value)
    assert refused > 100


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_no_refusal_names_an_option_by_its_code(lang: str) -> None:
    # a player is told what the rules do ("only in Red Dog, where the house banks"), never
    # an option's code and value ("banking='house'"), which only a developer reads
    for key, text in catalog("inbetween_errors", lang).items():
        assert not re.search(r"\b[a-z_]+=['{]", text), (key, text)
