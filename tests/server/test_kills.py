"""Faults as real processes: a server killed (SIGKILL) mid-game, in each of the three
games, and restarted; and one of two processes sharing tables through Redis killed.

Every table resumes at its last acknowledged action: the log up to it is the same after
the restart, an action in flight when the server died is applied at most once (its
retry answers once), and the game plays on to its end with a record that replays.
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from aceydeucey.core.registry import load_game

from .conftest import PG_URL, REDIS_URL, pg_schema
from .test_processes import bearer, free_port, receive_until, server, settle, uvicorn

GAMES: list[dict[str, Any]] = [
    {
        "game": "inbetween",
        "options": {"players": 3, "rounds": 2},
        "seats": ["human", "human", "bot:ev"],
    },
    {"game": "backgammon", "seats": ["human", "bot:greedy"]},
    {
        "game": "aces-in-the-pot",
        "options": {"players": 3},
        "seats": ["human", "bot:random", "bot:random"],
    },
]


def next_move(base: str, table_id: str, tokens: dict[int, str]) -> tuple[int, int, str] | None:
    """(seat, seq, action) of the next person's move, or None once the game is over."""
    v = settle(base, table_id)
    if v["status"] == "over":
        return None
    who = v["to_act"]
    mine = httpx.get(f"{base}/api/tables/{table_id}", headers=bearer(tokens[who])).json()
    legal = mine["observation"]["legal_actions"]
    return who, mine["seq"], ("pass" if "pass" in legal else legal[0])


def send(base: str, table_id: str, token: str, seq: int, action: str) -> httpx.Response:
    return httpx.post(
        f"{base}/api/tables/{table_id}/actions",
        json={"action": action, "seq": seq},
        headers=bearer(token),
        timeout=30,
    )


def seat_people(base: str, body: dict[str, Any]) -> tuple[str, dict[int, str]]:
    r = httpx.post(f"{base}/api/tables", json=body)
    assert r.status_code == 201, r.text
    table_id = r.json()["id"]
    tokens = {}
    for s, kind in enumerate(body["seats"]):
        if kind == "human":
            tokens[s] = httpx.post(
                f"{base}/api/tables/{table_id}/seats/{s}", json={"name": f"p{s}"}
            ).json()["token"]
    return table_id, tokens


def play_to_end(base: str, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    for _ in range(3000):
        move = next_move(base, table_id, tokens)
        if move is None:
            break
        who, seq, action = move
        assert send(base, table_id, tokens[who], seq, action).status_code == 200
    record: dict[str, Any] = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    game = load_game(record["game"], **record["rules"])
    state = game.new_initial_state()
    for action in record["actions"]:
        state = state.apply(action)
    assert state.is_terminal()
    return record


def kill_in_flight(
    base: str, proc: Any, table_id: str, tokens: dict[int, str]
) -> tuple[int, int, str]:
    """Send the next move and SIGKILL the server while it may be in flight."""
    move = next_move(base, table_id, tokens)
    assert move is not None
    who, seq, action = move
    thread = threading.Thread(
        target=lambda: _quietly(lambda: send(base, table_id, tokens[who], seq, action))
    )
    thread.start()
    proc.kill()
    proc.wait()
    thread.join()
    return who, seq, action


def _quietly(call: Any) -> None:
    with contextlib.suppress(httpx.HTTPError):
        call()


@pytest.mark.slow
@pytest.mark.parametrize("body", GAMES, ids=[g["game"] for g in GAMES])
def test_a_killed_server_resumes_every_table_at_its_last_acknowledged_action(
    tmp_path: Path, body: dict[str, Any]
) -> None:
    port = free_port()
    db = f"sqlite+aiosqlite:///{tmp_path / 'serve.sqlite3'}"
    args = ["-m", "aceydeucey", "serve", "--port", str(port), "--database", db, "--bot-delay", "0"]
    with server(args, {"REDIS_URL": ""}, port) as (base, proc):
        for _ in range(10):  # a table still playing after three acknowledged moves
            table_id, tokens = seat_people(base, body)
            acknowledged = 0
            for _ in range(3):
                move = next_move(base, table_id, tokens)
                if move is None:
                    break
                who, seq, action = move
                r = send(base, table_id, tokens[who], seq, action)
                assert r.status_code == 200, r.text
                acknowledged = r.json()["seq"]
            if acknowledged and next_move(base, table_id, tokens) is not None:
                break
        before = httpx.get(f"{base}/api/tables/{table_id}/events").json()["events"]
        who, seq, action = kill_in_flight(base, proc, table_id, tokens)
    with server(args, {"REDIS_URL": ""}, port) as (base, proc):
        after = httpx.get(f"{base}/api/tables/{table_id}/events").json()["events"]
        assert after[: len(before)] == before  # nothing acknowledged was lost
        assert after[acknowledged - 1]["seq"] == acknowledged
        # the move in flight: applied at most once; its retry answers once
        r = send(base, table_id, tokens[who], seq, action)
        assert r.status_code == 200, r.text
        again = send(base, table_id, tokens[who], seq, action)
        assert again.status_code == 200 and again.json()["duplicate"] is True
        events = httpx.get(f"{base}/api/tables/{table_id}/events").json()["events"]
        applied = [e for e in events if e["seq"] == seq + 1]
        assert len(applied) == 1 and applied[0]["seat"] == who  # a move, or a person's throw
        assert applied[0]["kind"] in ("move", "chance")
        play_to_end(base, table_id, tokens)


@pytest.mark.slow
def test_one_of_two_processes_killed_the_other_plays_on() -> None:
    with pg_schema() as schema:
        env = {"DATABASE_URL": PG_URL, "ACEYDEUCEY_DATABASE_SCHEMA": schema, "REDIS_URL": REDIS_URL}
        pa, pb = free_port(), free_port()
        with uvicorn(pb, env) as (b, _):
            with uvicorn(pa, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (a, proc_a):
                tables = [seat_people(a, body) for body in GAMES]
                for table_id, tokens in tables:
                    move = next_move(a, table_id, tokens)
                    if move is not None:  # (bots may have ended it already)
                        assert (
                            send(a, table_id, tokens[move[0]], move[1], move[2]).status_code == 200
                        )
                seen = {
                    t: httpx.get(f"{a}/api/tables/{t}/events").json()["events"] for t, _ in tables
                }
                proc_a.kill()
                proc_a.wait()
            for table_id, tokens in tables:
                events = httpx.get(f"{b}/api/tables/{table_id}/events").json()["events"]
                assert events[: len(seen[table_id])] == seen[table_id]
                play_to_end(b, table_id, tokens)


@pytest.mark.slow
def test_with_redis_down_processes_start_and_sockets_still_see_every_move() -> None:
    dead_redis = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    with pg_schema() as schema:
        env = {
            "DATABASE_URL": PG_URL,
            "ACEYDEUCEY_DATABASE_SCHEMA": schema,
            "REDIS_URL": dead_redis,
        }
        pa, pb = free_port(), free_port()
        with uvicorn(pa, env) as (a, _), uvicorn(pb, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (_b, _):
            table_id, tokens = seat_people(a, {"game": "backgammon", "seats": ["human", "human"]})
            with connect(f"ws://127.0.0.1:{pb}/ws/tables/{table_id}") as watcher:
                receive_until(watcher, 0)
                for _ in range(3):
                    move = next_move(a, table_id, tokens)
                    assert move is not None
                    r = send(a, table_id, tokens[move[0]], move[1], move[2])
                    assert r.status_code == 200, r.text
                    # pushed by B, which polls its store while Redis is down: no request to B
                    assert receive_until(watcher, r.json()["seq"])["seq"] >= r.json()["seq"]
