"""A player's turn: the posts, the pairs/adjacent rule, the decision and the third card.

Functions of a state that return the next state (``state.evolve`` keeps the event
convention).  The round's order and its end are ``lifecycle``'s; Red Dog's common hand
is ``house``'s.

Hidden cards (``hidden=True``): a hand stays face down until its seat bets or splits, or
until a pairs/adjacent rule (``redeal``, ``push``, ``lose``, ``win``) applies to it, which
turns it up for everyone first (``turn_up``); a redeal's new posts, and the new post of
each hand of a split, come face down again (``face_down_posts``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aceydeucey.cards import Card
from aceydeucey.inbetween import lifecycle
from aceydeucey.inbetween.actions import Decision
from aceydeucey.inbetween.events import event
from aceydeucey.inbetween.settle import Call, is_adjacent, is_pair, settle

if TYPE_CHECKING:
    from aceydeucey.inbetween.state import InBetweenState

__all__ = [
    "begin_turn",
    "deal_aside",
    "deal_first",
    "deal_hand",
    "deal_post",
    "deal_third",
    "decide",
    "end_hand",
]


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


# -- chance ----------------------------------------------------------------------------
def deal_first(s: InBetweenState, card: Card) -> InBetweenState:
    """Everyone's first card, face up, clockwise from the dealer's left."""
    seat = s.order[sum(1 for p in s.order if s.first[p] is not None)]
    first = _put(s.first, seat, card)
    s = s.take(card).evolve(first=first, event=event("first", seat=seat, card=str(card)))
    if all(first[p] is not None for p in s.order):
        return begin_turn(s)
    return s


def deal_hand(s: InBetweenState, card: Card) -> InBetweenState:
    """Two face-down cards each (``hidden``), one at a time round the table."""
    m = len(s.order)
    k = sum(len(h) for h in s.hands)
    seat = s.order[k % m]
    hands = _put(s.hands, seat, (*s.hands[seat], card))
    s = s.take(card, face_up=False).evolve(hands=hands, event=event("hand", seat=seat))
    if k + 1 == 2 * m:
        return begin_turn(s)
    return s


def deal_post(s: InBetweenState, card: Card) -> InBetweenState:
    """The next post of the player to act (face down to a face-down hand after a redeal)."""
    seat = s.order[s.turn]
    if not s.revealed:
        hands = _put(s.hands, seat, (*s.hands[seat], card))
        s = s.take(card, face_up=False).evolve(
            posts=(*s.posts, card), hands=hands, event=event("post", seat=seat, face_down=True)
        )
        return after_post(s)
    s = s.take(card).evolve(posts=(*s.posts, card), event=event("post", seat=seat, card=str(card)))
    return after_post(s)


def deal_aside(s: InBetweenState, card: Card) -> InBetweenState:
    """After a pass (``passed_card="next-post"``): a card set aside face down."""
    seat = s.order[s.turn]
    s = s.take(card, face_up=False).evolve(aside=card, event=event("set-aside", seat=seat))
    return end_hand(s)


def deal_third(s: InBetweenState, card: Card) -> InBetweenState:
    """The third card settles the bet."""
    seat = s.order[s.turn]
    result = settle(s.rules, s.ranks(), s.call, s.rank(card), second_gap=s.gap == 2)
    delta = result.delta(s.stake)
    s = s.take(card).move(seat, delta, "settle", third=str(card), outcome=result.outcome)
    if delta > 0 and not s.won[seat]:
        s = s.evolve(won=_put(s.won, seat, True))
    return after_settle(s)


# -- the posts -------------------------------------------------------------------------
def begin_turn(s: InBetweenState) -> InBetweenState:
    """The next player in the order gets its posts (or the round ends)."""
    if s.turn >= len(s.order):
        return lifecycle.end_round(s)
    seat = s.order[s.turn]
    rules = s.rules
    base = s.evolve(ace_low=None, gap=1, split_rest=(), split_done=False, revealed=True)
    if rules.deal == "first-around":
        first = s.first[seat]
        assert first is not None
        return begin_hand(base, (first,))
    if rules.deal == "both-around":
        return posts_complete(base.evolve(posts=s.hands[seat], revealed=False))
    return await_post(base.evolve(posts=()))


def begin_hand(s: InBetweenState, posts: tuple[Card, ...]) -> InBetweenState:
    s = s.evolve(posts=posts, ace_low=None, gap=1)
    if s.rules.aces == "first-card" and posts and posts[0].rank == 14:
        return s.evolve(phase="ace")
    return await_post(s)


def await_post(s: InBetweenState) -> InBetweenState:
    """Wait for the next post: chance deals it, or the card set aside by a pass is placed."""
    if s.aside is None:
        return s.evolve(phase="deal-post")
    card, seat = s.aside, s.order[s.turn]
    s = s.evolve(
        aside=None,
        posts=(*s.posts, card),
        shoe=s.shoe.show((card,)),
        event=event("post", seat=seat, card=str(card), passed=True),
    )
    return after_post(s)


def after_post(s: InBetweenState) -> InBetweenState:
    need = 3 if s.rules.three_posts else 2
    if len(s.posts) < need:
        return s.evolve(phase="deal-post")
    if s.rules.aces == "first-card" and s.posts[0].rank == 14 and s.ace_low is None:
        return s.evolve(phase="ace")
    return posts_complete(s)


def posts_complete(s: InBetweenState) -> InBetweenState:
    """A pair of posts is complete: pay ``post_fee``, then apply the pair/adjacent rule."""
    seat = s.order[s.turn]
    fee = min(s.rules.post_fee, max(s.chips[seat], 0))
    return post_policy(s.move(seat, -fee, "fee") if fee else s)


def post_policy(s: InBetweenState) -> InBetweenState:
    """Apply the pairs/adjacent rule to complete posts (else wait for the decision)."""
    rules = s.rules
    ranks = s.ranks()
    seat = s.order[s.turn]
    policy: str | None = None
    if is_pair(ranks):
        policy = rules.pairs
    elif is_adjacent(ranks):
        policy = rules.adjacent
    if policy not in ("redeal", "lose", "push", "win"):
        return s.evolve(phase="decide")
    face_down = not s.revealed
    shown = [str(c) for c in s.posts]
    up = turn_up(s, seat)
    extra: dict[str, Any] = {"posts": shown} if face_down else {}
    if policy == "redeal":
        kind = "pair" if is_pair(ranks) else "adjacent"
        return up.evolve(
            posts=(),
            ace_low=None,
            phase="deal-post",
            revealed=not face_down,
            hands=_put(up.hands, seat, ()) if face_down else up.hands,
            shown=tuple(x for x in up.shown if x != seat) if face_down else up.shown,
            event=event("redeal", seat=seat, posts=shown, what=kind),
        )
    s = up.evolve(phase="decide")
    if policy == "lose":
        amount = min(rules.ante, max(s.chips[seat], 0))
        return end_hand(s.move(seat, -amount, "adjacent-loss", **extra))
    if policy == "push":  # a pool emptied by a push is refilled too (not ended: no bet did)
        amount = min(rules.ante, s.pot)
        s = s.move(seat, amount, "push", **extra)
        if s.pot <= 0 and rules.empty_pot != "end":
            return empty_pot(s)
        return end_hand(s)
    amount = min(rules.pair_win, s.pot)
    return after_settle(s.move(seat, amount, "pair-win", **extra))


def turn_up(s: InBetweenState, seat: int) -> InBetweenState:
    """A face-down hand is turned up: its face-down cards join ``seen`` (a face-up hand: as
    is).  The face-down cards are the seat's ``hands`` entry: both posts, or after a split
    the one new post beside the pair's card, which is face up already."""
    if s.revealed:
        return s
    return s.evolve(revealed=True, shoe=s.shoe.show(s.hands[seat]), shown=(*s.shown, seat))


def face_down_posts(s: InBetweenState, seat: int) -> InBetweenState:
    """Under ``hidden``, the next posts of ``seat`` come face down (a split hand's new post,
    as a redeal's): its hand holds only what is dealt from now on."""
    if not s.rules.hidden:
        return s
    return s.evolve(
        revealed=False,
        hands=_put(s.hands, seat, ()),
        shown=tuple(x for x in s.shown if x != seat),
    )


# -- decisions -------------------------------------------------------------------------
def decide(s: InBetweenState, d: Decision) -> InBetweenState:
    """A player's decision on its posts (or its ace call)."""
    seat = s.order[s.turn]
    rules = s.rules
    word = d.word
    if word in ("ace low", "ace high"):
        low = word == "ace low"
        s = s.evolve(ace_low=low, event=event("ace", seat=seat, low=low))
        if len(s.posts) >= (3 if rules.three_posts else 2):
            return posts_complete(s)
        return await_post(s)
    if word == "pass":
        s = s.evolve(event=event("pass", seat=seat))
        if rules.ante_to_play:
            amount = min(rules.ante, max(s.chips[seat], 0))
            s = s.move(seat, -amount, "pass", forfeit=amount)
        if rules.passed_card == "next-post" and s.turn + 1 < len(s.order):
            return s.evolve(phase="set-aside")
        return end_hand(s)
    if word == "split":  # a face-down pair is turned up to be split
        posts = [str(c) for c in s.posts]
        a, b = s.posts[0], s.posts[1]
        s = turn_up(s, seat).move(seat, -rules.ante, "split", posts=posts)
        s = face_down_posts(s.evolve(split_rest=(b,), split_done=True), seat)
        return begin_hand(s, (a,))
    call: Call = "between" if word == "bet" else word  # type: ignore[assignment]
    return turn_up(s, seat).evolve(
        phase="third",
        call=call,
        stake=d.amount or 0,
        event=event("bet", seat=seat, call=call, stake=d.amount),
    )


def after_settle(s: InBetweenState) -> InBetweenState:
    if s.pot <= 0:
        return empty_pot(s)
    return end_hand(s)


def empty_pot(s: InBetweenState) -> InBetweenState:
    """The pot is empty: end, next dealer, or everyone antes again (``empty_pot``)."""
    rules = s.rules
    if rules.empty_pot == "end":
        return lifecycle.over(s, "session.pot_emptied")
    if rules.empty_pot == "next-dealer":
        return lifecycle.end_dealer_game(s)
    short = [seat for seat in range(rules.players) if s.chips[seat] < rules.ante]
    if short:
        return lifecycle.over(s, "session.cannot_replenish", seat=short[0], ante=rules.ante)
    return end_hand(lifecycle.replenish(s))


def end_hand(s: InBetweenState) -> InBetweenState:
    """The hand is over: the second gap, the split's other hand, or the next player."""
    if s.rules.three_posts and s.gap == 1 and len(s.posts) == 3:
        return s.evolve(gap=2, phase="decide")
    if s.split_rest:
        rest = s.split_rest
        return begin_hand(face_down_posts(s.evolve(split_rest=()), s.order[s.turn]), rest)
    seat = s.order[s.turn]
    first = _put(s.first, seat, None)  # a finished player's cards are discarded
    return begin_turn(s.evolve(turn=s.turn + 1, posts=(), first=first))
