"""Position IDs after plays, game-ending ones included, are GNU Backgammon's.

gnubg plays each play on its own board (``set board``, ``set dice``, ``move``) and
its Position ID afterwards is compared with the engine's: the ID is always from the
side on roll next, which after the game's last play is the loser.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import aceydeucey
from aceydeucey.backgammon.board import CHECKERS

gnubg = pytest.importorskip("gnubg")


def sample_plays(count: int, seed: int) -> list[tuple[Any, Any]]:
    """(state, play) pairs from random classic games: a random legal play at random
    play nodes, and every game's last play (the one that ends it)."""
    game = aceydeucey.load_game("backgammon", variant="classic")
    rng = random.Random(seed)
    cases: list[tuple[Any, Any]] = []
    while len(cases) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
                state = state.apply(action)
                continue
            play = rng.choice(list(state.legal_actions()))
            ends = play.result.off[0] == CHECKERS
            if play.moves and (ends or rng.random() < 0.05):
                cases.append((state, play))
            state = state.apply(play)
    return cases[:count]


def gnubg_id_after(state: Any, play: Any) -> str:
    """gnubg's Position ID after it plays ``play`` from ``state``'s position and dice."""
    gnubg.command("new game")
    gnubg.command(f"set board {state.position_id()}")
    high, low = max(state.dice), min(state.dice)
    gnubg.command(f"set dice {high}{low}")
    gnubg.command(f"move {play}")
    return str(gnubg.position_id())


@pytest.fixture(scope="module")
def gnubg_match() -> None:
    # a money session of its own: another test may have left gnubg in an imported match,
    # where a game-ending play starts the match's next game
    for command in (
        "new session",
        "set automatic game off",
        "set player 0 human",
        "set player 1 human",
        "set confirm new off",
        "set automatic roll off",
    ):
        gnubg.command(command)


def test_position_ids_after_plays_are_gnubgs(
    gnubg_match: None, capfd: pytest.CaptureFixture[str]
) -> None:
    cases = sample_plays(400, seed=17)
    endings = sum(play.result.off[0] == CHECKERS for _, play in cases)
    assert endings >= 20, "the sample holds game-ending plays"
    for state, play in cases:
        after = state.apply(play)
        assert after.position_id() == gnubg_id_after(state, play), (str(state), str(play))
    capfd.readouterr()  # gnubg's own printing
