"""The SQLite store: every operation whole in the store's one thread, with the standard
library's driver; URLs of earlier releases (``sqlite+aiosqlite://``) name the same file."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from aceydeucey.cli.app import app
from aceydeucey.server.settings import normalize_database_url
from aceydeucey.server.store import Entry, SeqTaken, Store, tables
from tests.server.test_group_commits import row


async def fresh(path: Path) -> Store:
    store = Store(f"sqlite:///{path}")
    await store.migrate()
    return store


def test_both_spellings_of_a_sqlite_url_are_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"

    async def scenario() -> None:
        old = Store(f"sqlite+aiosqlite:///{path}")
        await old.migrate()
        await old.create_table(row("t1"))
        await old.append_step("t1", [Entry(1, "move", 0, "pass", None, 1.0)], over=False)
        await old.close()
        new = Store(normalize_database_url(f"sqlite+aiosqlite:///{path}"))
        assert new.url == f"sqlite:///{path}"
        found = await new.load_table("t1")
        assert found is not None and found["status"] == "playing"
        assert [e.text for e in await new.entries("t1")] == ["pass"]
        await new.close()

    asyncio.run(scenario())


def test_every_operation_runs_in_the_stores_own_thread(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await fresh(tmp_path / "tables.sqlite3")
        names = await asyncio.gather(
            *(store.read(lambda _conn: threading.current_thread().name) for _ in range(5)),
            store.write(lambda _conn: threading.current_thread().name),
        )
        assert len(set(names)) == 1
        assert names[0].startswith("aceydeucey-sqlite")
        assert threading.current_thread().name not in names
        await store.close()

    asyncio.run(scenario())


def test_a_write_that_fails_commits_nothing_and_the_key_still_refuses(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await fresh(tmp_path / "tables.sqlite3")
        await store.create_table(row("t1"))

        def half_then_fail(conn: sa.Connection) -> None:
            conn.execute(tables.insert().values(**row("t2")))
            raise RuntimeError("stop")

        with pytest.raises(RuntimeError):
            await store.write(half_then_fail)
        assert await store.load_table("t2") is None  # rolled back
        entries = [Entry(1, "move", 0, "pass", None, 1.0)]
        await store.append_step("t1", entries, over=False)
        with pytest.raises(SeqTaken):
            await store.append_step("t1", entries, over=False)
        assert len(await store.entries("t1")) == 1
        await store.close()

    asyncio.run(scenario())


def test_a_closed_store_opens_again_on_its_next_operation(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await fresh(tmp_path / "tables.sqlite3")
        await store.close()
        await store.close()  # twice is harmless (an app's lifespan may end twice)
        await store.create_table(row("t1"))
        assert (await store.load_table("t1")) is not None
        await store.ping()
        await store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize(("flags", "deflate"), [([], False), (["--ws-deflate"], True)])
def test_serve_sends_websocket_messages_uncompressed_unless_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, flags: list[str], deflate: bool
) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: seen.update(kwargs))
    monkeypatch.delenv("ACEYDEUCEY_WS_DEFLATE", raising=False)
    for name in (
        "DATABASE_URL",
        "ACEYDEUCEY_MIGRATE",
        "ACEYDEUCEY_BOT_DELAY",
        "ACEYDEUCEY_BOT_PROCESSES",
    ):
        monkeypatch.setenv(name, "")  # serve sets these for its workers: restored after
    monkeypatch.delenv("DATABASE_URL")
    database = f"sqlite:///{tmp_path / 'tables.sqlite3'}"
    result = CliRunner().invoke(app, ["serve", "--database", database, *flags, "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert seen["ws_per_message_deflate"] is deflate
