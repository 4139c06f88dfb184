"""The one error tree of aceydeucey.

Every error is a ``ValueError``, so callers that only care "was my input bad?"
catch one class; callers that care why catch the precise one::

    ValueError
    └── AceyDeuceyError
        ├── UnknownGameError        load_game("chess")
        ├── RulesError              unknown option, value out of range, contradictory options
        ├── ActionSyntaxError       text that is not an action of this game ("bet five")
        ├── IllegalActionError      a well-formed action that is not legal here ("bet 60" > cap)
        │   └── OutOfTurnError      a seat acting when it is not its turn
        └── RecordError             a malformed record, or one whose actions do not replay

A failed call never changes a state: states are immutable and ``apply`` returns
a new one only on success.
"""

from __future__ import annotations

__all__ = [
    "AceyDeuceyError",
    "ActionSyntaxError",
    "IllegalActionError",
    "OutOfTurnError",
    "RecordError",
    "RulesError",
    "UnknownGameError",
]


class AceyDeuceyError(ValueError):
    """Base class of every error this package raises on bad input."""


class UnknownGameError(AceyDeuceyError):
    """The game id is not one of the registered games."""


class RulesError(AceyDeuceyError):
    """An unknown option, a value out of range, or two options that contradict each other."""


class ActionSyntaxError(AceyDeuceyError):
    """Text that does not spell an action of this game at all."""


class IllegalActionError(AceyDeuceyError):
    """A well-formed action that the rules do not allow in this state."""


class OutOfTurnError(IllegalActionError):
    """A seat tried to act when another seat (or chance) is to act."""


class RecordError(AceyDeuceyError):
    """A record that is malformed or does not replay.

    When an action fails, ``index`` is its position in the record's action list,
    ``text`` the action as written and ``reason`` why it failed.
    """

    def __init__(self, message: str, *, index: int | None = None, text: str | None = None) -> None:
        self.index = index
        self.text = text
        self.reason = message
        if index is not None:
            message = f"action #{index} {text!r}: {message}"
        super().__init__(message)
