"""More In-Between strategies, as agents on the contract: ``kelly``, ``cautious``, ``session``.

Each reads only its observation (and the rules, learnt once when seated), like the bots of
``bots`` (``random``, ``ev``); ``STRATEGIES`` maps their names to the classes (each takes
``seed``), ready to join ``bots.BOTS``.

- ``kelly``: on a bet of positive expected value (the exact odds of the cards still
  unseen, as ``odds`` counts them), stakes the Kelly fraction of its chips: the largest
  whole stake ``s`` at which the expected logarithm of its chips still grows, that is
  ``sum(p * m / (1 + m * s / chips)) >= 0`` over the bet's outcomes (multiple ``m`` of the
  stake, probability ``p``), kept within the table's limits; a Kelly stake below the
  smallest stake allowed is a pass.  The test is exact (fractions), so the stake is too.
  Decisions that are not a stake on posts (an ace call, a split, Red Dog's raise) are the
  ``ev`` bot's.
- ``cautious``: a plausible human who does not count cards: bets only on a spread of at
  least ``CAUTIOUS_SPREAD`` ranks between the posts (where the bet is favourable with a
  full deck), and then a small stake: a twentieth of its chips, at least the smallest
  stake and at most the largest; passes on pairs and narrower spreads, calls a lone ace
  high, lets the dealer call aces high, never splits and never raises.
- ``session``: plays for the highest balance at the end of a guide session rather than
  for chips: each candidate stake is valued by its chance of finishing ahead, over the
  third card's exact odds and playouts of the rest of the session
  (``sim.inbetween_session``, the same compiled search the simulator runs); under other
  rules, and for decisions that are not a stake, it is ``ev``.

Kelly's criterion: J. L. Kelly, "A New Interpretation of Information Rate" (1956); for
In-Between's three outcomes (+1, -1, a post's -2) the fraction is the smaller root of a
quadratic, which this module finds by the exact test above instead.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from aceydeucey.cards import Card
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game
from aceydeucey.inbetween.bots import BOTS, ExpectedValueBot
from aceydeucey.inbetween.odds import outcome_distribution, unseen_ranks
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import ACE, Call, is_pair

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


def kelly_stake(multiples: Mapping[int, int | Fraction], chips: int) -> int:
    """The largest whole stake at which the expected log of ``chips`` still grows.

    ``multiples`` maps each outcome's signed multiple of the stake (``+1``, ``-1``,
    ``-2``...) to its probability or its weight (card counts); the stake stays below the
    one whose worst outcome would take every chip.  0 when the bet is not favourable.

    >>> kelly_stake({1: 28, -1: 10, -2: 6}, 100)  # 28 cards inside, 10 outside, 6 posts
    9
    >>> kelly_stake({1: 1, -1: 1}, 100)
    0
    """
    if chips <= 0:
        return 0
    weights = {m: Fraction(w) for m, w in multiples.items() if w}
    worst = min(weights, default=0)

    def grows(s: int) -> bool:
        x = Fraction(s, chips)
        return sum((w * m / (1 + m * x) for m, w in weights.items()), Fraction(0)) >= 0

    if not weights or sum(w * m for m, w in weights.items()) <= 0:
        return 0
    top = chips * 10**6 if worst >= 0 else (chips - 1) // -worst
    lo, hi = 0, top  # grows(lo) holds; find the largest such stake by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if grows(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def unseen_and_posts(observation: Mapping[str, Any]) -> tuple[Counter[int], list[int]]:
    """The ranks still unseen by the seat to act and its posts' ranks, as ``odds`` counts them.

    Every card less those seen and the seat's own face-down cards (when none are left: the
    used cards less those on the table); a dealer's ``aces low`` makes every ace 1, and a
    first-post ace called low counts 1.
    """
    seen = [Card.from_text(c) for c in observation["seen"]]
    hidden_own = [Card.from_text(c) for c in observation.get("hidden_hand", [])]
    decks = int(observation["decks"])
    left = unseen_ranks(decks, [*seen, *hidden_own])
    posts = [Card.from_text(c) for c in observation["posts"]]
    if not any(left.values()):
        actor = observation.get("to_act")
        waiting = [
            Card.from_text(c) for i, c in enumerate(observation["first_cards"]) if c and i != actor
        ]
        left = unseen_ranks(decks, [*posts, *waiting, *hidden_own])
    ranks = [c.rank for c in posts]
    if observation.get("aces_low"):
        left[1], left[ACE] = left.get(ACE, 0), 0
        ranks = [1 if r == ACE else r for r in ranks]
    if observation.get("ace_low") and ranks and ranks[0] == ACE:
        ranks[0] = 1
    return left, ranks


def _amount(text: str) -> int:
    _, _, amount = text.partition(" ")
    return int(amount) if amount.lstrip("-").isdigit() else 0


class KellyBot(ExpectedValueBot):
    """Stakes the Kelly fraction of its chips on a favourable bet (see the module)."""

    name = "kelly"

    def act(self, observation: dict[str, Any]) -> str:
        legal: list[str] = list(observation["legal_actions"])
        stakes: dict[str, list[int]] = {}
        for text in legal:
            word = text.partition(" ")[0]
            if word in ("bet", "higher", "lower"):
                stakes.setdefault(word, []).append(_amount(text))
        if not stakes or observation.get("step") != "decide":
            return super().act(observation)
        if self.rules is None:
            raise ArgumentError("bot.not_seated", bot=self.name)
        rules: Rules = self.rules
        left, ranks = unseen_and_posts(observation)
        gap = int(observation.get("gap") or 1)
        posts = (ranks[gap - 1], ranks[gap])
        seat = int(observation["seat"])
        chips = int(observation["chips"][seat])
        best: tuple[Fraction, str, int] | None = None
        for word, amounts in stakes.items():
            call: Call = "between" if word == "bet" else word  # type: ignore[assignment]
            dist = outcome_distribution(rules, posts, call, left, second_gap=gap == 2)
            multiples: dict[int, Fraction] = {}
            for (_, m), p in dist.items():
                multiples[m] = multiples.get(m, Fraction(0)) + p
            ev = sum((m * p for m, p in multiples.items()), Fraction(0))
            stake = min(kelly_stake(multiples, chips), max(amounts))
            if stake < min(amounts):
                if "pass" in legal:
                    continue
                stake = min(amounts)  # a forced bet (three posts' second gap): the least
            if best is None or ev > best[0]:
                best = (ev, word, stake)
        if best is None:
            return "pass"
        return f"{best[1]} {best[2]}"


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
        _, ranks = unseen_and_posts(observation)
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


class SessionBot(ExpectedValueBot):
    """Plays for the highest balance at the end of a guide session (``sim.inbetween_session``).

    Under rules the simulator does not play (``sim.inbetween.check_supported``), and for
    decisions that are not a stake on posts, it is the ``ev`` bot.
    """

    name = "session"

    def seated(self, game: Game, seat: int) -> None:
        super().seated(game, seat)
        from aceydeucey.core.errors import RulesError
        from aceydeucey.sim.inbetween import check_supported

        self.supported = True
        try:
            check_supported(game.rules)  # type: ignore[arg-type]
        except RulesError:
            self.supported = False

    def act(self, observation: dict[str, Any]) -> str:
        import numpy as np

        from aceydeucey.sim.inbetween_session import session_stake

        legal: list[str] = list(observation["legal_actions"])
        bets = [_amount(t) for t in legal if t.startswith("bet ")]
        if not bets or observation.get("step") != "decide" or not getattr(self, "supported", 0):
            return super().act(observation)
        rules = self.rules
        assert rules is not None
        n = rules.players
        seat = int(observation["seat"])
        dealer = int(observation["dealer"])
        left, ranks = unseen_and_posts(observation)
        cnt = np.zeros(15, dtype=np.int64)
        for rank, copies in left.items():
            cnt[rank] = copies
        first = np.array(
            [Card.from_text(c).rank if c else 0 for c in observation["first_cards"]],
            dtype=np.int64,
        )
        params = np.array(
            [
                n,
                rules.ante,
                rules.ante_each_round,
                rules.rounds,
                rules.decks,
                rules.post_multiplier,
                {"cover": 0, "chips": 1, "none": 2}[rules.stake_cap],
                rules.min_stake == "ante",
                {"pot": 0, "half-pot": 1, "ante": 2}[rules.first_round_limit],
            ],
            dtype=np.int64,
        )
        stake = session_stake(
            np.array(observation["chips"], dtype=np.int64),
            int(observation["pot"]),
            int(observation["round"]),
            dealer,
            (seat - dealer - 1) % n,
            seat,
            first,
            cnt,
            (ranks[0], ranks[1]),
            (min(bets), max(bets)),
            params,
            np.array(rules.round_limits, dtype=np.int64),
        )
        return f"bet {stake}" if stake else "pass"


#: The strategies of this module, name -> class taking ``seed`` (for ``bots.BOTS``).
STRATEGIES: dict[str, type[KellyBot] | type[CautiousBot] | type[SessionBot]] = {
    "kelly": KellyBot,
    "cautious": CautiousBot,
    "session": SessionBot,
}

#: Every In-Between strategy, ``bots.BOTS`` and these: what tables and the terminal offer.
ALL_BOTS: dict[str, Any] = {**BOTS, **STRATEGIES}
