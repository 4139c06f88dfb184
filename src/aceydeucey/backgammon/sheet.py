"""The rules sheet: a readable statement of a resolved ``BackgammonRules``, in en or pt.

The sheet is generated from the options, never from the variant's name: each
option's value selects one sentence of the ``backgammon`` message catalog,
keyed ``sheet_<option>_<value>`` (``true``/``false`` for flags, ``none`` or
``n`` for an optional number, the choice itself otherwise).  Sentences are
grouped under the sections a player looks for (setup, entering, movement,
the 1-2, hitting and the bar, bearing off, scoring); options that cannot
matter under the others (what entering needs when nothing starts off the
board, the 1-2 details when 1-2 is an ordinary roll) are left out.  A last
section names every option that differs from its default.

An option without a sentence (one added to the rules later) is stated as
``name = value`` with its help line, so the sheet never hides a rule.
"""

from __future__ import annotations

import dataclasses
import textwrap
from typing import Any

from aceydeucey.core.rules import option_in_words
from aceydeucey.locale import catalog, t

__all__ = ["changed_options", "rules_sheet", "sentence", "sheet_sections"]

_DOMAIN = "backgammon"

#: Section heading key, then the options (or ``:fixed`` sentence keys) stated in it.
_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("sheet_h_setup", (":sheet_setup_common", "start", "opening")),
    (
        "sheet_h_entering",
        (":sheet_entering_common", "entry_gate", "must_enter_all_before"),
    ),
    (
        "sheet_h_movement",
        (
            ":sheet_movement_common",
            "must_use_max_dice",
            "must_play_higher_die",
            "unplayable_remainder",
            "natural_doubles_extra_roll",
            "doubles_plus_complement",
            "home_board_frozen",
        ),
    ),
    (
        "sheet_h_acey",
        (
            "acey_deucey",
            "acey_requires_both_played",
            "acey_doubles_choice",
            "acey_reroll_requires_full_doubles",
            "acey_chain_limit",
        ),
    ),
    (
        "sheet_h_hitting",
        (":sheet_hitting_common", ":sheet_hitting_unentered", "hit_gate", "bar_reentry_gate"),
    ),
    (
        "sheet_h_bearoff",
        (":sheet_bearoff_common", "bearoff_rule", "bearoff_requires_all_entered"),
    ),
    (
        "sheet_h_scoring",
        ("scoring", "cube", "match_length", "crawford", "jacoby", "beavers", "max_cube"),
    ),
)

#: Options and sentences that only matter when checkers start off the board.
_OFF_BOARD_ONLY = frozenset(
    {
        "sheet_h_entering",
        ":sheet_hitting_unentered",
        "bearoff_requires_all_entered",
    }
)
#: Options that only matter when a 1-2 earns the bonus.
_ACEY_ONLY = frozenset(
    {
        "acey_requires_both_played",
        "acey_doubles_choice",
        "acey_reroll_requires_full_doubles",
        "acey_chain_limit",
    }
)
#: Options that only matter with the doubling cube (or a match).
_CUBE_ONLY = frozenset({"match_length", "crawford", "jacoby", "beavers", "max_cube"})
#: Options never stated in a section (the variant names the sheet itself).
_NOT_STATED = frozenset({"variant"})


def rules_sheet(rules: Any, lang: str = "en", width: int = 78) -> str:
    """The whole sheet as text, wrapped to ``width`` columns."""
    variant = getattr(rules, rules.PRESET_KEY)
    preset = rules.PRESETS[variant]
    # the variant by the name players know it by (the lobby's), its source by its title
    name = t("web", f"preset.{rules.GAME}.{variant}", lang)
    out = [t(_DOMAIN, "sheet_title", lang, variant=name)]
    out.append("=" * len(out[0]))
    key = f"sheet_source.{variant}"
    source = t(_DOMAIN, key, lang) if key in catalog(_DOMAIN, "en") else preset.source
    out.extend(_wrap(t(_DOMAIN, "sheet_source", lang, source=source), width))
    for heading, sentences in sheet_sections(rules, lang):
        out.append("")
        out.append(heading)
        out.append("-" * len(heading))
        for text in sentences:
            out.extend(_wrap(text, width, "- ", "  "))
    notation = [t(_DOMAIN, "sheet_notation", lang)]
    if getattr(rules, "start", "off_board") == "off_board":
        notation.append(t(_DOMAIN, "sheet_notation_in", lang))
    if getattr(rules, "acey_deucey", False):
        notation.append(t(_DOMAIN, "sheet_notation_double", lang))
    out.append("")
    out.extend(_wrap(" ".join(notation), width))
    return "\n".join(out)


def sheet_sections(rules: Any, lang: str = "en") -> list[tuple[str, list[str]]]:
    """(heading, sentences) for each section that applies to ``rules``."""
    off_board = getattr(rules, "start", "off_board") == "off_board"
    acey = bool(getattr(rules, "acey_deucey", True))
    stated: set[str] = set(_NOT_STATED)
    sections: list[tuple[str, list[str]]] = []
    for heading, items in _SECTIONS:
        if heading in _OFF_BOARD_ONLY and not off_board:
            stated.update(items)
            continue
        sentences = []
        for item in items:
            cubeless = item in _CUBE_ONLY and getattr(rules, "cube", "none") == "none"
            cubeless = cubeless and getattr(rules, "match_length", None) is None
            if (
                (item in _OFF_BOARD_ONLY and not off_board)
                or (item in _ACEY_ONLY and not acey)
                or cubeless
            ):
                stated.add(item)
                continue
            if item.startswith(":"):
                sentences.append(t(_DOMAIN, item[1:], lang))
            elif hasattr(rules, item) and (text := sentence(rules, item, lang)):
                sentences.append(text)
            stated.add(item)
        sections.append((t(_DOMAIN, heading, lang), sentences))
    # Options this sheet has no section for (added to the rules later) are still stated.
    extra = [
        sentence(rules, f.name, lang) for f in dataclasses.fields(rules) if f.name not in stated
    ]
    if extra:
        sections[-1][1].extend(extra)
    changes = changed_options(rules)
    sections.append(
        (
            t(_DOMAIN, "sheet_h_options", lang),
            [option_in_words(rules, name, lang) for name in changes]
            or [t(_DOMAIN, "sheet_no_options", lang)],
        )
    )
    return sections


def sentence(rules: Any, name: str, lang: str = "en") -> str:
    """The catalog's sentence for option ``name`` at its value in ``rules``."""
    value = getattr(rules, name)
    key = f"sheet_{name}_{_value_key(value)}"
    if key in catalog(_DOMAIN, "en"):
        return t(_DOMAIN, key, lang, n=value)
    help_line = rules.option_help().get(name, {}).get("help", "")
    return option_in_words(rules, name, lang) + (f" ({help_line})" if help_line else "")


def changed_options(rules: Any) -> dict[str, Any]:
    """Every option whose value differs from its default (the Acey-Deucey baseline)."""
    return {
        f.name: getattr(rules, f.name)
        for f in dataclasses.fields(rules)
        if f.name not in _NOT_STATED and getattr(rules, f.name) != f.default
    }


# -- helpers --------------------------------------------------------------------------------


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    return textwrap.wrap(
        text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    )


def _value_key(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, int):
        return "n"
    return str(value).replace("-", "_")
