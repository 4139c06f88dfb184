"""The bear-off tables against brute force on the engine's own states, and against gnubg."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.backgammon import bearoff
from aceydeucey.backgammon.board import CHECKERS, Position
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.core.errors import AceyDeuceyError

#: readings of the rules whose bear-offs differ: higher-die and exact-count, the 1-2 with a
#: named or a rolled double, extra rolls after doubles, the complement
READINGS: dict[str, dict[str, Any]] = {
    "classic": {"variant": "classic"},
    "acey-deucey": {"variant": "acey-deucey"},
    "acey-exact": {"variant": "acey-deucey", "bearoff_rule": "exact_only"},
    "acey-rolled-double": {"variant": "acey-deucey", "acey_doubles_choice": "rolled"},
    "classic-exact-reroll": {
        "variant": "classic",
        "bearoff_rule": "exact_only",
        "natural_doubles_extra_roll": "always",
    },
    "complement": {"variant": "acey-deucey", "doubles_plus_complement": True},
}

SMALL = 3  # checkers: 84 positions, brute force through the engine in seconds


@cache
def rules_of(name: str) -> BackgammonRules:
    return aceydeucey.load_game("backgammon", **READINGS[name]).rules  # type: ignore[no-any-return]


@cache
def small_table(name: str) -> bearoff.OneSided:
    return bearoff.build_one_sided(rules_of(name), SMALL)


def home(counts: tuple[int, ...], other: tuple[int, ...] = ()) -> Position:
    """Counts on the mover's points 1..6 and, by default, the other side far away."""
    points = [0] * 24
    points[:6] = counts
    if other:
        for i, n in enumerate(other):
            points[23 - i] = -n
    else:
        points[23] = -CHECKERS
    off = (CHECKERS - sum(counts), CHECKERS - (sum(other) if other else CHECKERS))
    return Position(tuple(points), off=off)


def brute_force_turns(name: str, counts: tuple[int, ...]) -> Fraction:
    """Expected turns to bear off, fewest on average, through the engine's states and its
    chance outcomes alone: a turn ends when the other side is to act."""
    game = aceydeucey.load_game("backgammon", **READINGS[name])
    memo: dict[tuple[int, ...], Fraction] = {}

    def turns(c: tuple[int, ...]) -> Fraction:
        if not sum(c):
            return Fraction(0)
        if c in memo:
            return memo[c]
        state = game.new_state(position=home(c), seat=0)
        const, k = node(state, c)
        memo[c] = (1 + const) / (1 - k)
        return memo[c]

    def node(state: Any, start: tuple[int, ...]) -> tuple[Fraction, Fraction]:
        """The further turns after this one as ``(constant, k)``: constant + k turns(start).
        Nothing played: a pass ends the turn where it began (0, 1); a roll of the same
        turn where it began is that roll taken again (-1, 1)."""
        if state.is_terminal():
            return Fraction(0), Fraction(0)
        if state.mover != 0:  # the turn is over
            after = tuple(max(n, 0) for n in state.view(0).points[:6])
            if after == start:
                return Fraction(0), Fraction(1)
            return turns(after), Fraction(0)
        if state.is_chance_node():
            here = tuple(max(n, 0) for n in state.view(0).points[:6])
            if state.phase == "roll" and state.extra:  # another roll of the same turn
                if here == start:
                    return Fraction(-1), Fraction(1)
                return turns(here) - 1, Fraction(0)
            const = k = Fraction(0)
            for action, p in state.chance_outcomes():
                c, s = node(state.apply(action), start)
                const += p * c
                k += p * s
            return const, k
        options = [node(state.apply(a), start) for a in state.legal_actions()]
        moving = [o for o in options if o[1] == 0]
        return min(moving) if moving else options[0]

    return turns(counts)


@pytest.mark.parametrize("name", list(READINGS))
def test_index_holds_every_home_position(name: str) -> None:
    table = small_table(name)
    assert len(table.index) == bearoff.checkers_choose(SMALL) == math.comb(SMALL + 6, 6)
    assert set(table.index) == {c for c in np.ndindex(*(SMALL + 1,) * 6) if sum(c) <= SMALL}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(READINGS))
def test_expected_turns_equal_brute_force_through_the_engine(name: str) -> None:
    table = small_table(name)
    for counts, row in table.index.items():
        exact = brute_force_turns(name, counts)
        assert table.mean[row] == pytest.approx(float(exact), abs=1e-12), counts
        assert bearoff.exact_turns(rules_of(name), counts) == exact


@pytest.mark.parametrize("name", list(READINGS))
def test_distributions_are_distributions_with_the_table_mean(name: str) -> None:
    table = small_table(name)
    n = np.arange(bearoff.MAX_TURNS)
    assert np.allclose(table.turns.sum(axis=1), 1.0)
    assert (table.turns >= -1e-15).all()
    assert np.allclose(table.turns @ n, table.mean, atol=1e-9)
    # checkers left: all of them before the first turn, never more later, none at the end
    counts = np.array([sum(c) for c in sorted(table.index, key=table.index.__getitem__)])
    assert np.array_equal(table.left[:, 0], counts)
    assert (np.diff(table.left, axis=1) <= 1e-12).all()
    assert np.allclose(table.left[:, -1], 0.0, atol=1e-7)  # exact-count: a thin tail


def test_known_values() -> None:
    classic, acey = small_table("classic"), small_table("acey-deucey")
    six = (0, 0, 0, 0, 0, 1)
    # one checker on the six point: off at once unless the roll totals less than six
    # (1-1 plays 4 pips: 1-1 .. 2-1, 3-1, 4-1, 2-2? no: 2-2 plays 8): 9 of 36 rolls miss
    assert classic.turns[classic.row(six)][1] == pytest.approx(27 / 36)
    # Acey-Deucey's 1-2 brings a double and another roll: 2 more of 36 rolls finish
    assert acey.turns[acey.row(six)][1] == pytest.approx(29 / 36)
    assert classic.mean[classic.row((1, 0, 0, 0, 0, 0))] == 1.0


def test_the_remainder_to_the_opponent_has_no_one_sided_table() -> None:
    rules = aceydeucey.load_game(
        "backgammon", variant="acey-deucey", unplayable_remainder="to_opponent"
    ).rules
    with pytest.raises(AceyDeuceyError) as caught:
        bearoff.build_one_sided(rules, 1)
    assert caught.value.code == "bg.bearoff.not_independent"


def test_each_reading_has_its_own_key_and_equal_rules_share_one() -> None:
    keys = {name: bearoff.bearoff_key(rules_of(name)) for name in READINGS}
    assert len(set(keys.values())) == len(READINGS)
    again = aceydeucey.load_game("backgammon", variant="classic").rules
    assert bearoff.bearoff_key(again) == keys["classic"]
    # the cube, the scoring and the roll-off decide nothing once every checker is home
    for options in ({"cube": "money"}, {"scoring": "single"}, {"opening": "reroll_both_dice"}):
        other = aceydeucey.load_game("backgammon", variant="classic", **options).rules
        assert bearoff.bearoff_key(other) == keys["classic"], options


def test_a_table_of_no_checkers_is_refused() -> None:
    with pytest.raises(AceyDeuceyError) as caught:
        bearoff.build_one_sided(rules_of("classic"), 0)
    assert caught.value.code == "bg.bearoff.checkers"


def test_saved_tables_load_as_built(tmp_path: Any) -> None:
    table = small_table("acey-deucey")
    path = tmp_path / "t.npz"
    bearoff.save_one_sided(table, path)
    loaded = bearoff.load_one_sided(path)
    assert loaded.index == table.index
    assert np.allclose(loaded.turns, table.turns, atol=1e-7)
    assert np.array_equal(loaded.mean, table.mean)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["classic", "acey-deucey"]), st.data())
def test_against_a_side_sure_to_finish_the_tables_agree(name: str, data: st.DataObject) -> None:
    """Against a side that bears off in its next turn whatever it rolls, the side on roll
    wins exactly when it finishes this turn: the two-sided table (play to win) and the
    one-sided table (fewest turns) must give the same chance, which both maximise."""
    one, two = small_table(name), two_small(name)
    mover = data.draw(st.sampled_from([c for c in two.index if sum(c)]))
    sure = (1, 0, 0, 0, 0, 0)  # any roll bears it off (higher-die bear-off)
    assert two.chance(mover, sure) == pytest.approx(one.turns[one.row(mover)][1], abs=1e-12)
    assert bearoff.race_value(one, mover, sure).win == pytest.approx(two.chance(mover, sure))


@cache
def two_small(name: str) -> bearoff.TwoSided:
    return bearoff.two_sided(rules_of(name), 2)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["classic", "acey-deucey"])
def test_two_sided_equals_brute_force_through_the_engine(name: str) -> None:
    """Readings in which every roll moves a checker home: the game is a finite tree."""
    two = two_small(name)
    game = aceydeucey.load_game("backgammon", **READINGS[name])
    rng = random.Random(5)
    pairs = [(a, b) for a in two.index for b in two.index if sum(a) and sum(b)]
    memo: dict[Any, float] = {}
    for mover, other in rng.sample(pairs, 12):
        state = game.new_state(position=home(mover, other), seat=0)
        assert two.chance(mover, other) == pytest.approx(win_chance(state, memo), abs=1e-12)


def win_chance(state: Any, memo: dict[Any, float]) -> float:
    """Brute-force chance that seat 0 wins, each side playing to win, on the engine's
    states and chance outcomes alone (states are values: one answer each)."""
    known = memo.get(state)
    if known is not None:
        return known
    if state.is_terminal():
        value = 1.0 if state.returns()[0] > 0 else 0.0
    elif state.is_chance_node():
        value = sum(float(p) * win_chance(state.apply(a), memo) for a, p in state.chance_outcomes())
    else:
        values = [win_chance(state.apply(a), memo) for a in state.legal_actions()]
        value = max(values) if state.current_player() == 0 else min(values)
    memo[state] = value
    return value


@pytest.mark.slow
def test_race_values_agree_with_gnubg() -> None:
    """gnubg's 0-ply evaluates a race with both sides home from its own bear-off databases:
    a two-sided one (play for winning) when both sides have at most 6 checkers, else a
    one-sided one like ours, with which ours agrees to gnubg's stored precision."""
    gnubg = pytest.importorskip("gnubg")
    table = bearoff.build_one_sided(rules_of("classic"), 8)
    cube = gnubg.cube_info()
    context = gnubg.eval_context(False, 0, True, False, 0.0)
    rng = random.Random(11)
    worst = 0.0
    for _ in range(200):
        mover = random_counts(rng, rng.randint(7, 8))
        other = random_counts(rng, rng.randint(7, 8))
        win, wg, _, lg, _, _ = gnubg.evaluate(home(mover, other).gnubg_board(), cube, context)
        race = bearoff.race_value(table, mover, other)
        worst = max(worst, abs(win - race.win))
        assert race.win == pytest.approx(win, abs=1e-3), (mover, other)
        assert race.win_gammon == pytest.approx(wg, abs=1e-3)
        assert race.lose_gammon == pytest.approx(lg, abs=1e-3)
    assert worst < 1e-3


def random_counts(rng: random.Random, n: int) -> tuple[int, ...]:
    counts = [0] * 6
    for _ in range(n):
        counts[rng.randrange(6)] += 1
    return tuple(counts)


@pytest.mark.parametrize("name", ["classic", "acey-deucey"])
@pytest.mark.parametrize("dice", [(6, 5), (2, 2), (3, 1)])
def test_the_evaluator_values_home_races_from_the_table(name: str, dice: tuple[int, int]) -> None:
    """With a table the network is not asked about a race with both sides home: every
    play's equity is the table's value of the race that follows, the other side on roll."""
    from aceydeucey.backgammon.evaluator import Evaluator
    from aceydeucey.backgammon.generate import legal_plays

    rules = rules_of(name)
    evaluator = Evaluator(rules)
    table = evaluator.bearoff = small_table(name)
    mover, other = (1, 0, 1, 0, 0, 1), (0, 2, 0, 0, 1, 0)
    hand = dice * 2 if dice[0] == dice[1] else dice
    ranked = evaluator.rank_plays(home(mover, other), hand)
    expected = {}
    for play in legal_plays(home(mover, other), hand, rules):
        after = tuple(max(n, 0) for n in play.result.points[:6])
        if not sum(after):
            continue
        v = bearoff.race_value(table, other, after)
        if rules.scoring == "per_checker":
            expected[str(play)] = -v.points
        else:
            expected[str(play)] = -(2 * v.win - 1 + v.win_gammon - v.lose_gammon)
    valued = [choice for choice in ranked if choice.text in expected]
    assert valued  # some play leaves a race to value
    for choice in valued:
        assert choice.equity == pytest.approx(expected[choice.text], abs=1e-9)
