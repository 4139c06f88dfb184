"""A table as one process holds it (``LiveTable``), and the values the service's modules share.

``LiveTable`` is the state after replaying the table's log, with what the log says
besides (seats, the end of a resigned or claimed game) and the process's own
belongings (lock, bots, timer, runner).  ``observe`` is the only way a view is made
(``observation(seat)``); ``hidden_information`` says whether a game can deal a card
face down.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from aceydeucey.core.game import Game, State
from aceydeucey.core.table import Next, next_step
from aceydeucey.server.fairness import FairChance
from aceydeucey.server.jsontext import dumps
from aceydeucey.server.store import Entry

__all__ = [
    "DECISION_KINDS",
    "INLINE_STEPS",
    "ROLL",
    "TIMEOUT_CHOICES",
    "Item",
    "LiveTable",
    "SeatInfo",
    "after_action",
    "dumps",
    "event_of",
    "hash_token",
    "hidden_information",
    "observe",
]

log = logging.getLogger("aceydeucey.server")

#: Steps a request plays itself (chance, bots) before handing the rest to a background task.
INLINE_STEPS = 64
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
    #: each bot seat's seed, for its bot in a bot process (``server.botpool``)
    bot_seeds: dict[int, int] = field(default_factory=dict)
    last_seen: list[float] = field(default_factory=list)
    deadline: float | None = None
    timer: asyncio.Task[None] | None = None
    timer_seq: int = -1
    runner: asyncio.Task[None] | None = None
    chat_times: dict[int, collections.deque[float]] = field(default_factory=dict)
    #: the seat that cuts (``Views.cutter``), worked out once
    cutter: int | None = None
    #: when a request or a step last touched the table (``time.monotonic``)
    touched: float = field(default_factory=time.monotonic)

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

    def is_person(self, seat: int) -> bool:
        """Whether a person holds the seat (who throws their own dice, and decides)."""
        return self.seats[seat].kind == "human"

    def next_step(self) -> Next:
        """What happens next at this table (``core.table.next_step``: the runner's rule,
        with a person's throw awaited), ``over`` once the game has ended."""
        if self.over:
            return Next("over", None)
        return next_step(self.state, self.is_person)

    def to_roll(self) -> int | None:
        """The person whose ``roll`` the table waits for, if any."""
        step = self.next_step()
        return step.seat if step.kind == "throw" else None

    def person_to_act(self) -> int | None:
        """The human seat the table waits for (to act or to roll), or None."""
        if self.status != "playing":
            return None
        step = self.next_step()
        if step.kind == "throw" or (
            step.kind == "decide" and step.seat is not None and self.is_person(step.seat)
        ):
            return step.seat
        return None

    def chance(self) -> FairChance:
        return FairChance(
            bytes.fromhex(self.row["server_seed"]),
            bytes.fromhex(self.row["cut"] or ""),
            draws=self.draws,
        )


def observe(state: State, seat: int | None) -> dict[str, Any]:
    """``state.observation(seat)``: the seat's view, or the public one for ``None``."""
    return state.observation(seat)


def event_of(state: State) -> dict[str, Any] | None:
    """The ``last_event`` of ``state``'s observations, without building one.

    The envelope's ``last_event`` is the state's ``event_view()`` for every seat and for
    spectators alike (``core.game.State.observation``): it is public by construction,
    so one computation serves every audience of a step."""
    return state.event_view()


def hidden_information(game: Game) -> bool:
    """Whether the game can deal a card face down (its ``GameInfo``): its record is then
    served only once the game is over."""
    return game.info.hidden_information


def after_action(state: State, text: str) -> Any:
    """The canonical action ``text`` names in ``state`` (already validated by ``apply``)."""
    return state.parse_action(text)
