"""Invariants over seeded random games of every variant (Hypothesis picks the seeds)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon.board import BAR, OFF, STOCK, Position
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.backgammon.moves import apply_move, legal_plays, single_moves
from aceydeucey.backgammon.notation import Play
from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import Seeded
from aceydeucey.core.game import Action, State
from aceydeucey.core.record import Record, replay
from aceydeucey.core.registry import load_game
from aceydeucey.core.table import Table

VARIANT_OPTIONS: list[dict[str, Any]] = [
    {},
    {"variant": "classic"},
    {"variant": "longgammon"},
    {"variant": "dutch"},
    {
        "entry_gate": "doubles_or_acey",
        "bar_reentry_gate": "doubles_or_acey",
        "natural_doubles_extra_roll": "if_fully_played",
        "unplayable_remainder": "to_opponent",
        "bearoff_rule": "exact_only",
        "home_board_frozen": True,
    },
    {
        "must_enter_all_before": "passing_opp_12pt",
        "doubles_plus_complement": True,
        "acey_doubles_choice": "rolled",
        "acey_reroll_requires_full_doubles": False,
        "acey_chain_limit": 2,
    },
]

MAX_STEPS = 500


def _checker_count(position: Position, side: int) -> int:
    return position.count(side)


def _check_transition(before: State, action: Action, after: State) -> None:
    assert isinstance(before, BackgammonState) and isinstance(after, BackgammonState)
    for state in (before, after):
        for side in (0, 1):
            assert _checker_count(state.position, side) == 15
    if isinstance(action, Play):
        # Each step, replayed one die at a time, lands on an open point.
        pos = before.position
        for move in action.moves:
            if move.src == BAR:
                assert pos.bar[0] > 0
            elif move.src == STOCK:
                assert pos.unentered[0] > 0
            else:
                assert pos.points[move.src - 1] > 0
            if move.dst != OFF:
                assert pos.points[move.dst - 1] >= -1, f"{action} lands on a closed point"
                assert move.hit == (pos.points[move.dst - 1] == -1)
            pos = apply_move(pos, move)
        assert pos == action.result
    # Every state's ID brings it back.
    game = after.game
    assert game.new_state(state_id=after.state_id()) == after


def _play(options: dict[str, Any], seed: int) -> tuple[Record, BackgammonState]:
    game = load_game("backgammon", **options)
    table = Table(
        game,
        [RandomAgent(seed), RandomAgent(seed + 1)],
        chance=Seeded(seed),
        listeners=[_check_transition],
    )
    record = table.play(max_steps=MAX_STEPS)
    assert isinstance(table.state, BackgammonState)
    return record, table.state


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True)
@given(index=st.integers(0, len(VARIANT_OPTIONS) - 1), seed=st.integers(0, 2**31))
def test_random_games_keep_invariants_and_replay(index: int, seed: int) -> None:
    record, final = _play(VARIANT_OPTIONS[index], seed)
    again = replay(Record.from_json(record.to_json()))
    assert again == final
    if final.is_terminal():
        returns = final.returns()
        assert sum(returns) == 0 and returns[final.winner] > 0


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), steps=st.integers(1, 200))
def test_position_id_round_trips_in_classic_games(seed: int, steps: int) -> None:
    game = load_game("backgammon", variant="classic")
    assert isinstance(game, BackgammonGame)
    table = Table(game, [RandomAgent(seed), RandomAgent(seed + 1)], chance=Seeded(seed))
    table.play(max_steps=steps)
    state = table.state
    assert isinstance(state, BackgammonState)
    position = state.position
    # the ID is from the side on roll next: after the game's last play, the loser
    on_roll = position.flip() if state.phase == "over" else position
    assert Position.from_position_id(state.position_id()) == on_roll
    if state.phase == "play":
        roll = (state.dice[0], state.dice[-1] if len(state.dice) == 2 else state.dice[0])
        rebuilt = game.new_state(position_id=state.position_id(), dice=roll, seat=state.mover)
        assert set(rebuilt.legal_actions()) == set(state.legal_actions())


def test_every_variant_plays_to_the_end() -> None:
    # One seeded game per option set reaches the end; the loser pays, the winner collects.
    for options in VARIANT_OPTIONS:
        game = load_game("backgammon", **options)
        table = Table(game, [RandomAgent(7), RandomAgent(8)], chance=Seeded(7))
        record = table.play(max_steps=50_000)
        final = table.state
        assert isinstance(final, BackgammonState)
        assert final.is_terminal(), options
        assert final.position.off[0] == 15
        returns = final.returns()
        assert returns[final.winner] == -returns[1 - final.winner] >= 1
        assert replay(record) == final


def _brute_force(position: Position, dice: tuple[int, ...], rules: Any) -> set[Position]:
    """Every order of every die, no pruning: the plays' definition written out plainly."""
    reached: dict[Position, list[tuple[int, ...]]] = {}

    def walk(pos: Position, left: tuple[int, ...], used: tuple[int, ...]) -> None:
        reached.setdefault(pos, []).append(used)
        for k, die in enumerate(left):
            for _, nxt in single_moves(pos, die, rules):
                walk(nxt, left[:k] + left[k + 1 :], (*used, die))

    walk(position, dice, ())
    most = max(len(u) for uses in reached.values() for u in uses)
    if most == 0:
        return {position}
    best = {p for p, uses in reached.items() if any(len(u) == most for u in uses)}
    if most == 1 and len(dice) == 2 and dice[0] != dice[1]:
        high = {p for p, uses in reached.items() if (max(dice),) in uses}
        best = high or best
    return best


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    index=st.integers(0, len(VARIANT_OPTIONS) - 1),
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 400),
)
def test_generator_equals_brute_force_over_every_order(index: int, seed: int, steps: int) -> None:
    # The reference generator prunes (seen positions, ordered doubles); a plain search agrees.
    game = load_game("backgammon", **VARIANT_OPTIONS[index])
    table = Table(game, [RandomAgent(seed), RandomAgent(seed + 1)], chance=Seeded(seed))
    table.play(max_steps=steps)
    state = table.state
    assert isinstance(state, BackgammonState)
    rules = game.rules
    gated = state.position.bar[0] and rules.bar_reentry_gate != "none"
    if state.phase != "play" or not state.gates[state.mover] or gated:
        return  # gates are the game's business, tested in test_options
    ours = {p.result for p in legal_plays(state.position, state.dice, rules)}
    assert ours == _brute_force(state.position, state.dice, rules)
