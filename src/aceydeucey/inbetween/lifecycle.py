"""The session's lifecycle: the draw for the deal, dealer's games, rounds, antes, the end.

A session opens with the draw for the deal (``dealer="draw"``) or at once; under
``banking="dealer"`` it is a series of dealer's games (the dealer puts up the bank and
plays ``rounds`` rounds against the others); each round collects the antes, orders the
players clockwise from the dealer's left and deals.  The session ends with a coded
reason (``session.*`` in the ``inbetween_errors`` catalog).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from aceydeucey.cards import Card
from aceydeucey.inbetween.actions import Decision
from aceydeucey.inbetween.events import Message, event
from aceydeucey.inbetween.shoe import Shoe

if TYPE_CHECKING:
    from aceydeucey.inbetween.rules import Rules
    from aceydeucey.inbetween.state import InBetweenState

__all__ = [
    "deal_draw",
    "declare",
    "end_dealer_game",
    "end_round",
    "open_session",
    "over",
    "pot_shares",
    "replenish",
    "round_order",
    "start_round",
]

#: Cards each deal needs per player at the start of a round (``reshuffle`` other than round).
_NEED = {"first-around": 1, "both-around": 2}


def open_session(s: InBetweenState) -> InBetweenState:
    """A session's blank first state (``phase="start"``) opens: the draw for the deal, or
    the first round's antes."""
    rules = s.rules
    n = rules.players
    if rules.dealer == "draw":
        return s.evolve(phase="draw", draw=(None,) * n, contenders=tuple(range(n)))
    s = s.evolve(dealer=rules.dealer)
    return start_dealer_game(s) if rules.banking == "dealer" else start_round(s)


def deal_draw(s: InBetweenState, card: Card) -> InBetweenState:
    """One card each for the deal: the highest deals; a tie draws again among the tied."""
    seat = next(i for i in s.contenders if s.draw[i] is None)
    draw = (*s.draw[:seat], card, *s.draw[seat + 1 :])
    s = s.take(card).evolve(draw=draw, event=event("draw", seat=seat, card=str(card)))
    if any(draw[i] is None for i in s.contenders):
        return s
    ranks = {i: c.rank for i, c in enumerate(draw) if c is not None}
    best = max(ranks[i] for i in s.contenders)
    tied = tuple(i for i in s.contenders if ranks[i] == best)
    if len(tied) > 1:
        cleared = tuple(None if i in tied else c for i, c in enumerate(draw))
        return s.evolve(draw=cleared, contenders=tied, event=event("tie", seats=list(tied)))
    s = s.evolve(dealer=tied[0], shoe=s.shoe.collected(), event=event("dealer", seat=tied[0]))
    return start_dealer_game(s) if s.rules.banking == "dealer" else start_round(s)


def over(s: InBetweenState, code: str, **params: Any) -> InBetweenState:
    """The session ends (the dealer keeps a banker's pot); ``code`` says why."""
    chips, pot = s.chips, s.pot
    if s.rules.banking == "dealer" and pot:
        chips = (*chips[: s.dealer], chips[s.dealer] + pot, *chips[s.dealer + 1 :])
        pot = 0
    reason = (code, tuple(params.items()))
    return s.evolve(
        phase="over",
        chips=chips,
        pot=pot,
        ended=reason,
        event=event("over", reason=Message(*reason)),
    )


def start_dealer_game(s: InBetweenState) -> InBetweenState:
    """A dealer's game (``banking="dealer"``): the dealer puts up the bank."""
    rules = s.rules
    if s.dealer_game >= rules.total_dealer_games:
        return over(s, "session.dealer_games_played", count=rules.total_dealer_games)
    if s.chips[s.dealer] < rules.bank:
        return over(s, "session.dealer_cannot_bank", seat=s.dealer, bank=rules.bank)
    chips = s.chips
    chips = (*chips[: s.dealer], chips[s.dealer] - rules.bank, *chips[s.dealer + 1 :])
    s = s.evolve(chips=chips, pot=s.pot + rules.bank, dealer_round=0, last_round=False)
    return start_round(s)


def end_dealer_game(s: InBetweenState) -> InBetweenState:
    """The dealer takes what is left in the pot; the deal passes left."""
    rules = s.rules
    chips = s.chips
    chips = (*chips[: s.dealer], chips[s.dealer] + s.pot, *chips[s.dealer + 1 :])
    shoe = s.shoe.collected() if rules.reshuffle != "round" else s.shoe
    s = s.evolve(
        chips=chips,
        pot=0,
        dealer=(s.dealer + 1) % rules.players,
        dealer_game=s.dealer_game + 1,
        shoe=Shoe(shoe.decks, shoe.counts, shoe.left, shoe.dealt, shoe.seen, 0),
        event=event("dealer-takes", seat=s.dealer, amount=s.pot),
    )
    return start_dealer_game(s)


def start_round(s: InBetweenState) -> InBetweenState:
    """A new round: the end of the session, or the antes, the order and the deal."""
    rules = s.rules
    n = rules.players
    if rules.banking == "dealer":
        if s.dealer_round >= rules.rounds or s.last_round:
            return end_dealer_game(s)
    else:
        if s.round >= rules.rounds:
            return over(s, "session.rounds_played", count=rules.rounds)
        if s.last_round:
            return over(s, "session.deck_out_twice")
    order = round_order(rules, s.dealer)
    payers = order if rules.banking == "dealer" else tuple(range(n))
    chips, pot, bets = s.chips, s.pot, s.bets
    if rules.ante and (rules.ante_each_round or s.round == 0):
        short = [p for p in payers if chips[p] < rules.ante]
        if short:
            return over(s, "session.cannot_ante", seat=short[0], ante=rules.ante)
        if rules.banking == "house":
            worst = n * rules.ante * max(rules.trips_pays, 2 * max(rules.spread_pays))
            if s.bank < worst:
                return over(s, "session.house_cannot_cover", bank=s.bank, worst=worst)
            bets = tuple(rules.ante if p in payers else 0 for p in range(n))
        else:
            pot += rules.ante * len(payers)
        chips = tuple(c - rules.ante if p in payers else c for p, c in enumerate(chips))
    shoe = s.shoe
    last: bool = s.last_round
    if rules.reshuffle == "round":
        shoe = shoe.collected()
    else:
        need = _NEED.get(rules.deal, 0) * len(order) or 2
        if shoe.left < need:
            shoe = Shoe.fresh(rules.decks, shoe.deck_outs + 1)
            last = last or (rules.reshuffle == "twice-through" and shoe.deck_outs >= 2)
    s = s.evolve(
        chips=chips,
        pot=pot,
        bets=bets,
        round=s.round + 1,
        dealer_round=s.dealer_round + 1,
        order=order,
        turn=0,
        shoe=shoe,
        last_round=last,
        first=(None,) * n,
        hands=((),) * n,
        posts=(),
        ace_low=None,
        aces_low=None,
        aside=None,
        gap=1,
        split_rest=(),
        split_done=False,
        shown=(),
        event=event("round", round=s.round + 1, dealer=s.dealer, pot=pot),
    )
    if rules.aces == "dealer-declares":
        return s.evolve(phase="declare")
    return open_deal(s)


def round_order(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The seats that play a round, in order: clockwise from the dealer's left, the dealer
    last (or not at all without ``dealer_plays``); every seat in turn under Red Dog."""
    n = rules.players
    if rules.banking == "house":
        return tuple(range(n))
    order = tuple((dealer + k) % n for k in range(1, n + 1))
    return order if rules.dealer_plays else order[:-1]


def declare(s: InBetweenState, d: Decision) -> InBetweenState:
    """The dealer calls every ace of the round high or low (``aces="dealer-declares"``)."""
    low = d.word == "aces low"
    return open_deal(s.evolve(aces_low=low, event=event("aces", seat=s.dealer, low=low)))


def open_deal(s: InBetweenState) -> InBetweenState:
    """The round's first dealing step (after the antes and any declaration)."""
    deal = s.rules.deal
    if deal == "first-around":
        return s.evolve(phase="deal-first")
    if deal == "both-around":
        return s.evolve(phase="deal-hand")
    if deal == "common":
        return s.evolve(phase="common")
    return s.evolve(phase="begin-turn")  # the dispatcher (``state``) begins the turn


def end_round(s: InBetweenState) -> InBetweenState:
    """The round is over: the cards are gathered, the deal passes left (shared pot)."""
    rules = s.rules
    s = s.evolve(posts=(), first=(None,) * rules.players)
    if rules.banking == "shared":
        s = s.evolve(dealer=(s.dealer + 1) % rules.players)
    return start_round(s)


def replenish(s: InBetweenState) -> InBetweenState:
    """Everyone antes again into an empty pot (``empty_pot="replenish"``)."""
    rules = s.rules
    amount = rules.ante * rules.players
    return s.evolve(
        chips=tuple(c - rules.ante for c in s.chips),
        pot=s.pot + amount,
        event=event("replenish", amount=amount, pot=s.pot + amount),
    )


def pot_shares(s: InBetweenState, forfeit: int | None = None) -> tuple[Fraction, ...]:
    """Each seat's share of the chips in the pot, were the session to end here: a shared
    pot is divided equally among the seats, a banker's pot goes to the banker (Red Dog's
    house keeps none).  ``forfeit`` is a seat that gives the session up and forfeits its
    claim: the pot is divided among the other seats (a banker who gives up leaves it to
    them)."""
    rules = s.rules
    n = rules.players
    shares = [Fraction(0)] * n
    if not s.pot or (rules.banking == "house" and forfeit is None):
        return tuple(shares)
    if rules.banking == "dealer" and s.dealer != forfeit:
        takers = [s.dealer]
    else:
        takers = [i for i in range(n) if i != forfeit]
    for i in takers:
        shares[i] = Fraction(s.pot, len(takers))
    return tuple(shares)
