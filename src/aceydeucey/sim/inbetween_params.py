"""The In-Between kernel's rule block: resolved ``Rules`` as a few integer arrays.

The kernel (``sim.inbetween_kernel``) reads no option by name.  :func:`encode` turns the
rules into

* ``params``: one int64 per option the kernel reads (the indices below; the first nine
  are also the block of the ``session`` search, ``sim.inbetween_session``);
* ``pays``: ``pays[bet, a, b, t]``, the signed stakes a bet on posts of ranks ``a``,
  ``b`` receives from a third card of rank ``t`` (``bet``: :data:`BETWEEN`, three posts'
  :data:`SECOND` gap, a pair called :data:`HIGHER` or :data:`LOWER`), read off the
  engine's own ``settle.settle`` (``settle_trips`` for Red Dog's pairs) for every rank:
  post penalties, a pair's ``ace_pair_multiplier`` and ``pair_match_multiplier``, an ace
  that loses against a pair, the second gap's ``second_post_multiplier`` and Red Dog's
  spread and trips odds come from there;
* ``kinds``: the same bet's outcome as an index of :data:`OUTCOMES` (``settle``'s name),
  and ``losses[gap, a, b]``: the most stakes it can lose (``settle.worst_loss``);
* ``policies``: ``policies[a, b]``, what posts of ranks ``a``, ``b`` do before any bet
  (:data:`DECIDE`, :data:`LOSE`, :data:`PUSH`, :data:`WIN`, :data:`REDEAL`, Red Dog's
  :data:`TRIPS`), from the engine's ``is_pair``/``is_adjacent`` and the
  ``pairs``/``adjacent`` options.

Ranks are 2..14 (aces high: the kernel plays ``aces="high"``).  :func:`kernel_refusal`
names the first option the kernel does not play (``sim.inbetween`` plays those sessions on
the engine instead), :func:`search_plays` whether the ``session`` strategy's search
models the rules (the guide's game); elsewhere that strategy is ``ev``, in the kernel and
as an agent alike.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import (
    Call,
    is_adjacent,
    is_pair,
    settle,
    settle_trips,
    worst_loss,
)

__all__ = [
    "DECIDE",
    "LOSE",
    "PUSH",
    "WIN",
    "RuleBlock",
    "encode",
    "hand_limit",
    "kernel_refusal",
    "search_plays",
]

# -- indices into ``params`` (the first nine: the session search's block) ------------------
N, ANTE, EVERY, ROUNDS, DECKS, K, CAP, MIN_ANTE, FIRST = range(9)
(
    DEALER,
    BANKER,
    BANK,
    DEALER_GAMES,
    DEALER_PLAYS,
    EMPTY,
    THREE,
    POST_FEE,
    ANTE_BACK,
    BOTH_AT_TURN,
    PAIR_WIN,
    SEARCH,
    START,
    HOUSE,
    CALLS,
) = range(9, 24)
SIZE = 24

#: ``policies`` values: a decision, the ante lost, the ante back from the pot, a pair's win,
#: two new posts (``redeal``), Red Dog's third card on a pair (``third-card``).
DECIDE, LOSE, PUSH, WIN, REDEAL, TRIPS = range(6)
#: The bets of ``pays``' first index: the usual bet, three posts' second gap, a pair
#: called higher, called lower (``pairs="higher-lower"``).
BETWEEN, SECOND, HIGHER, LOWER = range(4)
#: ``params[EMPTY]`` values (``empty_pot``).
EMPTY_END, EMPTY_REPLENISH, EMPTY_NEXT_DEALER = range(3)

_CAPS = {"cover": 0, "chips": 1, "none": 2}
_FIRST_LIMITS = {"pot": 0, "half-pot": 1, "ante": 2}
_EMPTY = {"end": EMPTY_END, "replenish": EMPTY_REPLENISH, "next-dealer": EMPTY_NEXT_DEALER}
_POLICIES = {
    "bet": DECIDE,
    "higher-lower": DECIDE,
    "lose": LOSE,
    "push": PUSH,
    "win": WIN,
    "redeal": REDEAL,
    "third-card": TRIPS,
}
#: What became of a hand (a pass, a bet won, lost, lost on a post, or pushed: Red Dog's
#: neighbours and pairs); a settled bet's ``settle`` outcome as an index of ``OUTCOMES``.
OUTCOMES = ("pass", "inside", "outside", "post", "push")

#: The options the kernel plays at every value it may take, and those it plays at some:
#: each test below names the values it plays (any other goes to the engine).
_PLAYED: dict[str, Callable[[Any], bool]] = {
    "dealer": lambda v: v != "draw",
    "deal": lambda v: v in ("first-around", "both-at-turn", "common"),
    "reshuffle": lambda v: v == "round",
    "aces": lambda v: v == "high",
    "pairs": lambda v: v != "split",
    "ante_to_play": lambda v: not v,
    "hidden": lambda v: not v,
    "passed_card": lambda v: v == "discard",
}

#: The most chips a kernel session may start with in all (``starting_chips`` times ``players``).
MAX_CHIPS_IN_PLAY = 10**6

IntArray = npt.NDArray[np.int64]


@dataclasses.dataclass(frozen=True)
class RuleBlock:
    """What the kernel reads of one set of rules (see the module)."""

    params: IntArray
    pays: IntArray
    kinds: IntArray
    losses: IntArray
    policies: IntArray
    round_limits: IntArray


def kernel_refusal(rules: Rules) -> tuple[str, str] | None:
    """``(option, value)`` of the first option the kernel does not play, or None."""
    for name, plays in _PLAYED.items():
        value = getattr(rules, name)
        if not plays(value):
            return name, str(value)
    if rules.starting_chips * rules.players > MAX_CHIPS_IN_PLAY:
        return "starting_chips", str(rules.starting_chips)
    return None


@functools.cache
def _guide() -> Rules:
    return Rules.resolve(preset="guide")


#: Options the ``session`` search reads; every other one must keep the guide's value.
SEARCH_OPTIONS = (
    "preset",
    "players",
    "dealer",
    "starting_chips",
    "ante",
    "ante_each_round",
    "rounds",
    "decks",
    "post_multiplier",
    "stake_cap",
    "min_stake",
    "first_round_limit",
    "round_limits",
)


def search_plays(rules: Rules) -> bool:
    """Whether the ``session`` search models these rules (the guide's game, its stakes and
    table free); elsewhere the ``session`` strategy plays as ``ev``."""
    guide = _guide()
    if rules.dealer == "draw":
        return False
    return all(
        f.name in SEARCH_OPTIONS or getattr(rules, f.name) == getattr(guide, f.name)
        for f in dataclasses.fields(Rules)
    )


@functools.lru_cache(maxsize=64)
def encode(rules: Rules) -> RuleBlock:
    """The kernel's block for ``rules`` (which the kernel must play: ``kernel_refusal``)."""
    p = np.zeros(SIZE, dtype=np.int64)
    p[N] = rules.players
    p[ANTE] = rules.ante
    p[EVERY] = rules.ante_each_round
    p[ROUNDS] = rules.rounds
    p[DECKS] = rules.decks
    p[K] = rules.post_multiplier
    p[CAP] = _CAPS[rules.stake_cap]
    p[MIN_ANTE] = rules.min_stake == "ante"
    p[FIRST] = _FIRST_LIMITS[rules.first_round_limit]
    p[DEALER] = rules.dealer if isinstance(rules.dealer, int) else 0
    p[BANKER] = rules.banking == "dealer"
    p[BANK] = rules.bank
    p[DEALER_GAMES] = rules.total_dealer_games
    p[DEALER_PLAYS] = rules.dealer_plays
    p[EMPTY] = _EMPTY[rules.empty_pot]
    p[THREE] = rules.three_posts
    p[POST_FEE] = rules.post_fee
    p[ANTE_BACK] = rules.ante_back
    p[BOTH_AT_TURN] = rules.deal == "both-at-turn"
    p[PAIR_WIN] = rules.pair_win
    p[SEARCH] = search_plays(rules)
    p[START] = rules.starting_chips
    if rules.banking == "house":  # the most one bet can cost the house, in antes
        p[HOUSE] = max(rules.trips_pays, 2 * max(rules.spread_pays))
    p[CALLS] = rules.pairs == "higher-lower"
    pays = np.zeros((4, 15, 15, 15), dtype=np.int64)
    kinds = np.zeros((4, 15, 15, 15), dtype=np.int64)
    losses = np.ones((4, 15, 15), dtype=np.int64)
    policies = np.zeros((15, 15), dtype=np.int64)
    calls: tuple[tuple[int, Call, bool], ...] = (
        (BETWEEN, "between", False),
        (SECOND, "between", True),
        (HIGHER, "higher", False),
        (LOWER, "lower", False),
    )
    for a in range(2, 15):
        for b in range(2, 15):
            posts = (a, b)
            for index, call, second in calls:
                if call != "between" and a != b:
                    continue
                losses[index, a, b] = worst_loss(rules, posts, call, second_gap=second)
                for t in range(2, 15):
                    if rules.pairs == "third-card" and a == b:  # Red Dog's trips
                        result = settle_trips(rules, a, t)
                    else:
                        result = settle(rules, posts, call, t, second_gap=second)
                    pays[index, a, b, t] = m = result.multiplier
                    kinds[index, a, b, t] = _kind(m, result.outcome)
            if is_pair(posts):
                policies[a, b] = _POLICIES[rules.pairs]
            elif is_adjacent(posts):
                policies[a, b] = _POLICIES[rules.adjacent]
    limits = np.array(rules.round_limits, dtype=np.int64)
    return RuleBlock(p, pays, kinds, losses, policies, limits)


def _kind(multiplier: int, outcome: str) -> int:
    """The index of ``OUTCOMES`` a settled stake counts as (as ``sim.inbetween_engine``
    counts the engine's: by the sign of what it moves, a post named as such)."""
    if multiplier > 0:
        return 1
    if multiplier == 0:
        return 4
    return 3 if outcome == "post" else 2


def hand_limit(rules: Rules) -> int:
    """The most hands (decisions) a session of ``rules`` can play in the kernel."""
    if rules.banking == "house":  # every seat's bet each round
        return rules.rounds * rules.players
    seats = rules.players if rules.dealer_plays else rules.players - 1
    games = rules.total_dealer_games if rules.banking == "dealer" else 1
    return rules.rounds * games * seats * (2 if rules.three_posts else 1)
