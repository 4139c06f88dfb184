"""Backgammon tables' own routes: the record as ``.mat`` and a seat's hint."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from aceydeucey.backgammon.analysis import analyze
from aceydeucey.backgammon.matfile import import_mat
from aceydeucey.core.record import Record, replay

from .conftest import bearer, new_table, ready_to_move, seat, settle, view

CLASSIC = {"variant": "classic"}


def _error(r: Any) -> str:
    code: str = r.json()["error"]["code"]
    return code


# -- the record as .mat -------------------------------------------------------------------
def test_a_finished_classic_tables_mat_imports_back_to_the_same_moves(
    client: TestClient,
) -> None:
    table_id = new_table(client, "backgammon", ["bot:greedy", "bot:greedy"], options=CLASSIC)
    v = settle(client, table_id, tries=3000)
    assert v["status"] == "over" and v["record_formats"] == ["json", "mat"]
    r = client.get(f"/api/tables/{table_id}/record.mat")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    disposition = r.headers["content-disposition"]
    assert disposition == f'attachment; filename="backgammon-{table_id}.mat"'
    assert r.text.startswith(" 0 point match")
    record = Record.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    back = import_mat(r.text)
    replay(back)
    # the same plays and cube actions in the same order (the .mat leaves out the dice
    # and the table's chance steps, which the import puts back from the plays' rolls)
    decisions = {"double", "take", "drop", "beaver"}

    def moves(actions: list[str]) -> list[str]:
        return [a for a in actions if "/" in a or a == "pass" or a in decisions]

    assert moves(back.actions) == moves(record.actions) and moves(record.actions)
    assert back.players == ["bot greedy", "bot greedy"]  # a .mat name holds no colon
    assert back.result is not None and record.result is not None
    assert back.result["returns"] == record.result["returns"]


def test_the_mat_is_there_while_the_game_is_running_as_the_json_record_is(
    client: TestClient,
) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"], options=CLASSIC)
    tokens = {0: seat(client, table_id, 0, "Ana"), 1: seat(client, table_id, 1, "Bea")}
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    mine = view(client, table_id, tokens[who])
    action = {"action": mine["observation"]["legal_actions"][0], "seq": mine["seq"]}
    r = client.post(f"/api/tables/{table_id}/actions", json=action, headers=bearer(tokens[who]))
    assert r.status_code == 200, r.text
    assert client.get(f"/api/tables/{table_id}/record").status_code == 200
    r = client.get(f"/api/tables/{table_id}/record.mat")
    assert r.status_code == 200 and "Ana : 0" in r.text and "Bea : 0" in r.text


@pytest.mark.parametrize(
    ("game", "options", "code"),
    [
        ("backgammon", {}, "bg.mat.variant"),  # acey-deucey, the default variant
        ("backgammon", {"variant": "dutch"}, "bg.mat.variant"),
        ("inbetween", {"preset": "guide", "players": 2}, "server.mat_game"),
    ],
)
def test_a_game_a_mat_cannot_hold_is_refused_in_the_users_language(
    client: TestClient, game: str, options: dict[str, Any], code: str
) -> None:
    seats = ["human", "human"]
    table_id = new_table(client, game, seats, options=options)
    assert view(client, table_id)["record_formats"] == ["json"]
    r = client.get(f"/api/tables/{table_id}/record.mat?lang=pt")
    assert r.status_code == 400 and _error(r) == code
    assert r.json()["error"]["message"].startswith("o formato .mat só guarda")
    english = client.get(f"/api/tables/{table_id}/record.mat?lang=en").json()["error"]
    assert english["message"].startswith("the .mat format holds")


def test_a_hidden_card_games_mat_follows_the_json_records_rule(client: TestClient) -> None:
    hidden = {"preset": "guide", "players": 2, "hidden": True, "deal": "both-around"}
    # a seat left empty: the table waits, so the game cannot end (a bot and a person's
    # timed-out turns could finish it before the reads on a loaded machine)
    table_id = new_table(client, "inbetween", ["human", "human"], options=hidden)
    seat(client, table_id, 0)
    json_record = client.get(f"/api/tables/{table_id}/record")
    mat = client.get(f"/api/tables/{table_id}/record.mat")
    assert json_record.status_code == mat.status_code == 409
    assert _error(mat) == _error(json_record) == "server.record_until_over"


def test_the_mat_of_an_unknown_table_is_404(client: TestClient) -> None:
    r = client.get("/api/tables/nosuchtable/record.mat")
    assert r.status_code == 404 and _error(r) == "server.table_unknown"


def test_the_openapi_documents_both_routes_with_their_statuses(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    mat = paths["/api/tables/{table_id}/record.mat"]["get"]["responses"]
    assert {"200", "400", "404", "409", "503"} <= set(mat)
    assert "text/plain" in mat["200"]["content"]
    hint = paths["/api/tables/{table_id}/hint"]["get"]["responses"]
    assert {"200", "400", "403", "404", "409", "429", "503"} <= set(hint)


# -- hints --------------------------------------------------------------------------------
def _hint(c: TestClient, table_id: str, token: str | None, lang: str = "en") -> Any:
    return c.get(f"/api/tables/{table_id}/hint?lang={lang}", headers=bearer(token) if token else {})


def test_hints_are_off_by_default_and_on_when_the_creator_allows_them(
    client: TestClient,
) -> None:
    plain = new_table(client, "backgammon", ["human", "human"], options=CLASSIC)
    hinted = new_table(client, "backgammon", ["human", "human"], options=CLASSIC, hints=True)
    assert view(client, plain)["hints"] is False and view(client, hinted)["hints"] is True
    listed = {t["id"]: t["hints"] for t in client.get("/api/tables").json()["tables"]}
    assert listed[plain] is False and listed[hinted] is True


def test_a_hint_is_the_analysis_best_action_with_its_equity(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot:greedy"], options=CLASSIC, hints=True)
    tokens = {0: seat(client, table_id, 0, "Ana")}
    hinted: dict[int, dict[str, Any]] = {}  # by the record's index of the action hinted
    for _ in range(12):
        v = ready_to_move(client, table_id, tokens)
        if v["status"] != "playing":
            break
        r = _hint(client, table_id, tokens[0])
        assert r.status_code == 200, r.text
        found = r.json()
        mine = view(client, table_id, tokens[0])
        assert found["seq"] == mine["seq"] and found["seat"] == 0 and found["ply"] == 3
        assert found["action"] in mine["observation"]["legal_actions"]
        assert isinstance(found["equity"], float)
        hinted[len(client.get(f"/api/tables/{table_id}/record").json()["actions"])] = found
        act = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": found["action"], "seq": mine["seq"]},
            headers=bearer(tokens[0]),
        )
        assert act.status_code == 200, act.text
    record = Record.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    rated = [d for d in analyze(record, ply=3).decisions if d.seat == 0]
    assert rated, "no decision with a choice was met"
    for d in rated:  # each is a hinted action: the analysis's best, nothing lost
        assert d.index in hinted and hinted[d.index]["action"] == d.best == d.played
        assert d.loss == 0.0 and abs(hinted[d.index]["equity"] - d.best_equity) < 1e-3


def test_a_hint_is_refused_at_a_table_without_hints(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot:greedy"], options=CLASSIC)
    tokens = {0: seat(client, table_id, 0)}
    ready_to_move(client, table_id, tokens)
    r = _hint(client, table_id, tokens[0], "pt")
    assert r.status_code == 403 and _error(r) == "server.hints_off"
    assert "sugestões" in r.json()["error"]["message"]


def test_a_hint_is_refused_to_a_spectator_and_to_a_wrong_token(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot:greedy"], options=CLASSIC, hints=True)
    tokens = {0: seat(client, table_id, 0)}
    ready_to_move(client, table_id, tokens)
    r = _hint(client, table_id, None)
    assert r.status_code == 403 and _error(r) == "server.token_missing"
    r = _hint(client, table_id, "not-a-seat-token")
    assert r.status_code == 403 and _error(r) == "server.token_wrong"


def test_a_hint_is_refused_when_the_decision_is_not_yours(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"], options=CLASSIC, hints=True)
    tokens = {0: seat(client, table_id, 0)}
    waiting = _hint(client, table_id, tokens[0])  # the other seat is still free
    assert waiting.status_code == 409 and _error(waiting) == "server.hint_not_your_turn"
    tokens[1] = seat(client, table_id, 1)
    v = ready_to_move(client, table_id, tokens)
    other = 1 - v["to_act"]
    r = _hint(client, table_id, tokens[other], "pt")
    assert r.status_code == 409 and _error(r) == "server.hint_not_your_turn"
    assert "sua vez" in r.json()["error"]["message"]
    assert _hint(client, table_id, tokens[v["to_act"]]).status_code == 200


def test_a_hint_is_refused_while_the_seat_must_throw_its_dice(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aceydeucey.backgammon.game import BackgammonState

    def actor(self: Any) -> int | None:  # people throw their own dice (as in test_api)
        return self.mover if getattr(self, "phase", None) == "roll" else None

    monkeypatch.setattr(BackgammonState, "chance_actor", actor, raising=False)
    table_id = new_table(client, "backgammon", ["human", "human"], options=CLASSIC, hints=True)
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    for _ in range(20):
        v = settle(client, table_id)
        if v["to_roll"] is not None:
            break
        who = v["to_act"]
        mine = view(client, table_id, tokens[who])
        action = {"action": mine["observation"]["legal_actions"][0], "seq": mine["seq"]}
        headers = bearer(tokens[who])
        r = client.post(f"/api/tables/{table_id}/actions", json=action, headers=headers)
        assert r.status_code == 200, r.text
    assert v["to_roll"] is not None
    r = _hint(client, table_id, tokens[v["to_roll"]])
    assert r.status_code == 409 and _error(r) == "server.hint_not_your_turn"


def test_hints_are_for_backgammon_tables_only(client: TestClient) -> None:
    r = client.post(
        "/api/tables?lang=en",
        json={"game": "aces-in-the-pot", "options": {"players": 3}, "hints": True},
    )
    assert r.status_code == 400 and _error(r) == "server.hints_game"


def test_a_rematch_keeps_the_tables_hints(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot:greedy"], options=CLASSIC, hints=True)
    token = seat(client, table_id, 0)
    assert client.post(f"/api/tables/{table_id}/resign", headers=bearer(token)).status_code == 200
    again = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(token)).json()
    assert view(client, again["id"])["hints"] is True
