"""Bots thinking in their own processes, off the server's interpreter.

A bot's choice is mostly plain Python that holds the interpreter lock while it thinks (the
greedy bot's heuristic, the network bots' ranking around their kernels; the look-ahead
kernels of ``net2`` and ``net3`` release it), so in the server's process it takes the time
of every table's requests and pushes. With ``bot_processes`` = N > 0 the
bots of a table live in one of N worker processes (chosen by the table's id, so a table's
bots keep their state, a seeded random bot's stream among it) and only the observation
goes there and the action's text comes back. With 0 (the default) they think in a thread
of the server's process, as before.

The worker builds a bot as the server would (``make_bot`` with the server's seed for it,
seated under the table's rules) the first time the table's seat asks, and keeps the last
:data:`KEEP` bots it built. A worker that dies is replaced at the next choice, and that
choice is made in the server's process meanwhile; the table never waits on a lost worker.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from aceydeucey.server.warmup import warm_engines

log = logging.getLogger("aceydeucey.server")

__all__ = ["KEEP", "BotPool"]

#: Bots a worker keeps (a table's seat each), the least recently asked dropped first.
KEEP = 512

#: A worker's bots: (table, seat, bot, seed) -> the seated bot.
_bots: OrderedDict[tuple[str, int, str, int], Any] = OrderedDict()


def _choose(
    table: str, seat: int, game_id: str, rules: dict[str, Any], bot: str, seed: int,
    observation: dict[str, Any],
) -> Any:  # fmt: skip
    """In a worker: the choice of the table's bot at ``seat`` for ``observation``."""
    from aceydeucey.core.registry import load_game, make_bot
    from aceydeucey.core.table import seat_agent

    key = (table, seat, bot, seed)
    agent = _bots.get(key)
    if agent is None:
        agent = make_bot(game_id, bot, seed=seed)
        seat_agent(agent, load_game(game_id, **rules), seat)
        _bots[key] = agent
        while len(_bots) > KEEP:
            _bots.popitem(last=False)
    _bots.move_to_end(key)
    return agent.act(observation)


class BotPool:
    """N single-process executors; a table's bots always think in the same one."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self._executors: list[ProcessPoolExecutor | None] = [None] * processes

    def _executor(self, index: int) -> ProcessPoolExecutor:
        executor = self._executors[index]
        if executor is None:
            # "spawn": the server's process holds threads and an event loop, which a
            # forked child must not inherit
            context = multiprocessing.get_context("spawn")
            executor = ProcessPoolExecutor(1, mp_context=context, initializer=warm_engines)
            self._executors[index] = executor
        return executor

    async def choose(
        self, table: str, seat: int, game_id: str, rules: dict[str, Any], bot: str, seed: int,
        observation: dict[str, Any],
    ) -> Any:  # fmt: skip
        """The bot's choice, thought in its table's worker; raises ``BrokenProcessPool``
        (after replacing the worker) when the worker died, for the caller to choose here."""
        index = sum(table.encode()) % self.processes
        loop = asyncio.get_running_loop()
        executor = self._executor(index)
        try:
            return await loop.run_in_executor(
                executor, _choose, table, seat, game_id, rules, bot, seed, observation
            )
        except BrokenProcessPool:
            log.warning("a bot process died; it is replaced")
            self._executors[index] = None
            executor.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        for executor in self._executors:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        self._executors = [None] * self.processes
