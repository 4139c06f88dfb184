"""Endings a runner applies (``core.endings``) and records that must not lie about results.

A resignation, a claim and a timeout end a game: the finished state is terminal, its
outcome names the ending and the seat, its returns are the game's (chips conserved), and a
record keeps the ending so that ``replay`` and ``verify`` show the game finished.  Every
field of a record's stated result must equal the replayed outcome: an edited field makes
``replay`` and ``verify`` exit 1 naming it, in English and Portuguese.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import aceydeucey
from aceydeucey.cli.app import app
from aceydeucey.core import Ending, RandomAgent, Record, Table, end, replay
from aceydeucey.core.errors import ArgumentError, IllegalActionError, RecordError
from aceydeucey.core.fairness import FairChance, verify
from aceydeucey.core.game import State

runner = CliRunner()
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("inbetween", {"players": 3}),
    ("inbetween", {"preset": "banker", "players": 3}),
    ("inbetween", {"preset": "red-dog", "players": 3}),
    ("backgammon", {}),
    ("backgammon", {"variant": "classic"}),
    ("aces-in-the-pot", {"players": 4}),
]
IDS = [f"{g}-{o.get('preset', o.get('variant', ''))}" for g, o in GAMES]


def _midgame(game_id: str, options: dict[str, Any], seed: int, steps: int) -> State:
    state = aceydeucey.load_game(game_id, **options).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        nxt = state.apply(rng.choice(list(state.legal_actions())))
        if nxt.is_terminal():
            break
        state = nxt
    return state


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120), ending=st.sampled_from(Ending))
def test_an_ending_finishes_the_game_and_conserves_chips(
    game_id: str, options: dict[str, Any], seed: int, steps: int, ending: Ending
) -> None:
    state = _midgame(game_id, options, seed, steps)
    n = state.game.num_players
    seat = seed % n
    ended = end(state, ending, seat)
    assert ended.is_terminal() and ended.legal_actions() == []
    outcome = ended.outcome()
    assert outcome is not None
    assert outcome.termination == ending.value
    assert isinstance(outcome.termination, state.game.terminations)  # type: ignore[arg-type]
    assert dict(outcome.params) == {"seat": seat, "number": seat + 1}
    assert seat not in outcome.winners and outcome.winners
    assert all(isinstance(r, Fraction) for r in outcome.returns)
    if state.game.info.zero_sum:
        assert sum(outcome.returns) == 0, "no chip is created or lost"
    # the one who gives up never does better than by the game's own count so far
    assert outcome.returns[seat] <= state.returns()[seat] or game_id == "backgammon"
    assert ended.observation(seat)["outcome"]["termination"] == ending.value
    with pytest.raises(IllegalActionError):
        ended.apply(str(state.legal_actions()[0]))


def test_backgammon_resignation_costs_a_single_game_or_the_checkers_left() -> None:
    state = _midgame("backgammon", {"variant": "classic"}, 3, 30)
    assert end(state, "resigned", 1).returns() == (1, -1)
    acey = _midgame("backgammon", {}, 3, 30)
    left = 15 - acey.view(0).off[0]  # type: ignore[attr-defined]
    assert end(acey, "resigned", 0).returns() == (-left, left)


def test_in_between_resigner_forfeits_its_share_of_the_pot() -> None:
    state = _midgame("inbetween", {"players": 3}, 1, 0)
    while state.is_chance_node():
        state = state.apply(state.legal_actions()[0])
    pot = state.pot  # type: ignore[attr-defined]
    assert pot == 3  # three antes
    ended = end(state, "resigned", 0)
    assert ended.returns() == (Fraction(-1), Fraction(1, 2), Fraction(1, 2))


def test_an_ending_is_refused_when_it_cannot_apply() -> None:
    state = aceydeucey.load_game("aces-in-the-pot").new_initial_state()
    for bad in ("gave up", "draw"):
        with pytest.raises(ArgumentError) as err:
            end(state, bad, 0)
        assert err.value.code == "ending.unknown"
    with pytest.raises(ArgumentError) as err:
        end(state, "resigned", 9)
    assert err.value.code == "observation.bad_seat"
    with pytest.raises(ArgumentError) as err:
        end(end(state, "resigned", 0), "timeout", 1)
    assert err.value.code == "ending.game_over"


def _fair_record(game_id: str, options: dict[str, Any], steps: int, ending: str | None) -> Record:
    game = aceydeucey.load_game(game_id, **options)
    chance = FairChance(bytes(range(32)), b"cut")
    table = Table(game, [RandomAgent(i) for i in range(game.num_players)], chance=chance)
    record = table.play(max_steps=steps)
    if ending is not None:
        record.finish(end(table.state, ending, 1))
    record.fairness = chance.fairness(reveal=True)
    return Record.from_json(record.to_json())


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_a_resigned_game_replays_and_verifies_finished(
    game_id: str, options: dict[str, Any]
) -> None:
    record = _fair_record(game_id, options, 10, "resigned")
    assert record.ending == {"termination": "ending.resigned", "seat": 1}
    assert record.result is not None and record.result["terminal"] is True
    state = replay(record)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == "ending.resigned"
    assert record.result["returns"] == [str(r) for r in outcome.returns]
    result = verify(record)
    assert result.ok and result.code == "fairness.verified", result


LIES: list[tuple[str, Any]] = [
    ("winners", [1]),
    ("terminal", False),
    ("termination", "session.pot_emptied"),
    ("params", {"seat": 0, "number": 1}),
    ("returns", ["7", "-7", "0"]),
    ("invented", 1),
]


@pytest.mark.parametrize(("field", "lie"), LIES, ids=[f for f, _ in LIES])
def test_an_edited_result_does_not_replay_or_verify(tmp_path: Path, field: str, lie: Any) -> None:
    record = _fair_record("inbetween", {"players": 3}, 20, "resigned")
    assert record.result is not None and record.result.get(field) != lie
    record.result[field] = lie
    with pytest.raises(RecordError) as err:
        replay(record)
    assert err.value.code == "record.result_differs" and err.value.params["field"] == field
    checked = verify(record)
    assert not checked.ok and checked.params["field"] == field
    path = tmp_path / "lie.json"
    path.write_text(record.to_json())
    for command in ("verify", "replay"):
        out = runner.invoke(app, [command, str(path), "--lang", "en"])
        assert out.exit_code == 1, out.output
        assert f"result differs: it says {field} =" in out.output
        pt = runner.invoke(app, [command, str(path), "--lang", "pt"])
        assert pt.exit_code == 1 and f"o resultado do registo difere: diz {field} =" in pt.output


def test_an_unfinished_game_is_stated_unfinished_and_may_not_claim_otherwise() -> None:
    record = _fair_record("backgammon", {}, 12, None)
    assert record.result is not None
    assert record.result["terminal"] is False and record.result["termination"] is None
    assert verify(record).code == "fairness.verified_unfinished"
    record.result["termination"] = "ending.resigned"
    assert verify(record).params["field"] == "termination"


def test_replay_shows_how_a_resigned_game_ended(tmp_path: Path) -> None:
    path = tmp_path / "resigned.json"
    path.write_text(_fair_record("aces-in-the-pot", {"players": 4}, 10, "resigned").to_json())
    out = runner.invoke(app, ["replay", str(path), "--lang", "en"])
    assert out.exit_code == 0, out.output
    assert "seat 2 resigned" in out.output and "unfinished" not in out.output
    data = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).output)
    assert data["terminal"] is True and data["termination"] == "ending.resigned"
    assert 1 not in data["winners"]
    pt = runner.invoke(app, ["replay", str(path), "--lang", "pt"])
    assert "o lugar 2 desistiu" in pt.output


def test_the_replay_viewer_shows_a_resigned_game_finished() -> None:
    from aceydeucey.server.pages import replay_steps

    record = _fair_record("backgammon", {}, 10, "resigned")
    view = replay_steps(record.to_dict(), "pt")
    assert view["terminal"] is True
    assert view["outcome"]["termination"] == "ending.resigned"
    assert view["outcome"]["message"] == "o lugar 2 desistiu"
