"""Classic backgammon: our legal plays equal OpenSpiel's and GNU Backgammon's.

The sample is 10,000+ (position, roll) pairs from seeded random OpenSpiel games.
For every pair the set of resulting positions must equal OpenSpiel's (each of
its whole plays, with both halves of a double expanded; doubles are expanded
only where a bear-off is within reach, to keep the test fast, as gnubg covers
the rest).  Where no play bears
off, the set must also equal gnubg's (its move tuples stop at the first
bear-off step, so bear-offs are left to OpenSpiel).  A second pass replays
every 40th sampled position with all 21 rolls against gnubg.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from aceydeucey.backgammon.board import BAR, OFF, Position
from aceydeucey.backgammon.moves import apply_move, legal_plays
from aceydeucey.backgammon.notation import Move
from aceydeucey.backgammon.rules import BackgammonRules

pyspiel = pytest.importorskip("pyspiel")
gnubg = pytest.importorskip("gnubg")

pytestmark = pytest.mark.slow

CLASSIC = BackgammonRules.resolve(variant="classic")
PAIRS = 10_000
ALL_ROLLS = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]


@dataclass(frozen=True)
class Sample:
    position: Position
    roll: tuple[int, int]
    results: frozenset[Position] | None  # OpenSpiel's (doubles only near a bear-off)


def _dice(roll: tuple[int, int]) -> tuple[int, ...]:
    return (roll[0],) * 4 if roll[0] == roll[1] else roll


def _position(state: Any, mover: int) -> Position:
    """OpenSpiel's board as our Position from ``mover``'s side."""
    text = state.to_string()
    board = state.board
    own = [board(mover, pos) for pos in range(24)]
    opp = [board(1 - mover, pos) for pos in range(24)]
    points = [a - b for a, b in zip(own, opp, strict=True)]
    if mover == 0:  # x numbers its points 24 - pos; o numbers them pos + 1
        points.reverse()
    bar_line = re.search(r"Bar:(.*)", text)
    bar_text = bar_line.group(1) if bar_line else ""
    scores = re.search(r"Scores, X: (\d+), O: (\d+)", text)
    assert scores is not None
    bars = (bar_text.count("x"), bar_text.count("o"))
    offs = (int(scores.group(1)), int(scores.group(2)))
    return Position(
        tuple(points),
        (bars[mover], bars[1 - mover]),
        (0, 0),
        (offs[mover], offs[1 - mover]),
    )


def _roll(state: Any) -> tuple[int, int]:
    found = re.search(r"Dice: (\d)(\d)", state.to_string())
    assert found is not None
    a, b = int(found.group(1)), int(found.group(2))
    return (max(a, b), min(a, b))


def _may_bear_off_within(position: Position, die: int) -> bool:
    """Whether a double of ``die`` could bear off: all checkers within 3 moves of home."""
    reach = 6 + 3 * die
    return not position.bar[0] and all(n <= 0 for n in position.points[reach:])


def _openspiel_results(state: Any, mover: int, doubles: bool) -> frozenset[Position]:
    results = set()
    halves: set[Position] = set()
    for action in state.legal_actions():
        child = state.child(action)
        if doubles and not child.is_terminal() and child.current_player() == mover:
            half = _position(child, mover)
            if half in halves:  # the same first half: its second halves are known
                continue
            halves.add(half)
            for second in child.legal_actions():
                results.add(_position(child.child(second), mover))
        else:
            results.add(_position(child, mover))
    return frozenset(results)


@cache
def sample() -> tuple[Sample, ...]:
    game = pyspiel.load_game("backgammon")
    rng = random.Random(20261130)
    out: list[Sample] = []
    while len(out) < PAIRS:
        state = game.new_initial_state()
        previous = None
        while not state.is_terminal() and len(out) < PAIRS:
            if state.is_chance_node():
                actions = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(actions))
                previous = None
                continue
            mover = state.current_player()
            if previous != mover:  # first decision of this roll
                roll = _roll(state)
                position = _position(state, mover)
                doubles = roll[0] == roll[1]
                results = None
                if not doubles or _may_bear_off_within(position, roll[0]):
                    results = _openspiel_results(state, mover, doubles)
                out.append(Sample(position, roll, results))
            previous = mover
            state.apply_action(rng.choice(state.legal_actions()))
    return tuple(out)


def _gnubg_results(position: Position, roll: tuple[int, int]) -> tuple[set[Position], bool]:
    """gnubg's resulting positions, and whether any of its plays bears off (then truncated)."""
    found = gnubg.find_best_moves(
        position.gnubg_board(), gnubg.cubeinfo(), gnubg.evalcontext(), roll
    )
    results, bears_off = set(), False
    for entry in found:
        steps = entry["move"]
        if len(steps) % 2 or any(steps[i + 1] <= 0 for i in range(0, len(steps), 2)):
            bears_off = True
            continue
        pos = position
        for i in range(0, len(steps), 2):
            src = BAR if steps[i] == 25 else steps[i]
            pos = apply_move(pos, Move(src, steps[i + 1] if steps[i + 1] > 0 else OFF))
        results.add(pos)
    if not found:  # no legal move: gnubg lists nothing, we list 'pass'
        results.add(position)
    return results, bears_off


def _ours(position: Position, roll: tuple[int, int]) -> set[Position]:
    return {play.result for play in legal_plays(position, _dice(roll), CLASSIC)}


def test_sample_covers_every_roll_bar_entry_blocks_and_bearoffs() -> None:
    # The sample must exercise the hard cases, or agreement proves little.
    pairs = sample()
    assert len(pairs) >= PAIRS
    assert {s.roll for s in pairs} == set(ALL_ROLLS)
    on_bar = [s for s in pairs if s.position.bar[0]]
    ours = [_ours(s.position, s.roll) for s in pairs]
    blocked = [s for s, r in zip(pairs, ours, strict=True) if r == {s.position}]
    bearing = [
        s for s, r in zip(pairs, ours, strict=True) if any(p.off[0] > s.position.off[0] for p in r)
    ]
    checked = [s for s in pairs if s.results is not None]
    assert {s.roll for s in checked} == set(ALL_ROLLS)  # OpenSpiel checks doubles too
    assert all(s.results is not None for s in bearing)
    assert len(on_bar) >= 300, len(on_bar)
    assert len(blocked) >= 30, len(blocked)
    assert len(bearing) >= 300, len(bearing)


def test_same_plays_as_openspiel() -> None:
    mismatches = []
    for s in sample():
        if s.results is None:
            continue
        ours = _ours(s.position, s.roll)
        if ours != set(s.results):
            mismatches.append((s.position.position_id(), s.roll, len(ours), len(s.results)))
    assert not mismatches, f"{len(mismatches)} differ, e.g. {mismatches[:5]}"


def test_same_plays_as_gnubg() -> None:
    compared = 0
    mismatches = []
    for k, s in enumerate(sample()):
        rolls = ALL_ROLLS if k % 40 == 0 else [s.roll]
        for roll in rolls:
            theirs, truncated = _gnubg_results(s.position, roll)
            ours = _ours(s.position, roll)
            if truncated:
                # gnubg's tuples stop at a bear-off: compare the plays that do not bear off
                ours = {r for r in ours if r.off[0] == s.position.off[0]}
            compared += 1
            if ours != theirs:
                mismatches.append((s.position.position_id(), roll))
    assert compared >= PAIRS
    assert not mismatches, f"{len(mismatches)} differ, e.g. {mismatches[:5]}"


def test_position_id_matches_gnubg() -> None:
    # Our Position ID and gnubg's agree, both ways, with no swap, and decoding gives back
    # the position.
    for s in sample()[::25]:
        board = s.position.gnubg_board()
        assert s.position.position_id() == gnubg.positionid(board)
        assert gnubg.positionfromid(s.position.position_id()) == board
        assert Position.from_position_id(gnubg.positionid(board)) == s.position


def test_a_gnubg_position_id_puts_the_player_on_roll_second() -> None:
    # gnubg 1.1, ``set turn 1``, ``set board AQAAAMD/HwAAAA``: the side on roll has all 15
    # checkers on its 13-point; the opponent has one checker on its 1-point (14 off).
    board = gnubg.positionfromid("AQAAAMD/HwAAAA")
    assert board[1][12] == 15 and board[0][0] == 1
    position = Position.from_position_id("AQAAAMD/HwAAAA")
    assert position.points[12] == 15 and position.points[23] == -1
    assert position.off == (0, 14)
    assert position.position_id() == "AQAAAMD/HwAAAA"
    # the same legal plays as gnubg from the pasted ID
    ours = _ours(position, (6, 5))
    theirs, truncated = _gnubg_results(position, (6, 5))
    assert not truncated and ours == theirs
