"""aceydeucey: the Acey-Deucey family of games as exact, replayable state machines.

>>> import aceydeucey
>>> game = aceydeucey.load_game("inbetween", preset="guide", players=3)
>>> state = game.new_initial_state()
>>> state.is_chance_node()
True
"""

# Numba's cache in the user's cache folder, set before any kernel module imports Numba.
from aceydeucey.kernels import configure as _configure_kernels

_configure_kernels()

from aceydeucey.core import (  # noqa: E402
    CHANCE,
    TERMINAL,
    AceyDeuceyError,
    ActionSyntaxError,
    Agent,
    ChanceSource,
    Ending,
    Game,
    IllegalActionError,
    OutOfTurnError,
    RandomAgent,
    Record,
    RecordError,
    RulesError,
    Seeded,
    Stacked,
    State,
    SystemChance,
    Table,
    UnknownGameError,
    end,
    game_ids,
    load_game,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "AceyDeuceyError",
    "ActionSyntaxError",
    "Agent",
    "ChanceSource",
    "Ending",
    "Game",
    "IllegalActionError",
    "OutOfTurnError",
    "RandomAgent",
    "Record",
    "RecordError",
    "RulesError",
    "Seeded",
    "Stacked",
    "State",
    "SystemChance",
    "Table",
    "UnknownGameError",
    "__version__",
    "end",
    "game_ids",
    "load_game",
    "replay",
]
