"""In-Between's words at the terminal's edge: the player's words (English or Portuguese)
read as canonical action text, an action written in the player's language, an error
shown in it.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from aceydeucey.core.errors import AceyDeuceyError
from aceydeucey.locale import t

if TYPE_CHECKING:
    pass
from aceydeucey.cli.inbetween_options import DOMAIN

__all__ = ["canonical_action", "localized_action", "plain_words", "shown_error"]


# -- words: canonical actions and the player's language --------------------------

_WORDS = ("pass", "bet", "higher", "lower", "split", "stay", "raise", "quit")
_PHRASES = ("ace low", "ace high", "aces low", "aces high")


def plain_words(text: str) -> str:
    """Lower case without accents: ``Ás baixo`` → ``as baixo``."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def _aliases() -> dict[str, str]:
    """Every language's word (accents optional) → the canonical word or phrase."""
    out: dict[str, str] = {}
    for lang in ("en", "pt"):
        for word in (*_WORDS, *_PHRASES):
            out[plain_words(t(DOMAIN, "cmd." + word.replace(" ", "_"), lang))] = word
    out.update({"alta": "higher", "baixa": "lower", "mais alta": "higher", "mais baixa": "lower"})
    return out


def canonical_action(text: str) -> str:
    """The player's words as canonical action text: ``apostar 2`` → ``bet 2``.

    >>> canonical_action("Apostar 2"), canonical_action("ás baixo"), canonical_action("bet 3")
    ('bet 2', 'ace low', 'bet 3')
    """
    plain = plain_words(text)
    aliases = _aliases()
    if plain in aliases:
        return aliases[plain]
    head, _, rest = plain.rpartition(" ")
    if head in aliases and rest:
        return f"{aliases[head]} {rest}"
    return text.strip()


def localized_action(action: str, lang: str) -> str:
    """A canonical action in the player's words: ``bet 2`` → ``apostar 2`` in Portuguese."""
    if action in _PHRASES or action in _WORDS:
        return t(DOMAIN, "cmd." + action.replace(" ", "_"), lang)
    word, _, rest = action.partition(" ")
    if word in _WORDS:
        return f"{t(DOMAIN, 'cmd.' + word, lang)} {rest}".strip()
    return action


def shown_error(error: Exception, lang: str) -> str:
    """A refusal as the player reads it: the actions it echoes in the player's words
    (``apostar 99``, not ``bet 99``), seats counted from 1 as on the screen.

    The engine's error keeps canonical actions and seats from 0 (its ``params`` are data);
    rendering speaks the player's words (``locale.render_error``), as the pages do.
    """
    if not isinstance(error, AceyDeuceyError):
        return str(error)
    return error.render(lang)
