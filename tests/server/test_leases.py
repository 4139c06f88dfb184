"""Table leases in the store: one owner at a time, renewed, taken over after expiry.

The lease decides which process owns a table (``owners.py``); these check its rules
directly on both stores, with an explicit clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aceydeucey.server.owners import LeaseOwners
from aceydeucey.server.store import Store

from .conftest import PG_URL, pg_schema
from .test_group_commits import row


@pytest.fixture(params=["sqlite", "postgresql"])
def store_args(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, Any]]:
    if request.param == "sqlite":
        yield {"url": f"sqlite+aiosqlite:///{tmp_path / 'tables.sqlite3'}"}
    else:
        with pg_schema() as schema:
            yield {"url": PG_URL, "schema": schema}


async def scenario(url: str, schema: str | None) -> None:
    store = Store(url, schema=schema)
    await store.migrate()
    now = [1000.0]
    lost: list[str] = []
    a = LeaseOwners("a", store, 10.0, clock=lambda: now[0], on_lost=lost.append)
    b = LeaseOwners("b", store, 10.0, clock=lambda: now[0])
    try:
        for table_id in ("t1", "t2", "t3"):
            await store.create_table(row(table_id))
        # playing tables nobody ever owned: found only when asked for unleased ones
        assert await b.orphans() == []
        assert sorted(await b.orphans(unleased=True)) == ["t1", "t2", "t3"]

        assert await a.owner("t1") == ("a", 1010.0)  # free: taken
        assert await b.owner("t1") == ("a", 1010.0)  # held: b learns who holds it
        assert a.owns("t1") and not b.owns("t1")
        assert await a.owner("t2") == ("a", 1010.0)
        now[0] = 1008.0
        await a.renew()  # renewed: b cannot take it at 1015
        now[0] = 1015.0
        b.forget("t1")
        assert await b.owner("t1") == ("a", 1018.0)
        assert await b.orphans() == []

        now[0] = 1030.0  # a stopped renewing (it died): both leases expired
        assert not a.owns("t1")
        assert sorted(await b.orphans()) == ["t1", "t2"]
        b.forget("t1")
        assert await b.owner("t1") == ("b", 1040.0)  # taken over
        assert b.owns("t1")
        await a.renew()  # a wakes up: t1 is gone, t2 still its own
        assert lost == ["t1"] and not a.owns("t1") and a.owns("t2")

        await b.release("t1")  # let go of (idle): not an orphan, and free to take
        assert "t1" not in await a.orphans()
        assert await a.owner("t1") == ("a", 1040.0)
    finally:
        await a.stop()
        await b.stop()
        await store.close()


def test_one_owner_at_a_time_renewed_and_taken_over_after_expiry(
    store_args: dict[str, Any],
) -> None:
    asyncio.run(scenario(store_args["url"], store_args.get("schema")))
