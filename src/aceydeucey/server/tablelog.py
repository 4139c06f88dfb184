"""The table log reducer: a table rebuilt from its log, new entries applied and appended.

Every change reaches a table through ``_apply`` (replay, this process's own steps and
other processes' entries alike), which also writes the entry's public event: what
``observation(None)`` shows of it, never the action's text.  ``_commit_items``
appends a whole step in one INSERT; ``_catch_up`` applies what others appended,
without the table's lock.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from aceydeucey.core.endings import Ending, end
from aceydeucey.core.game import Game, State
from aceydeucey.core.registry import load_game
from aceydeucey.server.errors import ServerError
from aceydeucey.server.live import (
    DECISION_KINDS,
    Item,
    LiveTable,
    SeatInfo,
    event_of,
)
from aceydeucey.server.logs import fault
from aceydeucey.server.pubsub import LocalBroadcaster
from aceydeucey.server.store import Entry
from aceydeucey.server.views import Views

log = logging.getLogger("aceydeucey.server")

__all__ = ["TableLog"]


class TableLog(Views):
    """Rebuilding, reducing and appending to a table's log (a part of ``TableService``)."""

    async def table(self, table_id: str) -> LiveTable:
        """The live table (rebuilt from the store by replaying its log when not held)."""
        t = self._tables.get(table_id)
        if t is not None:
            t.touched = time.monotonic()
            return t
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            t = self._tables.get(table_id)
            if t is None:
                t = await self._rebuild(table_id)
                self._tables[table_id] = t
                self.broadcaster.follow(table_id)
        return t

    async def _rebuild(self, table_id: str) -> LiveTable:
        row = await self.store.load_table(table_id)
        if row is None:
            raise ServerError(404, "server.table_unknown", table=table_id[:48])
        t = self._fresh(row, load_game(row["game"], **row["rules"]))
        self._load_seats(t, await self.store.load_seats(table_id))
        for entry in await self.store.entries(table_id):
            self._apply(t, entry)
        return t

    def _fresh(self, row: dict[str, Any], game: Game) -> LiveTable:
        """The table of a stored row before its seats and log are read: no one seated,
        the game's first state."""
        seats = [SeatInfo(kind=k["kind"], bot=k.get("bot")) for k in row["seat_kinds"]]
        t = LiveTable(id=row["id"], row=row, game=game, state=game.new_initial_state(), seats=seats)
        t.last_seen = [self.clock()] * game.num_players
        return t

    def _hold(self, t: LiveTable) -> LiveTable:
        """Hold a table just created here (its row just stored, no seat or entry yet)."""
        self._tables[t.id] = t
        self.broadcaster.follow(t.id)
        return t

    def _load_seats(self, t: LiveTable, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            seat = t.seats[r["seat"]]
            if seat.token_hash is None:
                t.last_seen[r["seat"]] = max(t.last_seen[r["seat"]], r["joined_at"])
            seat.name, seat.token_hash, seat.joined_at = r["name"], r["token_hash"], r["joined_at"]

    def _apply(self, t: LiveTable, entry: Entry, after: State | None = None) -> None:
        """Apply one committed entry to the live table (replay and new entries alike)."""
        if entry.seq != t.seq + 1:
            raise RuntimeError(f"table {t.id}: entry {entry.seq} after {t.seq}")
        if entry.is_action:
            t.state = after if after is not None else t.state.apply(entry.text)
            if entry.kind == "chance":
                t.draws += 1
        elif entry.kind == "resign":
            others = [s for s in range(t.game.num_players) if s != entry.seat]
            t.ended = {"termination": "resigned", "seat": entry.seat, "winners": others}
            if entry.seat is not None and not t.state.is_terminal():
                t.state = end(t.state, Ending.RESIGNED, entry.seat)  # the game's own ending
        elif entry.kind == "claim":
            absent = (entry.data or {}).get("absent")
            if isinstance(absent, int) and not t.state.is_terminal():
                t.state = end(t.state, Ending.CLAIMED, absent)
            t.ended = {
                "termination": "claimed",
                "seat": entry.seat,
                "absent": (entry.data or {}).get("absent"),
                "winners": [entry.seat],
            }
        elif entry.kind == "handover" and entry.seat is not None:
            t.seats[entry.seat].kind = "bot"
            t.seats[entry.seat].bot = entry.text
            t.bots.pop(entry.seat, None)
        t.seq = entry.seq
        t.entries.append(entry)
        t.events.append(self._public_event(t, entry))
        if t.over:
            self._cancel_timer(t)

    def _public_event(self, t: LiveTable, entry: Entry) -> dict[str, Any]:
        """What everyone may know of an entry: who, the decision, the public event.

        The event is what ``observation(None)`` shows of the step (its ``last_event``,
        ``event_of``), never the action's text: a card chance deals is named only where the public
        view names it.  A seat's decision (``move``, ``bot``, ``timeout``) is made in
        the open, so its text is kept.
        """
        event: dict[str, Any] | None
        if entry.is_action:
            event = event_of(t.state)
        else:
            event = {"kind": entry.kind, "seat": entry.seat, **(entry.data or {})}
            if entry.kind == "handover":
                event["bot"] = entry.text
        return {
            "seq": entry.seq,
            "kind": entry.kind,
            "seat": entry.seat,
            "action": entry.text if entry.kind in DECISION_KINDS else None,
            "event": event,
            "at": entry.at,
        }

    async def _catch_up(self, t: LiveTable) -> list[Entry]:
        """Apply what other processes appended since this copy's ``seq``; push it here.

        Needs no lock: the entries are read first, then applied in one synchronous
        stretch (skipping any this copy applied meanwhile)."""
        new = await self.store.entries(t.id, since=t.seq)
        fresh = self._absorb(t, new)
        if fresh:
            await self._refresh_row(t)
        return fresh

    async def _sync(self, t: LiveTable, seq: int | None = None) -> None:
        if self.owners.owns(t.id) or (seq is not None and t.seq >= seq):
            return
        if self.broadcaster.connected:
            try:
                kept = await self.broadcaster.history(t.id)
            except Exception as exc:  # Redis away: the store says
                fault("redis_unavailable", exc, table=t.id)
                kept = []
            entries = [e for e in map(Entry.from_dict, kept) if e is not None]
            newer = [e for e in entries if e.seq > t.seq]
            if newer and newer[0].seq == t.seq + 1:
                self._absorb_published(t, newer)
                if seq is None or t.seq >= seq:
                    return
            elif entries and not newer and seq is None:
                return  # the history holds nothing newer than this copy
        await self._catch_up(t)  # a gap, or no history: the store (a forced reload)

    def _absorb_published(self, t: LiveTable, entries: list[Entry]) -> None:
        """Apply entries another process published (no store read)."""
        self._absorb(t, entries)
        if t.over:
            t.row["status"] = "over"

    def _absorb(self, t: LiveTable, entries: list[Entry]) -> list[Entry]:
        """Apply committed entries this copy lacks and push them as one step."""
        fresh = [e for e in entries if e.seq > t.seq]
        if not fresh or fresh[0].seq != t.seq + 1:
            return []
        for entry in fresh:
            self._apply(t, entry)
        self._push_step(t, fresh)
        return fresh

    async def refreshed(self, t: LiveTable) -> LiveTable:
        """The table brought up to date for a read, never waiting on its lock.

        A table's owner is its only writer, so the owner's copy is current; another
        process's copy is brought up to date from the Redis history (the store when the
        history does not reach back to it)."""
        await self._sync(t)
        return t

    async def _refresh_row(self, t: LiveTable) -> None:
        row = await self.store.load_table(t.id)
        if row is not None:
            t.row = row

    async def _commit(
        self,
        t: LiveTable,
        kind: str,
        seat: int | None,
        make: Callable[[], tuple[str, State | None]],
        data: dict[str, Any] | None = None,
    ) -> Entry:
        """Validate (``make``, in memory) and append one entry, then apply and push it.

        ``make`` returns the entry's text and the state after it (None for table events);
        an engine error it raises changes nothing.  SeqTaken: another writer won."""
        entries = await self._commit_items(t, [(kind, seat, *make(), data)])
        return entries[0]

    async def _commit_items(self, t: LiveTable, items: list[Item]) -> list[Entry]:
        """Append a step's entries (already validated in memory, from ``t.seq``) in one
        INSERT, then apply them and push the step once per audience.

        No engine work happens inside the transaction; the unique ``(table_id, seq)``
        key refuses a second writer (``SeqTaken``)."""
        if not items:
            return []
        base = t.seq
        now = self.clock()
        entries = [
            Entry(base + 1 + i, kind, seat, text, data, now)
            for i, (kind, seat, text, _, data) in enumerate(items)
        ]
        last_kind, last_after = items[-1][0], items[-1][3]
        over = last_kind in ("resign", "claim") or (
            last_after is not None and last_after.is_terminal()
        )
        await self.store.append_step(t.id, entries, over=over)
        applied = []
        for entry, item in zip(entries, items, strict=True):
            if entry.seq <= t.seq:  # a lock-free catch-up read it back first
                continue
            self._apply(t, entry, item[3])
            applied.append(entry)
        if over:
            t.row["status"] = "over"
        self._push_step(t, applied)
        if not isinstance(self.broadcaster, LocalBroadcaster):
            published = [e.to_dict() for e in entries]
            self._spawn(self.broadcaster.publish_step(t.id, entries[-1].seq, published))
        if over:
            self._forget_if_done(t)
        return entries
