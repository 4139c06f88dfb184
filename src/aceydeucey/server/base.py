"""What every part of the table service shares: the process's tables, their sockets,
its store, pub/sub, presence and table owners, its background tasks, and ``owned``:
the routing of a command to the process that owns its table."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.server.botpool import BotPool
from aceydeucey.server.errors import ServerError, is_outage, status_of, unavailable
from aceydeucey.server.jsontext import jsonable
from aceydeucey.server.live import LiveTable
from aceydeucey.server.logs import fault
from aceydeucey.server.owners import LeaseOwners, Owners
from aceydeucey.server.presence import MemoryPresence, Presence
from aceydeucey.server.pubsub import Broadcaster, Hub, LocalBroadcaster, OwnerGone
from aceydeucey.server.settings import Settings
from aceydeucey.server.store import Store

__all__ = ["FORWARDED", "ServiceBase", "owned"]

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound="ServiceBase")

#: The commands a process forwards to a table's owner, by name (undecorated).
FORWARDED: dict[str, Callable[..., Awaitable[Any]]] = {}
#: Times a forwarded command follows a table that moved to yet another owner.
HOPS = 3


def owned(
    method: Callable[Concatenate[S, str, P], Awaitable[R]],
) -> Callable[Concatenate[S, str, P], Awaitable[R]]:
    """Run a table command on the table's owner: here when this process owns the table
    (or could take its lease), else forwarded to the owner and its answer returned
    (its errors raised here as they were raised there)."""
    name = method.__name__
    FORWARDED[name] = method

    @functools.wraps(method)
    async def run(self: S, table_id: str, /, *args: P.args, **kwargs: P.kwargs) -> R:
        owner = await self._owner_for(table_id)
        if owner is None:
            return await method(self, table_id, *args, **kwargs)
        return cast(R, await self._forward(owner, name, table_id, list(args), dict(kwargs)))

    return run


class ServiceBase:
    """The state the parts of ``TableService`` share, and the helpers all of them use."""

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
        self.owners: Owners = (
            Owners(self.broadcaster.origin)
            if isinstance(self.broadcaster, LocalBroadcaster)
            else LeaseOwners(
                self.broadcaster.origin,
                store,
                settings.lease_seconds,
                clock=clock,
                on_lost=self._lost,
            )
        )
        self._tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False
        #: whether the games' engines have been warmed up (``warmup.warm_engines``)
        self.warm = False
        #: the bots' own processes (``bot_processes``), or ``None``: bots think in a thread
        self.bot_pool = BotPool(settings.bot_processes) if settings.bot_processes else None

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_report)
        return task

    # -- owners -----------------------------------------------------------------------------
    async def _owner_for(self, table_id: str) -> str | None:
        """``None`` when this process owns the table (taking its lease when free or
        expired; a copy held here is brought up to date then), else the owner's id."""
        t = await self.table(table_id)  # 404 for an unknown table; a read copy here
        if not self.owners.shared:
            return None
        was = self.owners.owns(table_id)
        holder, _ = await self.owners.owner(table_id)
        if holder != self.owners.me:
            return holder
        if not was:  # just taken over: what the previous owner appended first
            await self._catch_up(t)
        return None

    def ownership(self) -> dict[str, Any]:
        """This process's id, and how many tables it holds in memory and owns."""
        held = list(self._tables)
        owned = sum(1 for table_id in held if self.owners.owns(table_id))
        return {
            "process": self.owners.me,
            "engines": "warm" if self.warm else "warming",
            "tables": {"held": len(held), "owned": owned},
        }

    async def _forward(
        self, owner: str, name: str, table_id: str, args: list[Any], kwargs: dict[str, Any]
    ) -> Any:
        """Send command ``name`` to the table's owner and answer what it answers.

        An owner nobody hears (it died) keeps its lease until it expires: the command
        waits for that (at most ``lease_seconds``), takes the table and runs here.
        Redis away or the owner silent for ``forward_timeout``: 503, nothing changed here.
        """
        command = {"op": name, "table": table_id, "args": args, "kwargs": kwargs}
        for _ in range(HOPS):
            try:
                answer = await self.broadcaster.request(
                    owner, command, self.settings.forward_timeout
                )
            except OwnerGone:
                holder = await self._after_owner_gone(table_id)
                if holder is None:
                    return await FORWARDED[name](self, table_id, *args, **kwargs)
                owner = holder
                continue
            except Exception as exc:
                fault("owner_unreachable", exc, table=table_id, command=name)
                raise unavailable(self.settings.retry_after) from None
            if "moved" in answer:
                self._forget_owner(table_id)
                owner = str(answer["moved"])
                if owner == self.owners.me:
                    return await FORWARDED[name](self, table_id, *args, **kwargs)
                continue
            error = answer.get("error")
            if isinstance(error, dict):
                params = error.get("params")
                raise ServerError(
                    int(error.get("status", 500)),
                    str(error.get("code", "server.internal")),
                    **(params if isinstance(params, dict) else {}),
                )
            result = answer.get("result")
            t = self._tables.get(table_id)
            seq = result.get("seq") if isinstance(result, dict) else None
            if t is not None:  # this process's sockets see the step before the answer
                await self._sync(t, seq if isinstance(seq, int) else None)
            return result
        raise unavailable(self.settings.retry_after)

    async def _after_owner_gone(self, table_id: str) -> str | None:
        """The owner did not hear: wait out its lease, then take the table (``None``),
        or the process that took it first."""
        for _ in range(2):
            self._forget_owner(table_id)
            holder, until = await self.owners.owner(table_id)
            if holder == self.owners.me:
                await self._catch_up(await self.table(table_id))
                return None
            wait = until - self.clock()
            if wait > self.settings.lease_seconds + 1:
                break
            await asyncio.sleep(max(0.0, wait) + 0.05)
        self._forget_owner(table_id)
        holder, _ = await self.owners.owner(table_id)
        if holder == self.owners.me:
            await self._catch_up(await self.table(table_id))
            return None
        return holder

    def _forget_owner(self, table_id: str) -> None:
        if isinstance(self.owners, LeaseOwners):
            self.owners.forget(table_id)

    async def _answer_forwarded(self, command: dict[str, Any]) -> dict[str, Any]:
        """Run a command another process forwarded (this process owns the table), or
        say who owns it now (``moved``)."""
        name, table_id = command.get("op"), command.get("table")
        method = FORWARDED.get(name) if isinstance(name, str) else None
        args, kwargs = command.get("args"), command.get("kwargs")
        if method is None or not isinstance(table_id, str):
            return _error(ServerError(400, "server.bad_message"))
        if not isinstance(args, list) or not isinstance(kwargs, dict):
            return _error(ServerError(400, "server.bad_message"))
        try:
            holder = await self._owner_for(table_id)
            if holder is not None:
                return {"moved": holder}
            result = await method(self, table_id, *args, **kwargs)
        except AceyDeuceyError as exc:
            return _error(exc)
        except Exception as exc:
            if is_outage(exc):
                fault("store_unavailable", exc, table=table_id, command=name)
                return _error(unavailable(self.settings.retry_after))
            fault("unexpected", exc, table=table_id, command=name)
            return _error(ServerError(500, "server.internal"))
        return {"result": jsonable(result)}

    def _lost(self, table_id: str) -> None:
        """Another process took this table over: its bots and timer stop here."""
        t = self._tables.get(table_id)
        if t is not None:
            for task in (t.timer, t.runner):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
            t.timer, t.runner, t.deadline = None, None, None

    async def _sync(self, t: LiveTable, seq: int | None = None) -> None:
        """Bring a read copy up to date (at least to ``seq`` when given): nothing to do
        for the owner, whose copy is the truth; else from the Redis history when it
        reaches back to this copy, and from the store otherwise."""
        raise NotImplementedError

    async def _catch_up(self, t: LiveTable) -> list[Any]:
        raise NotImplementedError

    async def table(self, table_id: str) -> LiveTable:
        raise NotImplementedError

    def _drop(self, table_id: str) -> None:
        """Forget a table in this process (memory, presence, channel, lease)."""
        del self._tables[table_id]
        self._loading.pop(table_id, None)
        self.presence.forget(table_id)
        self.broadcaster.unfollow(table_id)
        if self.owners.shared and self.owners.owns(table_id):
            self._spawn(self.owners.release(table_id))

    def _forget_if_done(self, t: LiveTable) -> None:
        """Drop a finished table nobody watches from memory (the store rebuilds it on demand)."""
        if t.over and not self.hub.subscribers(t.id) and self._tables.get(t.id) is t:
            self._drop(t.id)

    def evict_idle(self, idle_seconds: float) -> list[str]:
        """Drop from memory the tables untouched for ``idle_seconds`` that need nothing
        from this process: no socket, no automatic step running, no turn timer, no
        request holding the lock.  The store rebuilds each on its next touch."""
        now = time.monotonic()
        gone = []
        for table_id, t in list(self._tables.items()):
            busy = (
                self.hub.subscribers(table_id)
                or t.lock.locked()
                or t.timer is not None
                or (t.runner is not None and not t.runner.done())
            )
            if not busy and now - t.touched >= idle_seconds:
                self._drop(table_id)
                gone.append(table_id)
        return gone

    def _cancel_timer(self, t: LiveTable) -> None:
        if t.timer is not None and t.timer is not asyncio.current_task():
            t.timer.cancel()
        t.timer, t.deadline = None, None


def _error(exc: AceyDeuceyError) -> dict[str, Any]:
    """A refusal as a forwarded command's answer (raised again by the asker)."""
    return {"error": {"status": status_of(exc), "code": exc.code, "params": exc.params}}


def _report(task: asyncio.Task[Any]) -> None:
    """A background task's failure as one log line (a driver's message holds SQL values)."""
    if not task.cancelled() and (exc := task.exception()) is not None:
        fault("store_unavailable" if is_outage(exc) else "unexpected", exc)
