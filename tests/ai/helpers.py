"""Shared helpers of the environment tests: play an environment, record its chance."""

from __future__ import annotations

from typing import Any

import numpy as np

from aceydeucey.core import Seeded
from aceydeucey.core.game import Action, State


class Recorder:
    """A chance source that draws from ``Seeded(seed)`` and keeps every outcome it gave."""

    def __init__(self, seed: int) -> None:
        self._source = Seeded(seed)
        self.drawn: list[Action] = []

    def choose(self, state: State) -> Action:
        action = self._source.choose(state)
        self.drawn.append(action)
        return action


def play(env: Any, seed: int, *, limit: int = 20_000) -> list[tuple[Any, ...]]:
    """Play to the end with uniform picks among the masked actions; the trajectory.

    Each entry is ``(agent, observation, mask, reward, terminated, truncated, info,
    action)`` as ``last()`` gave them; the actions come from a generator seeded by ``seed``.
    """
    rng = np.random.default_rng(seed)
    trajectory: list[tuple[Any, ...]] = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trajectory.append(
            (
                agent,
                obs["observation"],
                obs["action_mask"],
                reward,
                terminated,
                truncated,
                info,
                action,
            )
        )
        env.step(action)
    return trajectory
