"""One conformance test over every game and preset: seeded random games obey the contract.

At every state visited: chance probabilities are exact and sum to 1, each
legal action's canonical text parses back to the same action, every seat's
observation is JSON-ready and lists legal actions only for the seat to act,
a nonsense action is refused without changing the state; at the end the
record replays to an equal state.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from aceydeucey.core import CHANCE, TERMINAL, RandomAgent, Record, Seeded, Table, replay
from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import game_class, game_ids

CASES = [
    (game_id, preset)
    for game_id in game_ids()
    for preset in game_class(game_id).rules_class.PRESETS
]
GAMES_PER_CASE = 3
MAX_STEPS = 50_000


def _check_state(state, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    player = state.current_player()
    n = state.game.num_players
    assert player in (CHANCE, TERMINAL) or 0 <= player < n
    assert hash(state) == hash(state)
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node lists its outcomes"
        assert all(isinstance(p, Fraction) and p > 0 for _, p in outcomes)
        assert sum(p for _, p in outcomes) == 1
        assert len({a for a, _ in outcomes}) == len(outcomes), "outcomes are distinct"
    else:
        assert state.chance_outcomes() == []
    legal = list(state.legal_actions())
    if not state.is_terminal():
        assert legal, "a live state always has an action (pass when nothing else)"
    for action in rng.sample(legal, min(4, len(legal))):
        assert state.parse_action(str(action)) == action
    for seat in range(n):
        obs = state.observation(seat)
        json.dumps(obs)
        expected = [str(a) for a in legal] if seat == player else []
        assert sorted(obs["legal_actions"]) == sorted(expected)
    before = hash(state)
    with pytest.raises(AceyDeuceyError):
        state.apply("no such action ~~")
    assert hash(state) == before


@pytest.mark.parametrize(("game_id", "preset"), CASES)
def test_random_games_obey_the_contract(game_id: str, preset: str) -> None:
    cls = game_class(game_id)
    key = cls.rules_class.PRESET_KEY
    game = cls.from_options(**{key: preset})
    rng = random.Random(f"{game_id}/{preset}")
    for g in range(GAMES_PER_CASE):
        agents = [RandomAgent(seed=1000 * g + seat) for seat in range(game.num_players)]
        table = Table(game, agents, chance=Seeded(f"{game_id}/{preset}/{g}"))
        for _ in range(MAX_STEPS):
            _check_state(table.state, rng)
            if table.state.is_terminal():
                break
            table.step()
        assert table.state.is_terminal(), f"game did not end within {MAX_STEPS} steps"
        _check_state(table.state, rng)
        record = table.play()
        assert replay(Record.from_json(record.to_json())) == table.state
        assert sum(table.state.returns()) == 0 or game_id == "inbetween"
