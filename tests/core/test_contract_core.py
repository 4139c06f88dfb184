"""The contract machinery on a toy game: apply, errors, chance sources, Table, records."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.core import (
    CHANCE,
    TERMINAL,
    ActionSyntaxError,
    IllegalActionError,
    OutOfTurnError,
    RandomAgent,
    Record,
    RecordError,
    Seeded,
    Stacked,
    Table,
    replay,
)
from aceydeucey.core.chance import common_denominator, sample_outcome
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.registry import register_game
from tests.core.toy import ToyGame, ToyRules

register_game("toy", "tests.core.toy:ToyGame")


def toy(**options: object) -> ToyGame:
    return ToyGame(ToyRules.resolve(**options))


def test_apply_accepts_text_and_values_and_is_pure() -> None:
    start = toy().new_initial_state()
    dealt = start.apply("2")
    assert start.current_player() == CHANCE  # unchanged
    assert dealt.current_player() == 0
    assert dealt.apply("double") == dealt.apply("double")
    end = dealt.apply("double").apply("stay", seat=1)
    assert end.current_player() == TERMINAL and end.is_terminal()
    assert end.returns() == (Fraction(4), Fraction(-4))


def test_illegal_action_names_the_legal_ones_and_changes_nothing() -> None:
    state = toy(allow_double=False).new_initial_state().apply("1")
    with pytest.raises(IllegalActionError, match=r"double is not legal here; legal: stay"):
        state.apply("double")
    assert state.legal_actions() == ["stay"]


def test_syntax_error_is_distinct_from_illegal() -> None:
    state = toy().new_initial_state()
    with pytest.raises(ActionSyntaxError, match="'hop' is not a toy action"):
        state.apply("hop")
    with pytest.raises(IllegalActionError, match="4 is not legal"):
        state.apply("4")


def test_out_of_turn_is_refused_naming_whose_turn_it_is() -> None:
    state = toy().new_initial_state()
    with pytest.raises(OutOfTurnError, match="seat 2 cannot act now: it is chance's turn"):
        state.apply("1", seat=1)
    dealt = state.apply("1")
    with pytest.raises(OutOfTurnError, match="it is seat 1's turn"):
        dealt.apply("stay", seat=1)
    end = dealt.apply("stay").apply("stay")
    with pytest.raises(OutOfTurnError, match="game is over"):
        end.apply("stay", seat=0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        end.apply("stay")


def test_errors_are_value_errors() -> None:
    for cls in (ActionSyntaxError, IllegalActionError, OutOfTurnError, RecordError):
        assert issubclass(cls, ValueError)


@given(st.integers(min_value=0, max_value=3))
def test_sample_outcome_partitions_the_denominator_exactly(_: int) -> None:
    outcomes = toy().new_initial_state().chance_outcomes()
    denom = common_denominator(outcomes)
    counts = Counter(sample_outcome(outcomes, d) for d in range(denom))
    assert {a: Fraction(c, denom) for a, c in counts.items()} == dict(outcomes)


def test_sample_outcome_rejects_draw_beyond_total() -> None:
    outcomes = toy().new_initial_state().chance_outcomes()
    with pytest.raises(ValueError, match="not below the total"):
        sample_outcome(outcomes, common_denominator(outcomes))


def test_seeded_chance_is_reproducible_and_roughly_fair() -> None:
    state = toy().new_initial_state()
    a, b = Seeded(7), Seeded(7)
    draws = [a.choose(state) for _ in range(4000)]
    assert draws == [b.choose(state) for _ in range(4000)]
    share_of_one = draws.count(1) / len(draws)
    assert 0.45 < share_of_one < 0.55  # p = 1/2; 4000 draws: sd ~ 0.008


def test_stacked_chance_replays_given_outcomes_then_runs_out() -> None:
    stack = Stacked(["3", 2])
    state = toy().new_initial_state()
    assert stack.choose(state) == 3
    assert stack.choose(state) == 2
    with pytest.raises(ArgumentError, match="ran out"):
        stack.choose(state)
    fallback = Stacked([], then=Seeded(1))
    assert fallback.choose(state) in (1, 2, 3)


def test_table_plays_writes_record_and_record_replays() -> None:
    table = Table(toy(factor=3), [RandomAgent(1), RandomAgent(2)], chance=Stacked(["3"]))
    record = table.play()
    assert record.actions[0] == "3" and len(record.actions) == 3
    again = Record.from_json(record.to_json())
    final = replay(again)
    assert final == table.state
    assert [Fraction(r) for r in record.result["returns"]] == list(final.returns())  # type: ignore[index]


def test_table_rejects_wrong_number_of_agents() -> None:
    with pytest.raises(ArgumentError, match="seats 2 players; got 1 agents"):
        Table(toy(), [RandomAgent()])


class _Stubborn:
    def __init__(self) -> None:
        self.reasons: list[str] = []
        self.answers = ["double", "stay"]

    def act(self, observation: dict[str, object]) -> str:
        return self.answers.pop(0)

    def rejected(self, choice: object, error: Exception) -> None:
        self.reasons.append(str(error))


def test_table_re_asks_an_agent_that_accepts_rejection() -> None:
    agent = _Stubborn()
    table = Table(toy(allow_double=False), [agent, RandomAgent()], chance=Stacked(["1"]))
    record = table.play()
    assert agent.reasons == ["double is not legal here; legal: stay"]
    assert record.actions == ["1", "stay", "stay"]


def _record(**changes: object) -> dict[str, object]:
    table = Table(toy(), [RandomAgent(3), RandomAgent(4)], chance=Seeded(5))
    data = table.play().to_dict()
    data.update(changes)
    return data


def test_replay_names_index_text_and_reason_of_first_bad_action() -> None:
    data = _record()
    data["actions"] = ["2", "stay", "double"]  # seat 1 may only stay
    data["result"] = None
    with pytest.raises(RecordError) as info:
        replay(Record.from_dict(data))
    assert info.value.index == 2 and info.value.text == "double"
    assert "action #2 'double': double is not legal here" in str(info.value)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format": "other"}, "not an aceydeucey record"),
        ({"version": 99}, "unsupported record version 99"),
        ({"actions": "stay"}, "field 'actions' must be a list"),
        ({"actions": ["1", 2]}, "action #1 '2': an action must be a string"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"rules": {"preset": "plain", "factor": 0}}, "from 1 to 100"),
        ({"players": ["solo"]}, "lists 1 players but its rules seat 2"),
        ({"result": {"returns": ["99", "-99"]}}, "result differs: it says returns = "),
    ],
)
def test_malformed_records_fail_clearly(changes: dict[str, object], message: str) -> None:
    data = _record(**changes)
    with pytest.raises(RecordError, match=message):
        replay(Record.from_dict(data))


def test_record_json_errors() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.from_json("{nope")
    with pytest.raises(RecordError, match="must be a JSON object"):
        Record.from_json(json.dumps([1, 2]))


def test_record_save_and_load(tmp_path: object) -> None:
    from pathlib import Path

    table = Table(toy(), [RandomAgent(3), RandomAgent(4)], chance=Seeded(9))
    path = table.play().save(Path(str(tmp_path)) / "sub" / "game.json")
    assert replay(Record.load(path)) == table.state
    with pytest.raises(RecordError, match="cannot read"):
        Record.load(Path(str(tmp_path)) / "missing.json")


def test_every_game_has_bots_and_an_unknown_one_is_refused() -> None:
    from aceydeucey.core.registry import bot_names, make_bot

    for game_id in aceydeucey.game_ids():
        names = bot_names(game_id)
        assert "random" in names
        bot = make_bot(game_id, names[0], seed=1)
        assert callable(bot.act)
    with pytest.raises(ArgumentError, match="no bot 'genius' for inbetween"):
        make_bot("inbetween", "genius")
    with pytest.raises(aceydeucey.UnknownGameError):
        make_bot("chess", "random")


def test_distribution_picks_exactly_like_sample_outcome() -> None:
    from fractions import Fraction

    from aceydeucey.core.game import Distribution

    outcomes = [("a", Fraction(1, 6)), ("b", Fraction(1, 2)), ("c", Fraction(1, 3))]
    dist = Distribution.from_outcomes(outcomes)
    assert dist.total == common_denominator(outcomes) == 6
    assert dist.weights == (1, 3, 2)
    assert [dist.pick(d) for d in range(6)] == [sample_outcome(outcomes, d) for d in range(6)]
    with pytest.raises(ArgumentError):
        dist.pick(6)
