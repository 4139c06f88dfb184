"""How a backgammon game ends: its termination codes (keys of ``backgammon_errors``)."""

from __future__ import annotations

from enum import StrEnum

from aceydeucey.core.endings import Ending

__all__ = ["Termination"]


class Termination(StrEnum):
    """Every way a game ends; ``outcome().termination`` is one of these."""

    BORNE_OFF = "race.borne_off"
    DROPPED = "cube.dropped"
    MATCH_WON = "race.match_won"
    RESIGNED = Ending.RESIGNED.value
    CLAIMED = Ending.CLAIMED.value
    TIMEOUT = Ending.TIMEOUT.value
