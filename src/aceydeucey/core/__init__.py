"""The game contract, rules-as-data, records, chance sources and the Table."""

from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.chance import ChanceSource, Seeded, Stacked, SystemChance
from aceydeucey.core.endings import EndedState, Ending, end
from aceydeucey.core.errors import (
    AceyDeuceyError,
    ActionSyntaxError,
    IllegalActionError,
    OutOfTurnError,
    RecordError,
    RulesError,
    UnknownGameError,
)
from aceydeucey.core.game import CHANCE, TERMINAL, Game, State
from aceydeucey.core.record import Record, replay
from aceydeucey.core.registry import game_ids, load_game
from aceydeucey.core.rules import Preset, RulesBase, option
from aceydeucey.core.table import Agent, Table

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AceyDeuceyError",
    "ActionSyntaxError",
    "Agent",
    "ChanceSource",
    "EndedState",
    "Ending",
    "Game",
    "IllegalActionError",
    "OutOfTurnError",
    "Preset",
    "RandomAgent",
    "Record",
    "RecordError",
    "RulesBase",
    "RulesError",
    "Seeded",
    "Stacked",
    "State",
    "SystemChance",
    "Table",
    "UnknownGameError",
    "end",
    "game_ids",
    "load_game",
    "option",
    "replay",
]
