"""Duplicate matches: both games of a pair are played on the same dice, draw by draw.

In each pair of a match (``sim.tournament.play_pair``) bot A sits in seat 0 for the
first game and seat 1 for the second.  The records must show the same opening
roll-off, and for each seat the same k-th roll (the rolls after a 1-2 included, and
rolled doubles where the rules roll them), for as long as both games last.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from aceydeucey.core.game import Game
from aceydeucey.core.record import Record
from aceydeucey.core.registry import load_game
from aceydeucey.core.table import Table
from aceydeucey.sim.tournament import entrant, play_pair

Draws = dict[tuple[int | None, str], list[str]]
Throws = list[tuple[int | None, str]]


def chance_draws(game: Game, record: Record) -> tuple[Draws, Throws]:
    """Each (thrower, kind of node)'s outcomes in order, and every throw in game order."""
    state = game.new_initial_state()
    streams: Draws = defaultdict(list)
    order: list[tuple[int | None, str]] = []
    for text in record.actions:
        if state.is_chance_node():
            streams[(state.chance_actor(), state.phase_name())].append(text)
            order.append((state.chance_actor(), text))
        state = state.apply(text)
    assert state.is_terminal()
    return dict(streams), order


def same_prefix(first: list[str], second: list[str]) -> bool:
    n = min(len(first), len(second))
    return first[:n] == second[:n]


def pair_draws(
    variant: str, bots: tuple[str, str], seed: int, pair: int, **options: object
) -> tuple[list[tuple[Draws, Throws]], tuple[Table, Table]]:
    """Pair ``pair`` of a duplicate match: each game's draws, and the two tables."""
    game = load_game("backgammon", variant=variant, **options)
    tally, tables = play_pair(
        game, entrant("backgammon", bots[0]), entrant("backgammon", bots[1]), seed, pair
    )
    assert tally.games == 2 and tally.pairs == 1
    return [chance_draws(game, table.record) for table in tables], tables


@pytest.mark.parametrize("pair", range(3))
def test_classic_pairs_share_the_opening_and_every_roll(pair: int) -> None:
    (first, first_order), (second, second_order) = pair_draws(
        "classic", ("pubeval", "random"), 7, pair
    )[0]
    assert first[(None, "opening")] == second[(None, "opening")]
    for seat in (0, 1):
        a, b = first[(seat, "roll")], second[(seat, "roll")]
        assert len(a) >= 5 and len(b) >= 5
        assert same_prefix(a, b)
    # Classic turns alternate, so the whole sequence of throws agrees too.
    n = min(len(first_order), len(second_order))
    assert first_order[:n] == second_order[:n]


def test_the_bots_swap_seats_so_each_meets_the_others_dice() -> None:
    _, (one, two) = pair_draws("classic", ("pubeval", "random"), 7, 0)
    assert type(one.agents[0]) is type(two.agents[1])
    assert type(one.agents[1]) is type(two.agents[0])
    assert type(one.agents[0]) is not type(one.agents[1])


def _acey_pair_with_a_reroll() -> tuple[list[tuple[Draws, Throws]], int]:
    """The first pair (seed 3) whose games have a 1-2 followed by the same seat's roll."""
    for pair in range(20):
        draws, _ = pair_draws("acey-deucey", ("greedy", "random"), 3, pair)
        _, order = draws[0]
        for k in range(len(order) - 1):
            seat, text = order[k]
            if text == "2-1" and order[k + 1][0] == seat:
                return draws, pair
    raise AssertionError("no 1-2 followed by a reroll in 20 pairs")


def test_acey_deucey_pairs_share_the_rolls_after_a_1_2() -> None:
    draws, _ = _acey_pair_with_a_reroll()
    (first, first_order), (second, second_order) = draws
    assert first[(None, "opening")] == second[(None, "opening")]
    for seat in (0, 1):
        assert same_prefix(first[(seat, "roll")], second[(seat, "roll")])
    # The 1-2 comes at the same throw of the same seat in both games, and so does the
    # roll it earns.
    rerolls = [
        k
        for k in range(len(first_order) - 1)
        if first_order[k][1] == "2-1" and first_order[k + 1][0] == first_order[k][0]
    ]
    k = rerolls[0]
    if k + 1 < len(second_order):
        assert second_order[k] == first_order[k]
        assert second_order[k + 1] == first_order[k + 1]


def test_rolled_doubles_after_a_1_2_are_shared_too() -> None:
    # With acey_doubles_choice="rolled" the double after a 1-2 is a chance node of the
    # seat on roll: it has its own stream, the same in both games.
    for pair in range(20):
        draws, _ = pair_draws(
            "acey-deucey", ("greedy", "random"), 5, pair, acey_doubles_choice="rolled"
        )
        (first, _), (second, _) = draws
        doubles = [
            (first.get((seat, "double"), []), second.get((seat, "double"), [])) for seat in (0, 1)
        ]
        if any(a and b for a, b in doubles):
            for a, b in doubles:
                assert same_prefix(a, b)
            for seat in (0, 1):
                assert same_prefix(first[(seat, "roll")], second[(seat, "roll")])
            return
    raise AssertionError("no rolled double in both games of 20 pairs")


def test_without_duplicate_the_games_of_a_pair_have_their_own_dice() -> None:
    game = load_game("backgammon", variant="classic")
    a, b = entrant("backgammon", "pubeval"), entrant("backgammon", "random")
    _, tables = play_pair(game, a, b, 7, 0, duplicate=False)
    first, second = (chance_draws(game, table.record)[0] for table in tables)
    assert first[(0, "roll")][:10] != second[(0, "roll")][:10]
