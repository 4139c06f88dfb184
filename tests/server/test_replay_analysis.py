"""``POST /replay/analysis``: the replay viewer's analysis of a backgammon record."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

import aceydeucey
from aceydeucey.backgammon.analysis import analyze
from aceydeucey.core.record import Record
from aceydeucey.server import analysis_page
from tests.backgammon.test_analysis import played_record


@pytest.fixture(scope="module")
def record() -> Record:
    return played_record("classic", 3)[0]


def test_the_answer_is_the_records_analysis_and_is_kept(
    client: TestClient, record: Record, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    real = analysis_page.analysis_of

    def counted(data: Any) -> dict[str, Any]:
        calls.append(1)
        return real(data)

    monkeypatch.setattr(analysis_page, "analysis_of", counted)
    monkeypatch.setattr(analysis_page, "_cache", type(analysis_page._cache)())
    body = json.dumps(record.to_dict())
    first = client.post("/replay/analysis", content=body)
    assert first.status_code == 200, first.text
    want = json.loads(json.dumps(analyze(record).to_json()))
    # the viewer's fields beside the analysis's own (tests/server/test_best_play.py)
    extra = ("best_view", "best_shown", "played_shown")
    shown = [{k: v for k, v in d.items() if k not in extra} for d in first.json()["decisions"]]
    assert shown == want["decisions"]
    assert [p["error_rate"] for p in first.json()["players"]] == [
        p["error_rate"] for p in want["players"]
    ]
    again = client.post("/replay/analysis", content=body)
    assert again.json() == first.json() and len(calls) == 1


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_a_record_of_another_game_is_refused_in_the_users_language(
    client: TestClient, lang: str
) -> None:
    game = aceydeucey.load_game("inbetween")
    body = json.dumps(Record.start(game, ["Ana", "Rui"]).to_dict())
    r = client.post("/replay/analysis", content=body, headers={"Accept-Language": lang})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "error.analysis_unavailable"
    assert ("gamão" if lang == "pt" else "backgammon") in error["message"]


def test_a_record_that_does_not_replay_and_a_non_json_body_are_refused(
    client: TestClient, record: Record
) -> None:
    data = record.to_dict()
    data["actions"] = [*data["actions"][:3], "not a move"]
    r = client.post("/replay/analysis", content=json.dumps(data))
    assert r.status_code == 400 and r.json()["error"]["code"], r.text
    r = client.post("/replay/analysis", content=b"{not json", headers={"Accept-Language": "pt"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "error.record_not_json"


def test_an_analysis_past_the_time_limit_says_so(
    client: TestClient, record: Record, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    monkeypatch.setattr(analysis_page, "TIME_LIMIT", 0.05)
    monkeypatch.setattr(analysis_page, "analysis_of", lambda data: time.sleep(0.5) or {})
    monkeypatch.setattr(analysis_page, "_cache", type(analysis_page._cache)())
    r = client.post("/replay/analysis", content=json.dumps(record.to_dict()))
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "error.analysis_too_long"
    assert r.headers["Retry-After"]
    # the analysis went on: once it has finished, asking again answers it
    for _ in range(100):
        time.sleep(0.05)
        again = client.post("/replay/analysis", content=json.dumps(record.to_dict()))
        if again.status_code == 200:
            break
    assert again.status_code == 200 and again.json() == {}, again.text


def test_analyses_run_one_at_a_time_and_a_full_queue_says_so(
    client: TestClient, record: Record, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    running: list[int] = []
    release = threading.Event()

    def slow(data: object) -> dict[str, object]:
        running.append(threading.get_ident())
        release.wait(5)
        return {"moves": []}

    monkeypatch.setattr(analysis_page, "TIME_LIMIT", 0.05)
    monkeypatch.setattr(analysis_page, "QUEUED", 2)
    monkeypatch.setattr(analysis_page, "analysis_of", slow)
    monkeypatch.setattr(analysis_page, "_cache", type(analysis_page._cache)())
    bodies = []
    for n in range(3):
        data = record.to_dict()
        data["players"] = [f"p{n}", "q"]
        bodies.append(json.dumps(data))
    first = client.post("/replay/analysis", content=bodies[0])
    second = client.post("/replay/analysis", content=bodies[1])
    assert first.status_code == second.status_code == 503
    assert len(running) == 1  # the second waits for the first's thread
    third = client.post("/replay/analysis", content=bodies[2], headers={"Accept-Language": "pt"})
    assert third.status_code == 503 and third.json()["error"]["code"] == "error.analysis_busy"
    assert "análises" in third.json()["error"]["message"] and third.headers["Retry-After"]
    release.set()
    for _ in range(100):
        if not analysis_page._pending:
            break
        time.sleep(0.05)
    assert len(running) == 2 and len(set(running)) == 1  # one after the other, one thread
