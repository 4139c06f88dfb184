"""A seat's observation as an engine state: what that seat believes the table holds.

``from_observation(game, observation)`` rebuilds an :class:`InBetweenState` that shows the
seat the same observation and whose chance is the seat's own belief: every card the seat
has not seen (the stock, and other seats' face-down cards) is in the stock, so
``chance_outcomes()`` gives each next card with the chance the seat should give it.  The
other seats' face-down hands hold stand-ins still counted in the stock: the state is exact
up to the end of the hand at play, which is what the odds read (``odds.state_odds``); a
full determinisation is ``state.resample(seat, rng)`` of a real state.

What the observation does not say is set to what a decision cannot tell apart: the
finished split hand's second post (``split_rest``; a split is valued hand by hand), how
often the stock ran out (only ``twice-through`` reads it, for the session's end), the
draw for the deal.  The rules and order of play come from the engine (``round_order``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from aceydeucey.cards import Card
from aceydeucey.core.errors import ArgumentError
from aceydeucey.inbetween.events import Event, Message
from aceydeucey.inbetween.game import InBetweenGame
from aceydeucey.inbetween.lifecycle import round_order
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.shoe import CARDS, Shoe
from aceydeucey.inbetween.state import InBetweenState

__all__ = ["from_observation", "from_posts", "game_of"]


@functools.lru_cache(maxsize=64)
def game_of(rules: Rules) -> InBetweenGame:
    """The game of ``rules`` (one per rules: its caches are shared)."""
    return InBetweenGame(rules)


def from_observation(game: InBetweenGame, observation: Mapping[str, Any]) -> InBetweenState:
    """The engine state a seat's ``observation`` describes (see the module docstring)."""
    n = len(observation["chips"])
    if game.rules.players != n:  # rules given for another table size: this table's
        game = game_of(dataclasses.replace(game.rules, players=n))
    rules = game.rules
    seat = observation.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise ArgumentError("observation.bad_seat", seat=repr(seat), last=n - 1)
    phase = observation["step"]
    house = rules.banking == "house"
    dealer = 0 if house else int(observation.get("dealer") or 0)
    order = round_order(rules, dealer)
    to_act = observation.get("to_act")
    turn = order.index(to_act) if to_act in order else len(order) if phase == "house-third" else 0
    own = _cards(observation.get("hand"))
    face_down = _cards(observation.get("hidden_hand"))
    posts = _cards(observation.get("posts"))
    seen = _cards(observation.get("seen"))
    hands: tuple[tuple[Card, ...], ...] = ()
    waiting = order[turn + 1 :]
    shown: tuple[int, ...] = ()
    revealed = True
    shoe = Shoe.from_seen(rules.decks, seen).without(face_down)
    if rules.hidden:
        hands = tuple(
            tuple(own) if s == seat else _stand_ins(shoe) if s in waiting else () for s in range(n)
        )
        if own and not face_down:
            shown = (seat,)
        revealed = not (to_act == seat and face_down and phase not in ("third",))
    first = tuple(None if c is None else Card.from_text(c) for c in observation["first_cards"])
    legal = observation.get("legal_actions") or []
    view = observation.get("last_event")
    return InBetweenState(
        game=game,
        phase=phase,
        chips=tuple(int(c) for c in observation["chips"]),
        shoe=shoe,
        pot=int(observation.get("pot") or 0),
        bank=int(observation.get("bank") or 0) if house else 0,
        bets=tuple(int(b) for b in observation.get("bets") or ()) if house else (),
        round=int(observation.get("round") or 0),
        dealer=dealer,
        dealer_round=int(observation.get("dealer_round") or 0),
        dealer_game=int(observation.get("dealer_game") or 1) - 1,
        order=order,
        turn=turn,
        first=first,
        hands=hands,
        posts=tuple(posts),
        revealed=revealed,
        shown=shown,
        ace_low=observation.get("ace_low"),
        gap=int(observation.get("gap") or 1),
        split_done=rules.pairs == "split" and "split" not in legal,
        draw=(None,) * n if phase == "draw" else (),
        contenders=tuple(range(n)) if phase == "draw" else (),
        aces_low=observation.get("aces_low"),
        won=tuple(bool(w) for w in observation.get("won_bet") or (False,) * n),
        event=_event(view),
        after=tuple(_event(e) for e in (view or {}).get("after") or ()),
    )


def from_posts(
    game: InBetweenGame,
    posts: Sequence[Card],
    seen: Sequence[Card] = (),
    *,
    aces_low: bool | None = None,
) -> InBetweenState:
    """The first player of a round (seat 0) is dealt ``posts`` (Red Dog: the common posts),
    the other cards shown since the shuffle being ``seen``: the engine deals the last post
    and applies its rules (an ace to call, a pair or neighbours).  The balance is the
    starting chips and the pot every seat's ante (Red Dog: each seat's ante riding);
    ``aces_low`` is the dealer's call under ``aces="dealer-declares"``."""
    rules = game.rules
    n = rules.players
    house = rules.banking == "house"
    dealer = 0 if house else n - 1  # seat 0 plays first
    early = tuple(posts[:-1])
    declared = rules.aces == "dealer-declares"
    shoe = Shoe.from_seen(rules.decks, [*seen, *early])
    stand_in = _stand_ins(shoe)  # the later players' cards, for the turn that follows
    first: tuple[Card | None, ...] = (None,) * n
    hands: tuple[tuple[Card, ...], ...] = ((),) * n
    if rules.deal == "first-around":
        first = (posts[0], *(stand_in[0],) * (n - 1))
    elif rules.hidden:
        hands = ((), *(stand_in,) * (n - 1))
    state = InBetweenState(
        game=game,
        phase="common" if house else "deal-post",
        chips=(max(rules.starting_chips, rules.ante),) * n,
        shoe=shoe,
        pot=0 if house else rules.bank if rules.banking == "dealer" else rules.ante * n,
        bank=rules.bank if house else 0,
        bets=(rules.ante,) * n if house else (),
        round=1,
        dealer=dealer,
        dealer_round=1,
        order=round_order(rules, dealer),
        first=first,
        hands=hands,
        posts=early,
        won=(True,) * n,
        aces_low=bool(aces_low) if declared else None,
    )
    return state._apply(posts[-1])


def _stand_ins(shoe: Shoe) -> tuple[Card, Card]:
    """Two cards for a face-down hand still waiting its turn: taken from the stock's
    first cards but left counted in it (the seat's chance is unchanged); the hand at
    play is over before such a hand is looked at."""
    cards = [c for c, k in zip(CARDS, shoe.counts, strict=True) for _ in range(k)]
    return (cards[0], cards[-1])


def _cards(texts: Any) -> list[Card]:
    return [Card.from_text(str(t)) for t in texts or ()]


def _event(view: Mapping[str, Any] | None) -> Event:
    """The event tuple of an observation's ``last_event`` (``after`` kept apart)."""
    if not view:
        return ()
    return tuple((k, _value(v)) for k, v in view.items() if k != "after")


def _value(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_value(x) for x in v)
    if isinstance(v, dict) and set(v) == {"code", "params"}:
        return Message(v["code"], tuple(v["params"].items()))
    return v
