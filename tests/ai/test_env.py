"""The PettingZoo environments pass PettingZoo's own checks and play every game to its end.

PettingZoo's ``api_test`` and ``seed_test`` run on each game and a few presets and
variants; the only warnings allowed are the two PettingZoo gives for the Dict
observation with ``action_mask`` that its own board-game environments use.  Seeded
random games end with every agent terminated, rewards that add up to the game's exact
returns (zero-sum where the game is), and one agent acting at a time.
"""

from __future__ import annotations

import json
import re
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

import aceydeucey.ai
from aceydeucey import load_game
from aceydeucey.ai.pettingzoo import AceyDeuceyEnv, env
from aceydeucey.core.errors import (
    ActionSyntaxError,
    ArgumentError,
    IllegalActionError,
)
from aceydeucey.locale import catalog
from tests.ai.helpers import play

CASES: list[tuple[str, dict[str, Any]]] = [
    ("inbetween", {"players": 3}),
    ("inbetween", {"preset": "red-dog", "players": 2}),
    ("inbetween", {"preset": "three-posts", "players": 4}),
    ("inbetween", {"preset": "sheets", "players": 2}),
    ("inbetween", {"players": 3, "hidden": True, "deal": "both-around"}),
    ("inbetween", {"players": 2, "aces": "dealer-declares", "pairs": "split"}),
    ("backgammon", {}),
    ("backgammon", {"variant": "classic"}),
    ("backgammon", {"variant": "dutch"}),
    ("backgammon", {"variant": "longgammon"}),
    ("aces-in-the-pot", {"players": 3}),
    ("aces-in-the-pot", {"players": 6}),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CASES]
#: PettingZoo warns about any Dict observation (its classic games are listed as exceptions).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_pettingzoo_api_test_passes(game_id: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game_id, **options), num_cycles=1000)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


@pytest.mark.parametrize(("game_id", "options"), CASES[::3], ids=IDS[::3])
def test_pettingzoo_seed_test_passes(game_id: str, options: dict[str, Any]) -> None:
    seed_test(lambda: env(game_id, **options), num_cycles=300)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
@pytest.mark.parametrize("reward", ["terminal", "delta"])
def test_random_games_end_with_the_games_returns(
    game_id: str, options: dict[str, Any], reward: str
) -> None:
    info = load_game(game_id, **options).info
    for seed in range(2):
        e = env(game_id, reward=reward, **options)
        e.reset(seed=seed)
        trajectory = play(e, seed)
        finals = [step for step in trajectory if step[4]]
        assert {step[0] for step in finals} == set(e.possible_agents)  # all terminated
        assert e.agents == []
        outcome = finals[0][6]["outcome"]
        returns = [Fraction(r) for r in outcome["returns"]]
        # each agent's last() reward sums what it earned since its previous turn
        earned = dict.fromkeys(e.possible_agents, 0.0)
        for agent, _, _, r, *_ in trajectory:
            earned[agent] += r
        for seat, agent in enumerate(e.possible_agents):
            assert earned[agent] == pytest.approx(float(returns[seat]))
        if info.zero_sum:
            assert sum(returns) == 0
        if info.max_return is not None:
            assert max(returns) <= info.max_return
        if reward == "terminal":
            assert all(step[3] == 0 for step in trajectory if not step[4])


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_only_the_agent_to_act_has_a_mask_and_legal_actions(
    game_id: str, options: dict[str, Any]
) -> None:
    e = env(game_id, **options)
    e.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(60):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        actor = e.agent_selection
        for agent in e.agents:
            obs = e.observe(agent)
            if agent == actor:
                assert obs["action_mask"].sum() >= 1
                assert e.infos[agent]["legal_actions"]
            else:
                assert obs["action_mask"].sum() == 0
                assert e.infos[agent]["legal_actions"] == []
        e.step(int(rng.choice(np.flatnonzero(e.observe(actor)["action_mask"]))))


def test_aces_in_the_pot_hands_each_throw_to_the_seat_that_makes_it() -> None:
    e = env("aces-in-the-pot", players=4)
    e.reset(seed=3)
    actors = set()
    while not e.terminations[e.agent_selection]:
        agent = e.agent_selection
        view = e.game_observation(agent)
        thrower = view["roller"] if view["holder"] is None else view["holder"]
        assert agent == f"player_{thrower}"
        assert e.infos[agent] == {"legal_actions": ["roll"], "throw": True}
        assert e.observe(agent)["action_mask"].tolist() == [1]
        assert e.action_index(agent, "roll") == 0
        actors.add(agent)
        e.step(0)
    assert len(actors) >= 2  # the roll-off alone gives every seat a throw
    assert e.game_observation(e.agent_selection)["phase"] == "over"


def test_backgammon_throws_can_be_the_agents_too() -> None:
    e = env("backgammon", variant="classic", agents_throw=True)
    e.reset(seed=1)
    kinds = []
    for _ in range(12):
        agent = e.agent_selection
        info = e.infos[agent]
        kinds.append(info["throw"])
        mask = e.observe(agent)["action_mask"]
        if info["throw"]:
            assert mask[0] == 1 and mask.sum() == 1
            assert e.game_observation(agent)["phase"] == "roll"
        else:
            assert mask.sum() == len(info["legal_actions"])
        e.step(0)
    assert True in kinds and False in kinds


def test_aces_without_agent_throws_is_refused() -> None:
    with pytest.raises(ArgumentError) as err:
        env("aces-in-the-pot", players=3, agents_throw=False)
    assert err.value.code == "ai.no_decisions"
    assert "agents_throw" in err.value.render("pt")


def test_max_steps_truncates_every_agent() -> None:
    e = env("backgammon", max_steps=5)
    e.reset(seed=0)
    steps = 0
    while not e.truncations[e.agent_selection]:
        e.step(0)
        steps += 1
    assert steps == 5
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.observe(e.agent_selection)["action_mask"].sum() == 0
    while e.agents:
        e.step(None)
    assert e.agents == []


def test_illegal_actions_are_refused_with_codes() -> None:
    e = env("inbetween", players=2)
    e.reset(seed=0)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    masked = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError) as err:
        e.step(masked)
    assert err.value.code == "ai.action_masked"
    assert err.value.params["index"] == masked
    with pytest.raises(ActionSyntaxError) as syntax:
        e.step(len(mask))
    assert syntax.value.code == "ai.action_out_of_range"
    with pytest.raises(ActionSyntaxError) as kind:
        e.step("pass")
    assert kind.value.code == "ai.action_not_index"
    assert "índice" in kind.value.render("pt")
    assert e.agent_selection == agent  # nothing happened
    e.step(e.action_index(agent, "pass"))
    assert e.agent_selection != agent  # the pass was played: the turn moved on


def test_bad_arguments_are_refused_with_codes() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"reward": "sparse"}, "ai.bad_reward"),
        ({"max_steps": 0}, "ai.bad_max_steps"),
        ({"render_mode": "rgb_array"}, "ai.bad_render_mode"),
        ({"encoding": {"max_bet": 3}}, "ai.unknown_encoding_option"),
        ({"encoding": {"max_stake": 0}}, "ai.bad_max_stake"),
    ]
    for kwargs, code in cases:
        with pytest.raises(ArgumentError) as err:
            AceyDeuceyEnv("inbetween", **kwargs)
        assert err.value.code == code
    with pytest.raises(ArgumentError) as both:
        AceyDeuceyEnv(load_game("inbetween"), players=3)
    assert both.value.code == "ai.game_and_options"


def test_render_shows_the_public_view(capsys: pytest.CaptureFixture[str]) -> None:
    ansi = AceyDeuceyEnv("backgammon", render_mode="ansi")
    ansi.reset(seed=0)
    text = ansi.render()
    assert isinstance(text, str)
    assert json.loads(text) == json.loads(json.dumps(ansi._state.observation(None), default=str))
    human = AceyDeuceyEnv("aces-in-the-pot", players=3, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
    assert '"game": "aces-in-the-pot"' in capsys.readouterr().out
    # With face-down hands a frame is the spectator's view: no seat's hidden cards in it.
    hidden = AceyDeuceyEnv("inbetween", hidden=True, deal="both-around", render_mode="ansi")
    hidden.reset(seed=3)
    frame = hidden.render()
    assert frame is not None
    assert json.loads(frame) == json.loads(json.dumps(hidden._state.observation(None), default=str))
    assert frame != json.dumps(hidden._state.observation(0), indent=1, default=str)
    assert AceyDeuceyEnv("inbetween").render() is None  # no render mode: nothing


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_afterstates_are_the_positions_the_plays_lead_to(variant: str) -> None:
    # With the throws the agents', nothing happens between a play and the next throw: the
    # observation after stepping index i is the afterstate listed for i.
    e = env("backgammon", variant=variant, agents_throw=True)
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    decisions = 0
    for _ in range(150):
        agent = e.agent_selection
        if e.terminations[agent]:
            break
        indices, rows = e.afterstates(agent)
        if e.infos[agent]["throw"]:
            assert indices.shape == (0,) and rows.shape == (0, e.codec.size)
            e.step(0)
            continue
        mask = e.observe(agent)["action_mask"]
        assert indices.tolist() == np.flatnonzero(mask).tolist()
        pick = int(rng.integers(len(indices)))
        e.step(int(indices[pick]))
        assert np.array_equal(e.observe(agent)["observation"], rows[pick])
        decisions += 1
    assert decisions > 20
    other = next(a for a in e.possible_agents if a != e.agent_selection)
    assert e.afterstates(other)[0].shape == (0,)  # not its turn: nothing


def test_every_code_the_environment_raises_is_catalogued_in_both_languages() -> None:
    source = "".join(p.read_text() for p in Path(aceydeucey.ai.__file__).parent.glob("*.py"))
    codes = set(re.findall(r'"(ai\.[a-z_]+)"', source))
    assert len(codes) >= 10
    for lang in ("en", "pt"):
        assert codes <= set(catalog("ai_errors", lang)), lang
