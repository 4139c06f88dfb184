"""Storage: every table's settings, seats and ordered log of actions (SQLAlchemy 2).

The schema is :mod:`.schema`'s (created by the Alembic migrations in ``migrations/``, the
same on SQLite and PostgreSQL): ``game_tables``, ``table_seats``, ``table_log`` (the truth
of a table, primary key ``(table_id, seq)``), ``table_chat`` and ``table_leases``.  A log
entry is :class:`.entry.Entry`.  Each operation is one function of a connection, which
:class:`.database.Database` runs (SQLite's in a thread of its own, PostgreSQL's through
the async engine): the two databases share every query.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from aceydeucey.server.database import Database
from aceydeucey.server.entry import Entry, SeqTaken
from aceydeucey.server.schema import chat, leases, log, metadata, seats, tables

__all__ = [
    "Entry",
    "SeqTaken",
    "Store",
    "chat",
    "leases",
    "log",
    "metadata",
    "seats",
    "tables",
]


@dataclass
class _Step:
    """One table's step waiting for the store's writer, and the future it waits on."""

    table_id: str
    entries: list[Entry]
    over: bool
    done: asyncio.Future[None]


def _settle(step: _Step, exc: BaseException | None) -> None:
    if step.done.done():
        return
    if exc is None:
        step.done.set_result(None)
    else:
        step.done.set_exception(exc)


class Store(Database):
    """The store: every read one autocommit query or a few, every write one short
    transaction (:class:`.database.Database` runs them)."""

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        group_commits: bool = True,
        group_window: float = 0.0,
    ) -> None:
        super().__init__(url, schema=schema)
        #: write the steps of several tables in one transaction (``append_step``),
        #: collecting for ``group_window`` seconds before each batch (0: no wait)
        self.group_commits = group_commits
        self.group_window = group_window
        self._pending: list[_Step] = []
        self._writer: asyncio.Task[None] | None = None
        #: transactions the grouped writer has run (``steps / batches``: steps per commit)
        self.batches = 0
        self.steps = 0

    # -- tables ---------------------------------------------------------------------------
    async def create_table(self, row: dict[str, Any]) -> None:
        await self.write(lambda conn: conn.execute(tables.insert().values(**row)))

    async def load_table(self, table_id: str) -> dict[str, Any] | None:
        def work(conn: sa.Connection) -> dict[str, Any] | None:
            found = conn.execute(tables.select().where(tables.c.id == table_id)).first()
            return dict(found._mapping) if found is not None else None

        return await self.read(work)

    async def update_table(self, table_id: str, **values: Any) -> None:
        query = tables.update().where(tables.c.id == table_id).values(**values)
        await self.write(lambda conn: conn.execute(query))

    async def set_cut(self, table_id: str, cut_hex: str) -> bool:
        """Fix the table's cut, unless one was fixed first (then False)."""
        return await self._set_once(table_id, "cut", cut_hex)

    async def set_rematch(self, table_id: str, rematch_id: str) -> bool:
        """Link a rematch, unless another request linked one first (then False)."""
        return await self._set_once(table_id, "rematch", rematch_id)

    async def _set_once(self, table_id: str, column: str, value: str) -> bool:
        """Set a column of the table's row that is still empty; False when it was not."""
        query = (
            tables.update()
            .where(tables.c.id == table_id, tables.c[column].is_(None))
            .values({column: value})
        )
        return bool(await self.write(lambda conn: conn.execute(query).rowcount))

    async def table_ids(self, *, status: Sequence[str] | None = None) -> list[str]:
        query = sa.select(tables.c.id).order_by(tables.c.created_at)
        if status is not None:
            query = query.where(tables.c.status.in_(list(status)))
        return await self.read(lambda conn: [r[0] for r in conn.execute(query)])

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

        def work(conn: sa.Connection) -> list[dict[str, Any]]:
            rows = [dict(r._mapping) for r in conn.execute(query)]
            ids = [r["id"] for r in rows]
            taken: dict[str, dict[int, str]] = {}
            last: dict[str, float] = {r["id"]: float(r["created_at"]) for r in rows}
            if ids:
                found = conn.execute(
                    sa.select(
                        seats.c.table_id, seats.c.seat, seats.c.name, seats.c.joined_at
                    ).where(seats.c.table_id.in_(ids))
                )
                for table_id, seat, name, joined_at in found:
                    taken.setdefault(table_id, {})[seat] = name
                    last[table_id] = max(last[table_id], float(joined_at))
                acted = conn.execute(
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

        return await self.read(work)

    # -- seats ----------------------------------------------------------------------------
    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> bool:
        """Seat a person; False when the seat is taken (the primary key decides)."""
        query = seats.insert().values(
            table_id=table_id, seat=seat, name=name, token_hash=token_hash, joined_at=time.time()
        )
        try:
            await self.write(lambda conn: conn.execute(query))
        except IntegrityError:
            return False
        return True

    async def load_seats(self, table_id: str) -> list[dict[str, Any]]:
        query = seats.select().where(seats.c.table_id == table_id)
        return await self.read(lambda conn: [dict(r._mapping) for r in conn.execute(query)])

    # -- the log --------------------------------------------------------------------------
    async def append_step(self, table_id: str, entries: Sequence[Entry], *, over: bool) -> None:
        """Append a step's entries, marking the table over when the step ends its game;
        ``SeqTaken`` when another writer appended at one of these sequence numbers first
        (the primary key decides).  Returns only once the step is committed.

        With group commits on (the default), the steps of every table that arrive while
        a commit is in flight are written together, in one INSERT and one transaction,
        by one writer task: no wait when the store is idle, fewer commits when it is
        busy.  A batch refused by the key (one of its steps lost a race) is written
        again step by step, so only that step fails."""
        step = _Step(table_id, list(entries), over, asyncio.get_running_loop().create_future())
        self.steps += 1
        if not self.group_commits:
            await self._write_steps([step])
            return
        self._pending.append(step)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_pending())
        await asyncio.shield(step.done)

    async def _write_pending(self) -> None:
        """The one writer of grouped steps: while steps wait, write them all at once."""
        try:
            while self._pending:
                if self.group_window > 0:
                    await asyncio.sleep(self.group_window)
                batch, self._pending = self._pending, []
                self.batches += 1
                try:
                    await self._write_steps(batch)
                except SeqTaken:
                    for step in batch:  # alone, each step's own answer
                        try:
                            await self._write_steps([step])
                        except Exception as exc:  # each step its own answer
                            _settle(step, exc)
                except Exception as exc:
                    for step in batch:
                        _settle(step, exc)
                for step in batch:
                    _settle(step, None)
        finally:
            self._writer = None

    async def _write_steps(self, steps: Sequence[_Step]) -> None:
        rows = [
            {
                "table_id": step.table_id,
                "seq": e.seq,
                "kind": e.kind,
                "seat": e.seat,
                "text": e.text,
                "data": e.data,
                "at": e.at,
            }
            for step in steps
            for e in step.entries
        ]
        ended = [step.table_id for step in steps if step.over]

        def work(conn: sa.Connection) -> None:
            # one statement for every row (executemany): compiled once and cached,
            # where a multi-row ``values(rows)`` is compiled again for every batch
            conn.execute(log.insert(), rows)
            if ended:
                conn.execute(tables.update().where(tables.c.id.in_(ended)).values(status="over"))

        try:
            await self.write(work)
        except IntegrityError:
            raise SeqTaken(steps[0].entries[0].seq) from None
        if len(steps) == 1:
            _settle(steps[0], None)

    async def entries(self, table_id: str, since: int = 0) -> list[Entry]:
        query = (
            log.select().where(log.c.table_id == table_id, log.c.seq > since).order_by(log.c.seq)
        )
        return await self.read(
            lambda conn: [
                Entry(r.seq, r.kind, r.seat, r.text, r.data, r.at) for r in conn.execute(query)
            ]
        )

    # -- leases -------------------------------------------------------------------------
    async def take_lease(
        self, table_id: str, owner: str, now: float, ttl: float
    ) -> tuple[str, float]:
        """Take the table's lease for ``owner`` when it is free, expired or already
        ``owner``'s (then renewed); the lease's holder and expiry either way."""
        until = now + ttl
        holder = sa.select(leases.c.owner, leases.c.expires_at).where(leases.c.table_id == table_id)

        def work(conn: sa.Connection) -> tuple[str, float]:
            done = conn.execute(
                leases.update()
                .where(
                    leases.c.table_id == table_id,
                    sa.or_(leases.c.owner == owner, leases.c.expires_at < now),
                )
                .values(owner=owner, expires_at=until)
            )
            if done.rowcount:
                return owner, until
            found = conn.execute(holder).first()
            if found is not None:
                return str(found[0]), float(found[1])
            conn.execute(leases.insert().values(table_id=table_id, owner=owner, expires_at=until))
            return owner, until

        try:
            return await self.write(work)
        except IntegrityError:  # another process inserted it first: it holds the lease
            found = await self.read(lambda conn: conn.execute(holder).first())
            if found is None:
                raise
            return str(found[0]), float(found[1])

    async def renew_leases(self, owner: str, until: float) -> set[str]:
        """Extend every lease ``owner`` holds to ``until``; the tables it still holds."""

        def work(conn: sa.Connection) -> set[str]:
            conn.execute(leases.update().where(leases.c.owner == owner).values(expires_at=until))
            rows = conn.execute(sa.select(leases.c.table_id).where(leases.c.owner == owner))
            return {r[0] for r in rows}

        return await self.write(work)

    async def release_leases(self, owner: str, table_ids: Sequence[str] | None = None) -> None:
        """Give up ``owner``'s leases (those of ``table_ids``, or all of them)."""
        query = leases.delete().where(leases.c.owner == owner)
        if table_ids is not None:
            if not table_ids:
                return
            query = query.where(leases.c.table_id.in_(list(table_ids)))
        await self.write(lambda conn: conn.execute(query))

    async def orphans(self, now: float, *, unleased: bool = False, limit: int = 100) -> list[str]:
        """Playing tables whose owner let its lease expire (it died), and with
        ``unleased`` those with no lease at all (a table let go of when it went idle
        has none, and waits for its next touch)."""
        orphaned = leases.c.expires_at < now
        query = (
            sa.select(tables.c.id)
            .select_from(tables.outerjoin(leases, leases.c.table_id == tables.c.id))
            .where(
                tables.c.status == "playing",
                sa.or_(leases.c.table_id.is_(None), orphaned) if unleased else orphaned,
            )
            .order_by(tables.c.created_at)
            .limit(limit)
        )
        return await self.read(lambda conn: [r[0] for r in conn.execute(query)])

    # -- chat -----------------------------------------------------------------------------
    async def add_chat(self, table_id: str, seat: int, name: str, text: str) -> dict[str, Any]:
        at = time.time()
        query = chat.insert().values(table_id=table_id, seat=seat, name=name, text=text, at=at)

        def work(conn: sa.Connection) -> int:
            key = conn.execute(query).inserted_primary_key
            return int(key[0]) if key else 0

        line_id = await self.write(work)
        return {"id": line_id, "seat": seat, "name": name, "text": text, "at": at}

    async def chat_since(self, table_id: str, since: int = 0, limit: int = 100) -> list[Any]:
        query = (
            chat.select()
            .where(chat.c.table_id == table_id, chat.c.id > since)
            .order_by(chat.c.id.desc())
            .limit(limit)
        )
        rows = await self.read(lambda conn: [dict(r._mapping) for r in conn.execute(query)])
        rows.reverse()
        return [{k: r[k] for k in ("id", "seat", "name", "text", "at")} for r in rows]
