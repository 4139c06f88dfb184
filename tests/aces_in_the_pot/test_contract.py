"""The game contract for Aces in the Pot: notation, chance nodes, errors, views, records."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from aceydeucey import (
    CHANCE,
    TERMINAL,
    ActionSyntaxError,
    IllegalActionError,
    OutOfTurnError,
    Record,
    RulesError,
    load_game,
    replay,
)
from aceydeucey.aces_in_the_pot import AcesRules, Die, Roll
from aceydeucey.aces_in_the_pot.dice import ROLL_OUTCOMES, parse_chance_action
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame
from aceydeucey.core.errors import ArgumentError


def game(players: int = 4, **options: object) -> AcesInThePotGame:
    g = load_game("aces-in-the-pot", players=players, **options)
    assert isinstance(g, AcesInThePotGame)
    return g


def test_roll_notation_is_larger_die_first_and_round_trips() -> None:
    for roll, _ in ROLL_OUTCOMES:
        assert parse_chance_action(str(roll)) == roll
        assert eval(repr(roll)) == roll  # repr is valid code
    assert str(Roll.from_dice(3, 5)) == "5-3"
    assert parse_chance_action("3-5") == Roll(5, 3)  # the smaller die first is accepted too
    assert str(Die(4)) == "die 4" and parse_chance_action("die 4") == Die(4)
    assert eval(repr(Die(2))) == Die(2)


def test_the_21_rolls_have_exact_probabilities_summing_to_one() -> None:
    probabilities = dict(ROLL_OUTCOMES)
    assert len(probabilities) == 21
    assert sum(probabilities.values()) == 1
    assert probabilities[Roll(6, 6)] == Fraction(1, 36)
    assert probabilities[Roll(5, 3)] == Fraction(2, 36)


@pytest.mark.parametrize("text", ["7-1", "5", "die 7", "bet 2", "", "6-0", "die"])
def test_bad_text_is_a_syntax_error_naming_the_text(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match=r"not an Aces in the Pot action"):
        game().parse_action(text)


def test_every_state_before_the_end_is_a_chance_node_without_decisions() -> None:
    state = game().new_initial_state()
    assert state.current_player() == CHANCE
    assert [str(a) for a in state.legal_actions()] == [f"die {v}" for v in range(1, 7)]
    play = game().first_turn(0)
    assert play.current_player() == CHANCE
    assert len(play.legal_actions()) == 21
    assert play.player_actions() == []
    for seat in range(4):
        assert play.observation(seat)["legal_actions"] == []


def test_a_wrong_kind_of_chance_action_is_illegal_with_a_precise_message() -> None:
    with pytest.raises(IllegalActionError, match="roll-off"):
        game().new_initial_state().apply("5-3")
    with pytest.raises(IllegalActionError, match="both dice"):
        game().first_turn(0).apply("die 3")


def test_no_seat_may_act_because_only_chance_acts() -> None:
    with pytest.raises(OutOfTurnError, match="chance"):
        game().first_turn(0).apply("5-3", seat=0)


def test_a_failed_apply_changes_nothing() -> None:
    state = game().first_turn(1)
    before = (state.chips, state.pot, state.roller)
    with pytest.raises(ActionSyntaxError):
        state.apply("9-9")
    assert (state.chips, state.pot, state.roller) == before


def test_terminal_state_has_no_actions_and_refuses_more() -> None:
    g = game(3)
    state = g.state_at((0, 0, 1), 5, 2, phase="finish")
    for roll in ("2-2", "3-3", "4-4"):
        state = state.apply(roll)  # type: ignore[assignment]
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("2-2")


def test_observation_is_json_ready_and_shows_the_finish() -> None:
    g = game(3)
    state = g.state_at((0, 1, 0), 5, 1, phase="finish", roll_number=2)
    view = state.observation(0)
    assert json.loads(json.dumps(view)) == view
    assert view["chips"] == [0, 1, 0] and view["pot"] == 5
    assert (view["phase"], view["holder"], view["roll_number"], view["roller"]) == (
        "finish",
        1,
        2,
        1,
    )
    after = state.apply("6-2")
    event = after.observation(2)["last_event"]
    assert event["action"] == "6-2" and event["kind"] == "finish-pass"
    assert event["next_seat"] == 2


def test_states_are_immutable_and_hashable() -> None:
    a = game().first_turn(0).apply("5-3")
    b = game().first_turn(0).apply("4-2")
    assert a == b and hash(a) == hash(b)  # same position; the narration is not compared
    with pytest.raises(AttributeError):
        a.position = None  # type: ignore[attr-defined]


def test_inconsistent_hand_made_positions_are_refused() -> None:
    g = game(3)
    # Wrong arguments to a constructor are ArgumentError, not an illegal action.
    with pytest.raises(ArgumentError, match="add up"):
        g.state_at((2, 2, 2), 1, 0)
    with pytest.raises(ArgumentError, match="holds no chip"):
        g.state_at((0, 3, 2), 1, 0)
    with pytest.raises(ArgumentError, match="only the holder"):
        g.state_at((1, 1, 0), 4, 0, phase="finish")
    with pytest.raises(ArgumentError, match="no seat"):
        g.first_turn(3)


def test_rules_options_are_validated_and_round_trip() -> None:
    rules = AcesRules.resolve(players=5, finish="one-holder", starting_chips=3)
    assert AcesRules.from_dict(rules.to_dict()) == rules
    assert AcesRules.resolve(preset="one-holder").finish == "one-holder"
    with pytest.raises(RulesError, match="finish"):
        AcesRules.resolve(finish="sudden")
    with pytest.raises(RulesError, match="its options are: Players"):
        AcesRules.resolve(chips=3)


def test_a_record_replays_and_a_tampered_one_is_refused() -> None:
    from aceydeucey.core.chance import Seeded
    from aceydeucey.core.session import play_session

    record = play_session(game(4), 1, chance=Seeded(3)).records[0]
    loaded = Record.from_json(record.to_json())
    final = replay(loaded)
    assert final.is_terminal()
    loaded.result = {"returns": ["0", "0", "0", "0"]}
    with pytest.raises(ValueError, match="differs"):
        replay(loaded)


def test_str_renders_the_table() -> None:
    text = str(game(3).state_at((1, 0, 2), 3, 2))
    assert "seat 2 to roll" in text and "pot 3" in text
