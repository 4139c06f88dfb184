"""The WebSocket protocol, in-process: pushes, acting, resync and every error."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from aceydeucey.server.app import RedactTokens, redact

from .conftest import bearer, new_table, ready_to_move, seat, settle, view


def until(ws: Any, kind: str, *, tries: int = 200, **match: Any) -> dict[str, Any]:
    """The next message of ``kind`` (whose fields equal ``match``), skipping others."""
    for _ in range(tries):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
            return message
    raise AssertionError(f"no {kind} message {match}")


def latest_state(ws: Any, seq: int) -> dict[str, Any]:
    for _ in range(500):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "state" and message["seq"] >= seq:
            return message
    raise AssertionError(f"no state at seq {seq}")


def backgammon_pair(c: TestClient) -> tuple[str, dict[int, str]]:
    table_id = new_table(c, "backgammon", ["human", "human"])
    return table_id, {0: seat(c, table_id, 0), 1: seat(c, table_id, 1)}


def test_an_action_reaches_every_socket_with_its_own_observation(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[who]}") as mine,
        client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1 - who]}") as theirs,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        for ws, s in ((mine, who), (theirs, 1 - who), (spectator, None)):
            hello = until(ws, "state")
            assert hello["seq"] == v["seq"] and hello["you"] == s
            assert hello["observation"]["seat"] == s
        mine.send_json({"type": "act", "seq": v["seq"], "action": legal[0]})
        ack = until(mine, "ack")
        assert ack["seq"] > v["seq"] and ack["duplicate"] is False
        pushed = latest_state(theirs, v["seq"] + 1)
        assert pushed["event"]["kind"] == "move" and pushed["event"]["action"] == legal[0]
        assert pushed["observation"]["seat"] == 1 - who
        watched = latest_state(spectator, v["seq"] + 1)
        assert (
            watched["observation"]["seat"] is None and watched["observation"]["legal_actions"] == []
        )
        mine.send_json({"type": "act", "seq": v["seq"], "action": legal[0]})
        assert until(mine, "ack")["duplicate"] is True  # the retry is applied once
    events = client.get(f"/api/tables/{table_id}/events?since={v['seq']}").json()["events"]
    assert [e["kind"] for e in events].count("move") == 1


def test_socket_errors_answer_clearly_and_change_nothing(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    before = client.get(f"/api/tables/{table_id}/events").json()
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1 - who]}&lang=pt") as ws:
        until(ws, "state")
        cases: list[tuple[str, str]] = [
            ("{not json", "server.bad_json"),
            ("[1, 2]", "server.bad_message"),
            (json.dumps({"type": "dance"}), "server.bad_message"),
            (json.dumps({"type": "act", "seq": "x", "action": "pass"}), "server.bad_message"),
            (json.dumps({"type": "act", "seq": v["seq"], "action": "pass"}), "turn.not_yours"),
            (
                json.dumps({"type": "act", "seq": v["seq"] - 1, "action": "pass"}),
                "server.seq_stale",
            ),
            (json.dumps({"type": "chat", "text": "y" * 300}), "server.chat_too_long"),
            (json.dumps({"type": "chat", "text": "z" * 5000}), "server.message_too_large"),
        ]
        for text, code in cases:
            ws.send_text(text)
            error = until(ws, "error")
            assert error["error"]["code"] == code, text[:40]
            assert error["error"]["message"] and "Traceback" not in json.dumps(error)
        ws.send_json({"type": "ping"})
        assert until(ws, "pong")["seq"] == v["seq"]
    assert client.get(f"/api/tables/{table_id}/events").json() == before
    assert view(client, table_id)["seq"] == v["seq"]


def test_a_spectator_cannot_act(client: TestClient) -> None:
    table_id, _ = backgammon_pair(client)
    v = settle(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        until(ws, "state")
        ws.send_json({"type": "act", "seq": v["seq"], "action": "pass"})
        assert until(ws, "error")["error"]["code"] == "server.token_missing"


@pytest.mark.parametrize(
    ("path", "code", "close"),
    [
        ("/ws/tables/nope", "server.table_unknown", 4404),
        ("/ws/tables/{id}?token=forged", "server.token_wrong", 4403),
    ],
)
def test_bad_sockets_are_told_why_and_closed(
    client: TestClient, path: str, code: str, close: int
) -> None:
    table_id, _ = backgammon_pair(client)
    with client.websocket_connect(path.replace("{id}", table_id)) as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["error"]["code"] == code
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close


def test_a_reconnecting_client_resyncs_from_its_last_seq(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    v = ready_to_move(client, table_id, tokens)
    seen = v["seq"]
    for _ in range(3):  # moves made while the client is away
        v = ready_to_move(client, table_id, tokens)
        who = v["to_act"]
        legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
        r = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": legal[0], "seq": v["seq"]},
            headers=bearer(tokens[who]),
        )
        assert r.status_code == 200
    now = settle(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}&since={seen}") as ws:
        missed = until(ws, "events")
        assert missed["since"] == seen and [e["seq"] for e in missed["events"]] == list(
            range(seen + 1, now["seq"] + 1)
        )
        state = until(ws, "state")
        assert state["seq"] == now["seq"]
        assert state["observation"] == view(client, table_id, tokens[0])["observation"]
        ws.send_json({"type": "resync", "seq": now["seq"] - 1})
        assert [e["seq"] for e in until(ws, "events")["events"]] == [now["seq"]]
        assert until(ws, "state")["seq"] == now["seq"]


def test_chat_reaches_the_table(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[0]}") as a,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        a.send_json({"type": "chat", "text": "olá"})
        line = until(watcher, "chat")
        assert (line["seat"], line["text"]) == (0, "olá")


def test_presence_shows_who_is_connected(client: TestClient) -> None:
    table_id, tokens = backgammon_pair(client)
    assert [s["connected"] for s in view(client, table_id)["seats"]] == [False, False]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[1]}") as ws:
        until(ws, "state")
        assert [s["connected"] for s in view(client, table_id)["seats"]] == [False, True]


def test_log_filter_redacts_tokens_and_seeds() -> None:
    assert (
        redact("GET /ws/tables/x?token=abc123&since=4 HTTP/1.1")
        == "GET /ws/tables/x?token=***&since=4 HTTP/1.1"
    )
    assert redact("Authorization: Bearer s3cr3t") == "Authorization: Bearer ***"
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/ws/tables/abc?token=SECRET&lang=pt", "1.1", 200),
        None,
    )
    assert RedactTokens().filter(record)
    assert "SECRET" not in record.getMessage() and "token=***&lang=pt" in record.getMessage()
