"""Fixtures for the server tests: one application per test on SQLite or PostgreSQL.

PostgreSQL comes from ``ACEYDEUCEY_TEST_DATABASE_URL`` (default
``postgresql+asyncpg://postgres@127.0.0.1:5432/test``) and Redis from
``ACEYDEUCEY_TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``).  Each test
runs in its own PostgreSQL schema, dropped afterwards.  When a service is missing
these tests fail (they never skip).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from starlette.testclient import TestClient  # noqa: E402

from aceydeucey.server.app import create_app  # noqa: E402
from aceydeucey.server.settings import Settings  # noqa: E402

PG_URL = os.environ.get(
    "ACEYDEUCEY_TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("ACEYDEUCEY_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def _plain_dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


async def _pg(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(_plain_dsn(PG_URL))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped (with everything in it) afterwards."""
    schema = f"test_{secrets.token_hex(6)}"
    asyncio.run(_pg(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        asyncio.run(_pg(f'DROP SCHEMA "{schema}" CASCADE'))


#: The functional tests drive many tables from one address, faster than any person;
#: the rate limits have their own tests (``test_hardening.py``), which turn them on.
QUIET = {"rate_limits": False}


#: Every server test runs on both stores; the fast lane (``-m "not slow"``) on SQLite alone.
@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def settings_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[Callable[..., Settings]]:
    """Settings for this test's store (the same store on every call: restart tests)."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'tables.sqlite3'}"

        def make(**overrides: Any) -> Settings:
            return Settings(database_url=url, **{**QUIET, **overrides})

        yield make
    else:
        with pg_schema() as schema:

            def make(**overrides: Any) -> Settings:
                return Settings(
                    database_url=PG_URL, database_schema=schema, **{**QUIET, **overrides}
                )

            yield make


@pytest.fixture
def client(settings_factory: Callable[..., Settings]) -> Iterator[TestClient]:
    with TestClient(create_app(settings_factory())) as c:
        yield c


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_table(c: TestClient, game: str, seats: list[str], **body: Any) -> str:
    r = c.post("/api/tables", json={"game": game, "seats": seats, **body})
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    return table_id


def seat(c: TestClient, table_id: str, index: int, name: str = "") -> str:
    r = c.post(f"/api/tables/{table_id}/seats/{index}", json={"name": name or f"p{index}"})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def view(c: TestClient, table_id: str, token: str | None = None) -> dict[str, Any]:
    r = c.get(f"/api/tables/{table_id}", headers=bearer(token) if token else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def settle(c: TestClient, table_id: str, tries: int = 600) -> dict[str, Any]:
    """The table's view once no automatic step (chance, bot) is pending.

    A bounded wait, not a timing assertion: the loop ends as soon as a person must
    act or the game is over.
    """
    for _ in range(tries):
        v = view(c, table_id)
        if v["status"] != "playing" or v["to_act"] is not None:
            return v
        time.sleep(0.02)
    raise AssertionError(f"table {table_id} never waited for a person: {v}")


def ready_to_move(c: TestClient, table_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Settle, throwing the dice for whoever must throw them, until a person must decide."""
    v = settle(c, table_id)
    while v["status"] == "playing" and v["to_roll"] is not None and v["to_roll"] == v["to_act"]:
        who = v["to_act"]
        r = c.post(
            f"/api/tables/{table_id}/actions",
            json={"action": "roll", "seq": v["seq"]},
            headers=bearer(tokens[who]),
        )
        assert r.status_code == 200, r.text
        v = settle(c, table_id)
    return v


def play_turn(
    c: TestClient, table_id: str, tokens: dict[int, str], pick: Callable[..., str]
) -> bool:
    """One person's step (a roll when the throw is theirs); False once the game is over."""
    v = settle(c, table_id)
    if v["status"] == "over":
        return False
    who = v["to_act"]
    mine = view(c, table_id, tokens[who])
    action = "roll" if v["to_roll"] == who else pick(mine["observation"]["legal_actions"])
    r = c.post(
        f"/api/tables/{table_id}/actions",
        json={"action": action, "seq": mine["seq"]},
        headers=bearer(tokens[who]),
    )
    assert r.status_code == 200, r.text
    return True
