"""The automatic runner: chance's draws, the bots' moves and the turn timer.

``_plan`` works out, in memory, the automatic steps after a state up to the next
person's turn; a request appends them with its own action, and ``_run`` plays what a
request left (bots paced by ``bot_delay``) in the background.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.game import State
from aceydeucey.core.registry import bot_names, make_bot
from aceydeucey.core.table import next_step, seat_agent
from aceydeucey.server.errors import is_outage
from aceydeucey.server.fairness import FairChance
from aceydeucey.server.live import (
    INLINE_STEPS,
    Item,
    LiveTable,
    observe,
)
from aceydeucey.server.logs import fault, log_json, server_log
from aceydeucey.server.pubsub import LocalBroadcaster
from aceydeucey.server.store import SeqTaken
from aceydeucey.server.tablelog import TableLog

log = logging.getLogger("aceydeucey.server")

__all__ = ["Runner"]


class Runner(TableLog):
    """Chance, bots and timers (a part of ``TableService``)."""

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
        while len(items) < budget:
            step = next_step(state, t.is_person)
            if step.kind == "chance":
                action = chance.choose(state)
                after = state.apply(action)
                items.append(("chance", step.seat, str(action), after, None))
                state = after
                continue
            seat = step.seat
            if step.kind != "decide" or seat is None or t.is_person(seat) or bots <= 0:
                break  # over, a person's throw or decision, or no bot move inline
            bots -= 1
            choice = await self._choose(t, state, seat)
            text, after = self._bot_move(t, state, seat, choice)
            items.append(("bot", seat, text, after, None))
            state = after
        return items

    async def _choose(self, t: LiveTable, state: State, seat: int) -> Any:
        """The seat's bot's choice: thought in its table's bot process where the server
        has them (``bot_processes``), else in a worker thread (and there too when the
        bot process died: it is replaced for the next choice)."""
        if self.bot_pool is not None:
            name = t.seats[seat].bot or bot_names(t.game.game_id)[0]
            seed = t.bot_seeds.setdefault(seat, secrets.randbits(32))
            try:
                return await self.bot_pool.choose(
                    t.id, seat, t.game.game_id, t.game.rules.to_dict(), name, seed,
                    observe(state, seat),
                )  # fmt: skip
            except BrokenProcessPool:
                pass
            except Exception as exc:  # a bot's mistake must not stop the table
                log.warning("bot at seat %d failed to choose (%s)", seat, type(exc).__name__)
                return None
        agent = self._bot(t, seat)
        return await asyncio.to_thread(self._bot_choice, t, state, seat, agent)

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
            self._refused(t)
            await self._catch_up(t)
        self._after_change(t)

    def _refused(self, t: LiveTable) -> None:
        """An automatic step lost its append to another writer: one log line (with one
        owner per table, this happens only around a takeover)."""
        log_json(server_log, "step_refused", logging.WARNING, table=t.id, seq=t.seq + 1)

    def _next_is_bot(self, t: LiveTable) -> bool:
        step = t.next_step()
        return step.kind == "decide" and step.seat is not None and not t.is_person(step.seat)

    def _after_change(self, t: LiveTable) -> None:
        """Start the background runner when automatic steps remain; reset the turn timer.

        Only the table's owner runs its bots and its timer (``owners``)."""
        if not self.owners.owns(t.id):
            return
        automatic = t.status == "playing" and (
            self._next_is_bot(t) or t.next_step().kind == "chance"
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
            away = False
            async with t.lock:
                try:  # a stale copy fails its append (SeqTaken) and catches up then
                    items = await self._plan(t, [], INLINE_STEPS, bots=1 if paced else None)
                    await self._commit_items(t, items)
                    moved = bool(items)
                except SeqTaken:
                    self._refused(t)
                    await self._catch_up(t)
                    moved = True
                except Exception as exc:
                    if not is_outage(exc):
                        log.exception("table %s: automatic step failed", t.id)
                        return
                    fault("store_unavailable", exc, table=t.id)  # the table waits for it
                    moved = away = True
            if away:
                await asyncio.sleep(self.settings.retry_after)
            elif not moved:
                break
            await asyncio.sleep(0)
        self._schedule_timer(t)

    def _schedule_timer(self, t: LiveTable) -> None:
        """Set or stop the turn timer; whenever the deadline changes, every socket of the
        table (seats and spectators) gets a ``clock`` message with it."""
        before = t.deadline
        self._set_timer(t)
        if t.deadline != before:  # every viewer sees the running clock, and when it stops
            clock: dict[str, Any] = {"type": "clock", "seq": t.seq, "deadline": t.deadline}
            clock.update(seat=t.person_to_act(), now=self.clock())
            for sub in self.hub.subscribers(t.id):
                sub.send(clock)
            if not isinstance(self.broadcaster, LocalBroadcaster):  # other processes' sockets
                self._spawn(self.broadcaster.publish({"table": t.id, "clock": clock}))

    def _set_timer(self, t: LiveTable) -> None:
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
        while True:  # the store away: the timer fires again once it is back
            try:
                await self.timeout(t.id, seq)
                return
            except Exception as exc:
                if not is_outage(exc) or self._stopping:
                    raise
                fault("store_unavailable", exc, table=t.id)
                await asyncio.sleep(self.settings.retry_after)

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
                self._refused(t)
                await self._catch_up(t)
                return False
            self._after_change(t)
            return True
