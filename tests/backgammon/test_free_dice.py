"""Free choice of how many dice to play (``must_use_max_dice=False``) on the fast kernel.

The game plays it with the reference generator; the batch playouts and the trainer
play it on the move-generation kernel.  The two list the same plays: the same
distinct resulting positions, each with the same dice left unplayed.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import aceydeucey
from aceydeucey.backgammon import kernel, moves
from aceydeucey.backgammon.generate import position_of_board, to_board
from aceydeucey.core.chance import Seeded


def positions(variant: str, count: int, seed: int) -> list[Any]:
    """Play nodes of random games under free choice of dice."""
    game = aceydeucey.load_game("backgammon", variant=variant, must_use_max_dice=False)
    rng = random.Random(seed)
    chance = Seeded(seed)
    nodes: list[Any] = []
    while len(nodes) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(nodes) < count:
            if state.is_chance_node():
                state = state.apply(chance.choose(state))
                continue
            if state.phase == "play":
                nodes.append(state)
            state = state.apply(rng.choice(list(state.legal_actions())))
    return nodes


@pytest.mark.parametrize("variant", ["classic", "acey-deucey", "dutch"])
def test_the_kernel_lists_the_references_plays_under_free_choice(variant: str) -> None:
    generator = kernel.Generator()
    for state in positions(variant, 150, 3):
        rules = state.game.rules
        reference = moves.legal_plays(state.position, state.dice, rules)
        results, _, _, _ = generator.plays(
            to_board(state.position),
            np.array(state.dice, dtype=np.int64),
            kernel.move_params_of(rules),
        )
        got = {position_of_board(row.tobytes()) for row in results}
        assert got == {play.result for play in reference}, str(state)
        assert len(got) == len(results)
