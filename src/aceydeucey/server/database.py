"""Reaching the database: every operation one function of a SQLAlchemy ``Connection``.

An operation (a read in autocommit, or a write in one transaction) runs where the
database is cheapest to reach: PostgreSQL's through the async engine (``asyncpg``, no
thread), SQLite's with the standard library's driver in one thread of its own.  One
thread hop an operation, where an async SQLite driver hops to its thread for every
cursor call (a read cost about 1.1 ms of CPU that way, about 0.2 ms now; docs/scaling.md).
SQLite allows one writer at a time: the one thread also orders this process's writes.
:class:`.store.Store` is built on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from aceydeucey.server.jsontext import dumps, loads
from aceydeucey.server.schema import MIGRATIONS

__all__ = ["Database", "Work"]

T = TypeVar("T")
#: One operation: what it does with a connection, and its answer.
Work = Callable[[sa.Connection], T]


class Database:
    """A database URL's engine: ``read`` and ``write`` run an operation on it."""

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        parsed = make_url(url)
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        #: SQLite's engine (the standard library's driver) and the one thread it runs in
        self._sqlite: sa.Engine | None = None
        self._thread: ThreadPoolExecutor | None = None
        #: PostgreSQL's engine, and the same pool for reads in autocommit: one round trip
        #: per query (no BEGIN before it and no ROLLBACK when it goes back to the pool)
        self._engine: AsyncEngine | None = None
        self._reader: AsyncEngine | None = None
        if self.is_sqlite:  # sqlite+aiosqlite:// (earlier releases' URLs) names the same file
            self._sqlite = sa.create_engine(
                parsed.set(drivername="sqlite"),
                connect_args={"timeout": 30, "check_same_thread": False},
                json_serializer=dumps,
                json_deserializer=loads,
            )
            sa.event.listen(self._sqlite, "connect", _sqlite_pragmas)
        else:
            kwargs: dict[str, Any] = {}
            # a crowd's sockets load tables and seats at once: the default pool (5 + 10)
            # queued them behind each other and the writer, up to its 30 s timeout
            kwargs.update(pool_size=15, max_overflow=10, pool_timeout=10)
            if schema:
                kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
            self._engine = create_async_engine(
                url, json_serializer=dumps, json_deserializer=loads, **kwargs
            )
            self._reader = self._engine.execution_options(isolation_level="AUTOCOMMIT")

    async def read(self, work: Work[T]) -> T:
        """``work``'s answer, run on a connection in autocommit."""
        if self._sqlite is not None:
            return await self._in_thread(_read_with, work)
        assert self._reader is not None
        async with self._reader.connect() as conn:
            return await conn.run_sync(work)

    async def write(self, work: Work[T]) -> T:
        """``work``'s answer, run in one transaction (committed on success, rolled back
        on any error)."""
        if self._sqlite is not None:
            return await self._in_thread(_write_with, work)
        assert self._engine is not None
        async with self._engine.begin() as conn:
            return await conn.run_sync(work)

    async def _in_thread(self, run: Callable[[sa.Engine, Work[T]], T], work: Work[T]) -> T:
        assert self._sqlite is not None
        if self._thread is None:  # started on first use, again after ``close``
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="aceydeucey-sqlite")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, run, self._sqlite, work)

    async def ping(self) -> None:
        """A query that needs the database to answer (``/health``)."""
        await self.read(lambda conn: conn.execute(sa.text("SELECT 1")).all())

    async def close(self) -> None:
        if self._engine is not None:
            await self._engine.dispose()
        if self._thread is not None:
            thread, self._thread = self._thread, None
            assert self._sqlite is not None
            await asyncio.get_running_loop().run_in_executor(thread, self._sqlite.dispose)
            thread.shutdown(wait=True)

    async def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic, run in-process)."""
        if self.is_sqlite:
            path = make_url(self.url).database
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        await self.write(_upgrade)


def _read_with(engine: sa.Engine, work: Work[T]) -> T:
    with engine.connect() as conn:
        return work(conn)


def _write_with(engine: sa.Engine, work: Work[T]) -> T:
    with engine.begin() as conn:
        return work(conn)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # WAL with synchronous=NORMAL: a commit survives the process being killed; only a
    # power cut can lose the last commits (never corrupt the file).
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _upgrade(connection: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")
