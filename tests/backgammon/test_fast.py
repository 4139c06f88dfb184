"""The fast core agrees with the readable reference generator.

Positions come from seeded random games played through the contract API; at
every play node the fast generator (``generate.legal_plays``, the Numba kernel)
and the reference (``moves.legal_plays``) must list the same resulting
positions in the same order, with the same canonical text, number of moves and
unplayed dice.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.backgammon import generate, kernel, moves
from aceydeucey.backgammon.board import BAR, OFF, STOCK, Position
from aceydeucey.backgammon.game import BackgammonState
from aceydeucey.backgammon.notation import Play

#: these tests compare the kernel with the reference: load it first (not in the background)
generate.warm_up()

SAMPLE = 3_000


def random_play_nodes(
    game: Any, seed: int, limit: int, max_decisions: int = 10_000
) -> Iterator[BackgammonState]:
    """Play nodes of seeded random games (uniform among legal actions) until ``limit``."""
    rng = random.Random(seed)
    seen = 0
    while seen < limit:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal() and seen < limit and decisions < max_decisions:
            if state.phase == "play":
                seen += 1
                yield state
            actions = state.legal_actions()
            state = state.apply(rng.choice(list(actions)))
            decisions += not state.is_chance_node()


def reference(state: BackgammonState) -> list[Play]:
    return moves.legal_plays(
        state.position,
        state.dice,
        state.game.rules,
        may_enter=state.gates[state.mover],
        may_reenter=state._may_reenter(),
    )


def assert_agree(state: BackgammonState) -> list[Play]:
    """Same positions in the same order, same text and unplayed dice; returns the plays."""
    fast_plays = list(state.plays)
    ref_plays = reference(state)
    ref = {p.result: p for p in ref_plays}
    assert len(set(fast_plays)) == len(fast_plays), "the fast generator repeated a position"
    assert [p.result for p in fast_plays] == [p.result for p in ref_plays], (
        state.position,
        state.dice,
    )
    for play in fast_plays:
        twin = ref[play.result]
        assert str(play) == str(twin)
        assert play.unused == twin.unused
        assert len(play.moves) == len(twin.moves)
        assert play == twin and hash(play) == hash(twin)
    return fast_plays


@pytest.mark.slow
def test_classic_agrees_with_reference_on_3000_positions() -> None:
    # Every roll, bar entries, blocked rolls and bear-offs must all be covered.
    game = aceydeucey.load_game("backgammon", variant="classic")
    rolls: Counter[tuple[int, ...]] = Counter()
    bar = passes = bear_offs = 0
    for state in random_play_nodes(game, seed=11, limit=SAMPLE):
        plays = assert_agree(state)
        rolls[state.dice] += 1
        bar += state.position.bar[0] > 0
        passes += plays[0].is_pass
        bear_offs += any(m.dst == OFF for p in plays for m in p.moves)
    assert len(rolls) == 21
    assert min(bar, passes, bear_offs) >= 20, (bar, passes, bear_offs)


@pytest.mark.slow
def test_acey_deucey_agrees_with_reference_on_3000_positions() -> None:
    # Entering from off the board, the bar, bear-off, every roll and every named double.
    game = aceydeucey.load_game("backgammon", variant="acey-deucey")
    rolls: Counter[tuple[int, ...]] = Counter()
    named: Counter[int] = Counter()
    stock = bar = bear_offs = 0
    for state in random_play_nodes(game, seed=12, limit=SAMPLE):
        plays = assert_agree(state)
        if state.kind == "named":
            named[state.dice[0]] += 1
        else:
            rolls[state.dice] += 1
        stock += any(m.src == STOCK for p in plays for m in p.moves)
        bar += state.position.bar[0] > 0
        bear_offs += any(m.dst == OFF for p in plays for m in p.moves)
    assert len(rolls) == 21 and len(named) == 6
    assert min(stock, bar, bear_offs) >= 20, (stock, bar, bear_offs)


OPTIONS = st.fixed_dictionaries(
    {
        "bearoff_rule": st.sampled_from(["standard_higher", "exact_only"]),
        "must_enter_all_before": st.sampled_from(
            ["nothing", "passing_opp_12pt", "moving_any_entered"]
        ),
        "home_board_frozen": st.booleans(),
        "hit_gate": st.sampled_from(["none", "after_home_board"]),
        "must_play_higher_die": st.booleans(),
        "bearoff_requires_all_entered": st.booleans(),
        "natural_doubles_extra_roll": st.sampled_from(["none", "always"]),
        "doubles_plus_complement": st.booleans(),
        "unplayable_remainder": st.sampled_from(["forfeit", "to_opponent"]),
        "entry_gate": st.sampled_from(["none", "doubles_or_acey", "six"]),
        "bar_reentry_gate": st.sampled_from(["none", "doubles_or_acey"]),
    }
)


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 10_000))
def test_agreement_under_every_move_option(options: dict[str, Any], seed: int) -> None:
    # Any combination of the options that shape move generation, the gates that
    # close it and the opponent playing an unplayable remainder (one or three dice).
    game = aceydeucey.load_game("backgammon", variant="acey-deucey", **options)
    for state in random_play_nodes(game, seed=seed, limit=60):
        assert_agree(state)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), variant=st.sampled_from(["classic", "longgammon", "dutch"]))
def test_agreement_in_other_variants(seed: int, variant: str) -> None:
    # The other starting positions and Dutch's hit gate.
    game = aceydeucey.load_game("backgammon", variant=variant)
    for state in random_play_nodes(game, seed=seed, limit=80):
        assert_agree(state)


def test_every_result_keeps_fifteen_checkers_a_side() -> None:
    # The kernel never loses or invents a checker.
    game = aceydeucey.load_game("backgammon", variant="acey-deucey")
    for state in random_play_nodes(game, seed=5, limit=300):
        for play in state.plays:
            play.result.validate()
            assert play.result.count(0) == play.result.count(1) == 15


def test_opening_three_one_has_sixteen_plays() -> None:
    # Classic start, 3-1: the number of distinct plays is the well-known 16.
    game = aceydeucey.load_game("backgammon", variant="classic")
    state = game.new_state(position_id="4HPwATDgc/ABMA", dice=(3, 1))
    assert len(state.plays) == 16
    assert "8/5 6/5" in {str(p) for p in state.plays}


def test_bar_entry_forfeits_the_rest_when_one_checker_cannot_enter() -> None:
    # Two on the bar, 6-5; the opponent holds our entry points 19..24 except 20 (die 5).
    # One checker enters on 20; the 6 is lost with the other checker still on the bar.
    points = [0] * 24
    for p in (19, 21, 22, 23, 24):
        points[p - 1] = -2
    points[0] = 13
    position = Position(tuple(points), (2, 0), (0, 0), (0, 5))
    rules = aceydeucey.load_game("backgammon", variant="classic").rules
    plays = generate.legal_plays(position, (6, 5), rules)
    assert [str(p) for p in plays] == ["bar/20"]
    assert plays[0].unused == (6,)


def test_only_the_higher_die_when_one_can_be_played() -> None:
    # Our last checker is on 13 (14 borne off); O holds our 6-point. With 6-1 either
    # 13/7 or 13/12 is possible but never both (7/6 and 12/6 are closed): play the 6.
    points = [0] * 24
    points[12] = 1
    points[5] = -2
    points[23] = -13
    position = Position(tuple(points), (0, 0), (0, 0), (14, 0))
    classic = aceydeucey.load_game("backgammon", variant="classic").rules
    plays = generate.legal_plays(position, (6, 1), classic)
    assert [str(p) for p in plays] == ["13/7"] and plays[0].unused == (1,)
    free = aceydeucey.load_game("backgammon", variant="classic", must_play_higher_die=False).rules
    assert {str(p) for p in generate.legal_plays(position, (6, 1), free)} == {"13/7", "13/12"}


def test_plays_list_answers_membership_for_reference_plays() -> None:
    # A play built by the reference is found in the fast list (equality by result).
    game = aceydeucey.load_game("backgammon", variant="classic")
    state = game.new_state(position_id="4HPwATDgc/ABMA", dice=(6, 5))
    for ref in moves.legal_plays(state.position, (6, 5), game.rules):
        assert ref in state.plays
    assert state.apply("24/13").position.off == (0, 0)


def test_fast_board_encoding_round_trips_and_flips() -> None:
    # The int8 board holds the position slot for slot; flip_board mirrors Position.flip.
    game = aceydeucey.load_game("backgammon", variant="acey-deucey")
    for state in random_play_nodes(game, seed=3, limit=200):
        board = generate.to_board(state.position)
        pos = state.position
        assert board.dtype == np.int8 and board.shape == (kernel.SLOTS,)
        assert tuple(board[:24]) == pos.points
        assert (board[24], board[25], board[26], board[27]) == (*pos.bar, *pos.unentered)
        assert (board[28], board[29]) == pos.off
        assert tuple(kernel.flip_board(board)) == tuple(generate.to_board(pos.flip()))


def test_bar_is_source_25_and_stock_26_in_fast_moves() -> None:
    # One checker hit and 14 never entered: the bar checker must enter first.
    points = [0] * 24
    points[0] = -15
    position = Position(tuple(points), (1, 0), (14, 0), (0, 0))
    rules = aceydeucey.load_game("backgammon", variant="acey-deucey").rules
    plays = generate.legal_plays(position, (4, 4, 4, 4), rules)
    for play in plays:
        assert play.moves[0].src == BAR
    assert {p.result for p in plays} == {
        p.result for p in moves.legal_plays(position, (4, 4, 4, 4), rules)
    }


def test_threads_generate_at_once() -> None:
    # Each thread has its own work space: concurrent generation gives the reference's plays.
    from concurrent.futures import ThreadPoolExecutor

    game = aceydeucey.load_game("backgammon", variant="classic")
    states = list(random_play_nodes(game, seed=21, limit=200))
    expected = [[p.result for p in reference(s)] for s in states]

    def run(offset: int) -> bool:
        return all(
            [p.result for p in generate.legal_plays(s.position, s.dice, s.game.rules)]
            == expected[(i + offset) % len(states)]
            for i, s in enumerate(states[offset:] + states[:offset])
        )

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(run, [0, 50, 100, 150]))


def test_bad_dice_are_refused_with_the_reason() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic")
    position = game.new_state(position_id="4HPwATDgc/ABMA").position
    with pytest.raises(ValueError, match="1 to 6, not 7"):
        generate.legal_plays(position, (7, 1), game.rules)
    with pytest.raises(ValueError, match="not a hand of dice"):
        generate.legal_plays(position, (3, 2, 1), game.rules)


def test_free_choice_of_dice_uses_the_reference() -> None:
    # must_use_max_dice=False lets a player stop early: the reference handles it.
    game = aceydeucey.load_game("backgammon", variant="classic", must_use_max_dice=False)
    assert not generate.is_fast(game.rules)
    state = game.new_state(position_id="4HPwATDgc/ABMA", dice=(3, 1))
    assert [p.result for p in state.plays] == [p.result for p in reference(state)]
    assert any(len(p.moves) == 1 for p in state.plays)


@pytest.mark.slow
def test_more_than_four_equal_dice_go_to_the_reference() -> None:
    # The kernel plays up to four dice; a longer hand of one number (an API caller's) is
    # answered by the reference rather than run past the kernel's work space.
    game = aceydeucey.load_game("backgammon", variant="classic")
    for state in random_play_nodes(game, seed=8, limit=40):
        for dice in ((3,) * 5, (1,) * 6):
            fast = generate.legal_plays(state.position, dice, game.rules)
            ref = moves.legal_plays(state.position, dice, game.rules)
            assert [p.result for p in fast] == [p.result for p in ref]
            assert [str(p) for p in fast] == [str(p) for p in ref]


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_the_one_buffer_kernel_gives_the_rows_of_the_eleven_array_kernel(variant: str) -> None:
    # generate_packed (what the game calls) and Generator.packed (generate_rows on its own
    # work space) leave the same rows, for the game's dice and for every other roll
    game = aceydeucey.load_game("backgammon", variant=variant)
    params = generate.fast_params(game.rules)
    buf = kernel.packed_buffer()
    head = memoryview(buf).cast("B")
    gen = kernel.Generator()
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a)] + [(d,) * 4 for d in range(1, 7)]
    for i, state in enumerate(random_play_nodes(game, seed=5, limit=150)):
        board = generate.to_board(state.position)
        for dice in [generate._check_hand(state.dice)] + (rolls if i % 10 == 0 else []):
            head[: kernel.SLOTS] = board.tobytes()
            head[kernel.HEAD_DICE : kernel.HEAD_PARAMS] = bytes(dice).ljust(4, b"\0")
            head[kernel.HEAD_PARAMS : kernel.HEAD_PARAMS + kernel.N_PARAMS] = bytes(
                int(p) for p in params
            )
            n, used = kernel.generate_packed(buf)
            rows, n_rows, used_rows = gen.packed(board, np.array(dice, dtype=np.int64), params)
            start = kernel.B_ROWS * 8
            assert (n, used) == (n_rows, used_rows)
            assert head[start : start + n * kernel.ROW].tobytes() == rows
