"""PettingZoo environments: agent steps per second, and their cost over the bare contract.

For each game, seeded random games are played twice in this run: through the environment
(``observe`` of the agent to act, a uniform pick among its masked actions, ``step``) and
on the contract alone (chance from ``Seeded``, a uniform pick among ``legal_actions()``,
``apply``).  Printed: decisions per second of each (CPU time) and the ratio, which is the
price of the vectors, the masks and the bookkeeping (for backgammon mostly the text of
every legal play, which the observation and ``infos`` carry).  Needs the ``ai`` extra.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

import numpy as np

from aceydeucey import Seeded, load_game
from aceydeucey.ai.pettingzoo import AceyDeuceyEnv
from aceydeucey.backgammon import generate

CASES: list[tuple[str, dict[str, Any], int]] = [
    ("inbetween", {"players": 4}, 300),
    ("inbetween", {"preset": "red-dog", "players": 4}, 300),
    ("backgammon", {}, 10),
    ("backgammon", {"variant": "classic"}, 10),
    ("aces-in-the-pot", {"players": 4}, 300),
]


def through_env(game_id: str, options: dict[str, Any], games: int) -> tuple[int, float]:
    env = AceyDeuceyEnv(game_id, **options)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.process_time()
    for seed in range(games):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
    return steps, time.process_time() - start


def on_contract(game_id: str, options: dict[str, Any], games: int) -> tuple[int, float]:
    game = load_game(game_id, **options)
    rng = random.Random(0)
    throws = game_id == "aces-in-the-pot"  # the environment's turns there are the throws
    steps = 0
    start = time.process_time()
    for seed in range(games):
        chance = Seeded(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                steps += throws and state.chance_actor() is not None
                state = state.apply(chance.choose(state))
            else:
                state = state.apply(rng.choice(list(state.legal_actions())))
                steps += 1
    return steps, time.process_time() - start


def main() -> int:
    print("decisions per CPU second; the machine is shared, so figures are noisy")
    generate.warm_up()  # both loops on the backgammon kernel's move generator
    for game_id, options, games in CASES:
        name = f"{game_id} {' '.join(f'{k}={v}' for k, v in options.items())}".strip()
        env_steps, env_cpu = through_env(game_id, options, games)
        raw_steps, raw_cpu = on_contract(game_id, options, games)
        env_rate, raw_rate = env_steps / env_cpu, raw_steps / raw_cpu
        print(
            f"{name}: {games} games; environment {env_rate:,.0f} steps/s "
            f"({env_steps} steps, {env_cpu:.2f} s), contract {raw_rate:,.0f} decisions/s "
            f"({raw_steps}, {raw_cpu:.2f} s); contract / environment {raw_rate / env_rate:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
