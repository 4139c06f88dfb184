"""Storage: every table's settings, seats and ordered log of actions (SQLAlchemy 2, async).

Schema (created by the Alembic migrations in ``migrations/``, the same on SQLite
and PostgreSQL):

- ``game_tables``: one row per table: game, options, resolved rules, seat kinds,
  visibility, table settings, the secret server seed and its public commitment,
  the cut, status (``waiting``/``playing``/``over``) and the rematch link;
- ``table_seats``: who sits where: nickname and the SHA-256 of the seat's token
  (the token itself is never stored); primary key ``(table_id, seat)``;
- ``table_log``: the truth of a table: entries ``(table_id, seq)``, primary key,
  so two writers can never both append the same sequence number;
- ``table_chat``: the short table chat.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

__all__ = [
    "Entry",
    "Store",
    "chat",
    "log",
    "metadata",
    "seats",
    "tables",
]

metadata = sa.MetaData()

tables = sa.Table(
    "game_tables",
    metadata,
    sa.Column("id", sa.String(40), primary_key=True),
    sa.Column("game", sa.String(40), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seat_kinds", sa.JSON, nullable=False),
    sa.Column("public", sa.Boolean, nullable=False),
    sa.Column("config", sa.JSON, nullable=False),
    sa.Column("server_seed", sa.String(128), nullable=False),
    sa.Column("commitment", sa.String(128), nullable=False),
    sa.Column("cut", sa.String(2100), nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rematch_of", sa.String(40), nullable=True),
    sa.Column("rematch", sa.String(40), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

seats = sa.Table(
    "table_seats",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("joined_at", sa.Float, nullable=False),
)

log = sa.Table(
    "table_log",
    metadata,
    sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("text", sa.String(400), nullable=False),
    sa.Column("data", sa.JSON, nullable=True),
    sa.Column("at", sa.Float, nullable=False),
)

chat = sa.Table(
    "table_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(40), sa.ForeignKey("game_tables.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("text", sa.String(1000), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_table_chat_table", "table_id", "id"),
)

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True)
class Entry:
    """One entry of a table's log.

    ``kind`` is ``chance`` (chance's outcome; ``seat`` is the seat that rolled, or
    ``None`` for a deal), ``move`` (a person's action), ``bot`` (a bot's action for
    its seat), ``timeout`` (the action taken when a seat's turn timer ran out), or a
    table-level event that the engine does not model: ``resign``, ``claim``,
    ``handover`` (a seat handed to a bot).  Engine actions hold their canonical text.
    """

    seq: int
    kind: str
    seat: int | None
    text: str
    data: dict[str, Any] | None = None
    at: float = 0.0

    ENGINE_KINDS = frozenset({"chance", "move", "bot", "timeout"})

    @property
    def is_action(self) -> bool:
        return self.kind in self.ENGINE_KINDS


class SeqTaken(Exception):
    """Another writer appended at this sequence number first."""


class Store:
    """The database: one async engine; every write is one short transaction."""

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = url
        self.schema = schema
        self.is_sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30}
        elif schema:
            kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
        self.engine: AsyncEngine = create_async_engine(url, **kwargs)
        # SQLite has one writer at a time: this process's writers queue here rather than
        # in SQLite's busy handler (which sleeps); other processes still meet busy_timeout.
        self._write_lock: asyncio.Lock | None = None
        if self.is_sqlite:
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            self._write_lock = asyncio.Lock()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction (committed on success, rolled back on any error)."""
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self.engine.begin() as conn:
            yield conn

    async def close(self) -> None:
        await self.engine.dispose()

    # -- migrations -----------------------------------------------------------------------
    async def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic, run in-process)."""
        if self.is_sqlite:
            path = self.url.split(":///", 1)[-1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade)

    # -- tables ---------------------------------------------------------------------------
    async def create_table(self, row: dict[str, Any]) -> None:
        async with self.write() as conn:
            await conn.execute(tables.insert().values(**row))

    async def load_table(self, table_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            found = (await conn.execute(tables.select().where(tables.c.id == table_id))).first()
        return dict(found._mapping) if found is not None else None

    async def update_table(self, table_id: str, **values: Any) -> None:
        async with self.write() as conn:
            await conn.execute(tables.update().where(tables.c.id == table_id).values(**values))

    async def set_rematch(self, table_id: str, rematch_id: str) -> bool:
        """Link a rematch, unless another request linked one first (then False)."""
        async with self.write() as conn:
            done = await conn.execute(
                tables.update()
                .where(tables.c.id == table_id, tables.c.rematch.is_(None))
                .values(rematch=rematch_id)
            )
        return bool(done.rowcount)

    async def table_ids(self, *, status: Sequence[str] | None = None) -> list[str]:
        query = sa.select(tables.c.id).order_by(tables.c.created_at)
        if status is not None:
            query = query.where(tables.c.status.in_(list(status)))
        async with self.engine.connect() as conn:
            return [r[0] for r in await conn.execute(query)]

    async def lobby(self, limit: int = 200) -> list[dict[str, Any]]:
        """Public tables waiting or playing, newest first, each with its taken seats and
        ``last_at``: the time of its last action, seat taken or creation."""
        query = (
            sa.select(
                tables.c.id,
                tables.c.game,
                tables.c.rules,
                tables.c.seat_kinds,
                tables.c.config,
                tables.c.status,
                tables.c.created_at,
            )
            .where(tables.c.public.is_(True), tables.c.status.in_(["waiting", "playing"]))
            .order_by(tables.c.created_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = [dict(r._mapping) for r in await conn.execute(query)]
            ids = [r["id"] for r in rows]
            taken: dict[str, dict[int, str]] = {}
            last: dict[str, float] = {r["id"]: float(r["created_at"]) for r in rows}
            if ids:
                found = await conn.execute(
                    sa.select(
                        seats.c.table_id, seats.c.seat, seats.c.name, seats.c.joined_at
                    ).where(seats.c.table_id.in_(ids))
                )
                for table_id, seat, name, joined_at in found:
                    taken.setdefault(table_id, {})[seat] = name
                    last[table_id] = max(last[table_id], float(joined_at))
                acted = await conn.execute(
                    sa.select(log.c.table_id, sa.func.max(log.c.at))
                    .where(log.c.table_id.in_(ids))
                    .group_by(log.c.table_id)
                )
                for table_id, at in acted:
                    if at is not None:
                        last[table_id] = max(last[table_id], float(at))
        for r in rows:
            r["taken"] = taken.get(r["id"], {})
            r["last_at"] = last[r["id"]]
        return rows

    # -- seats ----------------------------------------------------------------------------
    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Seat a person; False when the seat is taken (the primary key decides)."""
        try:
            async with self.write() as conn:
                await conn.execute(
                    seats.insert().values(
                        table_id=table_id,
                        seat=seat,
                        name=name,
                        token_hash=token_hash,
                        joined_at=time.time(),
                    )
                )
        except IntegrityError:
            return False
        return True

    async def load_seats(self, table_id: str) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(seats.select().where(seats.c.table_id == table_id))
            return [dict(r._mapping) for r in rows]

    # -- the log --------------------------------------------------------------------------
    async def append(self, table_id: str, entry: Entry, conn: AsyncConnection) -> None:
        """Append ``entry`` inside the caller's transaction.

        A sequence number already used raises ``IntegrityError`` (the primary key): the
        caller's transaction rolls back and ``TableService`` reports ``SeqTaken``.
        """
        await conn.execute(
            log.insert().values(
                table_id=table_id,
                seq=entry.seq,
                kind=entry.kind,
                seat=entry.seat,
                text=entry.text,
                data=entry.data,
                at=entry.at,
            )
        )

    async def append_step(self, table_id: str, entries: Sequence[Entry], *, over: bool) -> None:
        """Append a step's entries in one INSERT (one short transaction), marking the
        table over when the step ends its game; ``SeqTaken`` when another writer appended
        at one of these sequence numbers first (the primary key decides)."""
        rows = [
            {
                "table_id": table_id,
                "seq": e.seq,
                "kind": e.kind,
                "seat": e.seat,
                "text": e.text,
                "data": e.data,
                "at": e.at,
            }
            for e in entries
        ]
        try:
            async with self.write() as conn:
                await conn.execute(log.insert().values(rows))
                if over:
                    await conn.execute(
                        tables.update().where(tables.c.id == table_id).values(status="over")
                    )
        except IntegrityError:
            raise SeqTaken(entries[0].seq) from None

    async def entries(self, table_id: str, since: int = 0) -> list[Entry]:
        query = (
            log.select().where(log.c.table_id == table_id, log.c.seq > since).order_by(log.c.seq)
        )
        async with self.engine.connect() as conn:
            rows = await conn.execute(query)
            return [Entry(r.seq, r.kind, r.seat, r.text, r.data, r.at) for r in rows]

    # -- chat -----------------------------------------------------------------------------
    async def add_chat(self, table_id: str, seat: int, name: str, text: str) -> dict[str, Any]:
        at = time.time()
        async with self.write() as conn:
            done = await conn.execute(
                chat.insert().values(table_id=table_id, seat=seat, name=name, text=text, at=at)
            )
            key = done.inserted_primary_key
        return {"id": int(key[0]) if key else 0, "seat": seat, "name": name, "text": text, "at": at}

    async def chat_since(self, table_id: str, since: int = 0, limit: int = 100) -> list[Any]:
        query = (
            chat.select()
            .where(chat.c.table_id == table_id, chat.c.id > since)
            .order_by(chat.c.id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = [dict(r._mapping) for r in await conn.execute(query)]
        rows.reverse()
        return [{k: r[k] for k in ("id", "seat", "name", "text", "at")} for r in rows]


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
