"""The one error tree of aceydeucey.

Every error is a ``ValueError``, so callers that only care "was my input bad?"
catch one class; callers that care why catch the precise one::

    ValueError
    └── AceyDeuceyError
        ├── UnknownGameError        load_game("chess")
        ├── RulesError              unknown option, value out of range, contradictory options
        ├── ArgumentError           wrong arguments to a runner, to new_state or to observation()
        ├── ActionSyntaxError       text that is not an action of this game ("bet five")
        ├── IllegalActionError      a well-formed action that is not legal here ("bet 60" > cap)
        │   ├── AmbiguousActionError  text that names more than one legal action
        │   └── OutOfTurnError      a seat acting when it is not its turn
        └── RecordError             a malformed record, or one whose actions do not replay

Every error carries a stable ``code`` (``"stake.above_max"``) and its ``params``
(``{"limit": 4, "because": "pot"}``).  The English text (``str(error)``) is rendered
from the ``errors`` message catalog; front ends call ``error.render(lang)`` to show
the same error in the user's language.  Raise one as::

    raise IllegalActionError("stake.above_max", limit=4, because="pot")

A first argument that is not a code (it has a space, or no dot) is taken as an
already-rendered English message (code ``<class code>.text``); that form is kept
for errors whose text has no catalog entry yet and is never shown translated.

A failed call never changes a state: states are immutable and ``apply`` returns
a new one only on success.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from aceydeucey.locale import LANGS, render_error

__all__ = [
    "AceyDeuceyError",
    "ActionSyntaxError",
    "AmbiguousActionError",
    "ArgumentError",
    "IllegalActionError",
    "OutOfTurnError",
    "RecordError",
    "RulesError",
    "UnknownGameError",
    "check_lang",
    "is_code",
    "message",
]

_CODE = re.compile(r"^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$")


def is_code(text: str) -> bool:
    """True when ``text`` looks like a message code (``stake.above_max``), not a sentence."""
    return bool(_CODE.match(text))


class AceyDeuceyError(ValueError):
    """Base class of every error this package raises on bad input.

    ``code`` is stable across versions and languages; ``params`` are JSON-ready
    values the message is rendered from.  Parameters whose values are codes
    themselves (``because="pot"`` is looked up as ``because.pot``) are rendered
    in the same language.
    """

    #: The code family of this class; an uncoded message gets ``<family>.text``.
    family: ClassVar[str] = "error"

    def __init__(self, code_or_message: str, /, **params: Any) -> None:
        if is_code(code_or_message):
            self.code = code_or_message
            self.params: dict[str, Any] = params
        else:
            self.code = f"{self.family}.text"
            self.params = {"text": code_or_message, **params}
        super().__init__(self.render("en"))

    def render(self, lang: str = "en") -> str:
        """This error's message in ``lang`` (``en`` or ``pt``)."""
        return render_error(self.code, self.params, check_lang(lang))

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """JSON-ready: ``{"code", "params", "message"}`` with the message in ``lang``."""
        return {"code": self.code, "params": self.params, "message": self.render(lang)}

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.code, self.params))


def _rebuild(cls: type[AceyDeuceyError], code: str, params: dict[str, Any]) -> AceyDeuceyError:
    return cls(code, **params)


class UnknownGameError(AceyDeuceyError):
    """The game id is not one of the registered games."""

    family = "game"


class RulesError(AceyDeuceyError):
    """An unknown option, a value out of range, or two options that contradict each other."""

    family = "rules"


class ArgumentError(AceyDeuceyError):
    """Wrong arguments to a runner, to ``new_state`` or to ``observation`` (not an action)."""

    family = "argument"


class ActionSyntaxError(AceyDeuceyError):
    """Text that does not spell an action of this game at all."""

    family = "syntax"


class IllegalActionError(AceyDeuceyError):
    """A well-formed action that the rules do not allow in this state."""

    family = "illegal"


class AmbiguousActionError(IllegalActionError):
    """Text that could mean more than one legal action; the message lists them."""

    family = "ambiguous"


class OutOfTurnError(IllegalActionError):
    """A seat tried to act when another seat (or chance) is to act."""

    family = "turn"


class RecordError(AceyDeuceyError):
    """A record that is malformed or does not replay.

    When an action fails, ``index`` is its position in the record's action list,
    ``text`` the action as written and ``reason`` the underlying error (its code
    and params travel in ``params["reason"]``, so the whole message translates).
    """

    family = "record"

    def __init__(
        self,
        code_or_message: str,
        /,
        *,
        index: int | None = None,
        text: str | None = None,
        cause: AceyDeuceyError | None = None,
        **params: Any,
    ) -> None:
        self.index = index
        self.text = text
        if index is None:
            super().__init__(code_or_message, **params)
            self.reason = str(self)
            return
        if cause is None:
            cause = AceyDeuceyError(code_or_message, **params)
        self.reason = str(cause)
        super().__init__(
            "record.action_failed",
            index=index,
            action=text,
            reason=message(cause.code, **cause.params),
        )


def check_lang(lang: str) -> str:
    """``lang`` when it is a language of the catalogs, else ``ArgumentError("lang.unknown")``."""
    if lang not in LANGS:
        raise ArgumentError("lang.unknown", language=lang, accepted=", ".join(LANGS))
    return lang


def message(code: str, /, **params: Any) -> dict[str, Any]:
    """A message as a parameter of another: rendered in the same language as its parent.

    ``IllegalActionError("stake.above_max", limit=4, because=message("because.pot"))``.
    """
    return {"code": code, "params": params}
