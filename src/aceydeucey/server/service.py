"""The table service: tables as ordered logs of actions, played through the game contract.

A table's truth is its log (``store.Entry``): every action in order, chance's
included, plus the table-level events the engines do not model (a resignation, a
claim, a seat handed to a bot).  The service keeps a live copy of each table it
serves (the state after replaying the log) and, for every request that changes a
table, under the table's lock:

1. validates the action against the live state in memory (``State.apply``, the
   engine's own checks and messages) and works out the automatic steps after it
   (chance's draws, bots' moves) up to the next person's turn;
2. appends the whole step in one INSERT at ``seq + 1`` onwards, a short transaction
   with no engine work in it; the primary key ``(table_id, seq)`` refuses a second
   writer, whose request then reloads and answers 409 (or, for a bot's or chance's
   step, tries again);
3. only after the commit, updates the live state and pushes the step once per
   audience (each connected seat its own ``observation(seat)``, spectators
   ``observation(None)``, each serialised once) and tells the other processes
   (``pubsub``).

Chance is drawn by the fairness module (``server/fairness.py``): the table's secret
server seed is committed to when the table is created, the seat on the dealer's
right cuts, and the seed is revealed in the record once the game is over.  When the
engine says a seat throws the dice (``State.chance_actor``) and a person holds that
seat, the service waits for the seat's ``roll``; other chance steps and bots' moves
follow at once.  Bots act through the same path as people.

The server knows the games only through ``load_game`` and the contract.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.game import Game, State
from aceydeucey.core.record import Record
from aceydeucey.core.registry import bot_names, load_game, make_bot
from aceydeucey.core.table import seat_agent
from aceydeucey.server.errors import ServerError
from aceydeucey.server.fairness import FairChance, commitment, cutting_seat, new_server_seed
from aceydeucey.server.presence import MemoryPresence, Presence
from aceydeucey.server.pubsub import Broadcaster, Hub, LocalBroadcaster, Subscriber
from aceydeucey.server.settings import Settings
from aceydeucey.server.store import Entry, SeqTaken, Store, tables

__all__ = ["LiveTable", "SeatInfo", "TableService", "hash_token", "observe"]

log = logging.getLogger("aceydeucey.server")

#: Steps a request plays itself (chance, bots) before handing the rest to a background task.
INLINE_STEPS = 64
#: Most chance draws appended in one transaction (a deal of several cards).
CHANCE_BATCH = 64
#: A seat's requests tell ``presence`` at most this often (seconds).
SEEN_EVERY = 1.0
#: The word a person sends to throw the dice when the engine says the throw is theirs.
ROLL = "roll"
TIMEOUT_CHOICES = ("pass", "bot")
#: One planned log entry: kind, seat, canonical text, the state after it (None for a
#: table-level event) and its data.
Item = tuple[str, int | None, str, State | None, dict[str, Any] | None]
#: Log entries that are a seat's decision, made in the open (chance's draws are not).
DECISION_KINDS = frozenset({"move", "bot", "timeout"})


def hash_token(token: str) -> str:
    """The only form in which a seat's token is kept: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class SeatInfo:
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str | None = None
    token_hash: str | None = None
    joined_at: float | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None


@dataclass
class LiveTable:
    """A table as this process holds it: the replayed state and what the log says."""

    id: str
    row: dict[str, Any]
    game: Game
    state: State
    seats: list[SeatInfo]
    seq: int = 0
    draws: int = 0
    entries: list[Entry] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    ended: dict[str, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: dict[int, Any] = field(default_factory=dict)
    last_seen: list[float] = field(default_factory=list)
    deadline: float | None = None
    timer: asyncio.Task[None] | None = None
    timer_seq: int = -1
    runner: asyncio.Task[None] | None = None
    chat_times: dict[int, collections.deque[float]] = field(default_factory=dict)

    @property
    def config(self) -> dict[str, Any]:
        config: dict[str, Any] = self.row["config"]
        return config

    @property
    def over(self) -> bool:
        return self.ended is not None or self.state.is_terminal()

    @property
    def status(self) -> str:
        if self.over:
            return "over"
        if self.row.get("cut") is None or not all(s.taken for s in self.seats):
            return "waiting"
        return "playing"

    def to_roll(self) -> int | None:
        """The person whose ``roll`` the table waits for, if any."""
        if self.over or not self.state.is_chance_node():
            return None
        actor = self.state.chance_actor()
        if actor is not None and self.seats[actor].kind == "human":
            return actor
        return None

    def person_to_act(self) -> int | None:
        """The human seat the table waits for (to act or to roll), or None."""
        if self.status != "playing":
            return None
        roll = self.to_roll()
        if roll is not None:
            return roll
        seat = self.state.current_player()
        if seat >= 0 and self.seats[seat].kind == "human":
            return seat
        return None

    def chance(self) -> FairChance:
        return FairChance(
            bytes.fromhex(self.row["server_seed"]),
            bytes.fromhex(self.row["cut"] or ""),
            draws=self.draws,
        )


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return str(value)


def dumps(message: dict[str, Any]) -> str:
    """A message's JSON text (tuples and sets as lists, anything else as its text)."""
    return json.dumps(message, default=_json_default, separators=(",", ":"))


def observe(state: State, seat: int | None) -> dict[str, Any]:
    """``state.observation(seat)``: the seat's view, or the public one for ``None``."""
    return state.observation(seat)


def hidden_information(game: Game) -> bool:
    """Whether the game can deal a card face down (its ``GameInfo``): its record is then
    served only once the game is over."""
    return game.info.hidden_information


class TableService:
    """Creates, loads, plays and pushes tables; one per application (``app.state.service``)."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        broadcaster: Broadcaster | None = None,
        presence: Presence | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.store = store
        self.broadcaster = broadcaster or LocalBroadcaster()
        self.presence = presence or MemoryPresence(clock)
        self.hub = Hub()
        self.clock = clock
        self._tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    # -- life cycle -----------------------------------------------------------------------
    async def start(self) -> None:
        if self.settings.migrate:
            await self.store.migrate()
        await self.presence.start()
        await self.broadcaster.start(self._on_remote)
        for table_id in await self.store.table_ids(status=["playing"]):
            try:
                t = await self.table(table_id)
            except Exception:
                log.exception("table %s could not be rebuilt", table_id)
                continue
            self._after_change(t)

    async def stop(self) -> None:
        self._stopping = True
        for t in self._tables.values():
            for task in (t.timer, t.runner):
                if task is not None:
                    task.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        for t in self._tables.values():
            for sub in self.hub.subscribers(t.id):
                sub.close()
        await self.broadcaster.stop()
        await self.presence.stop()
        await self.store.close()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- creating and loading ---------------------------------------------------------------
    def make_game(self, game_id: str, options: dict[str, Any]) -> Game:
        """The game for ``options`` as a form sends them: text values read by each option's type."""
        from aceydeucey.core.registry import game_class

        if not isinstance(game_id, str):
            raise ServerError(400, "server.option_value", option="game", value=repr(game_id)[:60])
        rules_class = game_class(game_id).rules_class
        for name, value in options.items():
            scalar = (str, int, float, bool, type(None))
            if not (
                isinstance(value, scalar)
                or (isinstance(value, list) and all(isinstance(v, scalar) for v in value))
            ) or (name == rules_class.PRESET_KEY and not isinstance(value, str | None)):
                raise ServerError(400, "server.option_value", option=name, value=repr(value)[:60])
        parsed = {
            name: rules_class.parse_option(name, value) if isinstance(value, str) else value
            for name, value in options.items()
        }
        try:
            return load_game(game_id, **parsed)
        except AceyDeuceyError:
            raise
        except (TypeError, ValueError, OverflowError) as exc:  # a value no option can take
            raise ServerError(
                400, "server.options_invalid", problem=f"{type(exc).__name__}: {exc}"[:200]
            ) from None

    def parse_seats(self, game: Game, kinds: list[str] | None) -> list[dict[str, Any]]:
        n = game.num_players
        if kinds is None:
            kinds = ["human"] * n
        if len(kinds) != n:
            raise ServerError(400, "server.seats_count", seats=n, given=len(kinds))
        names = bot_names(game.game_id)
        out: list[dict[str, Any]] = []
        for seat, kind in enumerate(kinds):
            if kind == "human":
                out.append({"kind": "human", "bot": None})
            elif kind == "bot" or kind.startswith("bot:"):
                name = kind.partition(":")[2] or names[0]
                # an unknown strategy is refused here, by name, and so is a bot that does
                # not play these rules (pubeval outside classic backgammon)
                seat_agent(make_bot(game.game_id, name), game, seat)
                out.append({"kind": "bot", "bot": name})
            else:
                raise ServerError(400, "server.seat_kind", kind=kind)
        return out

    async def create(
        self,
        game_id: str,
        options: dict[str, Any],
        seat_kinds: list[str] | None = None,
        *,
        public: bool = True,
        turn_seconds: int | None = None,
        on_timeout: str = "pass",
        claim_after: float | None = None,
        rematch_of: str | None = None,
    ) -> LiveTable:
        game = self.make_game(game_id, options)
        kinds = self.parse_seats(game, seat_kinds)
        if on_timeout not in TIMEOUT_CHOICES:
            raise ServerError(
                400, "server.on_timeout", value=on_timeout, accepted=", ".join(TIMEOUT_CHOICES)
            )
        seed = new_server_seed()
        table_id = secrets.token_urlsafe(12)
        row = {
            "id": table_id,
            "game": game.game_id,
            "options": dict(options),
            "rules": game.rules.to_dict(),
            "seat_kinds": kinds,
            "public": public,
            "config": {
                "turn_seconds": turn_seconds,
                "on_timeout": on_timeout,
                "claim_after": self.settings.claim_after if claim_after is None else claim_after,
            },
            "server_seed": seed.hex(),
            "commitment": commitment(seed),
            "cut": None,
            "status": "waiting",
            "rematch_of": rematch_of,
            "rematch": None,
            "created_at": self.clock(),
        }
        await self.store.create_table(row)
        t = await self.table(table_id)
        async with t.lock:
            await self._maybe_start(t)
        return t

    async def table(self, table_id: str) -> LiveTable:
        """The live table (rebuilt from the store by replaying its log when not held)."""
        t = self._tables.get(table_id)
        if t is not None:
            return t
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            t = self._tables.get(table_id)
            if t is None:
                t = await self._rebuild(table_id)
                self._tables[table_id] = t
        return t

    async def _rebuild(self, table_id: str) -> LiveTable:
        row = await self.store.load_table(table_id)
        if row is None:
            raise ServerError(404, "server.table_unknown", table=table_id[:48])
        game = load_game(row["game"], **row["rules"])
        seats = [SeatInfo(kind=k["kind"], bot=k.get("bot")) for k in row["seat_kinds"]]
        t = LiveTable(id=table_id, row=row, game=game, state=game.new_initial_state(), seats=seats)
        t.last_seen = [self.clock()] * game.num_players
        self._load_seats(t, await self.store.load_seats(table_id))
        for entry in await self.store.entries(table_id):
            self._apply(t, entry)
        return t

    def _load_seats(self, t: LiveTable, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            seat = t.seats[r["seat"]]
            if seat.token_hash is None:
                t.last_seen[r["seat"]] = max(t.last_seen[r["seat"]], r["joined_at"])
            seat.name, seat.token_hash, seat.joined_at = r["name"], r["token_hash"], r["joined_at"]

    # -- applying log entries -------------------------------------------------------------
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
        elif entry.kind == "claim":
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

        The event is what ``observation(None)`` shows of the step (its ``last_event``),
        never the action's text: a card chance deals is named only where the public
        view names it.  A seat's decision (``move``, ``bot``, ``timeout``) is made in
        the open, so its text is kept.
        """
        event: dict[str, Any] | None
        if entry.is_action:
            event = observe(t.state, None).get("last_event")
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

    def _absorb(self, t: LiveTable, entries: list[Entry]) -> list[Entry]:
        """Apply committed entries this copy lacks and push them as one step."""
        fresh = [e for e in entries if e.seq > t.seq]
        if not fresh or fresh[0].seq != t.seq + 1:
            return []
        own = self._own_events(t)
        for entry in fresh:
            self._apply(t, entry)
            self._note_own(t, entry, own)
        self._push_step(t, fresh, own)
        return fresh

    async def refreshed(self, t: LiveTable) -> LiveTable:
        """The table brought up to date for a read, never waiting on its lock.

        One process alone is the only writer of its tables, so its copy is current;
        with several, the entries other processes appended are read and applied."""
        if not isinstance(self.broadcaster, LocalBroadcaster):
            await self._catch_up(t)
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
        own = self._own_events(t)
        applied = []
        for entry, item in zip(entries, items, strict=True):
            if entry.seq <= t.seq:  # a lock-free catch-up read it back first
                continue
            self._apply(t, entry, item[3])
            self._note_own(t, entry, own)
            applied.append(entry)
        if over:
            t.row["status"] = "over"
        self._push_step(t, applied, own)
        self._spawn(self.broadcaster.publish({"table": t.id, "seq": t.seq}))
        if over:
            self._forget_if_done(t)
        return entries

    def _own_events(self, t: LiveTable) -> dict[int, dict[int, Any]]:
        """Per connected seat, its own view of each entry of a step (games that hide
        cards only: elsewhere everyone's view of an event is the public one)."""
        if not hidden_information(t.game):
            return {}
        return {s.seat: {} for s in self.hub.subscribers(t.id) if s.seat is not None}

    def _note_own(self, t: LiveTable, entry: Entry, own: dict[int, dict[int, Any]]) -> None:
        if entry.is_action:
            for seat, events in own.items():
                events[entry.seq] = observe(t.state, seat).get("last_event")

    # -- seats ------------------------------------------------------------------------------
    async def join(self, table_id: str, seat: int, name: str, cut: str | None = None) -> str:
        """Seat a person: a fresh secret token (kept only as its hash), or 409 when taken."""
        t = await self.table(table_id)
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

    def cutter(self, t: LiveTable) -> int:
        """The seat that cuts (the dealer's right), read from the table's first state."""
        try:
            return cutting_seat(t.game, t.game.new_initial_state())
        except Exception:  # a game whose public view is not there yet: from the options
            return cutting_seat(t.game, None)

    async def _set_cut(self, t: LiveTable, cut: bytes) -> None:
        async with self.store.write() as conn:
            await conn.execute(
                tables.update()
                .where(tables.c.id == t.id, tables.c.cut.is_(None))
                .values(cut=cut.hex())
            )
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

    # -- acting -----------------------------------------------------------------------------
    async def act(self, table_id: str, token: str | None, seq: int, text: str) -> dict[str, Any]:
        """A person's action at the table's ``seq``; returns the seat's view afterwards.

        The action and every automatic step after it (chance's draws, bots' moves) are
        validated in memory under the table's lock and appended in one INSERT.  A retry
        of an action already applied at ``seq + 1`` by the same seat answers the current
        view with ``"duplicate": true`` and applies nothing.
        """
        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        async with t.lock:
            if seq != t.seq:  # perhaps another process moved on: the store says
                await self._catch_up(t)
            if seq != t.seq:
                if self._is_retry(t, seat, seq, text):
                    return {**self.view(t, seat), "duplicate": True}
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
                    return {**self.view(t, seat), "duplicate": True}
                raise ServerError(409, "server.seq_stale", seq=seq, current=t.seq) from None
            self._after_change(t)
            return self.view(t, seat)

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

    # -- chance and bots --------------------------------------------------------------------
    async def _plan(
        self, t: LiveTable, items: list[Item], budget: int, *, bots: int | None = None
    ) -> list[Item]:
        """``items`` followed by the automatic steps after them, worked out in memory:
        chance's draws (not a person's throw) and bots' moves (at most ``bots``; none
        inline while bots are paced by ``bot_delay``), until a person must act, the game
        ends or ``budget`` entries are planned.  Nothing is written."""
        if bots is None:
            bots = 0 if self.settings.bot_delay > 0 else budget
        if t.row.get("cut") is None or not all(s.taken for s in t.seats) or t.ended is not None:
            return items
        if items and items[-1][3] is None:  # a table-level event: the runner goes on
            return items
        state = items[-1][3] if items and items[-1][3] is not None else t.state
        assert state is not None
        chance = FairChance(
            bytes.fromhex(t.row["server_seed"]),
            bytes.fromhex(t.row["cut"] or ""),
            draws=t.draws + sum(1 for item in items if item[0] == "chance"),
        )
        while len(items) < budget and not state.is_terminal():
            if state.is_chance_node():
                actor = state.chance_actor()
                if actor is not None and t.seats[actor].kind == "human":
                    break
                action = chance.choose(state)
                after = state.apply(action)
                items.append(("chance", actor, str(action), after, None))
                state = after
                continue
            seat = state.current_player()
            if seat < 0 or t.seats[seat].kind != "bot" or bots <= 0:
                break
            bots -= 1
            agent = self._bot(t, seat)
            choice = await asyncio.to_thread(self._bot_choice, t, state, seat, agent)
            text, after = self._bot_move(t, state, seat, choice)
            items.append(("bot", seat, text, after, None))
            state = after
        return items

    def _bot(self, t: LiveTable, seat: int, name: str | None = None) -> Any:
        key = seat if name is None else -1 - seat
        agent = t.bots.get(key)
        if agent is None:
            strategy = name or t.seats[seat].bot or bot_names(t.game.game_id)[0]
            agent = make_bot(t.game.game_id, strategy, seed=secrets.randbits(32))
            seat_agent(agent, t.game, seat)
            t.bots[key] = agent
        return agent

    def _bot_choice(self, t: LiveTable, state: State, seat: int, agent: Any) -> Any:
        """What the bot wants to play (run in a worker thread: bots may think a while)."""
        try:
            return agent.act(observe(state, seat))
        except Exception as exc:  # a bot's mistake must not stop the table
            log.warning("bot at seat %d failed to choose (%s)", seat, type(exc).__name__)
            return None

    def _bot_move(self, t: LiveTable, state: State, seat: int, choice: Any) -> tuple[str, State]:
        """The bot's choice validated like anyone's; its first legal action if it erred."""
        if choice is not None:
            try:
                after = state.apply(choice, seat=seat)
                action = state.parse_action(choice) if isinstance(choice, str) else choice
                return str(action), after
            except AceyDeuceyError as exc:
                log.warning("bot at seat %d chose an illegal action (%s)", seat, exc.code)
        first = next(iter(state.legal_actions()))
        return str(first), state.apply(first, seat=seat)

    async def _drive(self, t: LiveTable, budget: int) -> None:
        """Play chance and bots as one step (caller holds the lock); the rest later."""
        try:
            await self._commit_items(t, await self._plan(t, [], budget))
        except SeqTaken:
            await self._catch_up(t)
        self._after_change(t)

    def _next_is_bot(self, t: LiveTable) -> bool:
        seat = t.state.current_player()
        return seat >= 0 and t.seats[seat].kind == "bot" and not t.over

    def _after_change(self, t: LiveTable) -> None:
        """Start the background runner when automatic steps remain; reset the turn timer."""
        automatic = t.status == "playing" and (
            self._next_is_bot(t) or (t.state.is_chance_node() and t.to_roll() is None)
        )
        if automatic and (t.runner is None or t.runner.done()) and not self._stopping:
            t.runner = self._spawn(self._run(t))
        self._schedule_timer(t)

    async def _run(self, t: LiveTable) -> None:
        """The automatic steps a request left: each paced bot move (``bot_delay``) with
        the chance after it, as one step each."""
        while not self._stopping:
            paced = self.settings.bot_delay > 0
            if self._next_is_bot(t) and paced:
                await asyncio.sleep(self.settings.bot_delay)
            async with t.lock:
                try:  # a stale copy fails its append (SeqTaken) and catches up then
                    items = await self._plan(t, [], INLINE_STEPS, bots=1 if paced else None)
                    await self._commit_items(t, items)
                    moved = bool(items)
                except SeqTaken:
                    await self._catch_up(t)
                    moved = True
                except Exception:
                    log.exception("table %s: automatic step failed", t.id)
                    return
            if not moved:
                break
            await asyncio.sleep(0)
        self._schedule_timer(t)

    # -- the turn timer ---------------------------------------------------------------------
    def _cancel_timer(self, t: LiveTable) -> None:
        if t.timer is not None and t.timer is not asyncio.current_task():
            t.timer.cancel()
        t.timer, t.deadline = None, None

    def _schedule_timer(self, t: LiveTable) -> None:
        seconds = t.config.get("turn_seconds")
        seat = t.person_to_act()
        if not seconds or seat is None or self._stopping:
            self._cancel_timer(t)
            return
        if t.timer is not None and t.deadline is not None and t.timer_seq == t.seq:
            return
        self._cancel_timer(t)
        t.deadline = self.clock() + float(seconds)
        t.timer_seq = t.seq
        t.timer = self._spawn(self._expire(t, t.seq, float(seconds)))

    async def _expire(self, t: LiveTable, seq: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        await self.timeout(t.id, seq)

    async def timeout(self, table_id: str, seq: int) -> bool:
        """The turn timer ran out at ``seq``: the seat passes, or a bot plays for it."""
        t = await self.table(table_id)
        async with t.lock:
            await self._catch_up(t)
            seat = t.person_to_act()
            if t.seq != seq or seat is None:
                return False
            t.timer, t.deadline = None, None
            state = t.state
            first: Item
            if t.to_roll() == seat:
                action = t.chance().choose(state)
                first = ("chance", seat, str(action), state.apply(action), {"timeout": True})
            else:
                legal = [str(a) for a in state.legal_actions()]
                mode = t.config.get("on_timeout", "pass")
                if mode == "pass" and "pass" in legal:
                    first = ("timeout", seat, "pass", state.apply("pass", seat=seat), None)
                else:
                    agent = self._bot(t, seat, bot_names(t.game.game_id)[0])
                    choice = await asyncio.to_thread(self._bot_choice, t, state, seat, agent)
                    first = ("timeout", seat, *self._bot_move(t, state, seat, choice), None)
            try:
                await self._commit_items(t, await self._plan(t, [first], INLINE_STEPS))
            except SeqTaken:
                await self._catch_up(t)
                return False
            self._after_change(t)
            return True

    # -- table-level events -----------------------------------------------------------------
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

    async def rematch(self, table_id: str, token: str | None) -> dict[str, Any]:
        """A new table like this finished one (same game, rules, seats); the caller keeps
        its seat there.  Every player's request leads to the same new table."""
        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        await self._refresh_row(t)
        if not t.over:
            raise ServerError(409, "server.rematch_not_over")
        if t.row.get("rematch") is None:
            kinds = [
                "human" if k["kind"] == "human" else f"bot:{k['bot']}" for k in t.row["seat_kinds"]
            ]
            config = t.config
            new = await self.create(
                t.row["game"],
                t.row["rules"],
                kinds,
                public=bool(t.row["public"]),
                turn_seconds=config.get("turn_seconds"),
                on_timeout=config.get("on_timeout", "pass"),
                claim_after=config.get("claim_after"),
                rematch_of=t.id,
            )
            if not await self.store.set_rematch(t.id, new.id):
                await self.store.update_table(new.id, status="over", public=False)
            await self._refresh_row(t)
            self._push_seats(t)
            self._spawn(self.broadcaster.publish({"table": t.id, "seats": True}))
        new_id: str = t.row["rematch"]
        name = t.seats[seat].name or f"seat {seat}"
        try:
            token = await self.join(new_id, seat, name)
        except ServerError as exc:
            if exc.status != 409:
                raise
            token = None
        return {"id": new_id, "seat": seat, "token": token}

    # -- chat -------------------------------------------------------------------------------
    async def chat(self, table_id: str, token: str | None, text: str) -> dict[str, Any]:
        t, seat = await self.seat_of(table_id, token)
        if seat is None:
            raise ServerError(403, "server.token_missing")
        text = " ".join(text.split())
        limit = self.settings.chat_max_length
        if not text:
            raise ServerError(400, "server.chat_empty")
        if len(text) > limit:
            raise ServerError(413, "server.chat_too_long", limit=limit, length=len(text))
        now = self.clock()
        times = t.chat_times.setdefault(seat, collections.deque())
        while times and now - times[0] > self.settings.chat_window:
            times.popleft()
        if len(times) >= self.settings.chat_burst:
            raise ServerError(
                429,
                "server.chat_rate",
                count=self.settings.chat_burst,
                seconds=int(self.settings.chat_window),
            )
        times.append(now)
        line = await self.store.add_chat(t.id, seat, t.seats[seat].name or "", text)
        self._push_chat(t, line)
        self._spawn(self.broadcaster.publish({"table": t.id, "chat": line}))
        return line

    # -- views ------------------------------------------------------------------------------
    def seats_view(self, t: LiveTable) -> list[dict[str, Any]]:
        return [
            {
                "seat": i,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name if s.kind == "human" else f"bot:{s.bot}",
                "taken": s.taken,
                "connected": s.kind == "bot"
                or self.hub.count(t.id, i) > 0
                or i in self.presence.remote(t.id).seats,
            }
            for i, s in enumerate(t.seats)
        ]

    def observation(self, t: LiveTable, seat: int | None) -> dict[str, Any]:
        """The seat's observation, its legal actions as the table allows them: none
        unless playing, and ``roll`` when the throw of the dice is the seat's."""
        obs = observe(t.state, seat)
        if t.status != "playing":
            obs["legal_actions"] = []
        elif seat is not None and t.to_roll() == seat:
            obs["legal_actions"] = [ROLL]
        return obs

    def table_view(self, t: LiveTable) -> dict[str, Any]:
        """What every viewer may know of the table besides the observation."""
        return {
            "id": t.id,
            "game": t.game.game_id,
            "rules": t.game.rules.to_dict(),
            "public": bool(t.row["public"]),
            "status": t.status,
            "seq": t.seq,
            "seats": self.seats_view(t),
            "to_act": t.person_to_act(),
            "to_roll": t.to_roll(),
            "ended": t.ended,
            "turn_seconds": t.config.get("turn_seconds"),
            "on_timeout": t.config.get("on_timeout"),
            "claim_after": t.config.get("claim_after"),
            "deadline": t.deadline,
            "fairness": {
                "commitment": t.row["commitment"],
                "cutter": self.cutter(t),
                "cut": t.row.get("cut"),
            },
            "rematch": t.row.get("rematch"),
            "rematch_of": t.row.get("rematch_of"),
            "spectators": self.hub.count(t.id, None) + self.presence.remote(t.id).spectators,
        }

    def view(self, t: LiveTable, seat: int | None) -> dict[str, Any]:
        return {**self.table_view(t), "you": seat, "observation": self.observation(t, seat)}

    def record(self, t: LiveTable) -> Record:
        """The record: every action (chance's included); the seed only once it is over."""
        if not t.over and hidden_information(t.game):
            raise ServerError(409, "server.record_until_over")
        names = [
            s.name or f"seat {i}" if s.kind == "human" else f"bot:{s.bot}"
            for i, s in enumerate(t.seats)
        ]
        record = Record.start(t.game, names)
        record.actions = [e.text for e in t.entries if e.is_action]
        record.fairness = t.chance().fairness(reveal=t.over)
        record.finish(t.state)
        if record.result is not None:
            outcome = t.state.outcome()
            if outcome is not None:
                record.result.update(termination=outcome.termination, winners=list(outcome.winners))
            if t.ended is not None:
                record.result.update(t.ended)
        return record

    def events_since(self, t: LiveTable, since: int) -> list[dict[str, Any]]:
        return t.events[max(0, since) :]

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby, from the store (tables held here add who is connected)."""
        from aceydeucey.core.registry import game_class

        out = []
        rows = await self.store.lobby()
        watching = await self.presence.spectators(row["id"] for row in rows)
        for row in rows:
            try:
                preset_key = game_class(row["game"]).rules_class.PRESET_KEY
            except AceyDeuceyError:
                continue
            live = self._tables.get(row["id"])
            if live is not None:
                seat_list = self.seats_view(live)
            else:
                seat_list = [
                    {
                        "seat": i,
                        "kind": k["kind"],
                        "bot": k.get("bot"),
                        "name": row["taken"].get(i) if k["kind"] == "human" else f"bot:{k['bot']}",
                        "taken": k["kind"] == "bot" or i in row["taken"],
                        "connected": k["kind"] == "bot",
                    }
                    for i, k in enumerate(row["seat_kinds"])
                ]
            out.append(
                {
                    "id": row["id"],
                    "game": row["game"],
                    "preset": row["rules"].get(preset_key),
                    "seats": seat_list,
                    "taken": sum(1 for s in seat_list if s["taken"]),
                    "players": len(seat_list),
                    "status": live.status if live is not None else row["status"],
                    "spectators": watching.get(row["id"], 0),
                    "created_at": row["created_at"],
                }
            )
        return out

    # -- sockets ----------------------------------------------------------------------------
    async def subscribe(self, t: LiveTable, seat: int | None, lang: str) -> Subscriber:
        sub = Subscriber(seat, lang)
        sub.conn = self.presence.new_id()
        self.hub.join(t.id, sub)
        await self.presence.join(t.id, sub.conn, seat)
        await self.presence.refresh(t.id)
        if seat is not None:
            t.last_seen[seat] = self.clock()
            self._push_seats(t)
            self._spawn(self.broadcaster.publish({"table": t.id, "presence": True}))
        return sub

    async def unsubscribe(self, t: LiveTable, sub: Subscriber) -> None:
        self.hub.leave(t.id, sub)
        if sub.seat is not None:
            t.last_seen[sub.seat] = self.clock()
        try:
            await self.presence.leave(t.id, sub.conn, sub.seat)
        finally:
            if sub.seat is not None:
                self._push_seats(t)
                self._spawn(self.broadcaster.publish({"table": t.id, "presence": True}))
            self._forget_if_done(t)

    def _forget_if_done(self, t: LiveTable) -> None:
        """Drop a finished table nobody watches from memory (the store rebuilds it on demand)."""
        if t.over and not self.hub.subscribers(t.id) and self._tables.get(t.id) is t:
            del self._tables[t.id]
            self._loading.pop(t.id, None)
            self.presence.forget(t.id)

    def state_message(
        self,
        t: LiveTable,
        seat: int | None,
        step: list[Entry] | None = None,
        own: dict[int, dict[int, Any]] | None = None,
    ) -> dict[str, Any]:
        """The ``state`` message for one audience (a seat, or ``None``: the spectators):
        the observation after the step, ``events`` (each entry of the step as that
        audience may see it) and ``event`` (the last of them)."""
        obs = self.observation(t, seat)
        if step is None:
            step = t.entries[-1:]
        mine = (own or {}).get(seat, {}) if seat is not None else {}
        events = []
        for entry in step:
            event = dict(t.events[entry.seq - 1])
            if seat is not None and entry.is_action:
                if entry.seq in mine:
                    event["event"] = mine[entry.seq]
                elif entry.seq == t.seq:
                    event["event"] = obs.get("last_event")  # the seat's own view of it
            events.append(event)
        return {
            "type": "state",
            "seq": t.seq,
            "observation": obs,
            "event": events[-1] if events else None,
            "events": events,
            "you": seat,
            **{k: v for k, v in self.table_view(t).items() if k not in ("rules", "seq")},
        }

    def _push_step(
        self, t: LiveTable, step: list[Entry], own: dict[int, dict[int, Any]] | None = None
    ) -> None:
        """One message per audience for a whole step, serialised once per audience: every
        spectator of the table (and every socket of one seat) shares the same text."""
        subs = self.hub.subscribers(t.id)
        if not subs or not step:
            return
        texts: dict[int | None, str] = {}
        for sub in subs:
            text = texts.get(sub.seat)
            if text is None:
                text = texts[sub.seat] = dumps(self.state_message(t, sub.seat, step, own))
            sub.send(text)

    def _push_seats(self, t: LiveTable) -> None:
        message = {
            "type": "seats",
            "seq": t.seq,
            "status": t.status,
            "seats": self.seats_view(t),
            "rematch": t.row.get("rematch"),
        }
        for sub in self.hub.subscribers(t.id):
            sub.send(message)

    def _push_chat(self, t: LiveTable, line: dict[str, Any]) -> None:
        for sub in self.hub.subscribers(t.id):
            sub.send({"type": "chat", **line})

    async def _on_remote(self, message: dict[str, Any]) -> None:
        """Another process changed a table: catch up if this process holds it."""
        table_id = message.get("table")
        t = self._tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            return
        if "chat" in message and isinstance(message["chat"], dict):
            self._push_chat(t, message["chat"])
            return
        if message.get("presence"):  # a seat's socket opened or closed in another process
            await self.presence.refresh(t.id)
            self._push_seats(t)
            return
        async with t.lock:
            if message.get("seats"):
                await self._refresh_row(t)
                self._load_seats(t, await self.store.load_seats(t.id))
                self._push_seats(t)
            await self._catch_up(t)
            self._after_change(t)


def after_action(state: State, text: str) -> Any:
    """The canonical action ``text`` names in ``state`` (already validated by ``apply``)."""
    return state.parse_action(text)
