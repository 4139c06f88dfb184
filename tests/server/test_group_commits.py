"""Group commits: the steps of several tables written in one transaction.

Steps that arrive while a commit is in flight are written together; each caller's
``append_step`` returns only once its step is committed (another connection reads
it); the ``(table_id, seq)`` key still refuses a second writer, and a batch holding
one such step still commits every other step of the batch.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aceydeucey.server.store import Entry, SeqTaken, Store

from .conftest import PG_URL, pg_schema


@pytest.fixture(params=["sqlite", "postgresql"])
def store_args(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    if request.param == "sqlite":
        yield {"url": f"sqlite+aiosqlite:///{tmp_path / 'tables.sqlite3'}"}
    else:
        with pg_schema() as schema:
            yield {"url": PG_URL, "schema": schema}


def row(table_id: str) -> dict[str, Any]:
    return {
        "id": table_id,
        "game": "backgammon",
        "options": {},
        "rules": {},
        "seat_kinds": [],
        "public": True,
        "config": {},
        "server_seed": "00",
        "commitment": "00",
        "cut": None,
        "status": "playing",
        "rematch_of": None,
        "rematch": None,
        "created_at": time.time(),
    }


def step(seq: int, n: int = 2) -> list[Entry]:
    return [Entry(seq + i, "chance", None, f"{seq + i}", None, 1.0) for i in range(n)]


async def scenario(url: str, schema: str | None) -> None:
    store = Store(url, schema=schema)
    reader = Store(url, schema=schema, group_commits=False)
    await store.migrate()
    ids = [f"group-{i}" for i in range(30)]
    try:
        for table_id in ids:
            await store.create_table(row(table_id))

        async def play(table_id: str) -> None:
            for seq in (1, 3, 5):
                await store.append_step(table_id, step(seq), over=seq == 5)
                # acknowledged only once committed: another connection reads it
                assert [e.seq for e in await reader.entries(table_id)][-1] == seq + 1

        await asyncio.gather(*(play(t) for t in ids))
        assert store.steps == 90
        assert store.batches < store.steps  # several tables' steps per transaction
        for table_id in ids:
            assert [e.seq for e in await reader.entries(table_id)] == list(range(1, 7))
            loaded = await reader.load_table(table_id)
            assert loaded is not None and loaded["status"] == "over"

        # one step of a batch loses its race: it alone fails; the others commit
        async def append(table_id: str, seq: int) -> str:
            try:
                await store.append_step(table_id, step(seq, 1), over=False)
            except SeqTaken:
                return "taken"
            return "ok"

        answers = await asyncio.gather(append(ids[0], 6), *(append(t, 7) for t in ids[1:10]))
        assert answers == ["taken"] + ["ok"] * 9
        assert [e.seq for e in await reader.entries(ids[0])] == list(range(1, 7))
        for table_id in ids[1:10]:
            assert [e.seq for e in await reader.entries(table_id)] == list(range(1, 8))
    finally:
        await store.close()
        await reader.close()


@pytest.mark.slow
def test_steps_of_many_tables_commit_together_and_each_only_once(
    store_args: dict[str, Any],
) -> None:
    asyncio.run(scenario(store_args["url"], store_args.get("schema")))
