"""In-Between on the core envelope: observe, phase_name, event_view, termination, GameInfo."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import load_game
from aceydeucey.core import Seeded, Table
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import ENVELOPE_KEYS
from aceydeucey.inbetween.bots import RandomBot
from aceydeucey.inbetween.game import InBetweenGame, InBetweenState, PublicPhase, players_range
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.locale import render_error
from tests.inbetween.inbetween_helpers import new, play
from tests.inbetween.test_properties import rule_sets


def _states(preset: str, seed: int) -> list[InBetweenState]:
    game = load_game("inbetween", preset=preset)
    table = Table(game, [RandomBot(seed + i) for i in range(game.num_players)], chance=Seeded(seed))
    states = [table.state]
    while not table.state.is_terminal():
        states.append(table.step())  # type: ignore[arg-type]
    return states  # type: ignore[return-value]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_observation_is_the_envelope_then_game_fields(preset: str) -> None:
    kinds: set[str] = set()
    for state in _states(preset, 3):
        for seat in (None, *range(state.game.num_players)):
            obs = state.observation(seat)
            assert tuple(obs)[: len(ENVELOPE_KEYS)] == ENVELOPE_KEYS
            assert obs["seat"] == seat and "rules" not in obs
            assert obs["phase"] in get_args(PublicPhase)
            json.dumps(obs)
            if seat is None:
                assert obs["hand"] == [] and obs["hidden_hand"] == [] and obs["legal_actions"] == []
        event = state.event_view()
        if event is not None:
            for e in (event, *event.get("after", [])):
                assert isinstance(e["kind"], str) and e["kind"]
                kinds.add(e["kind"])
                assert "after" not in e or e is event
    assert "over" in kinds and "round" in kinds
    final = _states(preset, 3)[-1]
    outcome = final.outcome()
    assert outcome is not None and outcome.termination.startswith("session.")
    assert final.observation(None)["outcome"] == outcome.to_dict()


def test_bad_seats_are_argument_errors() -> None:
    state = new(players=3)
    for seat in (-1, 3, 7, True, "0"):
        with pytest.raises(ArgumentError) as info:
            state.observation(seat)  # type: ignore[arg-type]
        assert info.value.code == "observation.bad_seat"


def test_what_followed_automatically_is_under_after() -> None:
    # Seat 1 (the dealer's left) wins the whole pot of 2: the session ends in the same step.
    state = play(new(players=2), "2C", "3C", "AC", "bet 2")
    event = play(state, "7H").event_view()
    assert event is not None and event["kind"] == "settle" and event["delta"] == 2
    over = event["after"][-1]
    assert over["kind"] == "over"
    assert over["reason"] == {"code": "session.pot_emptied", "params": {}}


@pytest.mark.parametrize(
    ("options", "actions", "code", "params", "en", "pt"),
    [
        (
            {"players": 2, "rounds": 1},
            ("2C", "3C", "4C", "pass", "5C", "pass"),
            "session.rounds_played",
            {"count": 1},
            "1 complete round played",
            "1 volta completa jogada",
        ),
        (
            {"players": 2},
            ("2C", "3C", "AC", "bet 2", "7H"),
            "session.pot_emptied",
            {},
            "a bet emptied the pot",
            "uma aposta esvaziou o pote",
        ),
    ],
)
def test_terminations_are_codes_rendered_in_both_languages(
    options: dict[str, object],
    actions: tuple[str, ...],
    code: str,
    params: dict[str, object],
    en: str,
    pt: str,
) -> None:
    final = play(new(**options), *actions)
    assert final.termination() == (code, params)
    assert render_error(code, params) == en and render_error(code, params, "pt") == pt


def test_three_rounds_render_with_the_plural() -> None:
    assert render_error("session.rounds_played", {"count": 3}, "pt") == (
        "3 voltas completas jogadas"
    )
    assert render_error("session.rounds_played", {"count": 3}) == "3 complete rounds played"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_game_info_states_the_accounting_truly(preset: str) -> None:
    game = load_game("inbetween", preset=preset)
    info = game.info
    house = preset == "red-dog"
    assert info.game_id == "inbetween" and info.num_players == game.num_players
    assert (info.min_players, info.max_players) == players_range(game.rules)
    assert info.min_players == (1 if house else 2) and info.max_players in (8, 10)
    assert info.min_players <= game.num_players <= info.max_players
    assert info.zero_sum is (not house) and info.chance is True
    assert info.hidden_information is False
    for final in (_states(preset, 5)[-1], _states(preset, 6)[-1]):
        returns = final.returns()
        if info.zero_sum:
            assert sum(returns) == 0
        assert info.min_return is None or min(returns) >= info.min_return
        assert info.max_return is None or max(returns) <= info.max_return
    states = _states(preset, 7)
    assert info.max_length is None or len(states) - 1 <= info.max_length


def test_game_info_follows_the_options() -> None:
    hidden = load_game("inbetween", hidden=True, deal="both-around").info
    assert hidden.hidden_information is True
    debts = load_game("inbetween", stake_cap="none").info
    assert debts.min_return is None and debts.max_return is None
    guide = load_game("inbetween", players=3).info
    assert guide.min_return == Fraction(-100) and guide.max_return == Fraction(200)
    assert load_game("inbetween", preset="sheets").info.max_length is None  # redeals
    assert load_game("inbetween", preset="red-dog").info.zero_sum is False


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(), seed=st.integers(0, 10_000))
def test_game_info_bounds_hold_over_random_rules(rules: Rules, seed: int) -> None:
    game = InBetweenGame(rules)
    info = game.info
    table = Table(game, [RandomBot(seed + i) for i in range(rules.players)], chance=Seeded(seed))
    record = table.play(max_steps=20_000)
    assert table.state.is_terminal()
    returns = table.state.returns()
    if info.zero_sum:
        assert sum(returns) == 0
    assert info.min_return is None or min(returns) >= info.min_return
    assert info.max_return is None or max(returns) <= info.max_return
    assert info.max_length is None or len(record.actions) <= info.max_length
    # a card dealt face down: hidden cards, or a passed card set aside for the next post
    assert info.hidden_information is (rules.hidden or rules.passed_card == "next-post")
