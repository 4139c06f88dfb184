"""``next_step``: the one rule of what happens next, shared by the Table and the server."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import IllegalActionError
from aceydeucey.core.table import Table, next_step

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("inbetween", {"players": 2, "rounds": 1}),
    ("backgammon", {}),
    ("aces-in-the-pot", {"players": 3}),
]


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(
    which=st.sampled_from(range(len(GAMES))),
    seed=st.integers(0, 2**31),
    people=st.sets(st.integers(0, 2)),
)
def test_next_step_names_what_the_state_waits_for(which: int, seed: int, people: set[int]) -> None:
    game_id, options = GAMES[which]
    game = aceydeucey.load_game(game_id, **options)
    table = Table(
        game, [RandomAgent(seed + i) for i in range(game.num_players)], chance=Seeded(seed)
    )
    for _ in range(200):
        state = table.state
        step = next_step(state, lambda seat: seat in people)
        if state.is_terminal():
            assert step.kind == "over" and step.seat is None
            break
        if state.is_chance_node():
            actor = state.chance_actor()
            assert step.seat == actor
            assert step.kind == ("throw" if actor is not None and actor in people else "chance")
            assert next_step(state).kind == "chance"  # nobody waits: chance draws at once
        else:
            assert step == ("decide", state.current_player())
            assert step.seat in range(game.num_players)
        table.step()


def test_a_finished_table_refuses_another_step() -> None:
    game = aceydeucey.load_game("aces-in-the-pot", players=3)
    table = Table(game, [RandomAgent(i) for i in range(3)], chance=Seeded(3))
    table.play()
    assert next_step(table.state).kind == "over"
    with pytest.raises(IllegalActionError) as caught:
        table.step()
    assert caught.value.code == "table.game_over"
    assert "over" in caught.value.render("en") and "terminou" in caught.value.render("pt")
