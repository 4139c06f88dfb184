"""``analyze backgammon``: equity lost per decision, marks, luck, and the command."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import aceydeucey
from aceydeucey.backgammon.analysis import POINTS_SCALE, _roll_luck, analyze, mark_of
from aceydeucey.backgammon.bots import NetBot, rank_observation
from aceydeucey.backgammon.evaluator import ROLLS, Evaluator
from aceydeucey.cli.app import app
from aceydeucey.core.record import Record


def played_record(
    variant: str, seed: int, plant_at: int | None = None, **options: Any
) -> tuple[Record, int | None]:
    """A game of ``net`` against itself; the first checker play from decision ``plant_at``
    on whose worst play loses over a blunder's worth is played worst (its record index)."""
    game = aceydeucey.load_game("backgammon", variant=variant, **options)
    bots = [NetBot(), NetBot()]
    for seat, bot in enumerate(bots):
        bot.seated(game, seat)
    evaluator = bots[0].evaluator(game.rules)
    scale = POINTS_SCALE if evaluator.spec.name == "points" else 1.0
    record = Record.start(game, ["Ana", "Rui"])
    rng = random.Random(seed)
    state = game.new_initial_state()
    planted: int | None = None
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action: Any = rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            seat = state.current_player()
            obs = state.observation(seat)
            action = bots[seat].act(obs)
            if state.phase == "play" and len(obs["legal_actions"]) > 4:
                decisions += 1
                if plant_at is not None and planted is None and decisions >= plant_at:
                    ranked = rank_observation(evaluator, obs, 0)
                    if ranked[0].equity - ranked[-1].equity > 0.4 * scale:
                        action, planted = ranked[-1].text, len(record.actions)
        record.actions.append(str(action))
        state = state.apply(action)
    record.finish(state)
    return record, planted


@pytest.fixture(scope="module")
def classic() -> tuple[Record, int | None]:
    return played_record("classic", 11, plant_at=6)


@pytest.fixture(scope="module")
def acey() -> tuple[Record, int | None]:
    return played_record("acey-deucey", 5, plant_at=10)


@pytest.mark.slow
def test_a_planted_blunder_is_marked(classic: tuple[Record, int | None]) -> None:
    record, planted = classic
    assert planted is not None
    result = analyze(record)
    blunder = next(d for d in result.decisions if d.index == planted)
    assert blunder.mark == "blunder"
    assert blunder.loss > 0.4 - 1e-9
    assert blunder.best != blunder.played
    # the net at 0-ply played every other decision: they lose nothing
    others = [d for d in result.decisions if d.index != planted and d.kind == "play"]
    assert others and all(d.loss == 0.0 for d in others)
    ana = result.players[blunder.seat]
    assert ana.marks["blunder"] >= 1 and ana.error_rate > 0


@pytest.mark.slow
def test_acey_deucey_blunder_in_points_and_named_doubles(acey: tuple[Record, int | None]) -> None:
    record, planted = acey
    assert planted is not None
    result = analyze(record)
    assert result.unit == "points"
    blunder = next(d for d in result.decisions if d.index == planted)
    assert blunder.mark == "blunder"
    assert any(d.kind == "named_double" for d in result.decisions) or not any(
        "double " in a for a in record.actions
    )
    seat = blunder.seat
    assert result.players[seat].loss_per_game >= blunder.loss


def test_the_best_play_loses_exactly_nothing() -> None:
    # a position from the start: every decision made as the analysis ranks it loses 0
    record, _ = played_record("classic", 2)
    record.actions = record.actions[:12]
    for d in analyze(record).decisions:
        assert d.loss >= 0.0
        assert (d.loss == 0.0) == (d.played == d.best or d.equity == d.best_equity)


def test_luck_averages_to_zero_over_the_21_rolls() -> None:
    game = aceydeucey.load_game("backgammon", variant="classic")
    evaluator = Evaluator(game.rules)
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while checked < 3 and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if state.phase == "roll":
                total = sum(
                    float(p) * _roll_luck(evaluator, state, str(a), 0, 1.0).luck  # type: ignore[union-attr]
                    for a, p in outcomes
                )
                assert abs(total) < 1e-9
                assert sum(w for *_, w in ROLLS) == 36 and len(outcomes) == 21
                checked += 1
            state = state.apply(
                rng.choices([a for a, _ in outcomes], [float(p) for _, p in outcomes])[0]
            )
        else:
            state = state.apply(rng.choice(list(state.legal_actions())))
    assert checked == 3


def test_marks_follow_gnubgs_thresholds() -> None:
    assert mark_of(0.0) is None and mark_of(0.039) is None
    assert mark_of(0.04) == "doubtful" and mark_of(0.08) == "error" and mark_of(0.16) == "blunder"
    assert mark_of(0.5, POINTS_SCALE) is None and mark_of(0.6, POINTS_SCALE) == "doubtful"
    assert mark_of(2.4, POINTS_SCALE) == "blunder"


def test_cube_decisions_are_rated() -> None:
    record, _ = played_record("classic", 8, cube="money")
    result = analyze(record)
    kinds = {d.kind for d in result.decisions}
    assert "cube" in kinds
    assert all(d.loss >= 0 for d in result.decisions)
    assert np.isfinite([d.equity for d in result.decisions]).all()


def test_the_command_in_both_languages_and_json(tmp_path: Path) -> None:
    record, _ = played_record("classic", 3)
    record.actions = record.actions[:20]
    path = tmp_path / "game.json"
    record.save(path)
    runner = CliRunner()
    en = runner.invoke(app, ["analyze", "backgammon", str(path), "--lang", "en"])
    assert en.exit_code == 0, en.output
    assert "Analysis of classic" in en.output and "Ana:" in en.output
    pt = runner.invoke(app, ["analyze", "backgammon", str(path), "--lang", "pt"])
    assert pt.exit_code == 0 and "Análise de classic" in pt.output and "sorte" in pt.output
    out = runner.invoke(app, ["analyze", "backgammon", str(path), "--json"])
    data = json.loads(out.output)
    assert set(data) == {
        "variant",
        "ply",
        "unit",
        "games",
        "thresholds",
        "players",
        "decisions",
        "rolls",
    }
    assert {"played", "best", "loss", "mark", "win"} <= set(data["decisions"][0])
    bad = runner.invoke(app, ["analyze", "backgammon", str(path), "--ply", "1", "--lang", "pt"])
    assert bad.exit_code == 2 and "--ply tem de ser 0, 2 ou 3" in bad.output


@pytest.mark.parametrize(
    ("variant", "options"),
    [("classic", {"cube": "money", "beavers": True}), ("acey-deucey", {})],
)
def test_suggest_is_the_best_action_the_analysis_rates_each_decision_by(
    variant: str, options: dict[str, Any]
) -> None:
    """A table's hint (``suggest``) names each decision's best action and its equity, as
    ``analyze`` rates that decision: plays, named doubles and cube actions alike."""
    from aceydeucey.backgammon.analysis import suggest

    record, _ = played_record(variant, 5, **options)
    found = analyze(record)
    evaluator = Evaluator(record.make_game().rules)
    states = [record.make_game().new_initial_state()]
    for text in record.actions:
        states.append(states[-1].apply(text))
    kinds = set()
    for d in found.decisions:
        state = states[d.index]
        hint = suggest(evaluator, state.observation(d.seat))
        assert (hint.kind, hint.action) == (d.kind, d.best)
        assert hint.equity == pytest.approx(d.best_equity, abs=1e-9)
        kinds.add(d.kind)
    assert "play" in kinds and ({"cube", "take"} & kinds or variant != "classic")
    assert "named_double" in kinds or variant != "acey-deucey"
