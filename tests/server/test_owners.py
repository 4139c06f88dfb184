"""One owner per table, as real processes: two servers on PostgreSQL and Redis.

A table is owned by the process that created it: commands sent to the other process
are forwarded to the owner and applied once, by the owner; bots move once per turn
(no process loses a race for a bot's step); and when the owner is SIGKILLed, the
other process takes the lease after it expires and the table resumes at its last
acknowledged action, nothing lost or applied twice.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import PG_URL, REDIS_URL, pg_schema
from .test_kills import GAMES, next_move, play_to_end, seat_people, send
from .test_processes import free_port, receive_until, uvicorn

LEASE = "5"  # short enough for a takeover test, long enough for a loaded machine


def env_for(schema: str) -> dict[str, str]:
    return {
        "DATABASE_URL": PG_URL,
        "ACEYDEUCEY_DATABASE_SCHEMA": schema,
        "REDIS_URL": REDIS_URL,
        "ACEYDEUCEY_LEASE_SECONDS": LEASE,
        "ACEYDEUCEY_BOT_DELAY": "0",
        "ACEYDEUCEY_RATE_LIMITS": "0",
    }


def tables_of(base: str) -> dict[str, int]:
    health: dict[str, Any] = httpx.get(f"{base}/health").json()
    tables: dict[str, int] = health["tables"]
    return tables


def log_of(proc: Any) -> str:
    text: str = proc.stdout.read().decode() if proc.stdout else ""
    return text


@pytest.mark.slow
def test_commands_sent_to_the_other_process_are_applied_once_by_the_owner() -> None:
    with pg_schema() as schema:
        env = env_for(schema)
        pa, pb = free_port(), free_port()
        with (
            uvicorn(pa, env) as (a, proc_a),
            uvicorn(pb, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (b, proc_b),
        ):
            body = {"game": "backgammon", "seats": ["human", "human"]}
            table_id = httpx.post(f"{a}/api/tables", json=body).json()["id"]
            # seats taken through B: forwarded to A, which owns the table
            tokens = {
                s: httpx.post(
                    f"{b}/api/tables/{table_id}/seats/{s}", json={"name": f"p{s}"}
                ).json()["token"]
                for s in (0, 1)
            }
            with connect(f"ws://127.0.0.1:{pa}/ws/tables/{table_id}") as on_a:
                receive_until(on_a, 0)
                for _ in range(6):
                    move = next_move(b, table_id, tokens)
                    assert move is not None
                    who, seq, action = move
                    r = send(b, table_id, tokens[who], seq, action)
                    assert r.status_code == 200, r.text
                    assert r.json()["seq"] >= seq + 1
                    # the owner's socket sees it: A applied it
                    assert receive_until(on_a, r.json()["seq"])["seq"] >= seq + 1
                    again = send(b, table_id, tokens[who], seq, action)  # a retry: once
                    assert again.status_code == 200 and again.json()["duplicate"] is True
                # an illegal action sent to B is refused as A refuses it
                bad = send(b, table_id, tokens[0], 0, "25/1")
                assert bad.status_code in (400, 403, 409) and "error" in bad.json()
            assert tables_of(a)["owned"] >= 1
            assert tables_of(b)["owned"] == 0 and tables_of(b)["held"] >= 1
            events = httpx.get(f"{a}/api/tables/{table_id}/events").json()["events"]
            assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
            assert httpx.get(f"{b}/api/tables/{table_id}/events").json()["events"] == events
        for proc in (proc_a, proc_b):
            assert "step_refused" not in log_of(proc)


@pytest.mark.slow
def test_bots_move_exactly_once_per_turn_with_two_processes() -> None:
    with pg_schema() as schema:
        # bots paced (a bot delay): their moves run in the background, on the owner only
        env = {**env_for(schema), "ACEYDEUCEY_BOT_DELAY": "0.05"}
        pa, pb = free_port(), free_port()
        with (
            uvicorn(pa, env) as (a, proc_a),
            uvicorn(pb, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (b, proc_b),
        ):
            played = []
            for i, body in enumerate(GAMES):
                table_id, tokens = seat_people(a if i % 2 else b, body)
                # people act alternately through both processes: both hold the table
                for turn in range(3000):
                    base = (a, b)[turn % 2]
                    move = next_move(base, table_id, tokens)
                    if move is None:
                        break
                    who, seq, action = move
                    assert send(base, table_id, tokens[who], seq, action).status_code == 200
                played.append(play_to_end(a, table_id, tokens))
        for proc in (proc_a, proc_b):
            assert "step_refused" not in log_of(proc)  # no bot step lost a race
        for record in played:
            assert record["result"] is not None


@pytest.mark.slow
def test_the_owner_killed_the_other_takes_the_lease_and_the_table_resumes() -> None:
    with pg_schema() as schema:
        env = env_for(schema)
        pa, pb = free_port(), free_port()
        with uvicorn(pb, env) as (b, _):
            with uvicorn(pa, {**env, "ACEYDEUCEY_MIGRATE": "0"}) as (a, proc_a):
                tables = [seat_people(a, body) for body in GAMES]
                acknowledged = {}
                for table_id, tokens in tables:
                    move = next_move(a, table_id, tokens)
                    if move is not None:
                        r = send(a, table_id, tokens[move[0]], move[1], move[2])
                        assert r.status_code == 200, r.text
                    acknowledged[table_id] = httpx.get(f"{a}/api/tables/{table_id}/events").json()[
                        "events"
                    ]
                assert tables_of(b)["owned"] == 0
                proc_a.kill()
                proc_a.wait()
            took = 0
            for table_id, tokens in tables:
                move = next_move(b, table_id, tokens)
                events = httpx.get(f"{b}/api/tables/{table_id}/events").json()["events"]
                assert events[: len(acknowledged[table_id])] == acknowledged[table_id]
                if move is None:
                    continue
                who, seq, action = move
                r = send(b, table_id, tokens[who], seq, action)  # B waits out A's lease
                assert r.status_code == 200, r.text
                if httpx.get(f"{b}/api/tables/{table_id}").json()["status"] != "over":
                    assert tables_of(b)["owned"] >= 1  # B took the lease (finished tables
                    took += 1  # leave memory, so it is looked at while the game runs)
                again = send(b, table_id, tokens[who], seq, action)
                assert again.status_code == 200 and again.json()["duplicate"] is True
                after = httpx.get(f"{b}/api/tables/{table_id}/events").json()["events"]
                assert sum(1 for e in after if e["seq"] == seq + 1) == 1
                play_to_end(b, table_id, tokens)
            assert took >= 1
