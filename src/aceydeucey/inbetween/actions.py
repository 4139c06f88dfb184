"""In-Between decisions and their one notation.

``str`` of a decision is canonical and ``Decision.from_text`` reads it back:

- ``pass``; ``bet N`` (N whole chips); ``higher N`` / ``lower N`` (a pair under
  ``pairs="higher-lower"``); ``split`` (a pair under ``pairs="split"``);
- ``ace low`` / ``ace high`` (a first-post ace under ``aces="first-card"``);
- ``aces low`` / ``aces high`` (the dealer's call for the round, ``aces="dealer-declares"``);
- ``stay`` / ``raise N`` (Red Dog).

>>> Decision.from_text("  BET 5 ")
Decision.from_text('bet 5')
>>> str(Decision("ace low"))
'ace low'
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from aceydeucey.core.errors import ActionSyntaxError

__all__ = ["Decision", "decision"]

_AMOUNT = re.compile(r"-?[0-9]+")
_WORDS_WITH_AMOUNT = ("bet", "higher", "lower", "raise")
_WORDS_ALONE = ("pass", "stay", "split", "ace low", "ace high", "aces low", "aces high")


@dataclass(frozen=True, order=True)
class Decision:
    """A player's decision: ``word`` (``pass``, ``bet``, ...) and its ``amount`` if any."""

    word: str
    amount: int | None = None

    @classmethod
    def from_text(cls, text: str) -> Decision:
        """Parse ``pass``, ``bet 5``, ``higher 2``, ``raise 1``, ``ace low``, ``split``, ..."""
        words = text.strip().lower().split()
        joined = " ".join(words)
        if joined in _WORDS_ALONE:
            return decision(joined)
        if len(words) == 2 and words[0] in _WORDS_WITH_AMOUNT:
            if not _AMOUNT.fullmatch(words[1]):
                raise ActionSyntaxError(
                    "decision.amount_not_whole", text=text.strip(), word=words[0]
                )
            return decision(words[0], int(words[1]))  # "bet -1" parses: the game says "at least 1"
        if len(words) == 1 and words[0] in _WORDS_WITH_AMOUNT:
            raise ActionSyntaxError("decision.amount_missing", text=text.strip(), word=words[0])
        raise ActionSyntaxError("decision.unknown", text=text.strip())

    def __str__(self) -> str:
        return self.word if self.amount is None else f"{self.word} {self.amount}"

    def __repr__(self) -> str:
        return f"Decision.from_text({str(self)!r})"


@functools.lru_cache(maxsize=4096)
def decision(word: str, amount: int | None = None) -> Decision:
    """The shared ``Decision`` for ``word`` and ``amount`` (decisions are values: one each)."""
    return Decision(word, amount)
