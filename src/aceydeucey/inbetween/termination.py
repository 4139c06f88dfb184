"""How an In-Between session ends: its termination codes (keys of ``inbetween_errors``)."""

from __future__ import annotations

from enum import StrEnum

from aceydeucey.core.endings import Ending

__all__ = ["Termination"]


class Termination(StrEnum):
    """Every way a session ends; ``outcome().termination`` is one of these."""

    ROUNDS_PLAYED = "session.rounds_played"
    POT_EMPTIED = "session.pot_emptied"
    CANNOT_REPLENISH = "session.cannot_replenish"
    CANNOT_ANTE = "session.cannot_ante"
    DEALER_GAMES_PLAYED = "session.dealer_games_played"
    DEALER_CANNOT_BANK = "session.dealer_cannot_bank"
    DECK_OUT_TWICE = "session.deck_out_twice"
    HOUSE_CANNOT_COVER = "session.house_cannot_cover"
    RESIGNED = Ending.RESIGNED.value
    CLAIMED = Ending.CLAIMED.value
    TIMEOUT = Ending.TIMEOUT.value
