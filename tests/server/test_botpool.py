"""Bots in their own processes (``bot_processes``): the games play as in a thread, a table's
bots keep their state in one process, and a dead bot process costs no move."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from aceydeucey.core.registry import load_game, make_bot
from aceydeucey.core.table import seat_agent
from aceydeucey.server.app import create_app
from aceydeucey.server.botpool import BotPool
from aceydeucey.server.settings import Settings
from tests.server.conftest import new_table, view


def finished(c: TestClient, table_id: str, seconds: float = 120) -> dict[str, Any]:
    """The table's view once its game is over (a bounded wait, not a timing assertion)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        v = view(c, table_id)
        if v["status"] != "playing":
            return v
        time.sleep(0.05)
    raise AssertionError(f"table {table_id} did not finish: {view(c, table_id)}")


def test_bots_in_their_process_play_whole_games_the_record_replays(
    settings_factory: Callable[..., Settings],
) -> None:
    from aceydeucey.core.record import Record, replay

    with TestClient(create_app(settings_factory(bot_processes=1))) as c:
        classic = {"variant": "classic"}
        ids = [
            new_table(c, "backgammon", ["bot:greedy", "bot:random"], options=classic),
            new_table(c, "inbetween", ["bot:ev", "bot:random"], options={"players": 2}),
        ]
        for table_id in ids:
            v = finished(c, table_id)
            assert v["status"] in ("over", "finished"), v["status"]
            record = Record.from_dict(c.get(f"/api/tables/{table_id}/record").json())
            assert replay(record).is_terminal()
        pool = c.app.state.service.bot_pool  # type: ignore[attr-defined]
        [executor] = pool._executors
        assert executor is not None  # the bots thought there, not in the server's process
        pids = [p.pid for p in executor._processes.values()]
        assert pids and os.getpid() not in pids


def test_a_tables_bot_keeps_its_state_in_its_process() -> None:
    """A seeded random bot in the pool chooses what the same bot would here, move after move
    (its stream goes on in the worker: one bot a seat, kept between choices)."""
    game = load_game("backgammon", variant="classic")
    here = make_bot("backgammon", "random", seed=77)
    seat_agent(here, game, 0)

    async def run() -> list[tuple[Any, Any]]:
        pool = BotPool(2)
        try:
            state, out = game.new_initial_state(), []
            import random

            dice = random.Random(5)
            while len(out) < 12 and not state.is_terminal():
                if state.is_chance_node():
                    state = state.apply(dice.choice([a for a, _ in state.chance_outcomes()]))
                    continue
                if state.current_player() != 0 or len(state.legal_actions()) < 2:
                    state = state.apply(next(iter(state.legal_actions())))
                    continue
                obs = state.observation(0)
                far = await pool.choose(
                    "t1", 0, "backgammon", game.rules.to_dict(), "random", 77, obs
                )
                near = here.act(obs)
                out.append((far, near))
                state = state.apply(near)
            return out
        finally:
            pool.close()

    pairs = asyncio.run(run())
    assert len(pairs) >= 6 and all(far == near for far, near in pairs), pairs


def test_a_dead_bot_process_costs_no_move(settings_factory: Callable[..., Settings]) -> None:
    with TestClient(create_app(settings_factory(bot_processes=1))) as c:
        first = new_table(
            c, "backgammon", ["bot:greedy", "bot:greedy"], options={"variant": "classic"}
        )
        finished(c, first)
        pool = c.app.state.service.bot_pool  # type: ignore[attr-defined]
        [executor] = pool._executors
        for process in list(executor._processes.values()):
            process.kill()
            process.join(10)
        # the next table's bots meet the dead process: that choice is made here, the
        # process is replaced, and the game plays to its end
        second = new_table(
            c, "backgammon", ["bot:greedy", "bot:random"], options={"variant": "classic"}
        )
        v = finished(c, second)
        assert v["status"] in ("over", "finished")
        assert pool._executors[0] is not executor
