"""The turn structure is written once: the engine, the playouts and the trainer agree.

The step of :mod:`aceydeucey.backgammon.turn` runs interpreted in the engine and
compiled in the batch playouts and the TD trainer.  Here the two forms give the
same answers on any record and event, and games of both kernels, under every
option set the engine plays, replay through the engine event by event: the same
phases, movers, dice and plays, the same end and score.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.backgammon import turn
from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.kernel import turn_step
from aceydeucey.backgammon.net import SHIPPED_FOR_SCORING, shipped
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import RulesError
from aceydeucey.sim import playouts, td
from aceydeucey.sim.backgammon import _start
from aceydeucey.sim.backgammon import playouts as raw_playouts

#: every value of every option that the turn step reads or the kernel plays
OPTION_VALUES: dict[str, list[Any]] = {
    "opening": ["reroll_both_dice", "use_opening_dice"],
    "entry_gate": ["doubles_or_acey", "doubles_only", "six"],
    "bar_reentry_gate": ["doubles_or_acey"],
    "must_enter_all_before": ["passing_opp_12pt", "moving_any_entered"],
    "bearoff_requires_all_entered": [False],
    "acey_deucey": [False],
    "acey_requires_both_played": [False],
    "acey_doubles_choice": ["rolled"],
    "acey_reroll_requires_full_doubles": [False],
    "acey_chain_limit": [1, 2],
    "natural_doubles_extra_roll": ["if_fully_played", "always"],
    "doubles_plus_complement": [True],
    "unplayable_remainder": ["to_opponent"],
    "must_use_max_dice": [False],
    "must_play_higher_die": [False],
    "bearoff_rule": ["exact_only"],
    "home_board_frozen": [True],
    "hit_gate": ["after_home_board"],
    "scoring": ["single", "gammons", "per_checker"],
}


def _valid(variant: str, options: dict[str, Any]) -> BackgammonRules | None:
    try:
        return BackgammonRules.resolve(variant=variant, **options)
    except RulesError:
        return None


def option_sets() -> list[tuple[str, dict[str, Any]]]:
    """Each variant as it is, each variant with each option value changed alone, and
    random combinations of many (the valid ones)."""
    sets: list[tuple[str, dict[str, Any]]] = []
    for variant in ("acey-deucey", "classic", "longgammon", "dutch"):
        sets.append((variant, {}))
        for name, values in OPTION_VALUES.items():
            for value in values:
                if _valid(variant, {name: value}) is not None and variant in (
                    "acey-deucey",
                    "classic",
                ):
                    sets.append((variant, {name: value}))
    rng = random.Random(16)
    while len(sets) < 80:
        variant = rng.choice(["acey-deucey", "classic", "dutch"])
        names = rng.sample(sorted(OPTION_VALUES), 6)
        options = {name: rng.choice(OPTION_VALUES[name]) for name in names}
        if _valid(variant, options) is not None:
            sets.append((variant, options))
    return sets


OPTION_SETS = option_sets()
IDS = [f"{v}-{'-'.join(f'{k}={x}' for k, x in o.items()) or 'preset'}" for v, o in OPTION_SETS]


def replay(game: Any, row: np.ndarray, events: np.ndarray) -> list[tuple[str, int, str]]:
    """Replay a kernel's traced game through the engine; the engine's turn sequence.

    At each event the engine must be in the phase the kernel was in, with the same
    mover; each traced play must be one of the engine's legal plays, using as many dice.
    """
    state = game.new_initial_state()
    sequence = []
    decisions = 0
    for kind, seat, x, y, *board in events.tolist():
        sequence.append((state.phase, state.mover, state.kind))
        if kind == playouts.TRACE_OPENING:
            assert state.phase == "opening"
            state = state.apply(f"opening {x}-{y}")
        elif kind == playouts.TRACE_ROLL:
            assert (state.phase, state.mover) == ("roll", seat)
            state = state.apply(f"{x}-{y}")
        elif kind == playouts.TRACE_DOUBLE:
            assert (state.phase, state.mover) == ("double", seat)
            decisions += not state.is_chance_node()
            state = state.apply(f"double {x}")
        else:
            assert (state.phase, state.mover) == ("play", seat), (state.phase, state.mover, seat)
            result = Position(
                tuple(board[:24]), (board[24], board[25]), (board[26], board[27]),
                (board[28], board[29]),
            )  # fmt: skip
            chosen = [p for p in state.legal_actions() if p.result == result]
            assert len(chosen) == 1, f"the kernel played an illegal move at {state}"
            if y >= 0:
                assert len(state.legal_actions()) == y
            assert len(state.dice) - len(chosen[0].unused) == x
            state = state.apply(chosen[0])
            decisions += 1
    assert state.is_terminal(), "the trace ended before the game did"
    assert (state.winner, state.points_won()) == (row[0], row[1])
    assert decisions == row[2]
    return sequence


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "options"), OPTION_SETS, ids=IDS)
def test_engine_playouts_and_trainer_take_the_same_turns(
    variant: str, options: dict[str, Any]
) -> None:
    game = aceydeucey.load_game("backgammon", variant=variant, **options)
    rules = game.rules
    seed = len(IDS) + sum(map(ord, repr(options)))
    row, events = playouts.trace_game(
        _start(rules), td.move_params_of(rules), playouts.game_params_of(rules), seed
    )
    assert np.array_equal(row, raw_playouts(rules, 1, seed)[0])
    replay(game, row, events)
    net = shipped(SHIPPED_FOR_SCORING[rules.scoring])
    row, events = td.trace_game(net, rules, seed)
    replay(game, row, events)


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("acey-deucey", {"entry_gate": "six", "unplayable_remainder": "to_opponent"}),
        ("acey-deucey", {"doubles_plus_complement": True, "acey_doubles_choice": "rolled"}),
        ("classic", {"unplayable_remainder": "to_opponent", "bar_reentry_gate": "doubles_or_acey"}),
        ("dutch", {"entry_gate": "doubles_only", "natural_doubles_extra_roll": "always"}),
        ("classic", {"must_use_max_dice": False}),
    ],
)
def test_the_trainer_plays_the_engines_games_under_options_it_once_refused(
    variant: str, options: dict[str, Any]
) -> None:
    game = aceydeucey.load_game("backgammon", variant=variant, **options)
    net = shipped(SHIPPED_FOR_SCORING[game.rules.scoring])
    for seed in (1, 2):
        row, events = td.trace_game(net, game.rules, seed)
        replay(game, row, events)


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_the_playouts_play_free_choice_of_dice(variant: str) -> None:
    # every play of one die or more is open: the simulator's games replay through the
    # engine, which plays them with the reference generator
    game = aceydeucey.load_game("backgammon", variant=variant, must_use_max_dice=False)
    for seed in (1, 2):
        row, events = playouts.trace_game(
            _start(game.rules),
            td.move_params_of(game.rules),
            playouts.game_params_of(game.rules),
            seed,
        )
        replay(game, row, events)


def test_the_trainer_trace_is_the_match_it_plays() -> None:
    # trace_game is game 0 of the 0-ply self-play the match code runs
    rules = BackgammonRules.resolve(variant="classic")
    net = shipped("classic")
    row, events = td.trace_game(net, rules, 5)
    again, _ = td.trace_game(net, rules, 5)
    assert np.array_equal(row, again) and len(events) > 10
    plays = events[events[:, 0] == playouts.TRACE_PLAY]
    assert len(plays) == row[td.S_DECISIONS]


# -- the step itself ---------------------------------------------------------------------

PARAMS = st.builds(
    lambda *v: tuple(v),
    st.integers(0, 1),  # opening
    st.integers(0, 1),  # acey
    st.integers(0, 2),  # doubles reroll
    st.integers(0, 2),  # scoring
    st.integers(0, 1),  # acey both
    st.integers(0, 1),  # acey full
    st.integers(0, 3),  # chain limit
    st.integers(0, 1),  # complement
    st.integers(0, 1),  # named
    st.integers(0, 3),  # entry gate
    st.integers(0, 1),  # bar gate
    st.integers(0, 1),  # to opponent
    st.integers(0, 2),  # cube
    st.integers(0, 6),  # max cube log
    st.integers(0, 1),  # beavers
)


@st.composite
def records(draw: st.DrawFn) -> list[int]:
    t = [0] * turn.N_TURN
    t[turn.T_PHASE] = draw(st.integers(0, len(turn.PHASES) - 1))
    t[turn.T_MOVER] = draw(st.integers(0, 1))
    t[turn.T_KIND] = draw(st.integers(0, 4))
    t[turn.T_CHAIN] = draw(st.integers(0, 4))
    t[turn.T_EXTRA] = draw(st.integers(0, 1))
    t[turn.T_GATE] = draw(st.integers(0, 1))
    t[turn.T_GATE + 1] = draw(st.integers(0, 1))
    t[turn.T_WINNER] = -1
    high = draw(st.integers(1, 6))
    low = draw(st.integers(1, high))
    n = draw(st.integers(0, 4))
    for i in range(n):
        t[turn.T_DICE + i] = high if i == 0 or low == high else low
    t[turn.T_N] = n
    t[turn.T_BAR_OPEN] = draw(st.integers(0, 1))
    t[turn.T_CUBE] = draw(st.integers(0, 6))
    t[turn.T_OWNER] = draw(st.integers(0, 2))
    t[turn.T_CFLAGS] = draw(st.integers(0, 7))
    return t


@settings(max_examples=400, deadline=None)
@given(
    PARAMS,
    records(),
    st.integers(0, turn.EV_TURN),
    st.integers(0, 6),
    st.integers(0, 6),
    st.integers(0, 3),
)
def test_compiled_and_interpreted_step_agree(
    params: tuple[int, ...], record: list[int], event: int, x: int, y: int, z: int
) -> None:
    interpreted = list(record)
    compiled = np.array(record, dtype=np.int64)
    turned = turn.step(params, interpreted, event, x, y, z)
    assert turn_step(np.array(params, dtype=np.int64), compiled, event, x, y, z) == turned
    assert compiled.tolist() == interpreted


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-15, 15), min_size=24, max_size=24),
    st.integers(0, 15),
    st.integers(0, 15),
    st.integers(0, 14),
    st.integers(0, 2),
)
def test_the_engine_playouts_and_trainer_score_a_game_with_one_function(
    points: list[int], bar: int, unentered: int, off: int, scoring: int
) -> None:
    # one scoring, interpreted for the engine and compiled for the playouts and trainer,
    # and the engine's game_result reads it from the loser's side
    from aceydeucey.backgammon.kernel import game_points

    board = np.zeros(32, dtype=np.int8)
    board[:24] = points
    board[24], board[26], board[28] = bar, unentered, off
    expected = turn.game_points(board, scoring)
    assert game_points(board, scoring) == expected
    assert turn.game_points(memoryview(board.tobytes()).cast("b"), scoring) == expected
    if scoring == turn.SCORE_PER_CHECKER:
        assert expected == 15 - off
    elif scoring == turn.SCORE_SINGLE or off:
        assert expected == 1
    else:
        assert expected == (3 if bar or unentered or any(n > 0 for n in points[18:]) else 2)


def test_a_fully_played_acey_deucey_earns_the_double_and_a_remainder_passes() -> None:
    # The step in the rulebook's words: a 1-2 played in full earns the double (same
    # mover); a 6-5 of which only the 6 could be played, under "to_opponent", passes
    # the 5 to the opponent, who plays it and then rolls.
    rules = BackgammonRules.resolve(variant="acey-deucey", unplayable_remainder="to_opponent")
    steps = turn.TurnSteps(rules)
    play = turn.play_fields((2, 1))
    (phase, mover, dice, kind, chain, *_), turned = steps.after(play, turn.EV_PLAY, 2)
    assert (phase, mover, dice, chain, turned) == ("double", 0, (), 1, False)
    partial = turn.play_fields((6, 5))
    (phase, mover, dice, kind, *_), turned = steps.after(partial, turn.EV_PLAY, 1, 1)
    assert (phase, mover, dice, kind, turned) == ("play", 1, (5,), "remainder", True)
    after, turned = steps.after(
        (phase, mover, dice, kind, 0, (True, True), False, -1, 1, -1, 0), 4, 1
    )
    assert after[:2] == ("roll", 1) and not turned
    # a checker stuck on the bar behind a closed bar gate keeps its dice: no remainder
    gated = BackgammonRules.resolve(
        variant="acey-deucey",
        unplayable_remainder="to_opponent",
        bar_reentry_gate="doubles_or_acey",
    )
    (phase, mover, *_), turned = turn.TurnSteps(gated).after(
        partial, turn.EV_PLAY, 0, 0, turn.PLAY_FROM_BAR
    )
    assert (phase, mover, turned) == ("roll", 1, True)
