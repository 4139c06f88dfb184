"""In-Between (Acey-Deucey, Sheets, Red Dog): the card game of the third card between two posts.

>>> from aceydeucey import load_game
>>> state = load_game("inbetween", preset="guide", players=3).new_initial_state()
>>> state.pot, state.chips
(3, (99, 99, 99))

Modules: ``rules`` (options and presets), ``settle`` (what a third card pays), ``game`` (the
game and its state machine: ``state``, ``shoe``, ``events``, ``phases``, ``lifecycle``,
``turns``, ``house``, ``reasons``), ``odds`` (exact chances, decision values and each
stake's advice), ``kelly`` (Kelly's fraction and whole stake), ``spreads`` (every spread
from a full shoe, Red Dog's exact house edge), ``bots`` (random and ev), ``strategies``
(kelly, cautious, session).
"""

from aceydeucey.inbetween.bots import BOTS, ExpectedValueBot, RandomBot
from aceydeucey.inbetween.game import Decision, InBetweenGame, InBetweenState
from aceydeucey.inbetween.odds import PostOdds, action_values, post_odds
from aceydeucey.inbetween.rules import PRESET_NAMES, InBetweenRules, Rules

__all__ = [
    "BOTS",
    "PRESET_NAMES",
    "Decision",
    "ExpectedValueBot",
    "InBetweenGame",
    "InBetweenRules",
    "InBetweenState",
    "PostOdds",
    "RandomBot",
    "Rules",
    "action_values",
    "post_odds",
]
