"""The commands of seated people: join, act, resign, claim, rematch.

Each runs on the table's owner (``owned``: forwarded there from any other process),
validates in memory under the table's lock, then appends the step through the
log (``tablelog``); a person's action carries the automatic steps after it.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.registry import bot_names
from aceydeucey.server.base import owned
from aceydeucey.server.errors import ServerError
from aceydeucey.server.live import (
    INLINE_STEPS,
    ROLL,
    SEEN_EVERY,
    Item,
    LiveTable,
    after_action,
    hash_token,
)
from aceydeucey.server.runner import Runner
from aceydeucey.server.store import SeqTaken

log = logging.getLogger("aceydeucey.server")

__all__ = ["Commands"]


class Commands(Runner):
    """The commands people send to a table (a part of ``TableService``)."""

    @owned
    async def join(
        self,
        table_id: str,
        seat: int,
        name: str,
        cut: str | None = None,
        invite: str | None = None,
    ) -> str:
        """Seat a person: a fresh secret token (kept only as its hash), or 409 when taken.

        A private table's seats need its invite secret (403 ``server.invite_needed``)."""
        t = await self.table(table_id)
        secret = t.config.get("invite")
        if secret and not hmac.compare_digest(str(invite or ""), str(secret)):
            raise ServerError(403, "server.invite_needed")
        if not 0 <= seat < t.game.num_players:
            raise ServerError(404, "server.seat_unknown", seat=seat, last=t.game.num_players - 1)
        name = " ".join(name.split())[: self.settings.max_name]
        if not name:
            raise ServerError(400, "server.name_empty")
        if t.seats[seat].kind != "human" or t.seats[seat].token_hash is not None:
            raise ServerError(409, "server.seat_taken", seat=seat)
        token = secrets.token_urlsafe(32)
        if not await self.store.take_seat(t.id, seat, name, hash_token(token)):
            self._load_seats(t, await self.store.load_seats(t.id))
            raise ServerError(409, "server.seat_taken", seat=seat)
        async with t.lock:
            self._load_seats(t, await self.store.load_seats(t.id))
            t.last_seen[seat] = self.clock()
            await self.presence.seen(t.id, seat)
            if cut and seat == self.cutter(t) and t.row.get("cut") is None:
                await self._set_cut(t, cut.encode("utf-8")[:1024])
            await self._maybe_start(t)
        self._push_seats(t)
        self._spawn(self.broadcaster.publish({"table": t.id, "seats": True}))
        return token

    async def _set_cut(self, t: LiveTable, cut: bytes) -> None:
        if await self.store.set_cut(t.id, cut.hex()):
            t.row["cut"] = cut.hex()
        else:  # another process fixed it first: its cut stands
            await self._refresh_row(t)

    async def _maybe_start(self, t: LiveTable) -> None:
        """When every seat is taken: fix the cut (a bot's or the server's where no person
        gave one), mark the table playing and let chance and bots act."""
        if t.over or not all(s.taken for s in t.seats):
            return
        if t.row.get("cut") is None:
            await self._set_cut(t, secrets.token_bytes(16))
        if t.row["status"] == "waiting":
            await self.store.update_table(t.id, status="playing")
            t.row["status"] = "playing"
        await self._drive(t, INLINE_STEPS)

    def authenticate(self, t: LiveTable, token: str | None) -> int:
        """The seat a token holds (compared as hashes, in constant time), else 403."""
        if not token:
            raise ServerError(403, "server.token_missing")
        digest = hash_token(token)
        for seat, info in enumerate(t.seats):
            if info.token_hash is not None and hmac.compare_digest(info.token_hash, digest):
                now = self.clock()
                if now - t.last_seen[seat] >= SEEN_EVERY:  # not a presence write per request
                    self._spawn(self.presence.seen(t.id, seat))
                t.last_seen[seat] = now
                return seat
        raise ServerError(403, "server.token_wrong")

    async def seat_of(self, table_id: str, token: str | None) -> tuple[LiveTable, int | None]:
        """The table and the seat of ``token`` (``None``: a spectator, when no token)."""
        t = await self.table(table_id)
        if token is None:
            return t, None
        if not any(s.token_hash for s in t.seats):
            self._load_seats(t, await self.store.load_seats(t.id))
        try:
            return t, self.authenticate(t, token)
        except ServerError:
            self._load_seats(t, await self.store.load_seats(t.id))  # joined in another process
            return t, self.authenticate(t, token)

    @owned
    async def act(
        self, table_id: str, token: str | None, seq: int, text: str, view: bool = True
    ) -> dict[str, Any]:
        """A person's action at the table's ``seq``; returns the seat's view afterwards
        (with ``view`` false only ``you`` and ``seq``: a socket's seat is sent the state
        by the push).

        The action and every automatic step after it (chance's draws, bots' moves) are
        validated in memory under the table's lock and appended in one INSERT.  A retry
        of an action already applied at ``seq + 1`` by the same seat answers the current
        view with ``"duplicate": true`` and applies nothing.
        """

        def answer(duplicate: bool = False) -> dict[str, Any]:
            shown = self.view(t, seat) if view else {"you": seat, "seq": t.seq}
            return {**shown, "duplicate": True} if duplicate else shown

        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        async with t.lock:
            if seq != t.seq:  # perhaps another process moved on: the store says
                await self._catch_up(t)
            if seq != t.seq:
                if self._is_retry(t, seat, seq, text):
                    return answer(duplicate=True)
                raise ServerError(409, "server.seq_stale", seq=seq, current=t.seq)
            self._check_open(t)
            state = t.state
            if text.strip().lower() == ROLL and t.to_roll() == seat:
                action = t.chance().choose(state)
                first: Item = ("chance", seat, str(action), state.apply(action), None)
            else:
                if state.is_chance_node() and t.to_roll() is not None:
                    who = t.to_roll()
                    if who != seat:
                        raise ServerError(403, "server.not_your_roll", seat=who)
                    raise ServerError(400, "server.roll_first")
                after = state.apply(text, seat=seat)
                first = ("move", seat, str(after_action(state, text)), after, None)
            items = await self._plan(t, [first], INLINE_STEPS)
            try:
                await self._commit_items(t, items)
            except SeqTaken:
                await self._catch_up(t)
                if self._is_retry(t, seat, seq, text):
                    return answer(duplicate=True)
                raise ServerError(409, "server.seq_stale", seq=seq, current=t.seq) from None
            self._after_change(t)
            return answer()

    def _check_open(self, t: LiveTable) -> None:
        if t.over:
            raise ServerError(409, "server.table_over")
        if t.status != "playing":
            raise ServerError(409, "server.table_waiting")

    def _is_retry(self, t: LiveTable, seat: int, seq: int, text: str) -> bool:
        if not 0 <= seq < t.seq:
            return False
        entry = t.entries[seq]  # the entry at seq + 1
        if entry.seat != seat:
            return False
        if entry.kind == "chance":
            return text.strip().lower() == ROLL
        if entry.kind != "move":
            return False
        try:
            return str(t.game.parse_action(text)) == entry.text
        except AceyDeuceyError:
            return text.strip() == entry.text

    @owned
    async def resign(self, table_id: str, token: str | None) -> dict[str, Any]:
        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        async with t.lock:
            await self._catch_up(t)
            self._check_open(t)
            if t.game.num_players != 2:
                raise ServerError(400, "server.resign_two_players")
            try:
                await self._commit(t, "resign", seat, lambda: ("resign", None))
            except SeqTaken:
                await self._catch_up(t)
                raise ServerError(409, "server.seq_stale", seq=t.seq - 1, current=t.seq) from None
            return self.view(t, seat)

    async def absent_for(self, t: LiveTable, seat: int) -> float:
        """Seconds seat has been away (no socket in any process, no request): 0 while
        connected.  The latest of what ``presence`` saw (every process, with Redis) and
        this process's own sightings (a table loaded here counts from its loading)."""
        if self.hub.count(t.id, seat) > 0:
            return 0.0
        shared = await self.presence.away(t.id, seat)
        here = max(0.0, self.clock() - t.last_seen[seat])
        return here if shared is None else min(shared, here)

    @owned
    async def claim(
        self, table_id: str, token: str | None, absent: int, mode: str
    ) -> dict[str, Any]:
        """Claim the game (two seats) or hand an absent opponent's seat to a bot."""
        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        async with t.lock:
            await self._catch_up(t)
            self._check_open(t)
            n = t.game.num_players
            if not 0 <= absent < n or absent == seat or t.seats[absent].kind != "human":
                raise ServerError(400, "server.claim_seat", seat=absent)
            if mode not in ("win", "bot"):
                raise ServerError(400, "server.claim_mode", mode=mode)
            if mode == "win" and n != 2:
                raise ServerError(400, "server.claim_win_two_players")
            wait = float(t.config.get("claim_after", self.settings.claim_after))
            away = await self.absent_for(t, absent)
            if away < wait:
                raise ServerError(
                    409, "server.claim_too_soon", seat=absent, seconds=int(wait - away) + 1
                )
            try:
                if mode == "win":
                    await self._commit(
                        t, "claim", seat, lambda: ("claim", None), {"absent": absent}
                    )
                else:
                    bot = bot_names(t.game.game_id)[0]
                    await self._commit(t, "handover", absent, lambda: (bot, None), {"by": seat})
            except SeqTaken:
                await self._catch_up(t)
                raise ServerError(409, "server.seq_stale", seq=t.seq - 1, current=t.seq) from None
            await self._drive(t, INLINE_STEPS)
            return self.view(t, seat)
