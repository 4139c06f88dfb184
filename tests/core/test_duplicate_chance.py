"""The Duplicate chance source: one stream of draws per thrower and kind of chance node."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey.backgammon.board import standard_start
from aceydeucey.core.chance import Duplicate, Seeded
from aceydeucey.core.registry import load_game

GAME = load_game("backgammon", variant="classic")
#: a roll node of each seat (the seat on roll throws)
ROLL = tuple(GAME.new_state(position=standard_start(), seat=seat) for seat in (0, 1))
OPENING = GAME.new_initial_state()


def per_seat(seed: int, seats: list[int]) -> dict[int, list[str]]:
    """The rolls each seat throws, in order, when the seats throw in the order ``seats``."""
    chance = Duplicate(seed)
    thrown: dict[int, list[str]] = {0: [], 1: []}
    for seat in seats:
        thrown[seat].append(str(chance.choose(ROLL[seat])))
    return thrown


TURNS = st.lists(st.integers(0, 1), max_size=60).flatmap(
    lambda seats: st.tuples(st.just(seats), st.permutations(seats))
)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**64 - 1), TURNS)
def test_each_seat_throws_the_same_rolls_whatever_the_order_of_turns(
    seed: int, turns: tuple[list[int], list[int]]
) -> None:
    # Another order of the same turns (a seat rolling twice in a row after a 1-2, or a
    # game in which one side rolled more often): each seat's k-th roll does not change.
    seats, other = turns
    assert per_seat(seed, seats) == per_seat(seed, list(other))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20))
def test_the_opening_has_its_own_stream(seed: int, rolls: int) -> None:
    # However many rolls come first, the roll-off drawn next is the stream's first one.
    plain = Duplicate(seed).choose(OPENING)
    chance = Duplicate(seed)
    for _ in range(rolls):
        chance.choose(ROLL[0])
    assert chance.choose(OPENING) == plain


def test_the_two_seats_and_two_seeds_have_different_streams() -> None:
    both = per_seat(5, [0, 1] * 30)
    assert both[0] != both[1]
    assert per_seat(5, [0] * 30)[0] != per_seat(6, [0] * 30)[0]
    # and a seed reproduces its draws
    assert per_seat(5, [0, 1] * 30) == both


def test_draws_follow_the_dice_distribution() -> None:
    # 36,000 rolls of one seat: each of the 21 rolls appears, doubles about 1 in 36 each,
    # the others about 2 in 36 (within 5 standard deviations).
    chance = Duplicate(11)
    counts = Counter(str(chance.choose(ROLL[0])) for _ in range(36_000))
    assert len(counts) == 21
    for roll, n in counts.items():
        high, low = roll.split("-")
        p = (1 if high == low else 2) / 36
        sd = (36_000 * p * (1 - p)) ** 0.5
        assert abs(n - 36_000 * p) < 5 * sd, (roll, n)


def test_a_game_replays_from_its_seed() -> None:
    # Duplicate is a chance source like Seeded: the same seed, the same outcome at a node.
    assert Duplicate(3).choose(OPENING) == Duplicate(3).choose(OPENING)
    assert str(Seeded(3).choose(OPENING)).startswith("opening")
