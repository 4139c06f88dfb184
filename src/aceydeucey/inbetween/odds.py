"""Exact odds of In-Between: the third card's chances and the value of each decision.

Everything is a ``Fraction`` computed from the cards still unseen; simulation only checks it.
No rule of the game is written here: the odds apply each action to an engine state and
enumerate ``chance_outcomes()`` until the hand is over (``state_odds``); an observation or
a set of posts first becomes the engine state the player believes in (``belief``).

One function answers for the decision at hand, for every front end and the EV bot:
``decision_odds(rules, observation)`` (a seat's observation, the rules given explicitly)
and ``posts_odds(rules, posts, seen, call=..., ace_low=...)`` (posts and seen cards alone,
the ``odds`` command).  Both return a ``DecisionOdds``: the kind of decision, each stake's
``BetOdds`` (outcomes, signed stakes, chances, EV per chip, and its ``StakeAdvice``: the
limits, the best stake by expected chips and Kelly's fraction and stake, ``kelly``) and,
from an observation, every legal action's exact value.  ``posts_odds`` gives the advice
when it is told the balance (``chips``).

>>> from aceydeucey.cards import Card
>>> from aceydeucey.inbetween.rules import Rules
>>> red_dog = Rules.resolve(preset="red-dog")
>>> odds = posts_odds(red_dog, [Card.from_text("7C"), Card.from_text("7D")])
>>> odds.decision, odds.bets[0].ev_per_chip   # trips pay 11 to 1, anything else pushes
('trips', Fraction(11, 25))

``seen`` never includes the posts: the functions remove the posts and ``seen`` from
``decks`` full decks.  Suits never matter, so the unseen cards are counted by rank.

>>> odds = post_odds(Card.from_text("4C"), Card.from_text("QD"))
>>> odds.inside, odds.post, odds.outside
(Fraction(14, 25), Fraction(3, 25), Fraction(8, 25))
>>> odds.ev_per_chip  # guide: inside +1, outside -1, post -2
Fraction(0, 1)
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from aceydeucey.cards import Card, remaining
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Action
from aceydeucey.inbetween import belief
from aceydeucey.inbetween.actions import decision
from aceydeucey.inbetween.kelly import Kelly, kelly
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import (
    ACE,
    Call,
    settle,
    stake_limits,
)

if TYPE_CHECKING:
    from aceydeucey.inbetween.state import InBetweenState

__all__ = [
    "BetOdds",
    "DecisionOdds",
    "PostOdds",
    "StakeAdvice",
    "action_values",
    "advise",
    "decision_odds",
    "default_pot",
    "expected_multiplier",
    "outcome_distribution",
    "post_odds",
    "posts_odds",
    "stake_action",
    "state_odds",
    "trips_chance",
    "unseen_ranks",
]


@dataclass(frozen=True)
class PostOdds:
    """The chances of the third card against two posts, and the value of a one-chip bet.

    For a ``higher``/``lower`` call on a pair, ``inside`` is the chance the call wins,
    ``post`` the chance of the same rank again and ``outside`` the rest.
    """

    inside: Fraction
    outside: Fraction
    post: Fraction
    ev_per_chip: Fraction


def unseen_ranks(decks: int, seen: Iterable[Card]) -> Counter[int]:
    """How many cards of each rank (2..14) are left after ``seen`` (raises if impossible)."""
    left = remaining(decks, list(seen))
    counts: Counter[int] = Counter()
    for card, copies in left.items():
        counts[card.rank] += copies
    return counts


def outcome_distribution(
    rules: Rules,
    posts: tuple[int, int],
    call: Call,
    left: Mapping[int, int],
    *,
    second_gap: bool = False,
) -> dict[tuple[str, int], Fraction]:
    """(outcome, multiplier) -> probability, over the third card drawn from ``left``."""
    total = sum(left.values())
    if total == 0:
        raise ArgumentError("ib_odds.no_cards_left")
    out: dict[tuple[str, int], Fraction] = {}
    for rank, copies in sorted(left.items()):
        if copies <= 0:
            continue
        s = settle(rules, posts, call, rank, second_gap=second_gap)
        key = (s.outcome, s.multiplier)
        out[key] = out.get(key, Fraction(0)) + Fraction(copies, total)
    return out


def expected_multiplier(
    rules: Rules,
    posts: tuple[int, int],
    call: Call,
    left: Mapping[int, int],
    *,
    second_gap: bool = False,
) -> Fraction:
    """Expected net chips per chip staked (the stake's signed multiple, averaged)."""
    dist = outcome_distribution(rules, posts, call, left, second_gap=second_gap)
    return sum((p * m for (_, m), p in dist.items()), Fraction(0))


def post_odds(
    first: Card,
    second: Card,
    seen: Sequence[Card] = (),
    *,
    decks: int = 1,
    ace_low: bool = False,
    rules: Rules | None = None,
    call: Call = "between",
) -> PostOdds:
    """Exact chances of inside / outside / post for posts ``first``, ``second``.

    ``seen`` are the other cards already shown since the shuffle (not the posts);
    ``ace_low`` calls a first-post ace low; ``rules`` (default: the guide) decides the
    stake multiples behind ``ev_per_chip``; ``call`` is ``higher``/``lower`` for pairs.
    """
    rules = rules if rules is not None else _default_rules()
    posts = (1 if (ace_low and first.rank == ACE) else first.rank, second.rank)
    left = unseen_ranks(decks, [first, second, *seen])
    total = sum(left.values())
    if total == 0:
        raise ArgumentError("ib_odds.no_cards_left")
    inside = post = 0  # counted in cards, divided once at the end
    low, high = sorted(posts)
    for rank, copies in left.items():
        if rank in posts:
            post += copies
        elif (
            (rank > low)
            if call == "higher"
            else (rank < low)
            if call == "lower"
            else (low < rank < high)
        ):
            inside += copies
    outside = total - inside - post
    inside_p, outside_p, post_p = (Fraction(n, total) for n in (inside, outside, post))
    ev = expected_multiplier(rules, posts, call, left)
    return PostOdds(inside=inside_p, outside=outside_p, post=post_p, ev_per_chip=ev)


@functools.cache
def _default_rules() -> Rules:
    return Rules.resolve()


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
    second bet of three posts).
    """

    decision: str
    bets: tuple[BetOdds, ...] = ()
    values: Mapping[str, Fraction] = field(default_factory=dict)
    forced: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``decision``, ``forced``, each stake's outcomes and EV per chip (and
        its ``advice`` where it has one: limits, the best stake by EV, Kelly's fraction,
        its exact form or null, and Kelly's stake, with their actions and expected chips)
        and ``values``; fractions as ``"p/q"`` strings, Kelly's fraction also as a float
        (null when no outcome loses)."""
        return {
            "decision": self.decision,
            "forced": self.forced,
            "bets": [bet.to_dict() for bet in self.bets],
            "values": {action: str(v) for action, v in self.values.items()},
        }


def _fixed_odds(
    action: str, posts: tuple[int, int], outcome: str, stakes: int, *, after: str | None = None
) -> BetOdds:
    """A hand whose result is settled by the posts alone (a push, an automatic loss)."""
    return BetOdds(action, posts, ((outcome, stakes, Fraction(1)),), Fraction(stakes), after=after)


def posts_odds(
    rules: Rules,
    posts: Sequence[Card],
    seen: Sequence[Card] = (),
    *,
    call: Call | None = None,
    ace_low: bool | None = None,
    chips: int | None = None,
    pot: int | None = None,
    round_number: int = 1,
) -> DecisionOdds:
    """The odds of the decision two posts (three under ``three_posts``) put to a player.

    ``seen`` are the other cards shown since the shuffle; ``call`` (``higher``/``lower``)
    is needed for a pair under ``pairs="higher-lower"``; ``ace_low`` calls an ace low:
    the first post's under ``aces="first-card"`` (None there: both calls are shown), every
    ace of the round under ``aces="dealer-declares"`` (the dealer's call; None: high).
    Refused with a coded ``ArgumentError``: a call where none is made, a pair that needs
    one, an ace called low where aces are always high, a wrong number of posts.

    With ``chips`` (the player's balance; at Red Dog, without the ante already riding),
    every stake gets its :class:`StakeAdvice`: the limits ``settle.stake_limits`` sets for
    that balance, the ``pot`` (default: every seat's ante, or the banker's ``bank``) and
    ``round_number``; Red Dog raises up to the ante.
    """
    odds = _posts_odds(rules, posts, seen, call=call, ace_low=ace_low)
    if chips is None:
        return odds
    if pot is None:
        pot = default_pot(rules)
    bets = tuple(_advise_posts(rules, bet, chips, pot, round_number) for bet in odds.bets)
    return dataclasses.replace(odds, bets=bets)


def default_pot(rules: Rules) -> int:
    """The pot a first turn faces: every seat's ante, the banker's ``bank`` (Red Dog: 0)."""
    if rules.banking == "house":
        return 0
    return rules.bank if rules.banking == "dealer" else rules.ante * rules.players


def _advise_posts(rules: Rules, bet: BetOdds, chips: int, pot: int, round_number: int) -> BetOdds:
    """One stake's advice from the rules' limits (``posts_odds`` with a balance)."""
    if bet.action == "raise":  # Red Dog: the ante rides, a raise adds up to the ante
        riding = rules.ante
        most = (riding, riding + min(rules.ante, max(chips, 0)))
        return advise(bet, limits=most, can_pass=False, wealth=chips + riding, riding=riding)
    if bet.action not in ("bet", "higher", "lower"):
        return bet  # a hand that plays itself: nothing to stake
    call: Call = "between" if bet.action == "bet" else bet.action  # type: ignore[assignment]
    second = bet.gap == 2
    limits = stake_limits(
        rules, bet.posts, call, chips=chips, pot=pot, round_number=round_number, second_gap=second
    )
    pass_cost = rules.ante if rules.ante_to_play else 0
    can_pass = not (second and limits is not None)  # the second bet of three posts is due
    return advise(bet, limits=limits, can_pass=can_pass, wealth=chips, pass_cost=pass_cost)


def _posts_odds(
    rules: Rules,
    posts: Sequence[Card],
    seen: Sequence[Card] = (),
    *,
    call: Call | None = None,
    ace_low: bool | None = None,
) -> DecisionOdds:
    """``posts_odds`` without the stake advice: the engine deals the last post to a player
    (``belief.from_posts``) and says what the posts make of the hand."""
    need = (2, 3) if rules.three_posts else (2,)
    if len(posts) not in need:
        raise ArgumentError(
            "ib_odds.post_count", expected=" / ".join(map(str, need)), got=len(posts)
        )
    left = unseen_ranks(rules.decks, [*posts, *seen])
    if not any(left.values()):
        raise ArgumentError("ib_odds.no_cards_left")
    if ace_low and rules.aces == "high":
        raise ArgumentError("ib_odds.aces_high")
    if ace_low is not None and rules.aces == "first-card" and posts[0].rank != ACE:
        raise ArgumentError("ib_odds.no_first_ace", post=str(posts[0]))
    state = belief.from_posts(belief.game_of(rules), posts, seen, aces_low=ace_low)
    seat = 0
    if state.phase == "deal-post" and rules.three_posts:  # two posts of three: the first
        state = state._copy(phase="decide")  # gap's odds, before the third post comes
    if rules.banking == "house":
        if call is not None:
            raise ArgumentError("ib_odds.no_call", pairs=rules.pairs)
        return _house_posts(state, seat, posts)
    if state.phase == "ace":
        if ace_low is None:
            return _ace_posts(state, seat, call)
        state = state._apply(decision("ace low" if ace_low else "ace high"))
    return _player_posts(state, seat, call)


#: The events of a hand the posts settle by themselves, and the decision each names.
_SETTLED_BY_POSTS = {
    "redeal": "redeal",
    "push": "push",
    "adjacent-loss": "lose",
    "pair-win": "win",
    "house-takes": "lose",
}
#: What a result fixed by the posts does to the ante (per chip of the ante).
_FIXED_STAKES = {"lose": -1, "push": 0}


def _settled_by_posts(state: InBetweenState) -> str | None:
    """The pair or neighbour rule the engine applied to the posts (None: none did)."""
    for ev in (state.event, *state.after):
        kind = dict(ev).get("kind") if ev else None
        if kind in _SETTLED_BY_POSTS:
            return _SETTLED_BY_POSTS[kind]
    return None


def _player_posts(state: InBetweenState, seat: int, call: Call | None) -> DecisionOdds:
    policy = _settled_by_posts(state)
    if policy is not None or state.phase != "decide":
        if call is not None:
            raise ArgumentError("ib_odds.no_call", pairs=state.rules.pairs)
        return DecisionOdds(policy or "none")
    per_chip = _call_odds(state, seat)
    words = list(per_chip)
    if set(words) == {"higher", "lower"}:
        if call is None:
            shown = " ".join(map(str, state.posts[:2]))
            raise ArgumentError("ib_odds.call_needed", posts=shown)
        words = [call]
    elif call is not None:
        raise ArgumentError("ib_odds.no_call", pairs=state.rules.pairs)
    out = [per_chip[w] for w in words]
    if state.rules.three_posts and len(state.posts) == 3:  # the second gap, after the first
        second = state._apply(decision("pass"))
        out.extend(_call_odds(second, seat).values())
    return DecisionOdds("bet", tuple(out))


def _ace_posts(state: InBetweenState, seat: int, call: Call | None) -> DecisionOdds:
    """A first-post ace not yet called: the odds after each call."""
    bets: list[BetOdds] = []
    for label, low in (("ace low", True), ("ace high", False)):
        after = state._apply(decision(label))
        policy = _settled_by_posts(after)
        if policy in _FIXED_STAKES:  # the ante is lost or comes back, no bet
            pair = state._copy(ace_low=low).ranks()
            stakes = _FIXED_STAKES[policy]
            bets.append(_fixed_odds("ante", pair, policy, stakes, after=label))
            continue
        if policy is not None or after.phase != "decide":
            continue  # a pair's win or a re-deal: no stake to show
        for word, bet in _call_odds(after, seat).items():
            if call is None or word in (call, "bet"):
                bets.append(dataclasses.replace(bet, after=label))
    return DecisionOdds("ace", tuple(bets))


def _house_posts(state: InBetweenState, seat: int, posts: Sequence[Card]) -> DecisionOdds:
    """Red Dog's common posts: trips, a push or a loss, or a spread to raise on."""
    ranks = (posts[0].rank, posts[1].rank)
    riding = state.rules.ante
    if state.phase == "house-third":  # a pair: a third card of its rank pays
        return DecisionOdds("trips", (_settled(state, seat, riding, "ante", ranks),))
    if state.phase == "raise":
        stay = state._apply(state.player_actions()[0])
        return DecisionOdds("raise", (_settled(stay, seat, riding, "raise", ranks),))
    policy = _settled_by_posts(state) or "push"
    return DecisionOdds(policy, (_fixed_odds("ante", ranks, policy, _FIXED_STAKES[policy]),))


def decision_odds(rules: Rules, observation: Mapping[str, Any]) -> DecisionOdds:
    """The exact odds and action values of the decision in a seat's ``observation``.

    ``rules`` are the game's resolved rules (a bot learns them when seated).  The
    observation becomes the engine state the seat believes in (``belief``: every card it
    has not seen is in the stock) and :func:`state_odds` reads the odds from the engine.
    """
    if not observation.get("legal_actions"):
        return DecisionOdds("none")
    state = belief.from_observation(belief.game_of(rules), observation)
    return state_odds(state, int(observation["seat"]))


def state_odds(state: InBetweenState, seat: int) -> DecisionOdds:
    """The exact odds and action values of ``seat``'s decision in an engine ``state``.

    Nothing here knows a rule: each action is applied to the state and chance's outcomes
    are enumerated (``chance_outcomes()``) until the seat's hand is over (the next player,
    the second gap of three posts, the split's other hand, the next round).  An action's
    value is the chips the hand's own events move for the seat (a bet's settlement, a
    forfeited ante, a post fee, a pair's or neighbours' loss, push or win; not the antes
    of a later round); at the seat's own later decisions in the same hand (after an ace
    call, on a split hand) the best action is taken.  Each call's per-chip odds come from
    one stake (the engine settles a stake as a multiple of it), so the best stake of a
    call is one of its limits.  Approximations, kept from the figures the front ends
    show: a second re-deal in a row ends the enumeration (worth what was paid so far), a
    split counts its second hand as worth its first, and the dealer's declaration of the
    aces is worth the chips it moves (none).  In a state of hidden cards the chance is
    the state's own: pass a belief state (``belief.from_observation``) or average over
    ``state.determinisations(seat)`` for the seat's view.
    """
    if state.current_player() != seat:
        return DecisionOdds("none")
    legal = list(state.player_actions())
    if not legal:
        return DecisionOdds("none")
    texts = [str(a) for a in legal]
    phase = state.phase
    if phase == "declare":
        return DecisionOdds(
            "declare",
            (),
            {t: Fraction(_gain(state._apply(a), seat)) for t, a in zip(texts, legal, strict=True)},
        )
    if phase == "raise":
        return _raise_odds(state, seat, legal)
    if phase == "ace":
        values: dict[str, Fraction] = {}
        bets: list[BetOdds] = []
        for text, action in zip(texts, legal, strict=True):
            after = state._apply(action)
            values[text] = _gain(after, seat) + _expect(after, seat, _key(state), _redealt(after))
            if (
                after.current_player() == seat
                and after.phase == "decide"
                and _key(after) == _key(state)
            ):
                bets.extend(_advised(after, seat, after=text, can_pass=True))
        return DecisionOdds("ace", tuple(bets), values)
    values = {}
    per_chip = _call_odds(state, seat)
    for text, action in zip(texts, legal, strict=True):
        word, _, amount = text.partition(" ")
        if word in per_chip:
            values[text] = int(amount) * per_chip[word].ev_per_chip
        elif text == "split":
            after = state._apply(action)
            hand = _expect(after, seat, _key(after), 0)
            values[text] = _gain(after, seat) + 2 * hand
        else:
            after = state._apply(action)
            values[text] = _gain(after, seat) + _expect(after, seat, _key(state), _redealt(after))
    advised = _advised(state, seat, per_chip=per_chip, can_pass="pass" in texts)
    return DecisionOdds("bet", tuple(advised), values, forced="pass" not in texts)


#: Event kinds that move chips of the hand at play (not the antes of a round, a refill).
_HAND_EVENTS = frozenset({"fee", "adjacent-loss", "push", "pair-win", "pass", "settle", "split"})


def _gain(state: InBetweenState, seat: int) -> int:
    """The chips the hand's events of the transition into ``state`` moved for ``seat``."""
    total = 0
    for ev in (state.event, *state.after):
        if not ev:
            continue
        fields = dict(ev)
        if fields["kind"] not in _HAND_EVENTS:
            continue
        if "deltas" in fields:  # Red Dog's third card settles every seat
            total += fields["deltas"][seat]
        elif fields.get("seat") == seat:
            total += fields.get("delta", 0)
    return total


def _redealt(state: InBetweenState) -> bool:
    return any(ev and ev[0] == ("kind", "redeal") for ev in (state.event, *state.after))


def _key(state: InBetweenState) -> tuple[object, ...]:
    """Which hand is at play: the hand is over when this changes."""
    return (state.round, state.dealer_game, state.turn, state.gap, state.split_rest)


def _expect(state: InBetweenState, seat: int, key: tuple[object, ...], redeals: int) -> Fraction:
    """The expected chips ``seat``'s hand still moves from ``state`` (see ``state_odds``)."""
    if state.is_terminal() or _key(state) != key or redeals >= 2:
        return Fraction(0)  # the hand is over (or re-dealt twice in a row: see state_odds)
    if state.is_chance_node():
        dist = state.chance_distribution()
        total = Fraction(0)
        for card, weight in zip(dist.actions, dist.weights, strict=True):
            after = state._apply(card)
            gain: Fraction = Fraction(_gain(after, seat))
            again = redeals + _redealt(after)
            if again < 2:
                gain += _expect(after, seat, key, again)
            total += weight * gain
        return total / dist.total
    if state.current_player() != seat:  # another seat's choice moves none of this hand's chips
        after = state._apply(state.player_actions()[0])
        return _gain(after, seat) + _expect(after, seat, key, redeals + _redealt(after))
    best: Fraction | None = None
    per_chip = _call_odds(state, seat)
    for action in state.player_actions():
        word, _, amount = str(action).partition(" ")
        if word in per_chip:
            value = int(amount) * per_chip[word].ev_per_chip
        elif word == "split":
            continue  # a split inside a hand's enumeration is not valued (see state_odds)
        else:
            after = state._apply(action)
            value = _gain(after, seat) + _expect(after, seat, key, redeals + _redealt(after))
        if best is None or value > best:
            best = value
    return best if best is not None else Fraction(0)


def _call_odds(state: InBetweenState, seat: int) -> dict[str, BetOdds]:
    """Each call's per-chip odds at ``seat``'s decision (``bet``, ``higher``, ``lower``):
    its smallest stake applied and the third card enumerated."""
    out: dict[str, BetOdds] = {}
    posts = state.ranks() if state.posts else (0, 0)
    gap = state.gap if state.rules.three_posts else None
    for action in state.player_actions():
        text = str(action)
        word, _, amount = text.partition(" ")
        if word not in ("bet", "higher", "lower") or word in out:
            continue
        out[word] = _settled(state._apply(action), seat, int(amount), word, posts, gap=gap)
    return out


def _settled(
    start: InBetweenState,
    seat: int,
    stake: int,
    word: str,
    posts: tuple[int, int],
    *,
    gap: int | None = None,
) -> BetOdds:
    """The per-chip odds of a stake of ``stake`` made on the way to ``start``: the outcomes
    of the settling card, as the engine names and pays them."""
    dist: dict[tuple[str, int], Fraction] = {}

    def walk(s: InBetweenState, p: Fraction) -> None:
        if s.is_chance_node():
            chance = s.chance_distribution()
            weights: dict[tuple[str, int], int] = {}
            for card, weight in zip(chance.actions, chance.weights, strict=True):
                after = s._apply(card)
                settle = _settle_event(after)
                if settle is None:
                    walk(after, p * Fraction(weight, chance.total))
                    continue
                key = (str(settle["outcome"]), _gain(after, seat) // stake)
                weights[key] = weights.get(key, 0) + weight
            for key, weight in weights.items():
                dist[key] = dist.get(key, Fraction(0)) + p * Fraction(weight, chance.total)
        elif not s.is_terminal():  # other seats' raises at Red Dog
            walk(s._apply(s.player_actions()[0]), p)

    walk(start, Fraction(1))
    outcomes = tuple(sorted(((n, m, p) for (n, m), p in dist.items()), key=lambda o: (-o[1], o[0])))
    ev = sum((p * m for _, m, p in outcomes), Fraction(0))
    return BetOdds(word, posts, outcomes, ev, gap=gap)


def _settle_event(state: InBetweenState) -> dict[str, Any] | None:
    for ev in (state.event, *state.after):
        if ev and ev[0] == ("kind", "settle"):
            return dict(ev)
    return None


def _advised(
    state: InBetweenState,
    seat: int,
    *,
    per_chip: Mapping[str, BetOdds] | None = None,
    after: str | None = None,
    can_pass: bool,
) -> list[BetOdds]:
    """Each call's odds with its advice at the limits the state's legal stakes set."""
    if per_chip is None:
        per_chip = _call_odds(state, seat)
    texts = [str(a) for a in state.player_actions()]
    pass_cost = Fraction(0)
    if "pass" in texts:
        pass_cost = -Fraction(_gain(state._apply(state.parse_action("pass")), seat))
    out = []
    for word, bet in per_chip.items():
        amounts = [int(t.partition(" ")[2]) for t in texts if t.partition(" ")[0] == word]
        if after is not None:
            bet = dataclasses.replace(bet, after=after)
        out.append(
            advise(
                bet,
                limits=(min(amounts), max(amounts)),
                can_pass=can_pass,
                wealth=state.chips[seat],
                pass_cost=int(pass_cost),
            )
        )
    return out


def _raise_odds(state: InBetweenState, seat: int, legal: Sequence[Action]) -> DecisionOdds:
    """Red Dog: the whole bet rides on the common posts (the ante plus any raise)."""
    riding = state.bets[seat]
    stay = legal[0]
    odds = _settled(state._apply(stay), seat, riding, "raise", state.ranks())
    values: dict[str, Fraction] = {}
    raises = [0]
    for action in legal:
        text = str(action)
        _, _, amount = text.partition(" ")
        raises.append(int(amount) if amount else 0)
        values[text] = (riding + raises[-1]) * odds.ev_per_chip
    odds = advise(
        odds,
        limits=(riding, riding + max(raises)),
        can_pass=False,
        wealth=state.chips[seat] + riding,
        riding=riding,
    )
    return DecisionOdds("raise", (odds,), values)


def action_values(
    observation: Mapping[str, Any], rules: Rules | None = None
) -> dict[str, Fraction]:
    """The exact expected chips of each legal action (``decision_odds(...).values``).

    ``rules`` default to the observation's own ``rules`` entry, where it still has one.
    """
    if rules is None:
        rules = Rules.from_dict(observation["rules"])
    return dict(decision_odds(rules, observation).values)


def trips_chance(pair: int, left: Mapping[int, int]) -> Fraction:
    """Red Dog: the chance that a third card matches ``pair``."""
    total = sum(left.values())
    return Fraction(left.get(pair, 0), total)


def _rules(data: Mapping[str, Any]) -> Rules:
    """The rules of an observation (cached: bots read the same dict many times)."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in data.items()))
    return _rules_from_key(key)


@functools.lru_cache(maxsize=64)
def _rules_from_key(key: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_dict(dict(key))
