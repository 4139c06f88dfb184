"""Properties: the action mask is exactly the legal actions, an index plays the action it
names, and a seed fixes the whole game.

Over random rule sets, at every turn of a seeded random game: the mask marks the table
positions of the legal actions the contract lists for that seat and nothing else (every
legal action has a position unless the rules allow debts); the chosen index, played on
the contract directly with chance's recorded outcomes, replays the same game to the same
end.  The same seed and the same actions give the same trajectory; another seed another.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from aceydeucey import load_game
from aceydeucey.ai.pettingzoo import AceyDeuceyEnv
from aceydeucey.core.errors import RulesError
from aceydeucey.core.game import Game
from aceydeucey.inbetween.rules import Rules
from tests.ai.helpers import Recorder, play

INBETWEEN_OPTIONS: dict[str, Any] = {
    "players": st.integers(1, 5),
    "decks": st.integers(1, 2),
    "starting_chips": st.integers(2, 30),
    "aces": st.sampled_from(["high", "first-card", "dealer-declares"]),
    "adjacent": st.sampled_from(["bet", "lose", "redeal", "push"]),
    "pairs": st.sampled_from(["bet", "higher-lower", "win", "push", "redeal", "split"]),
    "stake_cap": st.sampled_from(["cover", "chips", "none"]),
    "ante_to_play": st.booleans(),
    "passed_card": st.sampled_from(["discard", "next-post"]),
    "reshuffle": st.sampled_from(["round", "deck-out"]),
}
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def inbetween_games(draw: st.DrawFn) -> Game:
    preset = draw(st.sampled_from(list(Rules.PRESETS)))
    names = draw(st.lists(st.sampled_from(sorted(INBETWEEN_OPTIONS)), max_size=4, unique=True))
    options = {name: draw(INBETWEEN_OPTIONS[name]) for name in names}
    if draw(st.booleans()):
        options.update(hidden=True, deal="both-around")
    try:
        return load_game("inbetween", preset=preset, rounds=2, **options)
    except RulesError:
        assume(False)
        raise


games = st.one_of(
    inbetween_games(),
    st.sampled_from(["acey-deucey", "classic", "longgammon", "dutch"]).map(
        lambda v: load_game("backgammon", variant=v)
    ),
    st.integers(3, 6).map(lambda n: load_game("aces-in-the-pot", players=n)),
)


def _every_legal_action_has_a_place(game: Game) -> bool:
    if game.game_id != "inbetween":
        return True
    rules = game.rules.to_dict()
    return rules["stake_cap"] == "cover" or rules["banking"] == "house"


@FAST
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_masks_are_the_legal_actions_and_indices_replay_on_the_contract(
    game: Game, seed: int
) -> None:
    chance = Recorder(seed)
    env = AceyDeuceyEnv(game, chance=chance, max_steps=400)
    env.reset()
    codec = env.codec
    rng = np.random.default_rng(seed)
    played: list[str] = []
    complete = _every_legal_action_has_a_place(game)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        info = env.infos[agent]
        mask = env.observe(agent)["action_mask"]
        marked = set(np.flatnonzero(mask).tolist())
        if info["throw"]:
            assert marked == {0} and info["legal_actions"] == ["roll"]
        else:
            legal = info["legal_actions"]
            assert legal == env.game_observation(agent)["legal_actions"]
            places = codec.action_indices(legal)
            assert marked == {i for i in places if i is not None}
            assert len(marked) == len([i for i in places if i is not None])  # one place each
            if complete:
                assert None not in places
        index = int(rng.choice(sorted(marked)))
        if not info["throw"]:
            text = next(t for t, i in zip(legal, places, strict=True) if i == index)
            assert env.action_index(agent, text) == index
            played.append(text)
        env.step(index)
    end = env.game_observation("player_0")
    # the same game on the contract: the recorded chance and the actions the indices named
    state = game.new_initial_state()
    draws, texts = iter(chance.drawn), iter(played)
    while True:
        if state.is_chance_node():
            outcome = next(draws, None)
            if outcome is None:
                break
            state = state.apply(outcome)
        else:
            text = next(texts, None)
            if text is None:
                break
            state = state.apply(text)
    assert next(draws, None) is None and next(texts, None) is None
    assert state.observation(0) == end


@pytest.mark.slow
@FAST
@given(game=games, seed=st.integers(0, 2**32 - 1))
def test_the_same_seed_and_actions_give_the_same_game(game: Game, seed: int) -> None:
    runs = []
    for _ in range(2):
        env = AceyDeuceyEnv(game, max_steps=300)
        env.reset(seed=seed)
        runs.append(play(env, seed))
    first, second = runs
    assert len(first) == len(second)
    for a, b in zip(first, second, strict=True):
        agent, vec, mask, reward, terminated, truncated, info, action = a
        assert (agent, reward, terminated, truncated, info, action) == (
            b[0],
            b[3],
            b[4],
            b[5],
            b[6],
            b[7],
        )
        assert np.array_equal(vec, b[1]) and np.array_equal(mask, b[2])


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("inbetween", {"players": 3}), ("backgammon", {}), ("aces-in-the-pot", {"players": 3})],
)
def test_other_seeds_give_other_games_and_reset_draws_on(
    game_id: str, options: dict[str, Any]
) -> None:
    def trajectory(env: AceyDeuceyEnv, seed: int | None) -> list[Any]:
        env.reset(seed=seed)
        return [(step[0], step[1].tobytes(), step[7]) for step in play(env, 0)]

    env = AceyDeuceyEnv(game_id, max_steps=200, **options)
    games = [trajectory(env, seed) for seed in range(3)]
    assert len({str(g) for g in games}) > 1
    again = AceyDeuceyEnv(game_id, max_steps=200, **options)
    # reset() without a seed draws on from the generator the last seed made
    assert [trajectory(env, 11), trajectory(env, None)] == [
        trajectory(again, 11),
        trajectory(again, None),
    ]
    assert trajectory(env, 11) != trajectory(env, None)
