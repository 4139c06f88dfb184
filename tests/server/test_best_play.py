"""The replay analysis's best play: the board after it and its moves, for the viewer to draw."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from aceydeucey.backgammon.board import OFF
from aceydeucey.backgammon.bots import position_of
from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.notation import point_text
from aceydeucey.core.record import Record
from aceydeucey.server import analysis_page
from tests.backgammon.test_analysis import played_record


def state_before(record: Record, index: int) -> Any:
    state = record.make_game().new_initial_state()
    for text in record.actions[:index]:
        state = state.apply(text)
    return state


def public(place: int, seat: int) -> int | str:
    """A move's end as the engine holds it, numbered from seat 0's side."""
    if place == OFF or place > 24:
        return point_text(place)
    return 25 - place if seat == 1 else place


def analysed(client: TestClient, record: Record, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(analysis_page, "_cache", type(analysis_page._cache)())
    answer = client.post("/replay/analysis", content=json.dumps(record.to_dict()))
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_non_best_play_carries_the_board_after_the_best_play(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, planted = played_record("classic", 3, plant_at=5)
    assert planted is not None
    found = analysed(client, record, monkeypatch)
    shown = [d for d in found["decisions"] if "best_view" in d]
    assert planted in [d["index"] for d in shown]
    for d in found["decisions"]:  # only plays that were not the best carry one
        assert ("best_view" in d) == (d["kind"] == "play" and d["best"] != d["played"]), d
    steps = client.post("/replay/steps", content=json.dumps(record.to_dict())).json()["steps"]
    for d in shown:
        view = d["best_view"]
        state = state_before(record, d["index"])
        seat = state.current_player()
        # the board is the engine's public observation after the best play, as a step's is
        after = json.loads(json.dumps(state.apply(d["best"]).observation(None)))
        assert view["board"] == after
        assert view["board"]["points"] != steps[d["index"] + 1]["observation"]["points"]
        assert view["play"] == d["best"]
        if seat == 1:  # the plays numbered from seat 0's side, as the board is drawn
            assert d["best_shown"] != d["best"] and view["shown"] == d["best_shown"]
        for key, text in (("moves", d["best"]), ("played_moves", d["played"])):
            moves = state.parse_action(text).moves
            want = [(public(m.src, seat), public(m.dst, seat), seat) for m in moves]
            assert [(m["from"], m["to"], m["seat"]) for m in view[key]] == want, key


def worst_double_named() -> tuple[Record, int, Any, list[Any]]:
    """An Acey-Deucey game of ``net``'s cut at its first double named after a 1-2, the worst
    one named there: the record, the double's index, the state before it, the doubles ranked."""
    full, _ = played_record("acey-deucey", 4)
    state = full.make_game().new_initial_state()
    index = 0
    while state.is_chance_node() or state.phase != "double":
        assert index < len(full.actions), "no double named in the game"
        state = state.apply(full.actions[index])
        index += 1
    observation = state.observation(state.current_player())
    ranked = Evaluator(state.game.rules).rank_doubles(position_of(observation))
    data = full.to_dict()
    data["actions"] = [*full.actions[:index], ranked[-1].text]
    return Record.from_dict(data), index, state, ranked


def test_a_named_double_not_the_best_shows_the_best_double_played(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, index, state, ranked = worst_double_named()
    seat = state.current_player()
    found = analysed(client, record, monkeypatch)
    d = next(d for d in found["decisions"] if d["index"] == index)
    assert d["kind"] == "named_double" and d["played"] == ranked[-1].text
    assert d["best"] == ranked[0].text != d["played"]
    assert (d["best_double"], d["played_double"]) == (ranked[0].double, ranked[-1].double)
    view = d["best_view"]
    assert view["play"] == str(ranked[0].play)  # the best double's own best play
    after = state.apply(d["best"]).apply(view["play"]).observation(None)
    assert view["board"] == json.loads(json.dumps(after))
    assert view["played_moves"] == [] and len(view["moves"]) == 4
    assert all(m["seat"] == seat for m in view["moves"])
