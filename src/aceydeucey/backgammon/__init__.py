"""Backgammon family: Acey-Deucey (default), classic, longgammon and Dutch.

Modules: ``rules`` (options and variants), ``board`` (Position, Position IDs),
``notation`` (Move/Play text), ``moves`` (the readable reference legal-play
generator), ``generate`` (the generator the game calls: the Numba kernel of
``kernel``, imported on first use), ``game`` (BackgammonGame/State), ``bots``,
``sheet`` (the rules sheet).  Random playouts on the kernel are in
:mod:`aceydeucey.sim`; the terminal board is drawn by the CLI.
"""

from __future__ import annotations

from aceydeucey.backgammon.board import BAR, OFF, STOCK, Position
from aceydeucey.backgammon.notation import Move, Play
from aceydeucey.backgammon.rules import BackgammonRules

__all__ = ["BAR", "OFF", "STOCK", "BackgammonRules", "Move", "Play", "Position"]
