"""Aces in the Pot as numbers.  The game has no decisions: every move is a throw.

Actions: one, ``0``, the throw.  An environment hands each throw to the seat that makes
it (``chance_actor``), so every seat takes its turns; the dice are still chance's.

Features (``rel`` blocks start with the observer; chips in starting stacks):
``phase`` (roll-off, play, finish, over), ``chips``, ``pot``, ``roller`` and ``holder``
(``rel`` one-hot, last flag: nobody), ``roll_number`` (of the finish's throws, as a
fraction), ``rolloff_in`` (the seats still in the roll-off), ``rolloff_dice`` (their die
so far, ``/ 6``), ``winner``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from aceydeucey.ai.codec import Codec, Vector
from aceydeucey.core.game import Game

__all__ = ["AcesCodec"]

PHASES = ("roll-off", "play", "finish", "over")


class AcesCodec(Codec):
    """The Aces in the Pot encoding (see the module docstring)."""

    game_id: ClassVar[str] = "aces-in-the-pot"
    has_decisions: ClassVar[bool] = False

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.players
        self.unit = int(game.rules.to_dict()["starting_chips"])
        add = self.layout.add
        self.s_phase = add("phase", len(PHASES))
        self.s_chips = add("chips", n, high=n)
        self.s_pot = add("pot", 1, high=n)
        self.s_roller = add("roller", n + 1)
        self.s_holder = add("holder", n + 1)
        self.s_roll_number = add("roll_number", 1)
        self.s_rolloff_in = add("rolloff_in", n)
        self.s_rolloff_dice = add("rolloff_dice", n)
        self.s_winner = add("winner", n)
        self._finish()

    @property
    def num_actions(self) -> int:
        return 1

    def action_indices(self, legal: Sequence[str]) -> list[int | None]:
        return [None] * len(legal)  # no decisions: the throw is the environment's index 0

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        obs = observation
        vec = self._vector()
        n, unit = self.players, self.unit
        vec[self.s_phase.start + PHASES.index(obs["phase"])] = 1.0
        vec[self.s_chips] = [c / unit for c in self._per_seat(obs, obs["chips"])]
        vec[self.s_pot] = obs["pot"] / unit
        for block, seat in ((self.s_roller, obs["roller"]), (self.s_holder, obs["holder"])):
            rel = self._rel(obs, seat)
            vec[block.start + (n if rel is None else rel)] = 1.0
        if obs["roll_number"] is not None:
            vec[self.s_roll_number] = obs["roll_number"] / obs["finish_rolls"]
        rolloff = obs["rolloff"]
        if rolloff is not None:
            for k, seat in enumerate(rolloff["seats"]):
                rel = self._rel(obs, seat)
                assert rel is not None
                vec[self.s_rolloff_in.start + rel] = 1.0
                if k < len(rolloff["dice"]):
                    vec[self.s_rolloff_dice.start + rel] = rolloff["dice"][k] / 6
        winner = self._rel(obs, obs["winner"])
        if winner is not None:
            vec[self.s_winner.start + winner] = 1.0
        return self._clip(vec)
