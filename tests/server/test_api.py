"""The JSON API, in-process, on SQLite and on PostgreSQL: every endpoint and error path."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import aceydeucey
from aceydeucey.core.record import Record, replay
from aceydeucey.locale import error_domain
from aceydeucey.server.app import create_app
from aceydeucey.server.fairness import commitment
from aceydeucey.server.fairness import verify as fair_verify
from aceydeucey.server.settings import Settings

from .conftest import bearer, new_table, play_turn, seat, settle, view


def verify(record: Record) -> bool:
    """Whether the fairness check passes (a bool, or a result with ``ok``)."""
    found = fair_verify(record)
    return bool(getattr(found, "ok", found))


def first(legal: list[str]) -> str:
    return legal[0]


def snapshot(c: TestClient, table_id: str, tokens: dict[int, str]) -> Any:
    """Everything a failed request must leave unchanged."""
    return (
        view(c, table_id),
        [view(c, table_id, tok) for tok in tokens.values()],
        c.get(f"/api/tables/{table_id}/events").json(),
    )


def two_humans_and_a_bot(c: TestClient) -> tuple[str, dict[int, str]]:
    table_id = new_table(
        c, "inbetween", ["human", "human", "bot:ev"], options={"preset": "guide", "players": 3}
    )
    tokens = {0: seat(c, table_id, 0, "Ana"), 1: seat(c, table_id, 1, "Bea")}
    return table_id, tokens


# -- games and the lobby ------------------------------------------------------------------------
def test_games_list_every_option_with_type_choices_default_help_and_source(
    client: TestClient,
) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == set(aceydeucey.game_ids())
    ib = games["inbetween"]
    assert "guide" in [p["name"] for p in ib["presets"]]
    assert ib["bots"][0] == "random" and "ev" in ib["bots"]
    options = {o["name"]: o for o in ib["options"]}
    assert options["players"]["type"] == "int" and options["players"]["min"] >= 1
    assert set(options["reshuffle"]["choices"]) >= {"round", "deck-out"}
    assert options["hidden"]["type"] == "bool" and options["hidden"]["default"] is False
    assert all(o["help"] and "source" in o for o in ib["options"] if not o["preset_key"])
    assert games["backgammon"]["preset_key"] == "variant"
    assert "greedy" in games["backgammon"]["bots"]


def test_lobby_lists_public_tables_not_private_ones(client: TestClient) -> None:
    public = new_table(client, "backgammon", ["human", "human"])
    private = new_table(client, "backgammon", ["human", "human"], public=False)
    seat(client, public, 0)
    listed = {t["id"]: t for t in client.get("/api/tables").json()["tables"]}
    assert public in listed and private not in listed
    row = listed[public]
    assert (row["game"], row["preset"], row["taken"], row["players"]) == (
        "backgammon",
        "acey-deucey",
        1,
        2,
    )
    assert row["status"] == "waiting" and row["spectators"] == 0


# -- creating tables and seats ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "game.unknown"),
        ({"game": "inbetween", "options": {"players": 99}}, "rules.out_of_range"),
        ({"game": "inbetween", "options": {"colour": "red"}}, "rules.unknown_option"),
        ({"game": "backgammon", "seats": ["human"]}, "server.seats_count"),
        ({"game": "backgammon", "seats": ["human", "robot"]}, "server.seat_kind"),
        ({"game": "backgammon", "seats": ["human", "bot:nobody"]}, "bot.unknown"),
        ({"game": "backgammon", "seats": ["human", "bot:pubeval"]}, "bg.bot.classic_only"),
        ({"options": {}}, "server.field_missing"),
        ({"game": "backgammon", "turn_seconds": 1}, "server.field_range"),
        ({"game": "backgammon", "on_timeout": "sleep"}, "server.field_choice"),
        ({"game": "inbetween", "options": {"preset": []}}, "server.option_value"),
        ({"game": "inbetween", "options": {"players": {"a": 1}}}, "server.option_value"),
        ({"game": "inbetween", "options": {"round_limits": [[1]]}}, "server.option_value"),
        ({"game": "inbetween", "options": {"players": 1e308}}, "rules.wrong_type"),
        ({"game": ["inbetween"]}, "server.bad_request"),
    ],
)
def test_bad_tables_are_refused_with_the_engines_message(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    before = client.get("/api/tables").json()
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == code and error["message"]
    assert client.get("/api/tables").json() == before


def test_engine_messages_come_in_the_requests_language(client: TestClient) -> None:
    r = client.post(
        "/api/tables",
        json={"game": "backgammon", "seats": ["x", "y"]},
        headers={"Accept-Language": "pt-PT"},
    )
    assert r.json()["error"]["message"].startswith("um lugar é")
    r = client.post("/api/tables?lang=en", json={"game": "backgammon", "seats": ["x", "y"]})
    assert r.json()["error"]["message"].startswith("a seat is")
    client.cookies.set("lang", "pt")
    r = client.get("/api/tables/nothing-here")
    assert (
        r.status_code == 404 and r.json()["error"]["message"] == "não há nenhuma mesa nothing-here"
    )


@pytest.mark.parametrize(
    ("options", "concerned", "english", "portuguese"),
    [
        (
            {"starting_chips": -5},
            ["starting_chips"],
            "“Starting chips” must be at least 1 (it was -5)",
            "«Fichas iniciais» tem de ser pelo menos 1 (era -5)",
        ),
        (
            {"banking": "house"},
            ["banking", "deal"],
            "“Who banks: The house” and “Dealing the posts: First post to all, then one by one”",
            "«Quem faz a banca: A casa» e «Distribuição das balizas: Primeira baliza a todos",
        ),
    ],
)
def test_a_refused_option_is_said_in_the_players_words_and_names_its_fields(
    client: TestClient,
    options: dict[str, Any],
    concerned: list[str],
    english: str,
    portuguese: str,
) -> None:
    # the message in the players' words (the lobby shows it at the fields), the params
    # with the code names and values (API clients keep their data) and the options concerned
    for lang, words in (("en", english), ("pt", portuguese)):
        r = client.post(
            "/api/tables",
            json={"game": "inbetween", "options": options},
            headers={"Accept-Language": lang},
        )
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["message"].startswith(words), error["message"]
        assert error["params"]["options"] == concerned
        assert all(name not in error["message"] for name in concerned if "_" in name)
        assert "=" not in error["message"] and "inbetween" not in error["message"]
        params = error["params"]
        for name, value in options.items():  # by its name, or as the one option's value
            assert params.get(name, params.get("value")) == value, params


def test_text_options_are_read_by_their_type(client: TestClient) -> None:
    table_id = new_table(
        client,
        "inbetween",
        ["human"] * 3,
        options={"players": "3", "hidden": "yes", "deal": "both-around"},
    )
    rules = view(client, table_id)["rules"]
    assert rules["players"] == 3 and rules["hidden"] is True


@pytest.mark.slow
def test_seats_tokens_and_their_errors(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot"])
    r = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ana"})
    token = r.json()["token"]
    assert r.status_code == 200 and len(token) >= 43  # 32 bytes, URL-safe base64
    again = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Bob"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "server.seat_taken"
    bot_seat = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bob"})
    assert bot_seat.status_code == 409
    assert client.post(f"/api/tables/{table_id}/seats/7", json={"name": "C"}).status_code == 404
    assert client.post("/api/tables/nope/seats/0", json={"name": "C"}).status_code == 404
    missing = client.post(f"/api/tables/{table_id}/seats/0?lang=pt", json={})
    assert missing.status_code == 400 and missing.json()["error"]["message"] == "falta name"
    mine = view(client, table_id, token)
    assert mine["you"] == 0 and mine["observation"]["seat"] == 0
    assert mine["seats"][0]["name"] == "Ana"
    assert view(client, table_id)["you"] is None
    wrong = client.get(f"/api/tables/{table_id}", headers=bearer("not-a-token"))
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "server.token_wrong"


# -- acting and its errors ----------------------------------------------------------------------
@pytest.mark.slow
def test_every_bad_action_answers_clearly_and_changes_nothing(client: TestClient) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    v = settle(client, table_id)
    who = v["to_act"]
    other = 1 - who
    seq = v["seq"]
    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
    before = snapshot(client, table_id, tokens)
    url = f"/api/tables/{table_id}/actions"
    cases: list[tuple[dict[str, Any] | bytes, dict[str, str], int, str]] = [
        ({"action": legal[0], "seq": seq}, bearer("forged"), 403, "server.token_wrong"),
        ({"action": legal[0], "seq": seq}, {}, 403, "server.token_missing"),
        ({"action": "pass", "seq": seq}, bearer(tokens[other]), 403, "turn.not_yours"),
        ({"action": "bet 100000", "seq": seq}, bearer(tokens[who]), 400, ""),
        ({"action": "fly away", "seq": seq}, bearer(tokens[who]), 400, ""),
        ({"action": legal[0], "seq": seq - 1}, bearer(tokens[who]), 409, "server.seq_stale"),
        ({"action": legal[0], "seq": seq + 5}, bearer(tokens[who]), 409, "server.seq_stale"),
        ({"action": legal[0]}, bearer(tokens[who]), 400, "server.field_missing"),
        ({"action": "x" * 500, "seq": seq}, bearer(tokens[who]), 400, "server.field_too_long"),
        (b'{"action": "pass", "seq": ', bearer(tokens[who]), 400, "server.bad_json"),
        (b"[1, 2]", bearer(tokens[who]), 400, "server.bad_request"),
        (b'{"pad": "' + b"x" * 20000 + b'"}', bearer(tokens[who]), 413, "server.body_too_large"),
    ]
    for body, headers, status, code in cases:
        if isinstance(body, bytes):
            r = client.post(
                url, content=body, headers={**headers, "content-type": "application/json"}
            )
        else:
            r = client.post(url, json=body, headers=headers)
        assert r.status_code == status, (body if isinstance(body, dict) else body[:40], r.text)
        error = r.json()["error"]
        assert error["message"] and "Traceback" not in r.text
        if code:
            assert error["code"] == code
        else:
            # an engine refusal: a catalogued code, never uncoded English text
            assert error_domain(error["code"]) and not error["code"].endswith(".text")
        assert snapshot(client, table_id, tokens) == before
    assert (
        client.post("/api/tables/nope/actions", json={"action": "pass", "seq": 0}).status_code
        == 404
    )


def test_an_illegal_action_gets_the_engines_message_in_portuguese(client: TestClient) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    v = settle(client, table_id)
    r = client.post(
        f"/api/tables/{table_id}/actions?lang=pt",
        json={"action": "pass", "seq": v["seq"]},
        headers=bearer(tokens[1 - v["to_act"]]),
    )
    assert r.status_code == 403
    assert r.json()["error"]["message"].startswith(f"o lugar {2 - v['to_act']} não pode jogar")


def test_a_retried_action_is_applied_once(client: TestClient) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    v = settle(client, table_id)
    who, seq = v["to_act"], v["seq"]
    body = {"action": "pass", "seq": seq}
    first_try = client.post(
        f"/api/tables/{table_id}/actions", json=body, headers=bearer(tokens[who])
    )
    assert first_try.status_code == 200 and first_try.json()["seq"] > seq
    events = client.get(f"/api/tables/{table_id}/events").json()
    retry = client.post(f"/api/tables/{table_id}/actions", json=body, headers=bearer(tokens[who]))
    assert retry.status_code == 200 and retry.json()["duplicate"] is True
    assert client.get(f"/api/tables/{table_id}/events").json() == events
    moves = [e for e in events["events"] if e["kind"] == "move"]
    assert [(m["seq"], m["seat"], m["action"]) for m in moves] == [(seq + 1, who, "pass")]
    other = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": "bet 1", "seq": seq},
        headers=bearer(tokens[who]),
    )
    assert other.status_code == 409  # a different action at the old seq is stale, not a retry


def test_nothing_can_be_played_before_every_seat_is_taken(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    token = seat(client, table_id, 0)
    v = view(client, table_id, token)
    assert v["status"] == "waiting" and v["seq"] == 0 and v["observation"]["legal_actions"] == []
    r = client.post(
        f"/api/tables/{table_id}/actions", json={"action": "roll", "seq": 0}, headers=bearer(token)
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "server.table_waiting"


def test_unknown_routes_and_methods_answer_json(client: TestClient) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"]["code"] == "server.not_found"
    r = client.delete("/api/tables")
    assert r.status_code == 405 and r.json()["error"]["code"] == "server.method"
    assert client.get("/docs").status_code == 200
    assert "/api/tables/{table_id}/actions" in client.get("/openapi.json").json()["paths"]


# -- whole games --------------------------------------------------------------------------------
def test_in_between_two_humans_and_a_bot_to_the_end(client: TestClient) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    commit = view(client, table_id)["fairness"]["commitment"]
    early = client.get(f"/api/tables/{table_id}/record")
    if early.status_code == 200:  # a game that hides nothing publishes its record as it goes
        assert early.json()["fairness"]["server_seed"] is None
        assert early.json()["fairness"]["commitment"] == commit
    else:
        assert early.json()["error"]["code"] == "server.record_until_over"
    rng = random.Random(5)
    turns = 0
    while play_turn(client, table_id, tokens, lambda legal: rng.choice(legal)):
        turns += 1
    final = view(client, table_id, tokens[0])
    assert final["status"] == "over" and final["observation"]["outcome"] is not None
    record = Record.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    assert record.players == ["Ana", "Bea", "bot:ev"]
    state = replay(record)
    assert (
        state.is_terminal()
        and [str(r) for r in state.returns()] == final["observation"]["outcome"]["returns"]
    )
    seed = bytes.fromhex(record.fairness["server_seed"])  # type: ignore[index]
    assert commitment(seed) == commit and verify(record)
    moves = [
        e
        for e in client.get(f"/api/tables/{table_id}/events").json()["events"]
        if e["kind"] in ("move", "bot")
    ]
    assert len([m for m in moves if m["kind"] == "move"]) == turns
    assert {m["seat"] for m in moves if m["kind"] == "bot"} == {2}
    tampered = Record.from_dict(record.to_dict())
    i = next(i for i, a in enumerate(tampered.actions) if len(a) == 2 and a[0] in "23456789TJQKA")
    tampered.actions[i] = "AS" if tampered.actions[i] != "AS" else "KS"
    assert not verify(tampered)


@pytest.mark.slow
def test_backgammon_against_a_bot_to_the_end(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot:greedy"])
    tokens = {0: seat(client, table_id, 0)}
    while play_turn(client, table_id, tokens, first):
        pass
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["result"]["terminal"] is True and verify(Record.from_dict(record))
    assert replay(Record.from_dict(record)).is_terminal()


@pytest.mark.slow
def test_aces_in_the_pot_three_people_to_the_end(client: TestClient) -> None:
    table_id = new_table(client, "aces-in-the-pot", ["human"] * 3, options={"players": 3})
    tokens = {i: seat(client, table_id, i) for i in range(3)}
    while play_turn(client, table_id, tokens, first):
        pass
    v = view(client, table_id)
    assert v["status"] == "over" and v["observation"]["outcome"]["winners"]
    assert verify(Record.from_dict(client.get(f"/api/tables/{table_id}/record").json()))


@pytest.mark.slow
def test_the_trained_networks_play_at_a_table_to_the_end(client: TestClient) -> None:
    # Acey-Deucey (the default variant): net names its doubles after a 1-2 by evaluation.
    table_id = new_table(client, "backgammon", ["bot:net", "bot:greedy"])
    v = settle(client, table_id, tries=3000)
    assert v["status"] == "over" and v["observation"]["outcome"] is not None
    record = Record.from_dict(client.get(f"/api/tables/{table_id}/record").json())
    assert record.players == ["bot:net", "bot:greedy"] and verify(record)


@pytest.mark.slow
def test_a_bot_only_table_plays_itself_to_the_end(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["bot:greedy", "bot:random"])
    v = settle(client, table_id, tries=3000)
    assert v["status"] == "over" and v["observation"]["outcome"] is not None


@pytest.mark.slow
def test_a_seat_that_throws_waits_for_its_roll(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the engine says a seat throws (``chance_actor``), a person must send ``roll``."""
    from aceydeucey.backgammon.game import BackgammonState

    def actor(self: Any) -> int | None:
        return self.mover if getattr(self, "phase", None) == "roll" else None

    monkeypatch.setattr(BackgammonState, "chance_actor", actor, raising=False)
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    rolls = 0
    for _ in range(12):
        v = settle(client, table_id)
        if v["to_roll"] is not None:
            who = v["to_roll"]
            r = client.post(
                f"/api/tables/{table_id}/actions",
                json={"action": "move 1", "seq": v["seq"]},
                headers=bearer(tokens[who]),
            )
            assert r.status_code == 400 and r.json()["error"]["code"] == "server.roll_first"
            r = client.post(
                f"/api/tables/{table_id}/actions",
                json={"action": "roll", "seq": v["seq"]},
                headers=bearer(tokens[1 - who]),
            )
            assert r.status_code == 403
            rolls += 1
        assert play_turn(client, table_id, tokens, first)
    events = client.get(f"/api/tables/{table_id}/events").json()["events"]
    assert rolls and any(e["kind"] == "chance" and e["seat"] is not None for e in events)


# -- hidden information -------------------------------------------------------------------------
@pytest.mark.slow
def test_hidden_cards_never_reach_another_seat_or_a_spectator(client: TestClient) -> None:
    options = {"players": 3, "hidden": True, "deal": "both-around"}
    table_id = new_table(client, "inbetween", ["human"] * 3, options=options)
    tokens = {i: seat(client, table_id, i) for i in range(3)}
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(2)
    checked = 0
    for _ in range(30):
        v = settle(client, table_id)
        if v["status"] == "over":
            break
        live = client.portal.call(service.table, table_id)  # type: ignore[union-attr]
        payloads = {i: json.dumps(view(client, table_id, tokens[i])) for i in range(3)}
        payloads[None] = json.dumps(view(client, table_id))
        # the log of this round only: the deck is shuffled between rounds, so a card seen in
        # an earlier round may be in a face-down hand now without anything leaking
        log = client.get(f"/api/tables/{table_id}/events").json()["events"]
        starts = [
            i
            for i, e in enumerate(log)
            if any(a.get("kind") == "round" for a in ((e.get("event") or {}).get("after") or []))
        ]
        payloads["events"] = json.dumps(log[starts[-1] + 1 :] if starts else log)
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.status_code == 409  # the record waits for the end
        for s in range(3):
            hand = live.state.hands[s] if live.state.hands else None
            hidden = [str(c) for c in hand or ()]
            own = json.loads(payloads[s])["observation"].get("hidden_hand") or []
            hidden = [c for c in hidden if c in own]
            for card in hidden:
                checked += 1
                for who, text in payloads.items():
                    if who != s:
                        assert f'"{card}"' not in text, (card, s, who)
        seed = live.row["server_seed"]
        assert all(seed not in text for text in payloads.values())
        assert all(tokens[s] not in payloads[o] for s in range(3) for o in payloads)
        assert play_turn(client, table_id, tokens, lambda legal: rng.choice(legal))
    assert checked > 0


# -- restart ------------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_restart_rebuilds_every_table_exactly(settings_factory: Callable[..., Settings]) -> None:
    rng = random.Random(11)
    with TestClient(create_app(settings_factory())) as c:
        table_id = new_table(c, "inbetween", ["human"] * 3, options={"players": 3})
        tokens = {i: seat(c, table_id, i) for i in range(3)}
        for _ in range(3):  # passing keeps the game going: the restart comes mid-game
            assert play_turn(
                c, table_id, tokens, lambda legal: "pass" if "pass" in legal else legal[0]
            )
        assert settle(c, table_id)["status"] == "playing"
        before = snapshot(c, table_id, tokens)
        live = c.portal.call(c.app.state.service.table, table_id)  # type: ignore[attr-defined,union-attr]
        actions = [e.text for e in live.entries if e.is_action]
        state = live.state
    with TestClient(create_app(settings_factory())) as c:
        c.app.state.service._tables.clear()  # type: ignore[attr-defined]  # the lobby from the store
        listed = {t["id"]: t for t in c.get("/api/tables").json()["tables"]}
        assert (listed[table_id]["taken"], listed[table_id]["status"]) == (3, "playing")
        assert [s["name"] for s in listed[table_id]["seats"]] == ["p0", "p1", "p2"]
        after = snapshot(c, table_id, tokens)
        assert after == before
        rebuilt = c.portal.call(c.app.state.service.table, table_id)  # type: ignore[attr-defined,union-attr]
        assert rebuilt.state == state and rebuilt.draws == live.draws
        while play_turn(c, table_id, tokens, lambda legal: rng.choice(legal)):
            pass
        done = Record.from_dict(c.get(f"/api/tables/{table_id}/record").json())
        assert done.actions[: len(actions)] == actions
        assert verify(done) and replay(done).is_terminal()


# -- table-level events -------------------------------------------------------------------------
def test_resign_ends_a_backgammon_game_and_the_record_says_who(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    v = settle(client, table_id)
    r = client.post(f"/api/tables/{table_id}/resign", headers=bearer(tokens[1]))
    assert r.status_code == 200 and r.json()["status"] == "over"
    assert r.json()["ended"] == {"termination": "resigned", "seat": 1, "winners": [0]}
    assert r.json()["observation"]["legal_actions"] == []
    record = client.get(f"/api/tables/{table_id}/record").json()
    assert record["ending"] == {"termination": "ending.resigned", "seat": 1}
    assert record["result"]["termination"] == "ending.resigned"
    assert record["result"]["terminal"] is True and record["result"]["winners"] == [0]
    assert record["fairness"]["server_seed"]
    assert replay(Record.from_dict(record)).is_terminal()  # replays as a finished game
    r = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": "pass", "seq": v["seq"] + 1},
        headers=bearer(tokens[0]),
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "server.table_over"
    assert (
        client.post(f"/api/tables/{table_id}/resign", headers=bearer(tokens[0])).status_code == 409
    )


def test_resign_needs_a_game_of_two(client: TestClient) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    r = client.post(f"/api/tables/{table_id}/resign", headers=bearer(tokens[0]))
    assert r.status_code == 400 and r.json()["error"]["code"] == "server.resign_two_players"


@pytest.mark.slow
def test_claim_after_the_opponent_is_away(settings_factory: Callable[..., Settings]) -> None:
    # a server whose operator allows claims at once (the default floor is 15 s)
    with TestClient(create_app(settings_factory(min_claim_after=0))) as c:
        table_id = new_table(c, "backgammon", ["human", "human"], claim_after=3600)
        tokens = {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}
        r = c.post(
            f"/api/tables/{table_id}/claim",
            json={"seat": 1, "mode": "win"},
            headers=bearer(tokens[0]),
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "server.claim_too_soon"
        quick = new_table(c, "backgammon", ["human", "human"], claim_after=0)
        qt = {0: seat(c, quick, 0), 1: seat(c, quick, 1)}
        r = c.post(
            f"/api/tables/{quick}/claim", json={"seat": 0, "mode": "win"}, headers=bearer(qt[0])
        )
        assert r.status_code == 400  # not one's own seat
        r = c.post(
            f"/api/tables/{quick}/claim", json={"seat": 1, "mode": "win"}, headers=bearer(qt[0])
        )
        assert r.status_code == 200 and r.json()["ended"]["termination"] == "claimed"
        assert r.json()["ended"]["winners"] == [0]
        handed = new_table(c, "backgammon", ["human", "human"], claim_after=0)
        ht = {0: seat(c, handed, 0), 1: seat(c, handed, 1)}
        r = c.post(
            f"/api/tables/{handed}/claim", json={"seat": 1, "mode": "bot"}, headers=bearer(ht[0])
        )
        assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "bot"
        while play_turn(c, handed, {0: ht[0]}, first):
            pass
        assert view(c, handed)["observation"]["outcome"] is not None
        ib, ib_tokens = two_humans_and_a_bot(c)
        r = c.post(
            f"/api/tables/{ib}/claim", json={"seat": 1, "mode": "win"}, headers=bearer(ib_tokens[0])
        )
        assert r.status_code in (400, 409)


def test_turn_timer_passes_or_lets_a_bot_play(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    timed = new_table(
        client, "inbetween", ["human", "human", "bot:ev"], options={"players": 3}, turn_seconds=600
    )
    seat(client, timed, 0)
    seat(client, timed, 1)
    v = settle(client, timed)
    assert v["turn_seconds"] == 600 and v["deadline"] is not None
    assert client.portal.call(service.timeout, timed, v["seq"] - 1) is False  # type: ignore[union-attr]
    assert client.portal.call(service.timeout, timed, v["seq"]) is True  # type: ignore[union-attr]
    events = client.get(f"/api/tables/{timed}/events?since={v['seq']}").json()["events"]
    assert (events[0]["kind"], events[0]["seat"], events[0]["action"]) == (
        "timeout",
        v["to_act"],
        "pass",
    )
    bg = new_table(client, "backgammon", ["human", "human"], turn_seconds=600, on_timeout="bot")
    seat(client, bg, 0)
    seat(client, bg, 1)
    v = settle(client, bg)
    assert client.portal.call(service.timeout, bg, v["seq"]) is True  # type: ignore[union-attr]
    after = client.get(f"/api/tables/{bg}/events?since={v['seq']}").json()["events"][0]
    assert after["kind"] in ("timeout", "chance") and after["seat"] == v["to_act"]


def test_rematch_opens_one_new_table_for_everyone(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0, "Ana"), 1: seat(client, table_id, 1, "Bea")}
    r = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(tokens[0]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "server.rematch_not_over"
    settle(client, table_id)
    client.post(f"/api/tables/{table_id}/resign", headers=bearer(tokens[0]))
    a = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(tokens[0])).json()
    b = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(tokens[1])).json()
    assert a["id"] == b["id"] != table_id and a["token"] and b["token"]
    new = view(client, a["id"], b["token"])
    assert new["rematch_of"] == table_id and new["you"] == 1 and new["status"] == "playing"
    assert [s["name"] for s in new["seats"]] == ["Ana", "Bea"]
    assert view(client, table_id)["rematch"] == a["id"]


@pytest.mark.slow
def test_chat_is_short_and_rate_limited(client: TestClient) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    url = f"/api/tables/{table_id}/chat"
    assert client.post(url, json={"text": "hello"}).status_code == 403
    r = client.post(url, json={"text": "  good   luck "}, headers=bearer(tokens[0]))
    assert r.status_code == 200 and r.json()["text"] == "good luck" and r.json()["name"] == "Ana"
    long = client.post(url, json={"text": "x" * 201}, headers=bearer(tokens[0]))
    assert long.status_code == 413 and long.json()["error"]["code"] == "server.chat_too_long"
    statuses = [
        client.post(url, json={"text": f"m{i}"}, headers=bearer(tokens[1])).status_code
        for i in range(7)
    ]
    assert statuses[:5] == [200] * 5 and statuses[5] == 429
    lines = client.get(url).json()["chat"]
    assert [line["text"] for line in lines] == ["good luck", "m0", "m1", "m2", "m3", "m4"]


# -- a property: random requests never break a table ----------------------------------------
@pytest.mark.slow
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["legal", "pass", "bet 1", "bet 999", "roll", "", "☃", "bet -1"]),
            st.sampled_from(["mine", "other", "forged", "none"]),
            st.integers(-2, 2),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_random_requests_answer_json_and_only_accepted_ones_change_the_table(
    client: TestClient, requests: list[tuple[str, str, int]]
) -> None:
    table_id, tokens = two_humans_and_a_bot(client)
    for action, whose, offset in requests:
        v = settle(client, table_id)
        if v["status"] == "over":
            break
        who = v["to_act"]
        token = {"mine": tokens[who], "other": tokens[1 - who], "forged": "x" * 43, "none": ""}[
            whose
        ]
        if action == "legal":
            action = view(client, table_id, tokens[who])["observation"]["legal_actions"][0]
        before = snapshot(client, table_id, tokens)
        r = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": action, "seq": v["seq"] + offset},
            headers=bearer(token) if token else {},
        )
        assert r.status_code in (200, 400, 403, 409), r.text
        if r.status_code == 200:
            assert r.json()["seq"] > v["seq"] or r.json().get("duplicate")
        else:
            assert set(r.json()["error"]) == {"code", "params", "message"}
            assert snapshot(client, table_id, tokens) == before
        events = client.get(f"/api/tables/{table_id}/events").json()
        assert [e["seq"] for e in events["events"]] == list(range(1, events["seq"] + 1))


def test_the_seat_on_the_dealers_right_cuts(client: TestClient) -> None:
    table_id = new_table(client, "inbetween", ["human"] * 3, options={"players": 3, "dealer": 1})
    fair = view(client, table_id)["fairness"]
    assert fair["cutter"] == 0 and fair["cut"] is None  # the right of seat 1 is seat 0
    r = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ana", "cut": "my cut"})
    assert r.status_code == 200
    seat(client, table_id, 1)
    seat(client, table_id, 2)
    assert view(client, table_id)["fairness"]["cut"] == b"my cut".hex()
    other = new_table(client, "backgammon", ["human", "bot"])
    seat(client, other, 0)
    assert len(bytes.fromhex(view(client, other)["fairness"]["cut"])) == 16  # the server cut


def test_the_pages_cookie_holds_the_seat(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    token = seat(client, table_id, 1)
    client.cookies.set(f"seat_{table_id}", token)
    assert view(client, table_id)["you"] == 1
    client.cookies.clear()
    assert view(client, table_id)["you"] is None


def test_a_finished_table_leaves_memory_and_comes_back_from_the_store(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    settle(client, table_id)
    before = client.post(f"/api/tables/{table_id}/resign", headers=bearer(tokens[0])).json()
    assert table_id not in service._tables
    again = view(client, table_id, tokens[1])
    assert again["seq"] == before["seq"] and again["ended"] == before["ended"]


def test_the_turn_timer_fires_by_itself(client: TestClient) -> None:
    import functools
    import time

    service = client.app.state.service  # type: ignore[attr-defined]
    make = functools.partial(
        service.create, "backgammon", {}, ["human", "human"], turn_seconds=0.2, on_timeout="bot"
    )
    table_id = client.portal.call(make).id  # type: ignore[union-attr]
    seat(client, table_id, 0)
    seat(client, table_id, 1)
    for _ in range(500):  # a bounded wait for the timer, not a timing assertion
        events = client.get(f"/api/tables/{table_id}/events").json()["events"]
        if any(e["kind"] == "timeout" for e in events):
            break
        time.sleep(0.02)
    else:
        raise AssertionError("the turn timer never ran out")


def test_games_describe_every_option_in_the_readers_language(client: TestClient) -> None:
    from aceydeucey.core.rules import RulesBase

    for lang in ("en", "pt"):
        games = client.get("/api/games", headers={"Accept-Language": lang}).json()["games"]
        for game in games:
            expected = {o["name"]: o["help"] for o in RulesBase.describe_options(game["id"], lang)}
            assert {o["name"]: o["help"] for o in game["options"]} == expected
    pt = client.get("/api/games", headers={"Accept-Language": "pt-PT"}).json()["games"]
    chips = next(o for o in pt[0]["options"] if o["name"] == "starting_chips")
    assert chips["help"] == "fichas com que cada lugar começa"


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("inbetween", ["bot:ev", "bot:ev", "bot:ev"], {"players": 3}),
        ("backgammon", ["human", "bot:greedy"], {"variant": "classic"}),
        ("aces-in-the-pot", ["human", "bot", "bot"], {"players": 3}),
    ],
)
def test_a_table_held_from_its_new_row_is_the_table_the_store_rebuilds(
    client: TestClient, game: str, seats: list[str], options: dict[str, Any]
) -> None:
    """A new table is held from the row just stored, not read back: the same table, the
    same views and log, as the store would rebuild (the bots' first steps included)."""
    table_id = new_table(client, game, seats, options=options)
    tokens = {i: seat(client, table_id, i) for i, kind in enumerate(seats) if kind == "human"}
    settle(client, table_id)
    service = client.app.state.service  # type: ignore[attr-defined]
    held = client.portal.call(service.table, table_id)  # type: ignore[union-attr]
    before = snapshot(client, table_id, tokens)
    service._tables.clear()
    rebuilt = client.portal.call(service.table, table_id)  # type: ignore[union-attr]
    assert rebuilt is not held
    assert rebuilt.state == held.state and rebuilt.seq == held.seq and rebuilt.draws == held.draws
    assert rebuilt.row == held.row
    assert snapshot(client, table_id, tokens) == before
