"""The batch simulator plays legal games with the game's turn structure.

Simulator games are replayed event by event through the contract API (every
traced play must be one of the legal plays there, and the game must end the
same way), and its mean game length is compared with random games played
through the contract API.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import aceydeucey
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.generate import fast_params
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import RulesError
from aceydeucey.sim import playouts
from aceydeucey.sim.backgammon import (
    DECISIONS,
    SimSummary,
    _start,
    simulate,
)
from aceydeucey.sim.backgammon import playouts as raw_playouts


def replay_trace(game: Any, seed: int) -> int:
    """Replay the simulator's game ``seed`` through the contract; returns its decisions."""
    rules = game.rules
    row, events = playouts.trace_game(
        _start(rules), fast_params(rules), playouts.game_params_of(rules), seed
    )
    assert np.array_equal(row, raw_playouts(rules, 3, seed)[0]), (
        "the trace is not game 0 of the run"
    )
    state = game.new_initial_state()
    decisions = 0
    for kind, seat, x, y, *board in events.tolist():
        if kind == playouts.TRACE_OPENING:
            state = state.apply(f"opening {x}-{y}")
        elif kind == playouts.TRACE_ROLL:
            assert state.is_chance_node() and state.mover == seat
            state = state.apply(f"{x}-{y}")
        elif kind == playouts.TRACE_DOUBLE:
            assert state.phase == "double"
            state = state.apply(f"double {x}")
            decisions += not state.is_chance_node() and rules.acey_doubles_choice == "named"
        else:
            assert state.phase == "play" and state.mover == seat
            result = Position(
                tuple(board[:24]), (board[24], board[25]), (board[26], board[27]),
                (board[28], board[29]),
            )  # fmt: skip
            chosen = [p for p in state.legal_actions() if p.result == result]
            assert len(chosen) == 1, f"the simulator played an illegal move at {state}"
            assert len(state.legal_actions()) == y
            assert len(state.dice) - len(chosen[0].unused) == x
            state = state.apply(chosen[0])
            decisions += 1
    assert state.is_terminal(), "the trace ended before the game did"
    assert state.winner == row[0] and state.points_won() == row[1]
    assert decisions == row[DECISIONS]
    return decisions


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("classic", {}),
        ("acey-deucey", {}),
        ("dutch", {}),
        ("longgammon", {}),
        ("acey-deucey", {"natural_doubles_extra_roll": "if_fully_played"}),
        ("acey-deucey", {"doubles_plus_complement": True, "acey_doubles_choice": "rolled"}),
        ("acey-deucey", {"acey_chain_limit": 1, "acey_reroll_requires_full_doubles": False}),
        ("acey-deucey", {"bearoff_rule": "exact_only", "home_board_frozen": True}),
        ("acey-deucey", {"entry_gate": "doubles_or_acey", "bar_reentry_gate": "doubles_or_acey"}),
        ("acey-deucey", {"entry_gate": "six", "unplayable_remainder": "to_opponent"}),
        ("classic", {"unplayable_remainder": "to_opponent"}),
        ("dutch", {"entry_gate": "doubles_only", "bar_reentry_gate": "doubles_or_acey"}),
    ],
)
def test_simulator_games_replay_through_the_contract(variant: str, options: dict[str, Any]) -> None:
    # Each traced play is legal in the reference game and the game ends as the simulator says.
    game = aceydeucey.load_game("backgammon", variant=variant, **options)
    for seed in (1, 2, 3):
        replay_trace(game, seed)


def contract_lengths(variant: str, games: int, seed: int) -> list[int]:
    """Decisions per game of random games played through the contract API."""
    game = aceydeucey.load_game("backgammon", variant=variant)
    rng = random.Random(seed)
    chance = Seeded(seed)
    lengths = []
    for _ in range(games):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
            else:
                decisions += 1
                state = state.apply(rng.choice(list(state.legal_actions())))
        lengths.append(decisions)
    return lengths


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "games"), [("classic", 150), ("acey-deucey", 60)])
def test_mean_game_length_matches_the_contract_loop(variant: str, games: int) -> None:
    # Same random policy, same rules: mean decisions agree within 4 standard errors.
    lengths = contract_lengths(variant, games, seed=7)
    sim = raw_playouts(aceydeucey.load_game("backgammon", variant=variant).rules, 4_000, seed=7)
    d = sim[:, DECISIONS].astype(float)
    se = math.sqrt(d.var(ddof=1) / len(d) + np.var(lengths, ddof=1) / len(lengths))
    assert abs(d.mean() - float(np.mean(lengths))) < 4 * se, (d.mean(), np.mean(lengths), se)


def test_summary_counts_add_up() -> None:
    # Every game has a winner; shares are exact fractions.
    summary = simulate("classic", games=500, seed=3)
    assert isinstance(summary, SimSummary)
    assert sum(summary.wins) == 500
    assert summary.win_rates[0] + summary.win_rates[1] == 1
    assert isinstance(summary.mean_points, Fraction)
    # classic scoring: 1, 2 or 3 points a game
    assert 1 <= summary.mean_points <= 3
    assert summary.mean_decisions > 30
    assert "games/s" in summary.describe()


def test_acey_deucey_points_count_checkers_not_borne_off() -> None:
    # Per-checker scoring: the loser pays 1 to 15 points; winner seats are 0 or 1.
    out = raw_playouts(aceydeucey.load_game("backgammon").rules, 300, seed=4)
    assert set(np.unique(out[:, 0])) <= {0, 1}
    assert out[:, 1].min() >= 1 and out[:, 1].max() <= 15


def test_same_seed_same_games_other_seed_other_games() -> None:
    rules = aceydeucey.load_game("backgammon", variant="classic").rules
    a = raw_playouts(rules, 50, seed=9)
    assert np.array_equal(a, raw_playouts(rules, 50, seed=9))
    assert not np.array_equal(a, raw_playouts(rules, 50, seed=10))


@pytest.mark.slow
def test_threads_play_the_same_games() -> None:
    # Game g depends only on (seed, g): spreading games over cores changes nothing.
    rules = aceydeucey.load_game("backgammon", variant="acey-deucey").rules
    serial = raw_playouts(rules, 120, seed=4)
    assert np.array_equal(serial, raw_playouts(rules, 120, seed=4, parallel=True))
    assert np.array_equal(serial[:40], raw_playouts(rules, 40, seed=4))


def test_free_choice_of_dice_is_simulated() -> None:
    # every option the engine plays is simulated (free choice of dice once was refused)
    summary = simulate("acey-deucey", games=10, seed=1, must_use_max_dice=False)
    assert sum(summary.wins) == 10


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(RulesError, match="has no “hypergammon”") as err:
        simulate("hypergammon", games=10)
    assert err.value.params["options"] == ["variant"]
    with pytest.raises(ValueError, match="games"):
        simulate("classic", games=0)
