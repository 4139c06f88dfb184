"""Exact odds on engine states: each action applied, chance's cards enumerated to the hand's end.

No rule of the game is written here: :func:`state_odds` applies each legal action to an
engine state and enumerates ``chance_distribution()`` until the seat's hand is over, taking
at the seat's own later decisions in the same hand the action of most expected chips.

Two facts keep the enumeration small, neither a rule of the game:

- **Suits never matter**, so chance's cards of one rank are one branch: the first card of
  the rank in the stock, weighted by every copy of the rank.  Any rank-preserving renaming
  of the cards maps a state's future onto another's, so the values are unchanged.
- **States are values**: a state reached twice (in rank terms: ``_canon``) is valued once
  per enumeration.

A split's two hands are followed in turn: the second hand has its own posts and chance,
from the stock and balances the first hand leaves.  A re-deal starts the hand again from a
smaller stock, so a chain of re-deals ends with the shoe; following it to its end costs a
branch per distinct stock (millions from a full deck), so ``redeals`` bounds how many
re-deals in a row are followed (``None``: all of them, within the shuffle), and the result
says whether it is ``exact``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from aceydeucey.cards import Card
from aceydeucey.core.game import Action
from aceydeucey.inbetween.advice import BetOdds, DecisionOdds, advise
from aceydeucey.inbetween.shoe import Shoe
from aceydeucey.inbetween.state import InBetweenState

__all__ = ["DEFAULT_REDEALS", "HandWalk", "call_odds", "gain", "settled", "state_odds"]

#: How many re-deals in a row ``state_odds`` follows by default (the cost grows with each:
#: see the module docstring); a branch cut there makes the odds' ``exact`` False.
DEFAULT_REDEALS = 1

#: Event kinds that move chips of the hand at play (not the antes of a round, a refill).
_HAND_EVENTS = frozenset({"fee", "adjacent-loss", "push", "pair-win", "pass", "settle", "split"})

Pair = tuple[Fraction, Fraction]
_ZERO: Pair = (Fraction(0), Fraction(0))


def state_odds(
    state: InBetweenState, seat: int, *, redeals: int | None = DEFAULT_REDEALS
) -> DecisionOdds:
    """The exact odds and action values of ``seat``'s decision in an engine ``state``.

    An action's value is the chips the hand's own events move for the seat (a bet's
    settlement, a forfeited ante, a post fee, a pair's or neighbours' loss, push or win;
    not the antes of a later round), in expectation over the cards to come, the seat
    taking the best action at its later decisions of the same hand (after an ace call, in
    a re-dealt hand).  A split is its ante plus both its hands, each played for its own
    chips.  Each call's per-chip odds come from one stake (the engine settles a stake as a
    multiple of it), so the best stake of a call is one of its limits.  The dealer's
    declaration of the aces is worth the chips it moves (none).  ``redeals``: how many
    re-deals in a row are followed (None: every one); the result's ``exact`` says whether
    a chain was cut.  In a state of hidden cards the chance is the state's own: pass a
    belief state (``belief.from_observation``) or average over
    ``state.determinisations(seat)`` for the seat's view.
    """
    if state.current_player() != seat:
        return DecisionOdds("none")
    legal = list(state.player_actions())
    if not legal:
        return DecisionOdds("none")
    walk = HandWalk(state, seat, redeals)
    texts = [str(a) for a in legal]
    phase = state.phase
    values: dict[str, Fraction]
    if phase == "declare":
        values = {
            t: Fraction(gain(state._apply(a), seat)) for t, a in zip(texts, legal, strict=True)
        }
        return DecisionOdds("declare", (), values)
    if phase == "raise":
        return _raise_odds(state, seat, legal)
    key = _key(state)
    if phase == "ace":
        values = {}
        bets: list[BetOdds] = []
        for text, action in zip(texts, legal, strict=True):
            after = state._apply(action)
            values[text] = walk.value(after, key, 0)
            if after.current_player() == seat and after.phase == "decide" and _key(after) == key:
                bets.extend(_advised(after, seat, walk.calls(after), after=text, can_pass=True))
        return DecisionOdds("ace", tuple(bets), values, exact=not walk.cut)
    values = {}
    per_chip = walk.calls(state)
    for text, action in zip(texts, legal, strict=True):
        word, _, amount = text.partition(" ")
        if word in per_chip:
            values[text] = int(amount) * per_chip[word].ev_per_chip
        else:
            values[text] = walk.value(state._apply(action), key, 0)
    advised = _advised(state, seat, per_chip, can_pass="pass" in texts)
    return DecisionOdds(
        "bet", tuple(advised), values, forced="pass" not in texts, exact=not walk.cut
    )


class HandWalk:
    """One enumeration of ``seat``'s hand from ``start``: its memo and whether a re-deal
    chain was cut (``cut``); ``redeals`` as in :func:`state_odds`."""

    def __init__(self, start: InBetweenState, seat: int, redeals: int | None) -> None:
        self.seat = seat
        self.redeals = redeals
        self.cut = False
        self._outs = start.shoe.deck_outs
        self._memo: dict[tuple[object, ...], Pair] = {}
        self._calls: dict[object, dict[str, BetOdds]] = {}

    def value(self, after: InBetweenState, key: tuple[object, ...], redeals: int) -> Fraction:
        """The chips of the transition into ``after`` plus what the hand ``key`` (and a
        split's second hand) still moves from there."""
        split = _is_split(after)
        own, rest = self._follow(after, _key(after) if split else key, redeals, through=split)
        return own + rest

    def calls(self, state: InBetweenState) -> dict[str, BetOdds]:
        """Each call's per-chip odds at the seat's decision in ``state`` (memoised)."""
        canon = _canon(state)
        out = self._calls.get(canon)
        if out is None:
            out = self._calls[canon] = call_odds(state, self.seat)
        return out

    # -- the enumeration ----------------------------------------------------------------
    def _follow(
        self, after: InBetweenState, key: tuple[object, ...], redeals: int, *, through: bool
    ) -> Pair:
        """(own, rest) of a transition into ``after``: ``own`` the chips it and the rest of
        hand ``key`` move, ``rest`` (only ``through`` a split) those of the split's second
        hand."""
        chips = Fraction(gain(after, self.seat))
        if _redealt(after):
            redeals += 1
            limit = self.redeals
            if (limit is not None and redeals >= limit) or (
                limit is None and after.shoe.deck_outs > self._outs
            ):  # followed no further (see the module docstring): worth what it paid
                self.cut = True
                return (chips, Fraction(0))
        own, rest = self._rest(after, key, redeals, through)
        return (chips + own, rest)

    def _rest(
        self, state: InBetweenState, key: tuple[object, ...], redeals: int, through: bool
    ) -> Pair:
        """(own, rest) that the hand ``key`` still moves from ``state`` (see ``_follow``)."""
        if state.is_terminal():
            return _ZERO
        now = _key(state)
        if now != key:  # the hand is over; through a split, its second hand begins
            if through and now[:4] == key[:4]:
                own, _ = self._rest(state, now, 0, False)
                return (Fraction(0), own)
            return _ZERO
        memo_key = (_canon(state), _ranks(key), redeals if self.redeals is not None else 0, through)
        hit = self._memo.get(memo_key)
        if hit is not None:
            return hit
        if state.is_chance_node():
            out = self._chance(state, key, redeals, through)
        elif state.current_player() != self.seat:  # another seat's choice moves no chip here
            out = self._follow(
                state._apply(state.player_actions()[0]), key, redeals, through=through
            )
        else:
            out = self._decide(state, key, redeals, through)
        self._memo[memo_key] = out
        return out

    def _chance(
        self, state: InBetweenState, key: tuple[object, ...], redeals: int, through: bool
    ) -> Pair:
        total = [Fraction(0), Fraction(0)]
        dist = state.chance_distribution()
        for card, weight in by_rank(dist.actions, dist.weights):
            own, rest = self._follow(state._apply(card), key, redeals, through=through)
            total[0] += weight * own
            total[1] += weight * rest
        return (total[0] / dist.total, total[1] / dist.total)

    def _decide(
        self, state: InBetweenState, key: tuple[object, ...], redeals: int, through: bool
    ) -> Pair:
        """The seat's action of most expected chips for this hand (the first of equals)."""
        per_chip = self.calls(state)
        best: tuple[Fraction, Action, Pair | None] | None = None
        for action in state.player_actions():
            word, _, amount = str(action).partition(" ")
            known: Pair | None = None
            if word in per_chip:
                own = int(amount) * per_chip[word].ev_per_chip
            elif word == "split":  # both hands of the split are this hand's chips
                after = state._apply(action)
                a, b = self._follow(after, _key(after), 0, through=True)
                own, known = a + b, (a + b, Fraction(0))
            else:
                known = self._follow(state._apply(action), key, redeals, through=through)
                own = known[0]
            if best is None or own > best[0]:
                best = (own, action, known)
        if best is None:
            return _ZERO
        own, action, known = best
        if known is not None:
            return known
        if not through:
            return (own, Fraction(0))
        return self._follow(state._apply(action), key, redeals, through=True)


def by_rank(cards: Sequence[Action], weights: Sequence[int]) -> list[tuple[Card, int]]:
    """Chance's cards one per rank: the first card of each rank, weighted by every copy of
    the rank (suits never matter; see the module docstring)."""
    out: dict[int, list[Any]] = {}
    for card, weight in zip(cards, weights, strict=True):
        assert isinstance(card, Card)
        entry = out.get(card.rank)
        if entry is None:
            out[card.rank] = [card, weight]
        else:
            entry[1] += weight
    return [(card, weight) for card, weight in out.values()]


def gain(state: InBetweenState, seat: int) -> int:
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


def call_odds(state: InBetweenState, seat: int) -> dict[str, BetOdds]:
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
        out[word] = settled(state._apply(action), seat, int(amount), word, posts, gap=gap)
    return out


def settled(
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
            for card, weight in by_rank(chance.actions, chance.weights):
                after = s._apply(card)
                event = _settle_event(after)
                if event is None:
                    walk(after, p * Fraction(weight, chance.total))
                    continue
                key = (str(event["outcome"]), gain(after, seat) // stake)
                weights[key] = weights.get(key, 0) + weight
            for key, weight in weights.items():
                dist[key] = dist.get(key, Fraction(0)) + p * Fraction(weight, chance.total)
        elif not s.is_terminal():  # other seats' raises at Red Dog
            walk(s._apply(s.player_actions()[0]), p)

    walk(start, Fraction(1))
    outcomes = tuple(sorted(((n, m, p) for (n, m), p in dist.items()), key=lambda o: (-o[1], o[0])))
    ev = sum((p * m for _, m, p in outcomes), Fraction(0))
    return BetOdds(word, posts, outcomes, ev, gap=gap)


# -- helpers --------------------------------------------------------------------------------
def _settle_event(state: InBetweenState) -> dict[str, Any] | None:
    for ev in (state.event, *state.after):
        if ev and ev[0] == ("kind", "settle"):
            return dict(ev)
    return None


def _redealt(state: InBetweenState) -> bool:
    return any(ev and ev[0] == ("kind", "redeal") for ev in (state.event, *state.after))


def _is_split(state: InBetweenState) -> bool:
    return any(ev and ev[0] == ("kind", "split") for ev in (state.event, *state.after))


def _key(state: InBetweenState) -> tuple[object, ...]:
    """Which hand is at play: the hand is over when this changes (a split's second hand
    keeps the first four entries)."""
    return (state.round, state.dealer_game, state.turn, state.gap, state.split_rest)


#: The fields that make a state's value (``game`` is one per enumeration).
_FIELDS = tuple(
    f.name for f in dataclasses.fields(InBetweenState) if f.compare and f.name != "game"
)


def _canon(state: InBetweenState) -> tuple[object, ...]:
    """The state's value with every card read as its rank (see the module docstring)."""
    return tuple(_ranks(getattr(state, name)) for name in _FIELDS)


def _ranks(value: object) -> object:
    if isinstance(value, Card):
        return value.rank
    if isinstance(value, tuple):
        return tuple(_ranks(v) for v in value)
    if isinstance(value, Shoe):
        return (tuple(sorted(value.rank_counts().items())), value.deck_outs)
    return value


def _advised(
    state: InBetweenState,
    seat: int,
    per_chip: Mapping[str, BetOdds],
    *,
    after: str | None = None,
    can_pass: bool,
) -> list[BetOdds]:
    """Each call's odds with its advice at the limits the state's legal stakes set."""
    texts = [str(a) for a in state.player_actions()]
    pass_cost = 0
    if "pass" in texts:
        pass_cost = -gain(state._apply(state.parse_action("pass")), seat)
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
                pass_cost=pass_cost,
            )
        )
    return out


def _raise_odds(state: InBetweenState, seat: int, legal: Sequence[Action]) -> DecisionOdds:
    """Red Dog: the whole bet rides on the common posts (the ante plus any raise)."""
    riding = state.bets[seat]
    odds = settled(state._apply(legal[0]), seat, riding, "raise", state.ranks())
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
