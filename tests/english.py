"""English text on a Portuguese screen: the fragments of the catalogs' English side that no
Portuguese message holds, for the sweeps of the terminal (``tests/core``) and the pages
(``tests/web``)."""

from __future__ import annotations

import re
import string
from functools import cache

from aceydeucey.locale import translations


def _literals(template: str) -> list[str]:
    """The literal text of a message between its placeholders, as whitespace-split runs."""
    try:
        parts = [literal for literal, *_ in string.Formatter().parse(template)]
    except ValueError:
        parts = [template]
    return [" ".join(part.split()) for part in parts if part.strip()]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]+", text.lower()))


@cache
def english_only(domains: tuple[str, ...]) -> tuple[str, ...]:
    """Fragments of English messages of ``domains`` that no Portuguese message holds: a run
    of two words or more, or one word of five letters or more that is no Portuguese word."""
    english: set[str] = set()
    portuguese_text = []
    for domain in domains:
        for key, text in translations(domain, "en")._catalog.items():  # type: ignore[attr-defined]
            if key:
                english.update(_literals(text))
        for key, text in translations(domain, "pt")._catalog.items():  # type: ignore[attr-defined]
            if key:
                portuguese_text.append(" ".join(text.split()))
    shared = " \n ".join(portuguese_text)
    pt_words = _words(shared)
    fragments: set[str] = set()
    for literal in english:
        # Runs of letters and spaces (punctuation and symbols split them).
        for run in re.findall(r"[A-Za-z][A-Za-z' -]*[A-Za-z]", literal):
            words = run.split()
            if len(words) >= 2 and run not in shared:
                fragments.add(run)
            elif len(words) == 1 and len(run) >= 5 and run.lower() not in pt_words:
                if run in shared:  # a name both sides write alike (In-Between)
                    continue
                fragments.add(run)
    # The words a player types (cmd.*: bet, higher, stay, ace low, ...) are short, but an
    # English one on a Portuguese screen is the commonest leak: each counts, at any length.
    for domain in domains:
        pt = translations(domain, "pt")
        for key, text in translations(domain, "en")._catalog.items():  # type: ignore[attr-defined]
            if isinstance(key, str) and key.startswith("cmd.") and pt.gettext(key) != text:
                fragments.add(text)
    return tuple(sorted(fragments))
