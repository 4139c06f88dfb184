"""Truncated rollouts with the luck taken out (``Evaluator.rollout``): what they must equal
when they stop after one or two plies, where they stop early, and that their dice are the
seed's."""

from __future__ import annotations

import numpy as np
import pytest

from aceydeucey.backgammon import generate
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.bots import position_of
from aceydeucey.backgammon.evaluator import ROLLS, Evaluator
from aceydeucey.backgammon.kernel import flip_board

from .test_two_ply import evaluator, reference_lookahead, sample


def before_roll_boards(variant: str, count: int) -> list[np.ndarray]:
    """Boards of random games, read as positions before the roll of the side to move."""
    return [
        generate.to_board(position_of(o))
        for o in sample(variant, 3 * count)
        if not int(o.get("chain", 0))
    ][:count]


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_one_ply_is_the_one_roll_look_in_every_trial(variant: str) -> None:
    """After one ply the luck taken out leaves each trial the mean over the 21 rolls."""
    ev = evaluator(variant)
    for board in before_roll_boards(variant, 3):
        values = ev.rollout(board, trials=36, plies=1, seed=5)
        want = reference_lookahead(ev, board, 0, 0)
        assert values.shape == (36, ev.spec.size)
        np.testing.assert_allclose(values, np.tile(want, (36, 1)), rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_two_plies_of_36_trials_average_to_the_two_roll_look(variant: str) -> None:
    """36 trials see each first roll once, so the first roll's luck cancels exactly and
    the mean is the two-roll look (``before_roll``), whatever the second rolls are; the
    trials themselves differ."""
    ev = evaluator(variant)
    for board in before_roll_boards(variant, 3):
        values = ev.rollout(board, trials=36, plies=2, seed=9)
        want = ev.before_roll(board, rolls=2)
        np.testing.assert_allclose(values.mean(axis=0), want, rtol=0, atol=1e-12)
        assert np.ptp(ev.equity(values)) > 0


def test_a_trial_that_ends_the_game_is_worth_its_result() -> None:
    """The side on roll bears off its last checker with any roll: every trial is a single
    game won, however many plies were asked for."""
    ev = evaluator("classic")
    board = generate.to_board(Position.build({1: 1}, {24: 14}))
    values = ev.rollout(board, trials=40, plies=10, seed=1)
    np.testing.assert_allclose(values, np.tile(ev.won(1), (40, 1)), rtol=0, atol=1e-12)


@pytest.mark.parametrize(("trials", "plies"), [(0, 4), (8, 0)])
def test_a_rollout_of_nothing_is_refused(trials: int, plies: int) -> None:
    ev = evaluator("classic")
    with pytest.raises(ValueError, match="a trial and a ply"):
        ev.rollout(before_roll_boards("classic", 1)[0], trials=trials, plies=plies)


def test_the_seed_gives_the_dice() -> None:
    ev = evaluator("classic")
    board = before_roll_boards("classic", 1)[0]
    first = ev.rollout(board, trials=12, plies=4, seed=3)
    np.testing.assert_array_equal(first, ev.rollout(board, trials=12, plies=4, seed=3))
    assert not np.allclose(first, ev.rollout(board, trials=12, plies=4, seed=4))


def reference_rollout(
    ev: Evaluator, board: np.ndarray, trials: int, plies: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """One trial, one ply and one roll at a time: each trial's outputs with the luck taken
    out, and without (the 0-ply outputs after the last ply), for the side on roll."""
    hands = [(a, b) for a, b, weight in ROLLS for _ in range(weight)]
    dice = np.random.default_rng(seed).integers(0, 36, size=(trials, plies))
    dice[:, 0] = np.arange(trials) % 36
    reduced, plain = [], []
    for i in range(trials):
        b, sign, luck = board, 1, np.zeros(ev.spec.size)
        for ply in range(plies):
            ours = (lambda v: v) if sign > 0 else ev.spec.flip
            mean = reference_lookahead(ev, b, 0, 0)
            a, c = hands[dice[i, ply]]
            roll = (a,) * 4 if a == c else (a, c)
            results, _, _, used = ev._generator.plays(b, np.array(roll), ev.params)
            flip, pending = ev.next_turn("roll", roll, used, 0)
            values = ev.values(results, flip, pending)
            best = int(np.argmax(ev.equity(values)))
            luck += ours(values[best]) - ours(mean)
            if results[best][28] == CHECKERS or ply == plies - 1:
                reduced.append(ours(values[best]) - luck)
                plain.append(ours(values[best]))
                break
            b, sign = flip_board(results[best]), -sign
    return np.array(reduced), np.array(plain)


def test_the_rollout_equals_the_plain_reference_and_narrows_the_trials() -> None:
    """Every trial as the plain reference plays it, and the luck taken out leaves the
    trials' equities less spread than the same trials' plain results."""
    ev = evaluator("classic")
    for board in before_roll_boards("classic", 2):
        values = ev.rollout(board, trials=8, plies=4, seed=6)
        reduced, plain = reference_rollout(ev, board, 8, 4, 6)
        np.testing.assert_allclose(values, reduced, rtol=0, atol=1e-12)
        assert ev.equity(values).std() < ev.equity(plain).std()
