"""The socket protocol's conveniences for clients: an act's id echoed in its answer, a
person's throw offered as an action, one message per audience for a whole step
(serialised once, shared by every spectator), the turn clock on every socket, and
``serve`` honouring ``ACEYDEUCEY_BOT_DELAY``."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from aceydeucey.server.pubsub import Subscriber

from .conftest import bearer, new_table, ready_to_move, seat, settle, view
from .test_websocket import until


def test_an_http_acts_id_comes_back_with_its_answer_and_with_its_refusal(
    client: TestClient,
) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
    url = f"/api/tables/{table_id}/actions"
    stale = client.post(
        url,
        json={"seq": v["seq"] - 1, "action": legal[0], "id": "h-1"},
        headers=bearer(tokens[who]),
    )
    assert stale.status_code == 409
    assert stale.json()["id"] == "h-1" and stale.json()["error"]["code"] == "server.seq_stale"
    done = client.post(
        url, json={"seq": v["seq"], "action": legal[0], "id": 42}, headers=bearer(tokens[who])
    )
    assert done.status_code == 200 and done.json()["id"] == 42
    assert done.json()["seq"] > v["seq"]
    again = client.post(
        url, json={"seq": v["seq"], "action": legal[0], "id": 43}, headers=bearer(tokens[who])
    )
    assert again.json()["id"] == 43 and again.json()["duplicate"] is True
    plain = client.post(url, json={"seq": 0, "action": "x"}, headers=bearer(tokens[who]))
    assert "id" not in plain.json()  # no id given, none answered
    long_id = client.post(
        url, json={"seq": 0, "action": "x", "id": "x" * 65}, headers=bearer(tokens[who])
    )
    assert long_id.status_code == 400


def test_an_acts_id_comes_back_with_its_ack_and_with_its_refusal(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[who]}") as ws:
        until(ws, "state")
        ws.send_json({"type": "act", "seq": v["seq"] - 1, "action": legal[0], "id": "stale-1"})
        refused = until(ws, "error")
        assert refused["id"] == "stale-1" and refused["error"]["code"] == "server.seq_stale"
        assert refused["seq"] == v["seq"]  # the table's seq, to act on at once
        ws.send_json({"type": "act", "seq": v["seq"], "action": legal[0], "id": 17})
        ack = until(ws, "ack")
        assert ack["id"] == 17 and ack["seq"] > v["seq"] and ack["duplicate"] is False
        ws.send_json({"type": "act", "seq": v["seq"], "action": legal[0], "id": {"x": 1}})
        assert until(ws, "error")["error"]["code"] == "server.bad_message"
        ws.send_json({"type": "ping"})
        assert "id" not in until(ws, "pong")


def test_a_persons_throw_is_offered_as_their_only_action(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "human"])
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    for _ in range(20):
        v = settle(client, table_id)
        who = v["to_roll"]
        if who is not None:
            break
        mine = view(client, table_id, tokens[v["to_act"]])
        r = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": mine["observation"]["legal_actions"][0], "seq": mine["seq"]},
            headers=bearer(tokens[v["to_act"]]),
        )
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("no person ever had to throw")
    assert view(client, table_id, tokens[who])["observation"]["legal_actions"] == ["roll"]
    assert view(client, table_id, tokens[1 - who])["observation"]["legal_actions"] == []
    assert view(client, table_id)["observation"]["legal_actions"] == []
    with client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[who]}") as ws:
        assert until(ws, "state")["observation"]["legal_actions"] == ["roll"]
        ws.send_json({"type": "act", "seq": v["seq"], "action": "roll", "id": "r"})
        assert until(ws, "ack", id="r")["seq"] > v["seq"]


def test_a_step_is_one_message_per_audience_serialised_once(client: TestClient) -> None:
    # one person against two bots: the person's action, the third card, the bots' turns
    # and their cards are one step, up to the person's next decision
    service = client.app.state.service  # type: ignore[attr-defined]
    spectators = [Subscriber(None, "en"), Subscriber(None, "en")]
    for _ in range(20):  # a table where the bots did not end the game before the person
        table_id = new_table(
            client, "inbetween", ["human", "bot:ev", "bot:ev"], options={"players": 3}
        )
        for sub in spectators:
            service.hub.join(table_id, sub)
        token = seat(client, table_id, 0)
        v = settle(client, table_id)
        if v["status"] == "playing":
            break
        for sub in spectators:
            service.hub.leave(table_id, sub)
    legal = view(client, table_id, token)["observation"]["legal_actions"]
    action = "pass" if "pass" in legal else legal[0]
    for sub in spectators:  # what the table's start pushed
        while not sub.queue.empty():
            sub.queue.get_nowait()
    with client.websocket_connect(f"/ws/tables/{table_id}?token={token}") as ws:
        hello = until(ws, "state")
        assert hello["seq"] == v["seq"]
        ws.send_json({"type": "act", "seq": v["seq"], "action": action, "id": "p"})
        step = ws.receive_json()
        assert step["type"] == "state", step
        ack = until(ws, "ack", id="p")
        after = view(client, table_id)
    assert step["seq"] == ack["seq"] == after["seq"]
    assert after["seq"] > v["seq"] + 1  # several entries: the action and what followed it
    assert [e["seq"] for e in step["events"]] == list(range(v["seq"] + 1, after["seq"] + 1))
    assert step["event"] == step["events"][-1]
    assert step["events"][0]["kind"] == "move" and step["events"][0]["action"] == action
    received = [drained(sub) for sub in spectators]
    states = [
        [m for m in got if isinstance(m, str) or m.get("type") == "state"] for got in received
    ]
    assert [len(s) for s in states] == [1, 1]  # one state message for the whole step
    first, second = states[0][0], states[1][0]
    assert isinstance(first, str) and first is second  # one text for every spectator
    public = json.loads(first)
    assert public["seq"] == after["seq"] and public["you"] is None
    assert [e["seq"] for e in public["events"]] == [e["seq"] for e in step["events"]]
    for sub in spectators:
        service.hub.leave(table_id, sub)


def drained(sub: Subscriber) -> list[Any]:
    out = []
    while not sub.queue.empty():
        out.append(sub.queue.get_nowait())
    return out


@pytest.mark.parametrize(
    ("env", "args", "expected"),
    [("0.25", [], 0.25), ("0.25", ["--bot-delay", "1.5"], 1.5), (None, [], 0.6)],
)
def test_serve_takes_the_bot_delay_from_the_environment(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    env: str | None,
    args: list[str],
    expected: float,
) -> None:
    import uvicorn

    from aceydeucey.cli.app import app

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.update(k))
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'tables.sqlite3'}")
    monkeypatch.delenv("REDIS_URL", raising=False)
    if env is None:
        monkeypatch.delenv("ACEYDEUCEY_BOT_DELAY", raising=False)
    else:
        monkeypatch.setenv("ACEYDEUCEY_BOT_DELAY", env)
    for name in ("DATABASE_URL", "ACEYDEUCEY_MIGRATE", "ACEYDEUCEY_BOT_DELAY"):
        monkeypatch.setenv(name, os.environ.get(name, ""))  # restored after the test
    if env is None:
        monkeypatch.delenv("ACEYDEUCEY_BOT_DELAY")
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 0, result.output
    assert started["factory"] is True
    assert float(os.environ["ACEYDEUCEY_BOT_DELAY"]) == expected


def test_an_idle_table_leaves_memory_and_comes_back_the_same(client: TestClient) -> None:
    table_id = new_table(client, "backgammon", ["human", "bot:greedy"])
    token = seat(client, table_id, 0)
    before = ready_to_move(client, table_id, {0: token})
    mine = view(client, table_id, token)
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        until(ws, "state")
        assert table_id not in service.evict_idle(0.0)  # a socket holds it
    for _ in range(200):  # once the socket's close has been handled
        if table_id in service.evict_idle(0.0):
            break
        time.sleep(0.02)
    assert table_id not in service._tables
    assert view(client, table_id) == before  # rebuilt from the store on first touch
    assert view(client, table_id, token) == mine
    legal = mine["observation"]["legal_actions"]
    r = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": legal[0], "seq": mine["seq"]},
        headers=bearer(token),
    )
    assert r.status_code == 200, r.text


def test_every_socket_of_a_table_gets_the_clock_after_the_step(client: TestClient) -> None:
    """The turn timer is set after a step's state goes out; the ``clock`` that follows
    reaches every socket of the table, the spectators' included, in order after it."""
    table_id = new_table(client, "backgammon", ["human", "human"], turn_seconds=90)
    tokens = {0: seat(client, table_id, 0), 1: seat(client, table_id, 1)}
    v = ready_to_move(client, table_id, tokens)
    who = v["to_act"]
    legal = view(client, table_id, tokens[who])["observation"]["legal_actions"]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?token={tokens[who]}") as mine,
        client.websocket_connect(f"/ws/tables/{table_id}") as watcher,
    ):
        until(mine, "state")
        until(watcher, "state")
        before = time.time()
        r = client.post(
            f"/api/tables/{table_id}/actions",
            json={"action": legal[0], "seq": v["seq"]},
            headers=bearer(tokens[who]),
        )
        assert r.status_code == 200, r.text
        after = r.json()
        for ws in (mine, watcher):
            state = until(ws, "state", seq=after["seq"])
            clock = until(ws, "clock", seq=after["seq"])
            assert clock["seat"] == after["to_act"] == state["to_act"]
            assert clock["deadline"] == after["deadline"]
            assert clock["deadline"] >= before + 89 and clock["now"] >= before
