"""Exact odds of In-Between: the third card's chances and the value of each decision.

Everything is a ``Fraction`` computed from the cards still unseen; simulation only checks it.
No rule of the game is written here: the odds apply each action to an engine state and
enumerate ``chance_outcomes()`` until the hand is over (``hand_odds.state_odds``); an
observation or a set of posts first becomes the engine state the player believes in
(``belief``).  The result types and the stake advice are ``advice``'s.

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
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from aceydeucey.cards import Card, remaining
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween import belief
from aceydeucey.inbetween.actions import decision
from aceydeucey.inbetween.advice import (
    BetOdds,
    DecisionOdds,
    StakeAdvice,
    advise,
    fixed_odds,
    stake_action,
)
from aceydeucey.inbetween.hand_odds import DEFAULT_REDEALS, call_odds, settled, state_odds
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import ACE, Call, post_ranks, settle, stake_limits

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
    posts = post_ranks(first, second, ace_low)
    left = unseen_ranks(decks, [first, second, *seen])
    # each rank as the engine settles it (settle.settle): no rule of the game is said here
    dist = outcome_distribution(rules, posts, call, left)
    inside = sum((p for (name, _), p in dist.items() if name in _WINS), Fraction(0))
    post = sum((p for (name, _), p in dist.items() if name in _POSTS), Fraction(0))
    ev = sum((p * m for (_, m), p in dist.items()), Fraction(0))
    return PostOdds(inside=inside, outside=1 - inside - post, post=post, ev_per_chip=ev)


#: the settlements of a third card that the coach calls "inside" (the bet wins) and "post"
#: (the same rank as a post); every other settlement is "outside"
_WINS = frozenset({"inside", "win"})
_POSTS = frozenset({"post", "trips"})


@functools.cache
def _default_rules() -> Rules:
    return Rules.resolve()


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
    per_chip = call_odds(state, seat)
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
        out.extend(call_odds(second, seat).values())
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
            bets.append(fixed_odds("ante", pair, policy, stakes, after=label))
            continue
        if policy is not None or after.phase != "decide":
            continue  # a pair's win or a re-deal: no stake to show
        for word, bet in call_odds(after, seat).items():
            if call is None or word in (call, "bet"):
                bets.append(dataclasses.replace(bet, after=label))
    return DecisionOdds("ace", tuple(bets))


def _house_posts(state: InBetweenState, seat: int, posts: Sequence[Card]) -> DecisionOdds:
    """Red Dog's common posts: trips, a push or a loss, or a spread to raise on."""
    ranks = (posts[0].rank, posts[1].rank)
    riding = state.rules.ante
    if state.phase == "house-third":  # a pair: a third card of its rank pays
        return DecisionOdds("trips", (settled(state, seat, riding, "ante", ranks),))
    if state.phase == "raise":
        stay = state._apply(state.player_actions()[0])
        return DecisionOdds("raise", (settled(stay, seat, riding, "raise", ranks),))
    policy = _settled_by_posts(state) or "push"
    return DecisionOdds(policy, (fixed_odds("ante", ranks, policy, _FIXED_STAKES[policy]),))


def decision_odds(
    rules: Rules, observation: Mapping[str, Any], *, redeals: int | None = DEFAULT_REDEALS
) -> DecisionOdds:
    """The exact odds and action values of the decision in a seat's ``observation``.

    ``rules`` are the game's resolved rules (a bot learns them when seated).  The
    observation becomes the engine state the seat believes in (``belief``: every card it
    has not seen is in the stock) and :func:`state_odds` reads the odds from the engine
    (``redeals``: how many re-deals in a row it follows; None: all).
    """
    if not observation.get("legal_actions"):
        return DecisionOdds("none")
    state = belief.from_observation(belief.game_of(rules), observation)
    return state_odds(state, int(observation["seat"]), redeals=redeals)


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
