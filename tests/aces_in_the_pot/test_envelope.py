"""Aces in the Pot on the shared contract: the envelope, events, the outcome, GameInfo,
chance's actor and distribution, and every engine error coded in both languages."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import load_game
from aceydeucey.aces_in_the_pot.chain import build_chain
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import (
    AceyDeuceyError,
    ActionSyntaxError,
    ArgumentError,
    IllegalActionError,
    RulesError,
)
from aceydeucey.core.game import ENVELOPE_KEYS, TERMINAL
from aceydeucey.locale import catalog


def game(players: int = 3, **options: object) -> AcesInThePotGame:
    g = load_game("aces-in-the-pot", players=players, **options)
    assert isinstance(g, AcesInThePotGame)
    return g


def play_out(g: AcesInThePotGame, seed: int) -> list[AcesInThePotState]:
    state = g.new_initial_state()
    chance = Seeded(seed)
    states = [state]
    while not state.is_terminal():
        state = state.apply(chance.choose(state))
        states.append(state)
    return states


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 6))
def test_every_view_starts_with_the_envelope_and_is_the_same_for_every_seat(
    seed: int, players: int
) -> None:
    g = game(players)
    for state in play_out(g, seed)[:200]:
        public = state.observation(None)
        assert tuple(public)[: len(ENVELOPE_KEYS)] == ENVELOPE_KEYS
        assert "rules" not in public
        assert json.loads(json.dumps(public)) == public
        assert public["phase"] == state.phase
        for seat in range(players):
            view = state.observation(seat)
            # Nothing is hidden: a seat sees what a spectator sees, apart from its seat number.
            assert {**view, "seat": None} == public
            assert view["legal_actions"] == []  # only chance acts
        event = public["last_event"]
        assert event is None or (next(iter(event)) == "kind" and event["seat"] in range(players))


@pytest.mark.parametrize("seat", [-1, 3, 7, True, "0", 1.0])
def test_observation_refuses_what_is_not_a_seat(seat: object) -> None:
    with pytest.raises(ArgumentError):
        game(3).new_initial_state().observation(seat)  # type: ignore[arg-type]


def test_the_outcome_is_a_value_with_a_stable_code() -> None:
    final = play_out(game(3), 5)[-1]
    assert final.current_player() == TERMINAL
    outcome = final.outcome()
    assert outcome is not None
    assert outcome.termination == "aces.pot_won"
    assert outcome.winners == (final.winner,)
    assert dict(outcome.params) == {"seat": final.winner, "pot": final.pot}
    assert sum(outcome.returns) == 0  # zero-sum, as GameInfo says
    assert final.observation(None)["outcome"] == outcome.to_dict()
    assert play_out(game(3), 5)[-2].outcome() is None


def test_game_info_declares_the_facts_once() -> None:
    info = game(5, starting_chips=3).info
    assert (info.game_id, info.num_players, info.min_players, info.max_players) == (
        "aces-in-the-pot",
        5,
        3,
        12,
    )
    assert info.zero_sum and info.chance and not info.hidden_information
    assert (info.min_return, info.max_return) == (Fraction(-3), Fraction(12))
    assert info.max_length is None
    for seed in range(20):
        for r in play_out(game(5, starting_chips=3), seed)[-1].returns():
            assert info.min_return <= r <= info.max_return


def test_the_seat_throwing_is_chances_actor() -> None:
    g = game(4)
    start = g.new_initial_state()
    assert start.chance_actor() == 0  # the roll-off goes round in seat order
    assert start.apply("die 2").chance_actor() == 1
    play = g.first_turn(2)
    assert play.chance_actor() == 2
    finish = game(3).state_at((0, 1, 0), 5, 1, phase="finish", roll_number=2)
    assert finish.chance_actor() == 1  # the holder throws
    final = play_out(g, 3)[-1]
    assert final.chance_actor() is None


def test_the_two_distributions_are_shared_and_exact() -> None:
    g = game(4)
    rolloff, play = g.new_initial_state(), g.first_turn(0)
    assert rolloff.chance_distribution() is g.new_initial_state().chance_distribution()
    assert play.chance_distribution() is play.apply("5-3").chance_distribution()
    for state in (rolloff, play):
        dist = state.chance_distribution()
        exact = dict(state.chance_outcomes())
        assert {
            a: Fraction(w, dist.total) for a, w in zip(dist.actions, dist.weights, strict=True)
        } == exact


def test_a_value_that_is_no_action_is_a_syntax_error_not_a_wrong_moment() -> None:
    # Issue 8: apply(42) was explained as a move made at the wrong time.
    for state in (game().new_initial_state(), game().first_turn(1)):
        with pytest.raises(ActionSyntaxError) as info:
            state.apply(42)  # type: ignore[arg-type]
        assert info.value.code == "action.not_of_game"
        assert "42" in info.value.render("pt") and "não" in info.value.render("pt")


def test_a_value_that_is_no_action_in_backgammon_does_not_say_no_checker_moves() -> None:
    # Issue 8's report: "no checkers move now: waiting for seat 0" on that seat's own turn.
    state = load_game("backgammon").new_initial_state()
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(ActionSyntaxError) as info:
        state.apply(42)  # type: ignore[arg-type]
    assert "waiting" not in str(info.value) and "42" in str(info.value)


def _errors() -> list[AceyDeuceyError]:
    g = game(3)
    found: list[AceyDeuceyError] = []
    attempts = [
        lambda: g.new_initial_state().apply("5-3"),
        lambda: g.first_turn(0).apply("die 3"),
        lambda: g.parse_action("bet 2"),
        lambda: g.parse_action(7),  # type: ignore[arg-type]
        lambda: g.parse_action("die 7"),
        lambda: g.state_at((2, 2, 2), 1, 0),
        lambda: g.state_at((2, 2), 2, 0),
        lambda: g.state_at((0, 4, 2), 0, 0),
        lambda: g.state_at((0, 1, 0), 5, 1, phase="finish", roll_number=9),
        lambda: g.state_at((1, 1, 0), 4, 0, phase="finish"),
        lambda: g.first_turn(3),
        lambda: game(3, first_roller=3),
        lambda: AcesInThePotGame(load_game("inbetween").rules),
        lambda: build_chain(g.rules).index((9, 9, 9)),
        lambda: build_chain(game(12, starting_chips=20).rules),
    ]
    for attempt in attempts:
        try:
            attempt()
        except AceyDeuceyError as exc:
            found.append(exc)
    return found


def test_every_engine_error_has_a_code_and_renders_in_portuguese() -> None:
    errors = _errors()
    assert len(errors) == 15
    codes = catalog("aces_errors", "en")
    for exc in errors:
        assert not exc.code.endswith(".text"), exc
        assert exc.code in codes, exc.code
        pt = exc.render("pt")
        assert pt != str(exc) and pt.strip()
        json.dumps(exc.to_dict("pt"))
    kinds = {type(e) for e in errors}
    assert {ActionSyntaxError, IllegalActionError, ArgumentError, RulesError} <= kinds


def test_a_random_table_never_raises() -> None:
    rng = random.Random(1)
    for _ in range(5):
        play_out(game(rng.randint(3, 8)), rng.randint(0, 999))


def test_a_look_alike_action_of_another_game_is_refused() -> None:
    # Legality is a type test here: another game's roll object is not a throw of this game.
    bg = load_game("backgammon").new_initial_state()
    while str(bg.legal_actions()[0]).startswith("opening"):
        bg = bg.apply(bg.legal_actions()[-1])
        while not bg.is_chance_node():
            bg = bg.apply(bg.legal_actions()[0])
    foreign = next(a for a in bg.legal_actions() if str(a) == "6-5")
    with pytest.raises(IllegalActionError) as info:
        game().first_turn(0).apply(foreign)
    assert info.value.code == "aces.not_legal"
    final = play_out(game(), 2)[-1]
    with pytest.raises(IllegalActionError, match="game is over"):
        final.apply(game().first_turn(0).legal_actions()[0])
