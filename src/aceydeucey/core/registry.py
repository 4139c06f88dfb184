"""The registry of games: ``load_game`` by id, imported lazily.

Games never import each other; the registry names each game's class by its
dotted path so loading one game does not load the others.
"""

from __future__ import annotations

import importlib
from typing import Any

from aceydeucey.core.errors import UnknownGameError
from aceydeucey.core.game import Game

__all__ = ["game_class", "game_ids", "load_game", "register_game"]

_GAMES: dict[str, str] = {
    "inbetween": "aceydeucey.inbetween.game:InBetweenGame",
    "backgammon": "aceydeucey.backgammon.game:BackgammonGame",
    "aces-in-the-pot": "aceydeucey.aces_in_the_pot.game:AcesInThePotGame",
}


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
        raise UnknownGameError(f"unknown game {game_id!r}; accepted: {', '.join(_GAMES)}") from None
    module_name, _, class_name = path.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def load_game(game_id: str, **options: Any) -> Game:
    """A game with validated rules: ``load_game("inbetween", preset="guide", players=3)``."""
    return game_class(game_id).from_options(**options)
