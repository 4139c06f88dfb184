"""One conformance test over every game and preset: seeded random games obey the contract.

The facts it checks come from each game's own ``GameInfo`` (players, zero-sum,
hidden information, chance, payout bounds, maximum length), never from its id.

At every state visited: chance probabilities are exact and sum to 1 and the integer
``chance_distribution`` says the same; each legal action's canonical text parses back
to the same action; every seat's observation and the spectator's are JSON-ready, start
with the one envelope (``ENVELOPE_KEYS``), carry no rules, and list legal actions only
for the seat to act; a bad seat is refused; a nonsense action and an out-of-turn one
are refused with a catalogued code, without changing the state; at the end the
``outcome`` is a value with a catalogued termination code, the returns respect the
bounds, and the record replays to an equal state.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from aceydeucey.core import CHANCE, TERMINAL, RandomAgent, Record, Seeded, Table, replay
from aceydeucey.core.errors import AceyDeuceyError, ArgumentError, OutOfTurnError
from aceydeucey.core.game import ENVELOPE_KEYS, GameInfo
from aceydeucey.core.registry import BUILTIN_GAME_IDS, game_class
from aceydeucey.locale import error_domain

CASES = [
    (game_id, preset)
    for game_id in BUILTIN_GAME_IDS
    for preset in game_class(game_id).rules_class.PRESETS
]
GAMES_PER_CASE = 3
MAX_STEPS = 50_000


def _check_state(state: Any, info: GameInfo, rng: random.Random) -> None:
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
        dist = state.chance_distribution()
        assert dict(
            zip(dist.actions, (Fraction(w, dist.total) for w in dist.weights), strict=True)
        ) == dict(outcomes)
    else:
        assert state.chance_outcomes() == []
    legal = list(state.legal_actions())
    if not state.is_terminal():
        assert legal, "a live state always has an action (pass when nothing else)"
    for action in rng.sample(legal, min(4, len(legal))):
        assert state.parse_action(str(action)) == action
    public = state.observation(None)
    assert tuple(public)[: len(ENVELOPE_KEYS)] == ENVELOPE_KEYS
    assert public["seat"] is None and public["legal_actions"] == []
    for seat in range(n):
        obs = state.observation(seat)
        json.dumps(obs)
        assert tuple(obs)[: len(ENVELOPE_KEYS)] == ENVELOPE_KEYS
        assert "rules" not in obs, "agents get the rules when seated, not in every observation"
        assert obs["game"] == info.game_id and obs["seat"] == seat
        assert obs["current_player"] == player
        assert isinstance(obs["phase"], str) and obs["phase"]
        event = obs["last_event"]
        assert event is None or (isinstance(event, dict) and isinstance(event.get("kind"), str))
        assert (obs["outcome"] is None) == (not state.is_terminal())
        expected = [str(a) for a in legal] if seat == player else []
        assert sorted(obs["legal_actions"]) == sorted(expected)
        assert set(obs) == set(public), "a seat's view and the public view have one shape"
    for bad in (-1, n, True, "0"):
        with pytest.raises(ArgumentError):
            state.observation(bad)
    before = hash(state)
    with pytest.raises(AceyDeuceyError) as refused:
        state.apply("no such action ~~")
    code = refused.value.code
    assert error_domain(code) and not code.endswith(".text"), f"uncatalogued error code {code}"
    if legal and not state.is_chance_node():
        other = (player + 1) % n
        if other != player:
            with pytest.raises(OutOfTurnError):
                state.apply(legal[0], seat=other)
    assert hash(state) == before


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "preset"), CASES)
def test_random_games_obey_the_contract(game_id: str, preset: str) -> None:
    cls = game_class(game_id)
    key = cls.rules_class.PRESET_KEY
    game = cls.from_options(**{key: preset})
    info = game.info
    assert info.game_id == game_id and info.num_players == game.num_players
    assert info.min_players <= game.num_players <= info.max_players
    rng = random.Random(f"{game_id}/{preset}")
    saw_chance = False
    for g in range(GAMES_PER_CASE):
        agents = [RandomAgent(seed=1000 * g + seat) for seat in range(game.num_players)]
        table = Table(game, agents, chance=Seeded(f"{game_id}/{preset}/{g}"))
        steps = 0
        for steps in range(MAX_STEPS):  # noqa: B007
            _check_state(table.state, info, rng)
            if table.state.is_terminal():
                break
            saw_chance |= table.state.is_chance_node()
            table.step()
        assert table.state.is_terminal(), f"game did not end within {MAX_STEPS} steps"
        if info.max_length is not None:
            assert steps <= info.max_length
        _check_state(table.state, info, rng)
        outcome = table.state.outcome()
        assert outcome is not None and error_domain(outcome.termination), outcome
        assert outcome.returns == table.state.returns()
        assert set(outcome.winners) <= set(range(game.num_players)) and outcome.winners
        json.dumps(outcome.to_dict())
        returns = table.state.returns()
        if info.zero_sum:
            assert sum(returns) == 0
        if info.min_return is not None:
            assert min(returns) >= info.min_return
        if info.max_return is not None:
            assert max(returns) <= info.max_return
        record = table.play()
        assert replay(Record.from_json(record.to_json())) == table.state
    assert saw_chance == info.chance
