"""Numeric encodings of the games for learning agents: a codec per game.

A codec turns what the contract gives a seat into arrays of fixed shape:

- ``encode(observation)`` maps ``state.observation(seat)`` (the JSON-ready view, and
  nothing else: a codec never sees a state) to a ``float32`` vector of ``size``
  features, each inside ``[low, high]``; ``feature_names`` names every one of them;
- ``action_indices(legal)`` maps the seat's legal actions (their canonical text, in the
  contract's order) to positions in a fixed table of ``num_actions`` actions, ``None``
  for an action the table cannot hold.

Seats are seen from the observer: every per-seat block starts with the observer and
goes clockwise (``rel[0]`` is me, ``rel[1]`` the seat on my left, ...), so one policy can
sit in any seat.  ``codec_for(game, **options)`` builds the codec registered for the
game's id; the per-game encodings are documented in ``docs/ai.md``.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game

__all__ = ["Codec", "Layout", "codec_for", "register_codec"]

Vector = npt.NDArray[np.float32]

_CODECS: dict[str, str] = {
    "inbetween": "aceydeucey.ai.codec_inbetween:InBetweenCodec",
    "backgammon": "aceydeucey.ai.codec_backgammon:BackgammonCodec",
    "aces-in-the-pot": "aceydeucey.ai.codec_aces:AcesCodec",
}


def register_codec(game_id: str, path: str) -> None:
    """Register the codec class of a game by dotted path (``"package.module:Class"``)."""
    _CODECS[game_id] = path


def codec_for(game: Game, **options: Any) -> Codec:
    """The codec of ``game`` (its registered class), with the codec's own ``options``."""
    path = _CODECS.get(game.game_id)
    if path is None:
        raise ArgumentError("ai.no_codec", game=game.game_id, accepted=", ".join(sorted(_CODECS)))
    module_name, _, class_name = path.partition(":")
    cls: type[Codec] = getattr(importlib.import_module(module_name), class_name)
    accepted = cls.OPTIONS
    for name in options:
        if name not in accepted:
            raise ArgumentError(
                "ai.unknown_encoding_option",
                option=name,
                game=game.game_id,
                accepted=", ".join(accepted) or "-",
            )
    return cls(game, **options)


class Layout:
    """Named blocks of features with their bounds, laid end to end.

    >>> layout = Layout()
    >>> layout.add("pot", 1, high=4.0)
    slice(0, 1, None)
    >>> layout.add("me", 2)
    slice(1, 3, None)
    >>> layout.names
    ['pot', 'me[0]', 'me[1]']
    """

    def __init__(self) -> None:
        self.names: list[str] = []
        self._low: list[float] = []
        self._high: list[float] = []

    def add(self, name: str, size: int, *, low: float = 0.0, high: float = 1.0) -> slice:
        start = len(self.names)
        self.names.extend([name] if size == 1 else [f"{name}[{i}]" for i in range(size)])
        self._low.extend([low] * size)
        self._high.extend([high] * size)
        return slice(start, start + size)

    def bounds(self) -> tuple[Vector, Vector]:
        return np.array(self._low, dtype=np.float32), np.array(self._high, dtype=np.float32)


class Codec(ABC):
    """The fixed-shape numeric view of one game under its rules (see the module docstring).

    Subclasses set ``game_id`` and build their ``layout`` in ``__init__``, then call
    ``_finish``.  ``agents_throw`` says whether, by default, an environment hands each
    throw of the dice to the seat that makes it (``chance_actor``) as a one-action turn:
    only where the game has no other decisions (``has_decisions`` is ``False``).
    """

    game_id: ClassVar[str]
    #: The keyword options the codec accepts (``codec_for`` rejects the others).
    OPTIONS: ClassVar[tuple[str, ...]] = ()
    has_decisions: ClassVar[bool] = True

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.num_players
        self.layout = Layout()

    def _finish(self) -> None:
        self.low, self.high = self.layout.bounds()

    @property
    def agents_throw(self) -> bool:
        return not self.has_decisions

    @property
    def size(self) -> int:
        return len(self.layout.names)

    @property
    def feature_names(self) -> list[str]:
        return list(self.layout.names)

    @property
    @abstractmethod
    def num_actions(self) -> int:
        """The size of the fixed action table."""

    @abstractmethod
    def encode(self, observation: Mapping[str, Any]) -> Vector:
        """The feature vector of a seat's observation (clipped to ``[low, high]``)."""

    @abstractmethod
    def action_indices(self, legal: Sequence[str]) -> list[int | None]:
        """Each legal action's position in the table (``None``: not in the table)."""

    # -- helpers for subclasses -------------------------------------------------------
    def _vector(self) -> Vector:
        return np.zeros(self.size, dtype=np.float32)

    def _clip(self, vec: Vector) -> Vector:
        np.clip(vec, self.low, self.high, out=vec)
        return vec

    def _rel(self, observation: Mapping[str, Any], seat: int | None) -> int | None:
        """``seat`` counted clockwise from the observer (0 is the observer), or ``None``."""
        me = observation["seat"]
        if me is None:
            raise ArgumentError("ai.spectator_view")
        if seat is None:
            return None
        return (int(seat) - int(me)) % self.players

    def _per_seat(self, observation: Mapping[str, Any], values: Sequence[Any]) -> list[Any]:
        """``values`` (one per seat, by seat number) reordered from the observer."""
        me = observation["seat"]
        if me is None:
            raise ArgumentError("ai.spectator_view")
        n = self.players
        return [values[(me + k) % n] for k in range(n)]
