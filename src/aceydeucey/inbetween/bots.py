"""In-Between bots: each reads only its observation and returns an action's text.

``BOTS`` maps the names the front ends use to the classes:

- ``random``: uniform over the legal actions (seeded).
- ``ev``: the exact expected value of every legal action from the cards still unseen
  (all cards less ``seen`` and its own hand), best first, ties to the smaller stake.  It
  learns the game's rules once, when seated (``seated(game, seat)``), and values each
  decision with ``odds.decision_odds``, the function the terminal's ``?`` and the
  ``odds`` command use.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

from aceydeucey.core.agents import RandomAgent
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game
from aceydeucey.inbetween.odds import decision_odds
from aceydeucey.inbetween.rules import Rules

__all__ = ["BOTS", "ExpectedValueBot", "RandomBot"]


#: Uniform over the legal actions (seeded): the baseline every bot must beat.
RandomBot = RandomAgent


class ExpectedValueBot:
    """Plays the legal action of highest exact expected value (ties: the smaller stake)."""

    name = "ev"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # unused: the bot is deterministic; accepted for a uniform signature
        self.rules: Rules | None = None

    def seated(self, game: Game, seat: int) -> None:
        """Learn the game's resolved rules (runners call this once, before the first act)."""
        rules = game.rules
        if not isinstance(rules, Rules):
            raise ArgumentError("ib_bot.not_inbetween", game=game.game_id)
        self.rules = rules

    def values(self, observation: dict[str, Any]) -> dict[str, Fraction]:
        """Each legal action's expected chips (see ``odds.decision_odds``)."""
        rules = self.rules
        if rules is None:  # not seated: an observation that still carries its rules
            if "rules" not in observation:
                raise ArgumentError("bot.not_seated", bot=self.name)
            rules = _rules_of(observation["rules"])
        return dict(decision_odds(rules, observation).values)

    def act(self, observation: dict[str, Any]) -> str:
        values = self.values(observation)
        if not values:
            raise ArgumentError("ib_bot.no_legal_actions")
        return max(values, key=lambda text: (values[text], -_stake(text)))


def _rules_of(data: dict[str, Any]) -> Rules:
    """Rules carried by an observation (older observations), cached by their values."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in data.items()))
    return _rules_cached(key)


@functools.lru_cache(maxsize=64)
def _rules_cached(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_dict(dict(key))


def _stake(text: str) -> int:
    """The chips an action puts at risk (0 for pass, stay and calls without an amount)."""
    _, _, amount = text.partition(" ")
    return int(amount) if amount.isdigit() else 0


#: Bot names the front ends accept.
BOTS: dict[str, type[RandomBot] | type[ExpectedValueBot]] = {
    "random": RandomBot,
    "ev": ExpectedValueBot,
}
