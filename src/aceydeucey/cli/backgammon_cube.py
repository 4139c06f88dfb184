"""The doubling cube at the terminal: the prompts of the cube's two moments, the words a
player may answer with (English or Portuguese, whole or by their first letter) and the
``--cube`` / ``--match`` flags as rule options.

Before rolling, the player who may double answers ``double`` or ``roll`` (``d`` / ``r``;
``dobrar`` / ``lançar``, ``d`` / ``l``); the doubled player answers ``take``, ``drop`` or,
where the rules allow it, ``beaver`` (``t`` / ``d`` / ``b``; ``aceitar`` / ``recusar``,
``a`` / ``r``).  ``pass`` is gnubg's word for a drop and is taken as one.
"""

from __future__ import annotations

from typing import Any

__all__ = ["CUBE_PHASES", "cube_flag_options", "cube_prompt", "cube_word"]

#: the phases at which a player answers the cube rather than moves checkers
CUBE_PHASES = ("cube", "take")

#: phase -> what a player may type -> the canonical action
_WORDS: dict[str, dict[str, str]] = {
    "cube": {
        "double": "double",
        "d": "double",
        "dobrar": "double",
        "dobro": "double",
        "roll": "roll",
        "r": "roll",
        "lançar": "roll",
        "lancar": "roll",
        "l": "roll",
    },
    "take": {
        "take": "take",
        "t": "take",
        "aceitar": "take",
        "aceito": "take",
        "a": "take",
        "drop": "drop",
        "d": "drop",
        "pass": "drop",
        "recusar": "drop",
        "recuso": "drop",
        "r": "drop",
        "beaver": "beaver",
        "b": "beaver",
    },
}


def cube_word(text: str, phase: str, legal: list[str]) -> str | None:
    """The cube action a player's answer names at ``phase``, if it is open now.

    >>> cube_word("D", "cube", ["double", "roll"]), cube_word("lançar", "cube", ["double", "roll"])
    ('double', 'roll')
    >>> cube_word("r", "take", ["take", "drop"]), cube_word("b", "take", ["take", "drop"])
    ('drop', None)
    """
    action = _WORDS.get(phase, {}).get(" ".join(text.lower().split()))
    return action if action in legal else None


def cube_prompt(observation: dict[str, Any], name: str, lang: str) -> str:
    """The prompt of the cube's moment: what is at stake and the answers, by letter."""
    from aceydeucey.locale import t

    legal: list[str] = observation["legal_actions"]
    if observation["phase"] == "cube":
        cube = int(observation.get("cube") or 1)
        return t("backgammon", "prompt_cube", lang, name=name, cube=cube, to=2 * cube)
    offer = observation.get("cube_offer") or {}
    value = int(offer.get("value") or 2)
    key = "prompt_take_beaver" if "beaver" in legal else "prompt_take"
    return t("backgammon", key, lang, name=name, cube=value, beaver=2 * value)


def cube_flag_options(cube: str | None, match: int | None) -> dict[str, str]:
    """``--cube`` and ``--match`` as rule options: ``--match N`` plays an N-point match,
    with the cube unless ``--cube`` says otherwise.

    >>> cube_flag_options(None, 5)
    {'match_length': '5', 'cube': 'match'}
    >>> cube_flag_options("none", 3)
    {'match_length': '3', 'cube': 'none'}
    """
    options: dict[str, str] = {}
    if match is not None:
        options["match_length"] = str(match)
        options["cube"] = "match"
    if cube is not None:
        options["cube"] = cube
    return options
