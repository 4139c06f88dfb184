"""The TD(λ) trainer: it learns, it is reproducible and resumable, and it sees what the bots see."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.generate import position_of_board
from aceydeucey.backgammon.kernel import flip_board, move_params_of, turn_step
from aceydeucey.backgammon.net import MAX_ACTIVE, Network
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.turn import EV_NEW, EV_ROLL, N_TURN, PH_ROLL, T_PHASE
from aceydeucey.core.errors import ArgumentError, RulesError
from aceydeucey.sim.playouts import game_params_of, trace_game
from aceydeucey.sim.td import (
    Hyper,
    _choose,
    _Work,
    play_match,
    start_board,
    train,
    train_games,
)

#: Standard errors a difference must clear to count as significant.
Z = 3.0


def mean_and_stderr(points: np.ndarray) -> tuple[float, float]:
    """Mean points per game and its standard error over the duplicate pairs."""
    pairs = points.sum(axis=1) / 2.0
    return float(points.mean()), float(pairs.std(ddof=1) / math.sqrt(len(pairs)))


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_a_few_hundred_games_beat_random_and_the_untrained_network(threads: int) -> None:
    # on two threads as on one (their games update one set of weights at once)
    rules = BackgammonRules.resolve(variant="classic")
    start = start_board(rules)
    net = Network.initial("classic", "gammons", 32, seed=7)
    untrained = copy.deepcopy(net)
    train_games(net, rules, start, 0, 300, 7, Hyper(hidden=32), threads=threads)
    before, se_before = mean_and_stderr(play_match(untrained, None, rules, start, 400, 99))
    after, se_after = mean_and_stderr(play_match(net, None, rules, start, 400, 99))
    # better than the random player, and better than it was before training
    assert after - Z * se_after > 0
    assert after - before > Z * math.hypot(se_before, se_after)
    head_to_head, se = mean_and_stderr(play_match(net, untrained, rules, start, 400, 5))
    assert head_to_head - Z * se > 0


@pytest.mark.slow
def test_n_games_equal_half_then_resumed_half_bit_for_bit(tmp_path: Path) -> None:
    hyper = Hyper(hidden=16)
    whole = train("acey-deucey", 40, 3, hyper=hyper, block=15, out=tmp_path / "whole.npz")
    train("acey-deucey", 20, 3, hyper=hyper, block=15, out=tmp_path / "half.npz")
    resumed = train("acey-deucey", 20, 0, resume=tmp_path / "half.npz", out=tmp_path / "more.npz")
    for name in ("w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(whole, name), getattr(resumed, name))
    saved = Network.load(tmp_path / "more.npz")
    assert saved.meta["games"] == 40 and saved.meta["seed"] == 3
    assert saved.meta["hyper"]["hidden"] == 16
    assert np.array_equal(saved.w1, whole.w1)
    # another seed trains other weights
    other = train("acey-deucey", 40, 4, hyper=hyper, block=40)
    assert not np.array_equal(other.w1, whole.w1)


def test_td0_skips_the_zeroed_traces_and_learns_what_the_full_update_learns() -> None:
    # Under TD(0) the trainer stops visiting the input rows of past positions once their
    # traces are zero. The full update with a vanishing lambda (each trace times 1e-300 then
    # falls far below a weight's last bit) must end on the same weights, bit for bit.
    for variant in ("classic", "acey-deucey"):
        td0 = train(variant, 12, 5, hyper=Hyper(hidden=8, lam=0.0))
        full = train(variant, 12, 5, hyper=Hyper(hidden=8, lam=1e-300))
        for name in ("w1", "b1", "w2", "b2"):
            assert np.array_equal(getattr(td0, name), getattr(full, name)), (variant, name)
        traced = train(variant, 12, 5, hyper=Hyper(hidden=8, lam=0.7))
        assert not np.array_equal(traced.w1, td0.w1)


def test_threads_play_each_game_on_its_own_dice() -> None:
    # With a learning rate of zero the weights never move, so a game depends on its dice
    # alone: the games played on two threads must be the very games one thread plays
    # (Numba's generator is per thread, each game seeds it from (seed, game)).
    rules = BackgammonRules.resolve(variant="classic")
    start = start_board(rules)
    still = Hyper(hidden=8, alpha0=0.0, alpha_min=0.0)
    net = Network.initial("classic", "gammons", 8, seed=3)
    alone = train_games(copy.deepcopy(net), rules, start, 40, 30, 3, still, chunk=7)
    threaded = copy.deepcopy(net)
    both = train_games(threaded, rules, start, 40, 30, 3, still, chunk=7, threads=2)
    assert np.array_equal(alone.rows, both.rows)
    assert (both.rows[:, 2] > 0).all()  # every game was played (decisions made)
    assert np.array_equal(threaded.w1, net.w1)
    with pytest.raises(ValueError, match="at least 1"):
        train_games(threaded, rules, start, 0, 1, 3, still, threads=0)


def test_threads_share_one_set_of_weights_and_record_it(tmp_path: Path) -> None:
    hyper = Hyper(hidden=8)
    net = train("classic", 40, 2, hyper=hyper, block=20, out=tmp_path / "t.npz", threads=2)
    start = Network.initial("classic", "gammons", 8, seed=2)
    assert np.isfinite(net.w1).all() and not np.array_equal(net.w1, start.w1)
    history = Network.load(tmp_path / "t.npz").meta["history"]
    assert [(e["games"], e["threads"]) for e in history] == [(20, 2), (40, 2)]
    single = train("classic", 40, 2, hyper=hyper, block=20)
    assert all("threads" not in e for e in single.meta["history"])


def test_the_run_in_progress_in_training_resumes(tmp_path: Path) -> None:
    # training/README.md tells how to go on with it: the file must stay a checkpoint this
    # code resumes, with the schedule it was left at
    kept = Path(__file__).resolve().parents[2] / "training" / "classic-256.npz"
    before = Network.load(kept)
    assert before.variant == "classic" and before.hidden == 256 and before.encoding == 2
    after = train("classic", 2, 0, resume=kept, out=tmp_path / "run.npz")
    assert after.meta["games"] == before.meta["games"] + 2
    assert after.meta["hyper"]["lam"] == 0.0 and after.meta["hyper"]["alpha0"] == 0.0025
    assert not np.array_equal(after.w1, before.w1)


def test_resuming_another_variant_is_refused(tmp_path: Path) -> None:
    train("classic", 2, 1, hyper=Hyper(hidden=8), out=tmp_path / "c.npz")
    with pytest.raises(ArgumentError) as err:
        train("acey-deucey", 2, 1, resume=tmp_path / "c.npz")
    assert err.value.code == "bg.train.resume_variant"


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("entry_gate", "doubles_only"),
        ("acey_doubles_choice", "rolled"),
        ("doubles_plus_complement", True),
        ("unplayable_remainder", "to_opponent"),
        ("must_use_max_dice", False),
    ],
)
def test_rules_the_loop_once_refused_train(option: str, value: object) -> None:
    # every option the game plays trains (these were refused before the turn step)
    rules = BackgammonRules.resolve(variant="acey-deucey", **{option: value})
    net = Network.initial("acey-deucey", "points", 8, seed=1)
    before = net.w1.copy()
    stats = train_games(net, rules, start_board(rules), 0, 3, 1, Hyper(hidden=8))
    assert set(stats.rows[:, 0]) <= {0, 1} and stats.mean_decisions > 10
    assert not np.array_equal(net.w1, before)


ROLL_CASES = [(6, 5), (2, 1), (4, 4), (3, 1)]


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(["acey-deucey", "classic"]),
    st.integers(0, 5_000),
    st.sampled_from(ROLL_CASES),
)
def test_training_choice_agrees_with_the_bots_evaluator(
    variant: str, seed: int, roll: tuple[int, int]
) -> None:
    """The Numba loop's 0-ply choice (encoding, next turn, equity) is the evaluator's."""
    rules = BackgammonRules.resolve(variant=variant)
    net = Network.initial(variant, "points" if variant == "acey-deucey" else "gammons", 16, seed)
    net.w1 *= 10
    evaluator = Evaluator(rules, net)
    perm, comp, coef = net.spec.arrays()
    kind = 0 if net.spec.name == "points" else 1
    work = _Work(net.w1.shape[0], 16, net.spec.size).arrays[:7]
    buffers = (
        np.zeros(MAX_ACTIVE, dtype=np.int64),
        np.zeros(MAX_ACTIVE),
        np.zeros(16),
        np.zeros(net.spec.size),
        np.zeros(net.spec.size),
        np.zeros(32, dtype=np.int8),
        np.zeros(32, dtype=np.int8),
    )
    _, events = trace_game(start_board(rules), move_params_of(rules), game_params_of(rules), seed)
    a, b = roll
    dice = (a,) * 4 if a == b else (a, b)
    # positions where the side on roll is about to roll: after each play, turned round
    for row in events[events[:, 0] == 3][::9]:
        board = flip_board(np.ascontiguousarray(row[4:], dtype=np.int8))
        if board[28] == 15 or board[29] == 15:
            continue
        turn = np.zeros(N_TURN, dtype=np.int64)
        turn_step(game_params_of(rules), turn, EV_NEW, 0, 0, 0)
        turn[T_PHASE] = PH_ROLL
        turn_step(game_params_of(rules), turn, EV_ROLL, a, b, 0)
        equity, _, _, _ = _choose(
            board, turn, game_params_of(rules),
            net.w1, net.b1, net.w2, net.b2, perm, comp, coef, net.spec.bias, kind,
            int(game_params_of(rules)[3]), move_params_of(rules), *work, *buffers,
            np.zeros(4, dtype=np.int64), np.zeros(N_TURN, dtype=np.int64), False,
        )  # fmt: skip
        best = evaluator.rank_plays(position_of_board(board.tobytes()), dice)[0]
        assert equity == pytest.approx(best.equity, rel=1e-9, abs=1e-9)


def test_a_retuned_resume_records_its_schedule_and_changes_the_rate(tmp_path: Path) -> None:
    hyper = Hyper(hidden=8)
    train("classic", 10, 2, hyper=hyper, out=tmp_path / "a.npz")
    plain = train("classic", 10, 0, resume=tmp_path / "a.npz")
    slow = train("classic", 10, 0, resume=tmp_path / "a.npz", retune={"alpha0": 0.001, "tau": 1e9})
    assert slow.meta["hyper"]["alpha0"] == 0.001 and slow.meta["hyper"]["hidden"] == 8
    assert {"games": 10, "retune": {"alpha0": 0.001, "tau": 1e9}} in slow.meta["history"]
    start = Network.load(tmp_path / "a.npz")
    # a hundredth of the learning rate moves the weights far less
    moved_plain = np.abs(plain.w1 - start.w1).sum()
    moved_slow = np.abs(slow.w1 - start.w1).sum()
    assert 0 < moved_slow < moved_plain / 10
    assert Hyper(alpha0=0.1, tau=10_000, alpha_min=0.01).alpha(990_000) == pytest.approx(0.01)


def test_rule_options_train_their_reading_and_stay_with_the_checkpoint(tmp_path: Path) -> None:
    hyper = Hyper(hidden=8)
    exact = {"bearoff_rule": "exact_only"}
    plain = train("acey-deucey", 10, 3, hyper=hyper, out=tmp_path / "plain.npz")
    under = train("acey-deucey", 10, 3, hyper=hyper, out=tmp_path / "exact.npz", options=exact)
    assert plain.meta["options"] == {} and under.meta["options"] == exact
    assert Network.load(tmp_path / "exact.npz").meta["options"] == exact
    # the same seed and dice under another reading play other games: other weights
    assert not np.array_equal(plain.w1, under.w1)
    # a resume keeps its checkpoint's reading, bit for bit as one longer run
    whole = train("acey-deucey", 20, 3, hyper=hyper, options=exact)
    resumed = train("acey-deucey", 10, 0, resume=tmp_path / "exact.npz")
    assert resumed.meta["options"] == exact and np.array_equal(whole.w1, resumed.w1)
    # fine-tuning under another reading is recorded where it began
    tuned = train("acey-deucey", 5, 0, resume=tmp_path / "plain.npz", options=exact)
    assert tuned.meta["options"] == exact
    assert {"games": 10, "options": exact} in tuned.meta["history"]


def test_an_unknown_rule_option_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(RulesError) as err:
        train("acey-deucey", 10, 1, out=tmp_path / "x.npz", options={"bearoff_rule": "sideways"})
    assert err.value.code == "rules.not_a_choice"
    assert not (tmp_path / "x.npz").exists()


def test_a_network_of_encoding_2_trains_and_plays_one_of_encoding_1() -> None:
    rules = BackgammonRules.resolve(variant="classic")
    start = start_board(rules)
    net = Network.initial("classic", "gammons", 16, seed=3, encoding=2)
    before = copy.deepcopy(net)
    stats = train_games(net, rules, start, 0, 6, 3, Hyper(hidden=16))
    assert stats.games == 6 and (stats.rows[:, 0] >= 0).all()  # every game finished
    # the new inputs' weights learned too
    assert not np.array_equal(net.w1[204:], before.w1[204:])
    other = Network.initial("classic", "gammons", 16, seed=4)  # encoding 1
    points = play_match(net, other, rules, start, 3, 9)
    assert points.shape == (3, 2) and (np.abs(points) >= 1).all()


def test_a_widened_network_plays_exactly_as_its_original() -> None:
    from aceydeucey.backgammon.net import widen

    rules = BackgammonRules.resolve(variant="classic")
    start = start_board(rules)
    old = Network.initial("classic", "gammons", 16, seed=5)
    old.w1 *= 10
    wide = widen(old, 2)
    assert np.array_equal(
        play_match(old, None, rules, start, 4, 1), play_match(wide, None, rules, start, 4, 1)
    )
    # with no learning (a zero rate) the self-play games are the same too
    stats_old = train_games(old, rules, start, 0, 3, 2, Hyper(hidden=16, alpha0=0, alpha_min=0))
    stats_wide = train_games(wide, rules, start, 0, 3, 2, Hyper(hidden=16, alpha0=0, alpha_min=0))
    assert np.array_equal(stats_old.rows, stats_wide.rows)
