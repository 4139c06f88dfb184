"""More In-Between strategies, as agents on the contract: ``kelly``, ``cautious``.

Each reads only its observation (and the rules, learnt once when seated), like the bots of
``bots`` (``random``, ``ev``); ``STRATEGIES`` maps their names to the classes (each takes
``seed``), ready to join ``bots.BOTS``.

- ``kelly``: on every stake (a bet, a called pair, three posts' second bet, Red Dog's
  raise) plays the coach's Kelly stake: ``odds.decision_odds`` gives each stake its
  ``StakeAdvice``, whose ``kelly`` is ``kelly.kelly``: the legal whole stake of highest
  expected logarithm of its chips over the bet's exact outcomes (the cards still unseen,
  post penalties included), compared exactly, ties to the smaller; a pass where a pass
  grows the log as much.  Of two calls (higher, lower) it takes the one of higher EV that
  Kelly would stake on.  Decisions that are not a stake (an ace call, the dealer's
  declaration) are the ``ev`` bot's.
- ``cautious``: a plausible human who does not count cards: bets only on a spread of at
  least ``CAUTIOUS_SPREAD`` ranks between the posts (where the bet is favourable with a
  full deck), and then a small stake: a twentieth of its chips, at least the smallest
  stake and at most the largest; passes on pairs and narrower spreads, calls a lone ace
  high, lets the dealer call aces high, never splits and never raises.

The ``session`` strategy plays with the simulator's compiled search, so it lives beside
the simulator (``sim.inbetween_bots``, which also lists every In-Between bot): the engine
never imports the simulator.

Kelly's criterion: J. L. Kelly, "A New Interpretation of Information Rate" (1956); the
computation is ``inbetween.kelly`` (one implementation for the strategy and the coach).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game
from aceydeucey.inbetween import belief
from aceydeucey.inbetween.bots import BOTS, ExpectedValueBot
from aceydeucey.inbetween.kelly import kelly_stake
from aceydeucey.inbetween.odds import decision_odds, stake_action
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import is_pair
from aceydeucey.inbetween.shoe import CARDS

__all__ = [
    "ALL_BOTS",
    "CAUTIOUS_SHARE",
    "CAUTIOUS_SPREAD",
    "STRATEGIES",
    "CautiousBot",
    "KellyBot",
    "kelly_stake",
    "unseen_and_posts",
]

#: ``cautious`` bets only when at least this many ranks lie strictly between the posts.
CAUTIOUS_SPREAD = 8
#: ``cautious`` stakes its chips divided by this (at least the smallest stake allowed).
CAUTIOUS_SHARE = 20


def unseen_and_posts(
    rules: Rules, observation: Mapping[str, Any]
) -> tuple[Counter[int], list[int]]:
    """The ranks still unseen by the seat to act and its posts' ranks, as they count.

    Both come from the engine state the observation describes (``belief``): its stock (the
    used cards shuffled back where it ran out) and its ranks (a dealer's ``aces low``, a
    first-post ace called low).
    """
    state = belief.from_observation(belief.game_of(rules), observation)
    left: Counter[int] = Counter()
    for card, copies in zip(CARDS, state._stock().counts, strict=True):
        if copies:
            left[state.rank(card)] += copies
    posts = state.posts
    if len(posts) < 2:
        return left, [state.rank(c) for c in posts]
    ranks = list(state._copy(gap=1).ranks())
    if len(posts) > 2:
        ranks.append(state._copy(gap=2).ranks()[1])
    return left, ranks


def _amount(text: str) -> int:
    _, _, amount = text.partition(" ")
    return int(amount) if amount.lstrip("-").isdigit() else 0


class KellyBot(ExpectedValueBot):
    """Stakes Kelly's whole stake on a favourable bet (see the module)."""

    name = "kelly"

    def act(self, observation: dict[str, Any]) -> str:
        if self.rules is None:
            raise ArgumentError("bot.not_seated", bot=self.name)
        odds = decision_odds(self.rules, observation)
        advised = [b for b in odds.bets if b.advice is not None]
        if odds.decision not in ("bet", "raise") or not advised:
            return super().act(observation)
        best: tuple[Fraction, str] | None = None
        for bet in advised:
            assert bet.advice is not None
            stake = bet.advice.kelly.stake
            if stake == 0 and bet.advice.can_pass:
                continue  # Kelly passes this one
            if best is None or bet.ev_per_chip > best[0]:
                best = (bet.ev_per_chip, stake_action(bet, stake))
        return "pass" if best is None else best[1]


class CautiousBot:
    """Wide spreads only, small stakes, no card counting (see the module)."""

    name = "cautious"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # unused: the bot is deterministic; accepted for a uniform signature
        self.rules: Rules | None = None

    def seated(self, game: Game, seat: int) -> None:
        assert isinstance(game.rules, Rules)
        self.rules = game.rules

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = list(observation["legal_actions"])
        if not legal:
            raise ArgumentError("agent.no_legal_actions")
        for word in ("ace high", "aces high", "stay"):
            if word in legal:
                return word
        seat = int(observation["seat"])
        chips = int(observation["chips"][seat])
        if self.rules is None:
            raise ArgumentError("bot.not_seated", bot=self.name)
        _, ranks = unseen_and_posts(self.rules, observation)
        gap = int(observation.get("gap") or 1)
        bets = [_amount(t) for t in legal if t.startswith("bet ")]
        if "pass" in legal and (not bets or len(ranks) < gap + 1):
            return "pass"
        posts = (ranks[gap - 1], ranks[gap])
        wide = not is_pair(posts) and abs(posts[0] - posts[1]) - 1 >= CAUTIOUS_SPREAD
        if bets and (wide or "pass" not in legal):
            low, high = min(bets), max(bets)
            return f"bet {max(low, min(high, chips // CAUTIOUS_SHARE))}"
        if "pass" in legal:
            return "pass"
        return legal[0]  # a forced call with no bet word (higher/lower only): the first


#: The strategies of this module, name -> class taking ``seed`` (for ``bots.BOTS``).
STRATEGIES: dict[str, type[KellyBot] | type[CautiousBot]] = {
    "kelly": KellyBot,
    "cautious": CautiousBot,
}

#: ``bots.BOTS`` and these (``sim.inbetween_bots.ALL_BOTS`` adds ``session``).
ALL_BOTS: dict[str, Any] = {**BOTS, **STRATEGIES}
