"""The odds' results and stake advice: per-chip odds of a stake, the advice at a table's
limits and a balance, and the decision's odds (``odds`` and ``hand_odds`` build them).

A :class:`BetOdds` is one way to stake on the posts, per chip; :func:`advise` adds its
:class:`StakeAdvice` (the best stake by expected chips and Kelly's stake, within the
limits); :class:`DecisionOdds` is the whole decision: its stakes and each legal action's
exact value.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from aceydeucey.inbetween.kelly import Kelly, kelly

__all__ = ["BetOdds", "DecisionOdds", "StakeAdvice", "advise", "fixed_odds", "stake_action"]


@dataclass(frozen=True)
class BetOdds:
    """One way to stake on the posts at hand, per chip staked.

    ``action`` is the word of the stake (``bet``, ``higher``, ``lower``, ``raise``; ``ante``
    for a Red Dog hand that plays itself), ``after`` the ace call it follows (``ace low`` /
    ``ace high``) or None, ``posts`` the post ranks as they count (an ace called low is 1),
    ``gap`` the gap of three posts (1 or 2) or None, ``outcomes`` each outcome's name, its
    signed stakes and its chance, best paid first.
    """

    action: str
    posts: tuple[int, int]
    outcomes: tuple[tuple[str, int, Fraction], ...]
    ev_per_chip: Fraction
    after: str | None = None
    gap: int | None = None
    advice: StakeAdvice | None = None

    def chance(self, outcome: str) -> Fraction:
        """The chance of ``outcome`` (0 when it cannot happen)."""
        return sum((p for name, _, p in self.outcomes if name == outcome), Fraction(0))

    def multiples(self) -> dict[int, Fraction]:
        """Each signed multiple of the stake and its chance (outcomes of equal pay merged)."""
        out: dict[int, Fraction] = {}
        for _, m, p in self.outcomes:
            out[m] = out.get(m, Fraction(0)) + p
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, fractions as ``"p/q"`` strings (see ``DecisionOdds.to_dict``)."""
        out: dict[str, Any] = {
            "action": self.action,
            "after": self.after,
            "gap": self.gap,
            "posts": list(self.posts),
            "outcomes": [
                {"outcome": name, "stakes": stakes, "chance": str(chance)}
                for name, stakes, chance in self.outcomes
            ],
            "ev_per_chip": str(self.ev_per_chip),
        }
        a = self.advice
        if a is not None:
            k = a.kelly
            finite = k.fraction != math.inf
            out["advice"] = {
                "min_stake": a.limits[0] if a.limits else None,
                "max_stake": a.limits[1] if a.limits else None,
                "can_pass": a.can_pass,
                "balance": a.wealth,
                "riding": a.riding,
                "best_stake": a.best,
                "best_action": stake_action(self, a.best),
                "best_value": str(a.best_value),
                "kelly_fraction": k.fraction if finite else None,
                "kelly_fraction_exact": None if k.exact is None else str(k.exact),
                "kelly_stake": k.stake,
                "kelly_action": stake_action(self, k.stake),
                "kelly_value": str(a.kelly_value),
            }
        return out


@dataclass(frozen=True)
class StakeAdvice:
    """How much to stake on one :class:`BetOdds`, at the table's limits and one balance.

    ``limits`` are the smallest and largest stake allowed (None: none is affordable, so a
    pass is all there is).  Red Dog counts the whole bet: the ``riding`` ante plus the
    raise (a stay is the stake ``riding``).  ``can_pass``: a pass is allowed (not on three
    posts' second bet, nor at Red Dog, where the ante rides); ``pass_cost`` is what a pass
    forfeits (the ante under ``ante_to_play``).  ``best`` is the stake of most expected
    chips (0: pass; ties go to the smaller stake) and ``best_value`` those chips;
    ``kelly`` is Kelly's fraction and stake for ``wealth`` (the seat's chips, plus the
    riding ante at Red Dog), ``kelly_value`` the expected chips of the Kelly stake.
    """

    limits: tuple[int, int] | None
    can_pass: bool
    wealth: int
    best: int
    best_value: Fraction
    kelly: Kelly
    kelly_value: Fraction
    riding: int = 0
    pass_cost: int = 0


def stake_action(bet: BetOdds, stake: int) -> str:
    """The canonical action that puts ``stake`` on ``bet``: ``pass``, ``bet 5``, ``stay``,
    ``raise 1`` (a Red Dog stake counts the riding ante)."""
    if bet.action == "raise":
        riding = bet.advice.riding if bet.advice is not None else 0
        return "stay" if stake <= riding else f"raise {stake - riding}"
    return "pass" if stake == 0 else f"{bet.action} {stake}"


def advise(
    bet: BetOdds,
    *,
    limits: tuple[int, int] | None,
    can_pass: bool,
    wealth: int,
    riding: int = 0,
    pass_cost: int = 0,
) -> BetOdds:
    """``bet`` with its :class:`StakeAdvice` for these limits and this balance.

    The expected chips of a stake ``s`` are ``s`` times the EV per chip (a pass:
    ``-pass_cost``), so the best stake by expected chips is a limit or a pass; Kelly's
    stake comes from ``kelly.kelly`` over the bet's own outcomes.
    """
    ev = bet.ev_per_chip

    def value(stake: int) -> Fraction:
        return Fraction(-pass_cost) if stake == 0 else stake * ev

    candidates = ([0] if can_pass or limits is None else []) + list(limits or ())
    best = max(candidates, key=lambda s: (value(s), -s))
    low, high = limits if limits is not None else (1, 0)
    k = kelly(bet.multiples(), wealth, low=low, high=high, can_pass=can_pass, pass_cost=pass_cost)
    advice = StakeAdvice(
        limits, can_pass, wealth, best, value(best), k, value(k.stake), riding, pass_cost
    )
    return dataclasses.replace(bet, advice=advice)


@dataclass(frozen=True)
class DecisionOdds:
    """The exact odds of the decision at hand.

    ``decision`` names it: ``bet`` (bet or pass; ``higher``/``lower`` on a called pair),
    ``raise`` (Red Dog's stay or raise), ``ace`` (a first-post ace called low or high),
    ``declare`` (the dealer's call of the round's aces), or a hand that plays itself:
    ``trips`` (Red Dog's pair: a third card of its rank pays ``trips_pays``, else a push),
    ``push``, ``lose``, ``win`` (a pair paid ``pair_win``) and ``redeal``.  ``bets`` are the
    stakes' per-chip odds; ``values`` each legal action's exact expected chips (only from a
    seat's observation, where the stakes are known); ``forced``: a pass is not allowed (the
    second bet of three posts); ``exact``: every value is exact (False only where a chain
    of re-deals was followed no further than ``hand_odds.state_odds``'s ``redeals``).
    """

    decision: str
    bets: tuple[BetOdds, ...] = ()
    values: Mapping[str, Fraction] = field(default_factory=dict)
    forced: bool = False
    exact: bool = True

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``decision``, ``forced``, each stake's outcomes and EV per chip (and
        its ``advice`` where it has one: limits, the best stake by EV, Kelly's fraction,
        its exact form or null, and Kelly's stake, with their actions and expected chips)
        and ``values``; fractions as ``"p/q"`` strings, Kelly's fraction also as a float
        (null when no outcome loses); ``"exact": false`` only where a value is not exact."""
        out: dict[str, Any] = {
            "decision": self.decision,
            "forced": self.forced,
            "bets": [bet.to_dict() for bet in self.bets],
            "values": {action: str(v) for action, v in self.values.items()},
        }
        if not self.exact:
            out["exact"] = False
        return out


def fixed_odds(
    action: str, posts: tuple[int, int], outcome: str, stakes: int, *, after: str | None = None
) -> BetOdds:
    """A hand whose result is settled by the posts alone (a push, an automatic loss)."""
    return BetOdds(action, posts, ((outcome, stakes, Fraction(1)),), Fraction(stakes), after=after)
