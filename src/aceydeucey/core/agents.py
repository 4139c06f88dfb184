"""Agents that work for every game: they read only the observation."""

from __future__ import annotations

import random
from typing import Any

from aceydeucey.core.errors import ArgumentError

__all__ = ["BOTS", "RandomAgent"]


class RandomAgent:
    """Picks uniformly among the legal actions listed in the observation."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = observation["legal_actions"]
        if not legal:
            raise ArgumentError("agent.no_legal_actions")
        return self._rng.choice(legal)


#: The strategies every game has (a game's own ``bots.BOTS`` lists its others).
BOTS: dict[str, type[RandomAgent]] = {"random": RandomAgent}
