"""Aces in the Pot: the dice game of aces to the pot and sixes to the left.

``load_game("aces-in-the-pot", players=5)`` gives the game; :mod:`.analysis`
solves it exactly; :mod:`aceydeucey.core.session` plays several games with a tally.
"""

from aceydeucey.aces_in_the_pot.dice import Die, Roll
from aceydeucey.aces_in_the_pot.game import AcesInThePotGame, AcesInThePotState, Event
from aceydeucey.aces_in_the_pot.rules import AcesRules

__all__ = ["AcesInThePotGame", "AcesInThePotState", "AcesRules", "Die", "Event", "Roll"]
