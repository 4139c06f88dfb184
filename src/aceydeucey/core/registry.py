"""The registry of games: ``load_game`` by id, imported lazily.

Games never import each other; the registry names each game's class by its
dotted path so loading one game does not load the others.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from aceydeucey.core.errors import UnknownGameError

if TYPE_CHECKING:  # the games import the contract; the registry only names them
    from aceydeucey.core.game import Game

__all__ = [
    "BUILTIN_GAME_IDS",
    "bot_names",
    "game_class",
    "game_ids",
    "load_game",
    "make_bot",
    "register_game",
]

_GAMES: dict[str, str] = {
    "inbetween": "aceydeucey.inbetween.game:InBetweenGame",
    "backgammon": "aceydeucey.backgammon.game:BackgammonGame",
    "aces-in-the-pot": "aceydeucey.aces_in_the_pot.game:AcesInThePotGame",
}


#: The games this package ships (``register_game`` may add others).
BUILTIN_GAME_IDS: tuple[str, ...] = tuple(_GAMES)


def register_game(game_id: str, path: str) -> None:
    """Register a game class by dotted path (``"package.module:Class"``).

    The three built-in games are registered already; this is for extensions
    and test doubles.
    """
    if ":" not in path:
        raise ValueError(f"game path {path!r} must look like 'package.module:Class'")
    _GAMES[game_id] = path


def game_ids() -> list[str]:
    """The ids ``load_game`` accepts."""
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    """The Game class registered under ``game_id``."""
    try:
        path = _GAMES[game_id]
    except KeyError:
        accepted = ", ".join(_GAMES)
        raise UnknownGameError("game.unknown", game=game_id, accepted=accepted) from None
    module_name, _, class_name = path.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load_game(game_id: str, **options: Any) -> Game:
    """A game with validated rules: ``load_game("inbetween", preset="guide", players=3)``."""
    return game_class(game_id).from_options(**options)


#: Each game's bots: the module whose ``BOTS`` (or ``ALL_BOTS``) maps a strategy name to a
#: class taking ``seed``.
_BOTS: dict[str, str] = {
    "inbetween": "aceydeucey.sim.inbetween_bots",
    "backgammon": "aceydeucey.backgammon.bots",
    "aces-in-the-pot": "aceydeucey.core.agents",
}


def bot_names(game_id: str) -> list[str]:
    """The strategies ``make_bot`` accepts for ``game_id`` (the first is the default)."""
    game_class(game_id)  # an unknown game is refused the same way everywhere
    return list(_bots(game_id))


def _bots(game_id: str) -> dict[str, Any]:
    """A game's ``BOTS`` (only the generic ones for a game that lists none)."""
    module = _BOTS.get(game_id, "aceydeucey.core.agents")
    found = importlib.import_module(module)
    bots: dict[str, Any] = getattr(found, "ALL_BOTS", None) or found.BOTS
    return bots


def make_bot(game_id: str, name: str, *, seed: int | None = None) -> Any:
    """A new bot of strategy ``name`` for ``game_id`` (an agent: ``act(observation)``)."""
    game_class(game_id)
    bots = _bots(game_id)
    if name not in bots:
        from aceydeucey.core.errors import ArgumentError

        raise ArgumentError("bot.unknown", game=game_id, bot=name, accepted=", ".join(bots))
    return bots[name](seed=seed)
