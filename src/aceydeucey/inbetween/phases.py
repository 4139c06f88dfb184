"""The phases of an In-Between state: one ``Literal`` type, and what the envelope shows.

``Phase`` is the engine's step (``state.phase``); ``PublicPhase`` is the coarser stage
every observation shows as its ``phase``.  Chance acts in the ``CHANCE_PHASES``.
"""

from __future__ import annotations

from typing import Literal, get_args

__all__ = ["CHANCE_PHASES", "PUBLIC_PHASE", "Phase", "PublicPhase"]

Phase = Literal[
    "start",  # before anything (never seen: a session opens at once)
    "draw",  # one card each for the deal (dealer="draw")
    "deal-first",  # the first card of everyone, clockwise
    "deal-hand",  # two face-down cards each (hidden)
    "deal-post",  # the next post of the player to act
    "begin-turn",  # a player's turn begins (continued within the transition: never seen)
    "third",  # the third card of a bet
    "common",  # Red Dog's two common posts
    "house-third",  # Red Dog's third card
    "set-aside",  # a card set aside face down after a pass (passed_card="next-post")
    "ace",  # a first-post ace to call high or low (aces="first-card")
    "declare",  # the dealer calls every ace of the round (aces="dealer-declares")
    "decide",  # a bet, a pass, a call, a split
    "raise",  # Red Dog: stay or raise
    "over",  # the session has ended
]
#: The stage every observation shows (the envelope's ``phase``).
PublicPhase = Literal["draw", "deal", "ace", "declare", "decide", "third", "over"]

CHANCE_PHASES: frozenset[Phase] = frozenset(
    ("draw", "deal-first", "deal-hand", "deal-post", "third", "common", "house-third", "set-aside")
)
PUBLIC_PHASE: dict[Phase, PublicPhase] = {
    "start": "deal",
    "draw": "draw",
    "deal-first": "deal",
    "deal-hand": "deal",
    "deal-post": "deal",
    "begin-turn": "deal",
    "common": "deal",
    "set-aside": "deal",
    "ace": "ace",
    "declare": "declare",
    "decide": "decide",
    "raise": "decide",
    "third": "third",
    "house-third": "third",
    "over": "over",
}
assert set(PUBLIC_PHASE) == set(get_args(Phase))
