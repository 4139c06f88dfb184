"""2-ply in one kernel call: the batched replies against a plain position-by-position
reference, the bounds on what 2-ply looks at again, and the bear-off table's races."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import numpy as np
import pytest

from aceydeucey.backgammon import bearoff, generate
from aceydeucey.backgammon.bots import position_of, rank_observation
from aceydeucey.backgammon.evaluator import (
    BLEND_2PLY,
    HANDS,
    ROLLS,
    TOP_2PLY,
    TOP_3PLY,
    WINDOW_2PLY,
    Choice,
    Evaluator,
)
from aceydeucey.backgammon.game import BackgammonGame
from aceydeucey.backgammon.kernel import flip_board
from aceydeucey.backgammon.net import N_INPUTS, widen
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.chance import Seeded

from .test_bearoff import home, rules_of, small_table


@cache
def observations(variant: str, games: int = 3, seed: int = 11) -> list[dict[str, Any]]:
    """Observations of the seat to act, where it has a choice, from random games."""
    game = BackgammonGame(BackgammonRules.resolve(variant=variant))
    chance = Seeded(seed)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
                continue
            seat = state.current_player()
            observation = state.observation(seat)
            legal = observation["legal_actions"]
            if len(legal) > 1 and not legal[0].startswith("double "):
                found.append(observation)  # a checker play with a choice
            state = state.apply(state.parse_action(rng.choice(legal)), seat=seat)
    return found


def sample(variant: str, count: int) -> list[dict[str, Any]]:
    found = observations(variant)
    return found[:: max(1, len(found) // count)][:count]


def evaluator(variant: str, **bounds: Any) -> Evaluator:
    return Evaluator(BackgammonRules.resolve(variant=variant), **bounds)


# -- the plain reference: one position, one roll at a time ------------------------------------


def average_over_rolls(rows: list[Any]) -> Any:
    """The mean of one row a roll of the 21 :data:`ROLLS`, with their probabilities."""
    weights = np.array([weight for _, _, weight in ROLLS], dtype=np.float64)
    return weights @ np.array(rows) / 36.0


def reference_lookahead(
    ev: Evaluator, board: np.ndarray[Any, Any], pending: int, chain: int
) -> Any:
    if pending:
        options = [ev._best_reply(board, (d,) * 4, "named", chain) for d in range(1, 7)]
        return max(options, key=lambda v: float(ev.equity(v)))
    rows = [ev._best_reply(board, dice, "roll", chain) for dice in HANDS["roll"]]
    return average_over_rolls(rows)


def reference_rank(
    ev: Evaluator, observation: dict[str, Any], limit: int | None, ply: int = 2
) -> list[tuple[str, float]]:
    """2-ply as it was written before the kernel: each candidate's 21 rolls one by one,
    where the opponent rolls next each reply the network valued blended with the
    candidate's 0-ply value by ``ev.blend_2ply``;
    at 3-ply a candidate that hands the turn over is valued two rolls deep, roll by roll."""
    position = position_of(observation)
    dice = tuple(int(d) for d in observation["dice"])
    kind = observation.get("dice_kind") or "roll"
    chain = int(observation.get("chain", 0))
    plays = generate.legal_plays(
        position,
        dice,
        ev.rules,
        may_enter=bool(observation["entry_gate_passed"][0]),
        may_reenter=ev.turns.bar_open(kind, dice),
    )
    boards = np.array([generate.to_board(play.result) for play in plays]).reshape(len(plays), -1)
    used = len(dice) - len(plays[0].unused)
    flip, pending = ev.next_turn(kind, dice, used, chain)
    values = ev.values(boards, flip, pending)
    equities = ev.equity(values)
    ranking = [int(r) for r in np.argsort(-equities, kind="stable")]
    if len(plays) > 1:
        best = equities[ranking[0]]
        scale = 15.0 if ev.spec.name == "points" else 1.0
        count = max(TOP_2PLY, int(np.count_nonzero(equities >= best - WINDOW_2PLY * scale)))
        if limit is not None:
            count = min(count, max(TOP_2PLY, limit))
        looked, rest = ranking[:count], ranking[count:]
        next_chain = chain + 1 if pending else (0 if flip else chain)
        for r in looked:
            if boards[r, 28] == 15:
                continue
            if flip:
                zero = ev.spec.flip(values[r])
                deep = reference_blended_look(ev, flip_board(boards[r]), zero)
                values[r] = ev.spec.flip(deep)
            else:
                values[r] = reference_lookahead(ev, boards[r], pending, next_chain)
        equities = ev.equity(values)
        ranking = sorted(looked, key=lambda r: -equities[r]) + rest
        if ply >= 3 and flip:
            top = ranking[: min(TOP_3PLY, len(looked))]
            for r in top:
                if boards[r, 28] != 15:
                    deep = reference_two_rolls(ev, flip_board(boards[r]), 0)
                    values[r] = ev.spec.flip(deep)
            equities = ev.equity(values)
            ranking = sorted(top, key=lambda r: -equities[r]) + ranking[len(top) :]
    return [(str(plays[r]), float(equities[r])) for r in ranking]


def texts_and_equities(choices: list[Choice]) -> list[tuple[str, float]]:
    return [(c.text, c.equity) for c in choices]


def assert_same_ranking(got: list[tuple[str, float]], want: list[tuple[str, float]]) -> None:
    assert [t for t, _ in got] == [t for t, _ in want]
    np.testing.assert_allclose([e for _, e in got], [e for _, e in want], rtol=0, atol=1e-12)


# -- the kernel against the reference ---------------------------------------------------------


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
@pytest.mark.parametrize("kind", ["roll", "named"])
def test_batched_replies_equal_the_roll_by_roll_reference(variant: str, kind: str) -> None:
    ev = evaluator(variant)
    observations = sample(variant, 12)
    boards = np.array([generate.to_board(position_of(o)) for o in observations])
    for chain in (0, 1):
        batched = ev.best_replies(boards, kind, chain)
        assert batched.shape == (len(boards), len(HANDS[kind]), ev.spec.size)
        for k, board in enumerate(boards):
            want = np.array([ev._best_reply(board, dice, kind, chain) for dice in HANDS[kind]])
            np.testing.assert_allclose(batched[k], want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_lookahead_equals_the_reference(variant: str) -> None:
    ev = evaluator(variant)
    boards = np.array([generate.to_board(position_of(o)) for o in sample(variant, 6)])
    for pending in (0, 1):
        many = ev.lookahead_many(boards, pending, 0)
        for k, board in enumerate(boards):
            want = reference_lookahead(ev, board, pending, 0)
            np.testing.assert_allclose(many[k], want, rtol=0, atol=1e-12)
            np.testing.assert_allclose(ev.lookahead(board, pending, 0), want, rtol=0, atol=1e-12)


def reference_two_rolls(ev: Evaluator, board: np.ndarray[Any, Any], chain: int) -> Any:
    """Before the roll, two rolls deep, roll by roll: each roll's best 0-ply play, valued
    by the opponent's one-roll look where it hands the turn over in a game going on and
    no race from the bear-off table is among the roll's plays."""
    rows = []
    for best, chosen in reference_replies(ev, board, chain):
        if chosen is not None:
            best = ev.spec.flip(reference_lookahead(ev, flip_board(chosen), 0, 0))
        rows.append(best)
    return average_over_rolls(rows)


def reference_replies(ev: Evaluator, board: np.ndarray[Any, Any], chain: int) -> list[Any]:
    """For each of the 21 rolls of the side on roll of ``board``: its best 0-ply play's
    outputs, and that play's board where the network valued it in a position the other
    side rolls in (it hands the turn over in a game going on, and no race from the
    bear-off table is among the roll's plays), else ``None``."""
    replies = []
    for dice in HANDS["roll"]:
        results, _, _, used = ev._generator.plays(board, np.array(dice), ev.params)
        flip, pending = ev.next_turn("roll", dice, used, chain)
        best = ev._best_reply(board, dice, "roll", chain)
        values = ev.values(results, flip, pending)
        chosen = results[int(np.argmax(ev.equity(values)))]
        raced = ev.bearoff is not None and len(bearoff.race_rows(results)) > 0
        estimated = flip and chosen[28] != 15 and not raced
        replies.append((best, chosen if estimated else None))
    return replies


def reference_blended_look(ev: Evaluator, board: np.ndarray[Any, Any], zero: Any) -> Any:
    """The opponent's one-roll look at ``board``, each reply the network valued blended
    with ``zero`` (the opponent's 0-ply outputs) by ``ev.blend_2ply``."""
    w = ev.blend_2ply
    rows = [
        best if chosen is None else w * best + (1 - w) * zero
        for best, chosen in reference_replies(ev, board, 0)
    ]
    return average_over_rolls(rows)


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_two_rolls_before_the_roll_equal_the_reference(variant: str) -> None:
    ev = evaluator(variant)
    for observation in sample(variant, 6):
        board = generate.to_board(position_of(observation))
        chain = int(observation.get("chain", 0))
        want = reference_two_rolls(ev, board, chain)
        got = ev.before_roll(board, chain, rolls=2)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
        one = ev.before_roll(board, chain, rolls=1)
        np.testing.assert_allclose(one, reference_lookahead(ev, board, 0, chain), atol=1e-12)
        assert not np.allclose(got, one)  # the second roll changes the estimate


@pytest.mark.parametrize(
    ("variant", "limit", "blend"),
    [
        ("classic", None, BLEND_2PLY),
        ("classic", 8, BLEND_2PLY),
        ("classic", 8, 1.0),
        ("acey-deucey", 8, BLEND_2PLY),
        ("acey-deucey", 8, 0.25),
    ],
)
def test_two_ply_rankings_equal_the_reference(
    variant: str, limit: int | None, blend: float
) -> None:
    ev = evaluator(variant, max_2ply=limit, blend_2ply=blend)
    for observation in sample(variant, 10):
        got = texts_and_equities(rank_observation(ev, observation, 2))
        assert_same_ranking(got, reference_rank(ev, observation, limit))


@pytest.mark.parametrize("blend", [-0.1, 1.5])
def test_the_blend_is_a_weight(blend: float) -> None:
    with pytest.raises(ValueError, match="blend_2ply is a weight from 0 to 1"):
        evaluator("classic", blend_2ply=blend)


def test_the_blend_lies_between_the_look_and_0_ply() -> None:
    """Where the opponent rolls next, a blended 2-ply value lies between the play's 0-ply
    value and its look one roll deep, and differs from both where they differ."""
    zero, look, half = (evaluator("classic", blend_2ply=w) for w in (0.0, 1.0, 0.5))
    between = 0
    for observation in sample("classic", 6):
        values = {
            name: dict(texts_and_equities(rank_observation(ev, observation, 2)))
            for name, ev in (("zero", zero), ("look", look), ("half", half))
        }
        for text, mixed in values["half"].items():
            a, b = values["zero"][text], values["look"][text]
            assert min(a, b) - 1e-12 <= mixed <= max(a, b) + 1e-12
            between += abs(a - b) > 1e-9 and abs(mixed - (a + b) / 2) < 1e-12
    assert between  # some plays were looked at, and their look moved them


@pytest.mark.parametrize("variant", ["classic", "acey-deucey"])
def test_three_ply_rankings_equal_the_reference(variant: str) -> None:
    ev = evaluator(variant)
    changed = 0
    for observation in sample(variant, 4):
        got = texts_and_equities(rank_observation(ev, observation, 3))
        assert_same_ranking(got, reference_rank(ev, observation, 8, ply=3))
        two = texts_and_equities(rank_observation(ev, observation, 2))
        changed += [e for _, e in got] != [e for _, e in two]
    assert changed  # the second roll changes the values


def test_two_rolls_of_many_boards_equal_each_board_alone() -> None:
    ev = evaluator("classic")
    boards = np.array([generate.to_board(position_of(o)) for o in sample("classic", 5)])
    many = ev.before_roll_many(boards)
    assert many.shape == (len(boards), ev.spec.size)
    for k, board in enumerate(boards):
        np.testing.assert_allclose(many[k], ev.before_roll(board, rolls=2), rtol=0, atol=1e-12)


def test_a_wide_window_is_cut_to_the_bound() -> None:
    """Many plays within the window: the bound keeps the 0-ply best ``max_2ply`` of them,
    looked at again; the rest keep their 0-ply order and values below them."""
    rules = BackgammonRules.resolve(variant="acey-deucey")
    shallow_ev, deep_ev = Evaluator(rules), Evaluator(rules, max_2ply=8)
    for observation in observations("acey-deucey"):
        position = position_of(observation)
        shallow = shallow_ev.rank_plays(position, (4, 4, 4, 4))
        close = sum(c.equity >= shallow[0].equity - WINDOW_2PLY * 15 for c in shallow)
        if close > 8:  # the case the bound is for
            break
    else:
        pytest.fail("no position with more than 8 plays in the window")
    deep = deep_ev.rank_plays(position, (4, 4, 4, 4), ply=2)
    assert {c.text for c in deep[:8]} == {c.text for c in shallow[:8]}
    assert texts_and_equities(deep[8:]) == texts_and_equities(shallow[8:])
    assert texts_and_equities(deep[:8]) != texts_and_equities(shallow[:8])


# -- the named double -------------------------------------------------------------------------


def state_at_double() -> Any:
    game = BackgammonGame(BackgammonRules.resolve(variant="acey-deucey"))
    state = game.new_initial_state().apply("opening 5-2").apply("2-1")
    state = state.apply(str(state.legal_actions()[0]))
    assert state.phase == "double"
    return state


@pytest.mark.parametrize("looked", [1, 2, 6])
def test_two_ply_looks_again_at_the_best_doubles_by_0_ply(looked: int) -> None:
    state = state_at_double()
    ev = Evaluator(state.game.rules, doubles_2ply=looked)
    shallow = ev.rank_doubles(state.position, chain=1)
    deep = ev.rank_doubles(state.position, chain=1, ply=2)
    top = [c.double for c in shallow[:looked]]
    assert sorted(c.double for c in deep[:looked]) == sorted(top)
    for choice in deep[:looked]:
        # each worth its best play at 2-ply
        best = ev.rank_plays(state.position, (choice.double,) * 4, kind="named", chain=1, ply=2)
        assert (choice.text, choice.equity) == (f"double {choice.double}", best[0].equity)
    assert [c.equity for c in deep[:looked]] == sorted(
        (c.equity for c in deep[:looked]), reverse=True
    )
    assert texts_and_equities(deep[looked:]) == texts_and_equities(shallow[looked:])


# -- races valued from the bear-off table -------------------------------------------------------


@pytest.mark.parametrize("name", ["classic", "acey-deucey"])
def test_replies_in_a_home_race_take_the_tables_values(name: str) -> None:
    """A hand whose plays reach races with both sides home goes to the table, as the
    roll-by-roll reference does (the kernel leaves those hands to it)."""
    ev = Evaluator(rules_of(name))
    ev.bearoff = small_table(name)
    boards = np.array(
        [
            generate.to_board(home((1, 0, 1, 0, 0, 1), (0, 2, 0, 0, 1, 0))),
            generate.to_board(home((0, 1, 1, 0, 1, 0), (1, 1, 0, 1, 0, 0))),
        ]
    )
    for kind in ("roll", "named"):
        batched = ev.best_replies(boards, kind, 0)
        for k, board in enumerate(boards):
            want = np.array([ev._best_reply(board, dice, kind, 0) for dice in HANDS[kind]])
            np.testing.assert_allclose(batched[k], want, rtol=0, atol=1e-12)
        # the network alone values these races otherwise: the table was used
        plain = Evaluator(rules_of(name)).best_replies(boards, kind, 0)
        assert not np.allclose(plain, batched)


def test_the_lookahead_kernel_lets_other_threads_run() -> None:
    """A bot thinks in a thread of the server's process: the batched kernel releases the
    interpreter's lock, so the thread serving every other table keeps running meanwhile
    (holding it, the kernel would stop that thread for its whole run)."""
    import threading
    import time

    ev = evaluator("acey-deucey")
    boards = np.array([generate.to_board(position_of(o)) for o in sample("acey-deucey", 12)])
    ev.best_replies(boards[:1])  # compiled and loaded before the measured call
    many = np.repeat(boards, 8, axis=0)  # a long call: a few hundred ms
    took: list[float] = []

    def think() -> None:
        start = time.perf_counter()
        ev.best_replies(many)
        took.append(time.perf_counter() - start)

    worker = threading.Thread(target=think)
    longest, last = 0.0, time.perf_counter()
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    assert took[0] > 0.1
    assert longest < took[0] / 3  # never stopped for most of the kernel's run


# -- a network of encoding 2 ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_batched_replies_of_an_encoding_2_network_equal_the_reference(variant: str) -> None:
    """The 2-ply kernel encodes for the network it is given: with weights on the figures of
    encoding 2 (a widened shipped network, the new rows drawn at random), its replies are
    the roll-by-roll reference's, and differ from the original network's."""
    rules = BackgammonRules.resolve(variant=variant)
    base = evaluator(variant).net
    net = widen(base, 2)
    net.w1[N_INPUTS:] = np.random.default_rng(3).normal(0.0, 1.0, net.w1[N_INPUTS:].shape)
    ev = Evaluator(rules, net)
    ev.bearoff = None
    boards = np.array([generate.to_board(position_of(o)) for o in sample(variant, 8)])
    batched = ev.best_replies(boards, "roll", 0)
    for k, board in enumerate(boards):
        want = np.array([ev._best_reply(board, dice, "roll", 0) for dice in HANDS["roll"]])
        np.testing.assert_allclose(batched[k], want, rtol=0, atol=1e-12)
    plain = Evaluator(rules, base)
    plain.bearoff = None
    assert not np.allclose(plain.best_replies(boards, "roll", 0), batched)
    # and a 2-ply ranking runs on it
    observation = sample(variant, 1)[0]
    position = position_of(observation)
    dice = tuple(int(d) for d in observation["dice"])
    choices = ev.rank_plays(position, dice, kind=observation.get("dice_kind") or "roll", ply=2)
    assert choices and all(np.isfinite(c.equity) for c in choices)
