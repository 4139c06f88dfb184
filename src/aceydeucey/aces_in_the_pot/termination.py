"""How a game of Aces in the Pot ends: its termination codes (keys of ``aces_errors``)."""

from __future__ import annotations

from enum import StrEnum

from aceydeucey.core.endings import Ending

__all__ = ["Termination"]


class Termination(StrEnum):
    """Every way a game ends; ``outcome().termination`` is one of these."""

    POT_WON = "aces.pot_won"
    RESIGNED = Ending.RESIGNED.value
    CLAIMED = Ending.CLAIMED.value
    TIMEOUT = Ending.TIMEOUT.value
