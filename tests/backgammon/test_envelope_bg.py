"""Backgammon on the core envelope: observe, phases, events, termination, GameInfo, chance."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from aceydeucey.backgammon.board import Position
from aceydeucey.backgammon.game import BackgammonGame, BackgammonState
from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import ENVELOPE_KEYS, Distribution
from aceydeucey.core.registry import load_game
from aceydeucey.core.table import Table


def play(variant: str, seed: int, **options: object) -> list[BackgammonState]:
    game = load_game("backgammon", variant=variant, **options)
    table = Table(game, [RandomAgent(seed), RandomAgent(seed + 1)], chance=Seeded(seed))
    states = [table.state]
    while not table.state.is_terminal():
        table.step()
        states.append(table.state)
    assert all(isinstance(s, BackgammonState) for s in states)
    return states  # type: ignore[return-value]


@pytest.mark.parametrize("variant", ["acey-deucey", "classic"])
def test_observations_start_with_the_envelope_and_carry_no_rules(variant: str) -> None:
    for state in play(variant, 3)[:300]:
        for seat in (None, 0, 1):
            obs = state.observation(seat)
            assert list(obs)[: len(ENVELOPE_KEYS)] == list(ENVELOPE_KEYS)
            assert "rules" not in obs and "returns" not in obs
            assert obs["phase"] == state.phase
            json.dumps(obs)
            event = obs["last_event"]
            assert event is None or isinstance(event["kind"], str)
        # the public view is the board from seat 0's side, with no legal actions
        public = state.observation(None)
        assert public["seat"] is None and public["legal_actions"] == []
        seat0 = state.observation(0)
        assert public["points"] == seat0["points"] and public["pip"] == seat0["pip"]
        assert public["entry_gate_passed"] == seat0["entry_gate_passed"]


def test_observation_refuses_a_bad_seat() -> None:
    state = load_game("backgammon").new_initial_state()
    for seat in (-1, 2, 7, True):
        with pytest.raises(ArgumentError):
            state.observation(seat)  # type: ignore[arg-type]


def test_events_have_one_shape() -> None:
    kinds = set()
    for state in play("acey-deucey", 5):
        event = state.event_view()
        if event is not None:
            kinds.add(event["kind"])
            if event["kind"] == "play":
                assert set(event) >= {"seat", "play", "dice", "dice_kind", "hits", "unused"}
    assert {"opening", "roll", "play"} <= kinds


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "results"),
    [("acey-deucey", {"per_checker"}), ("classic", {"single", "gammon", "backgammon"})],
)
def test_termination_codes_and_points(variant: str, results: set[str]) -> None:
    seen = set()
    for seed in range(12):
        final = play(variant, seed)[-1]
        outcome = final.outcome()
        assert outcome is not None
        params = dict(outcome.params)
        assert outcome.termination == "race.borne_off"
        assert params["winner"] == final.winner and outcome.winners == (final.winner,)
        assert params["result"] in results
        assert outcome.returns[final.winner] == params["points"]
        assert sum(outcome.returns) == 0
        seen.add(params["result"])
        assert final.observation(None)["outcome"]["termination"] == "race.borne_off"
        # the termination renders in both languages without falling back to its code
        from aceydeucey.locale import render_error

        for lang in ("en", "pt"):
            assert "race." not in render_error(outcome.termination, params, lang)
    assert seen  # at least one kind of result was met


def test_gammon_scoring_names_a_gammon() -> None:
    game = load_game("backgammon", variant="classic")
    assert isinstance(game, BackgammonGame)
    # seat 0 bears off its last checker; the opponent has borne off nothing
    for opponent, result, points in (({24: 15}, "gammon", 2), ({3: 15}, "backgammon", 3)):
        position = Position.build({1: 1}, opponent)
        over = game.new_state(position=position, dice=(2, 1)).apply("1/off")
        code, params = over.termination()
        assert code == "race.borne_off" and params["result"] == result
        assert params["points"] == points


def test_game_info() -> None:
    info = load_game("backgammon").info
    assert (info.game_id, info.num_players, info.min_players, info.max_players) == (
        "backgammon",
        2,
        2,
        2,
    )
    assert info.zero_sum and info.chance and not info.hidden_information
    assert info.max_return == 15 and info.min_return == -15
    classic = load_game("backgammon", variant="classic").info
    assert classic.max_return == 3


def test_chance_actor_and_shared_distributions() -> None:
    game = load_game("backgammon", variant="classic")
    start = game.new_initial_state()
    assert start.phase_name() == "opening" and start.chance_actor() is None
    dist = start.chance_distribution()
    assert dist.total == 30 and len(dist.actions) == 30
    after = start.apply("opening 5-3")
    assert isinstance(after, BackgammonState)
    # classic re-rolls both dice after the roll-off? (its own option); find a roll node
    states = play("classic", 2)
    rolls = [s for s in states if s.phase == "roll"]
    assert rolls
    for state in rolls[:20]:
        assert state.chance_actor() == state.mover
        d = state.chance_distribution()
        assert d is rolls[0].chance_distribution()  # one shared instance
        assert isinstance(d, Distribution) and d.total == 36
        exact = {a: p for a, p in state.chance_outcomes()}
        assert {a: Fraction(w, d.total) for a, w in zip(d.actions, d.weights, strict=True)} == (
            exact
        )
    for state in states:
        if state.phase == "play":
            assert state.chance_actor() is None


def test_rolled_double_is_the_movers_throw() -> None:
    game = load_game("backgammon", acey_doubles_choice="rolled")
    assert isinstance(game, BackgammonGame)
    position = Position.build({24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    state = game.new_state(position=position, dice=(2, 1)).apply("24/22 24/23")
    assert state.phase == "double" and state.is_chance_node()
    assert state.chance_actor() == state.mover
    assert state.chance_distribution().total == 6


def test_the_reference_engine_loads_without_numba() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "import aceydeucey\n"
        "g = aceydeucey.load_game('backgammon')\n"
        "s = g.new_initial_state().apply('opening 5-3')\n"
        "s = s.apply('6-5')\n"
        "print(len(s.legal_actions()), 'numpy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    count, _numpy_loaded = done.stdout.split()
    assert int(count) > 1
    # without Numba the reference generated the plays; nothing imported the kernel
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, aceydeucey; aceydeucey.load_game('backgammon').new_initial_state()"
            ".observation(0); print('numba' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert probe.stdout.strip() == "False"
