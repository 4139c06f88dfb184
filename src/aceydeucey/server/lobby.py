"""Creating tables and listing them: games from form options, seats, the lobby."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.core.game import Game
from aceydeucey.core.registry import bot_names, load_game, make_bot
from aceydeucey.core.table import seat_agent
from aceydeucey.server.base import owned
from aceydeucey.server.commands import Commands
from aceydeucey.server.errors import ServerError
from aceydeucey.server.fairness import commitment, new_server_seed
from aceydeucey.server.live import (
    TIMEOUT_CHOICES,
    LiveTable,
)

log = logging.getLogger("aceydeucey.server")

#: A public table with no action, seat taken or creation for this long leaves the lobby.
LOBBY_IDLE_SECONDS = 30 * 60

__all__ = ["LOBBY_IDLE_SECONDS", "Lobby"]


class Lobby(Commands):
    """Creating and listing tables (a part of ``TableService``)."""

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
        hints: bool = False,
    ) -> LiveTable:
        game = self.make_game(game_id, options)
        if hints and game.game_id != "backgammon":
            raise ServerError(400, "server.hints_game", game=game.game_id)
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
                # a private table's seats need this secret, carried by its invite link
                "invite": None if public else secrets.token_urlsafe(16),
                "turn_seconds": turn_seconds,
                "on_timeout": on_timeout,
                "claim_after": self.settings.claim_after if claim_after is None else claim_after,
                "hints": bool(hints),
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
        await self.owners.owner(table_id)  # the creating process owns the new table
        t = self._hold(self._fresh(row, game))  # as a rebuild from the store would make it
        async with t.lock:
            await self._maybe_start(t)
        return t

    async def lobby(self) -> list[dict[str, Any]]:
        """The lobby, from the store (tables held here add who is connected)."""
        from aceydeucey.core.registry import game_class

        out = []
        now = self.clock()
        rows = [
            row for row in await self.store.lobby() if now - row["last_at"] <= LOBBY_IDLE_SECONDS
        ]
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
                    "claim_after": (row.get("config") or {}).get("claim_after"),
                    "turn_seconds": (row.get("config") or {}).get("turn_seconds"),
                    "hints": bool((row.get("config") or {}).get("hints")),
                    "created_at": row["created_at"],
                    "idle_seconds": max(0.0, now - row["last_at"]),
                }
            )
        return out

    @owned
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
                hints=bool(config.get("hints")),
            )
            if not await self.store.set_rematch(t.id, new.id):
                await self.store.update_table(new.id, status="over", public=False)
            await self._refresh_row(t)
            self._push_seats(t)
            self._spawn(self.broadcaster.publish({"table": t.id, "seats": True}))
        new_id: str = t.row["rematch"]
        name = t.seats[seat].name or f"seat {seat}"
        secret = (await self.table(new_id)).config.get("invite")
        try:
            token = await self.join(new_id, seat, name, invite=secret)
        except ServerError as exc:
            if exc.status != 409:
                raise
            token = None
        return {"id": new_id, "seat": seat, "token": token, "secret": secret}
