"""Invariants over random games and random positions (Hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aceydeucey import Record, load_game, replay
from aceydeucey.aces_in_the_pot.dice import Roll
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState
from aceydeucey.aces_in_the_pot.settle import Position, advance
from aceydeucey.aces_in_the_pot.simulate import FINISH, PLAY, Batch, settle_batch
from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import Seeded
from aceydeucey.core.table import Table

STEP_CAP = 20_000  # far above any real game: the finish alone ends with probability 1/3 a try

rule_sets = st.fixed_dictionaries(
    {
        "players": st.integers(3, 8),
        "starting_chips": st.integers(1, 4),
        "finish": st.sampled_from(["last-chip", "one-holder"]),
        "finish_rolls": st.integers(1, 4),
    }
)


@settings(max_examples=40, deadline=None)
@given(options=rule_sets, seed=st.integers(0, 2**32))
def test_random_games_keep_every_chip_end_and_replay(options: dict[str, object], seed: int) -> None:
    game = load_game("aces-in-the-pot", **options)
    assert isinstance(game, AcesInThePotGame)
    total = game.rules.total_chips
    in_play = total
    steps = 0

    def check(before: object, action: object, after: object) -> None:
        nonlocal in_play, steps
        assert isinstance(after, AcesInThePotState)
        steps += 1
        # chips in play plus the pot always make the chips at the table
        assert sum(after.chips) + after.pot == total
        # chips in play never increase (only the pot takes them out, for good)
        assert sum(after.chips) <= in_play
        # the last chip never goes to the pot
        assert sum(after.chips) >= 1
        in_play = sum(after.chips)

    seats = game.num_players
    table = Table(game, [RandomAgent()] * seats, chance=Seeded(seed), listeners=[check])
    record = table.play(max_steps=STEP_CAP)
    assert table.state.is_terminal(), f"no end after {STEP_CAP} steps"
    returns = table.state.returns()
    assert sum(returns) == 0 and max(returns) == total - game.rules.starting_chips
    replayed = replay(Record.from_json(record.to_json()))
    assert replayed == table.state and replayed.returns() == returns


ROLLS = [Roll(high, low) for high in range(6, 0, -1) for low in range(high, 0, -1)]

positions = st.integers(3, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n).filter(lambda c: sum(c) >= 2),
        st.integers(0, n - 1),
        st.sampled_from(["last-chip", "one-holder"]),
        st.sampled_from(ROLLS),
    )
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(position=positions)
def test_simulator_settles_a_throw_exactly_like_the_engine(
    position: tuple[list[int], int, str, Roll],
) -> None:
    # a random play position (the roller is moved to the next seat holding chips)
    chips, roller, finish, roll = position
    n = len(chips)
    roller = next(s for k in range(n) if chips[s := (roller + k) % n] > 0)
    if finish == "one-holder" and sum(1 for c in chips if c) < 2:
        return  # such a position is a finish, not play, in this variant
    pos = Position(tuple(chips), 0, "play", roller)
    step = advance(pos, roll.aces, roll.sixes, finish=finish, finish_rolls=3)
    from aceydeucey.aces_in_the_pot.rules import AcesRules

    rules = AcesRules.resolve(players=n, finish=finish, starting_chips=5)
    batch = Batch(
        np.array([chips], dtype=np.int64),
        np.array([PLAY], dtype=np.int64),
        np.array([roller], dtype=np.int64),
        np.array([0], dtype=np.int64),
    )
    settle_batch(batch, np.array([0]), np.array([roll.aces]), np.array([roll.sixes]), rules)
    new = step.position
    assert tuple(int(c) for c in batch.chips[0]) == new.chips
    assert int(batch.roller[0]) == new.roller
    assert int(batch.phase[0]) == (FINISH if new.phase == "finish" else PLAY)


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(3, 6),
    holder=st.integers(0, 5),
    held=st.integers(1, 4),
    roll_number=st.integers(1, 3),
    roll=st.sampled_from(ROLLS),
)
def test_simulator_settles_a_finish_throw_like_the_engine(
    n: int, holder: int, held: int, roll_number: int, roll: Roll
) -> None:
    from aceydeucey.aces_in_the_pot.rules import AcesRules
    from aceydeucey.aces_in_the_pot.simulate import OVER

    holder %= n
    chips = tuple(held if s == holder else 0 for s in range(n))
    finish = "last-chip" if held == 1 else "one-holder"
    pos = Position(chips, 0, "finish", holder, roll_number)
    new = advance(pos, roll.aces, roll.sixes, finish=finish, finish_rolls=3).position
    batch = Batch(
        np.array([chips], dtype=np.int64),
        np.array([FINISH], dtype=np.int64),
        np.array([holder], dtype=np.int64),
        np.array([roll_number], dtype=np.int64),
    )
    rules = AcesRules.resolve(players=n, finish=finish, starting_chips=4)
    settle_batch(batch, np.array([0]), np.array([roll.aces]), np.array([roll.sixes]), rules)
    assert tuple(int(c) for c in batch.chips[0]) == new.chips
    assert int(batch.roller[0]) == new.roller
    assert int(batch.phase[0]) == {"play": PLAY, "finish": FINISH, "over": OVER}[new.phase]
    assert int(batch.roll_number[0]) == new.roll_number
