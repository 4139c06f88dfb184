"""The In-Between state: one immutable moment of a session, and its queries.

The fields are balances (``chips``, ``pot``, Red Dog's ``bank`` and ``bets``), the
session's progress (``round``, ``dealer``...), the round (``order``, ``turn``, ``first``
cards, face-down ``hands``), the hand in play (``posts``, ``gap``, ``call``, ``stake``...),
the ``shoe`` (deck accounting, ``shoe.py``) and the last transition's ``event``
(``events.py``).  Transitions live by concept: ``lifecycle`` (session, dealer's games,
rounds), ``turns`` (a player's posts, decisions and third card), ``house`` (Red Dog's
banking); ``reasons`` says why an action is not legal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from aceydeucey.cards import Card
from aceydeucey.core.errors import ActionSyntaxError, IllegalActionError
from aceydeucey.core.game import CHANCE, TERMINAL, Action, Distribution, State
from aceydeucey.inbetween import determinise, house, lifecycle, reasons, turns
from aceydeucey.inbetween.actions import Decision, decision
from aceydeucey.inbetween.events import Event, event, event_dict
from aceydeucey.inbetween.phases import CHANCE_PHASES, PUBLIC_PHASE, Phase, PublicPhase
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import Call, is_pair, stake_limits
from aceydeucey.inbetween.shoe import Shoe
from aceydeucey.inbetween.termination import Termination
from aceydeucey.inbetween.view import observe, render

if TYPE_CHECKING:
    from aceydeucey.inbetween.game import InBetweenGame

__all__ = ["InBetweenState", "advance"]


@dataclass(frozen=True)
class InBetweenState(State):
    """One moment of an In-Between session (immutable).

    ``chips`` and ``pot`` are the balances; ``bank`` is the house's chips under Red Dog.
    """

    game: InBetweenGame
    phase: Phase
    chips: tuple[int, ...]
    shoe: Shoe
    pot: int = 0
    bank: int = 0
    bets: tuple[int, ...] = ()
    round: int = 0
    dealer: int = 0
    dealer_round: int = 0
    dealer_game: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0
    first: tuple[Card | None, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    posts: tuple[Card, ...] = ()
    revealed: bool = True
    shown: tuple[int, ...] = ()
    ace_low: bool | None = None
    gap: int = 1
    call: Call = "between"
    stake: int = 0
    split_rest: tuple[Card, ...] = ()
    split_done: bool = False
    draw: tuple[Card | None, ...] = ()
    contenders: tuple[int, ...] = ()
    aces_low: bool | None = None
    won: tuple[bool, ...] = ()
    aside: Card | None = None
    last_round: bool = False
    ended: tuple[str, tuple[tuple[str, Any], ...]] = ("", ())
    # how the state was reached, not what it is: outside equality and the hash
    event: Event = field(default=(), compare=False)
    after: tuple[Event, ...] = field(default=(), compare=False)
    # values derived from the fields, computed once per state on first use
    memo: Memo = field(default_factory=lambda: Memo(), compare=False, repr=False)

    # -- the contract ---------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self.game.rules

    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.to_act if self.to_act is not None else TERMINAL

    @property
    def to_act(self) -> int | None:
        """The seat whose turn it is (dealing to it or waiting for its decision), or None."""
        phase = self.phase
        if phase == "declare":
            return self.dealer
        if phase in ("over", "draw", "common", "house-third", "deal-first", "deal-hand"):
            return None
        if self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase not in CHANCE_PHASES:
            return []
        return list(self._stock().outcomes())

    def chance_distribution(self) -> Distribution:
        return self._stock().distribution()

    def legal_actions(self) -> Sequence[Action]:
        if self.phase in CHANCE_PHASES:
            return list(self._stock().distribution().actions)
        return super().legal_actions()

    def player_actions(self) -> Sequence[Action]:
        memo = self.memo
        if memo.actions is None:
            memo.actions = tuple(self._player_actions())
        return list(memo.actions)

    def _player_actions(self) -> list[Decision]:
        phase = self.phase
        if phase == "ace":
            return [decision("ace high"), decision("ace low")]
        if phase == "declare":
            return [decision("aces high"), decision("aces low")]
        if phase == "raise":
            top = self.raise_top()
            return [decision("stay"), *(decision("raise", n) for n in range(1, top + 1))]
        if phase != "decide":
            return []
        seat = self.order[self.turn]
        actions: list[Decision] = []
        limits = {call: self.limits(call) for call in self.calls()}
        forced = self.gap == 2 and any(v is not None for v in limits.values())
        if not forced:
            actions.append(decision("pass"))
        for call, span in limits.items():
            if span is None:
                continue
            word = "bet" if call == "between" else call
            actions.extend(decision(word, n) for n in range(span[0], span[1] + 1))
        if self.can_split(seat):
            actions.append(decision("split"))
        return actions

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal here, in English (``illegal_error`` has the code)."""
        return str(self.illegal_error(action))

    def illegal_error(self, action: Action) -> IllegalActionError:
        """The precise, coded reason why ``action`` is not legal here."""
        return reasons.illegal_error(self, action)

    def _check_legal(self, action: Action) -> None:
        if self.phase == "over":
            super()._check_legal(action)
        elif self.phase in CHANCE_PHASES:
            if not (isinstance(action, Card) and self._stock().has(action)):
                raise self.illegal_error(action)
        else:
            memo = self.memo.actions
            if memo is None:
                self.player_actions()
                memo = self.memo.actions
            if action not in memo:  # type: ignore[operator]
                raise self.illegal_error(action)

    def parse_action(self, text: str) -> Action:
        """Text to a legal action; unknown words list what is legal now."""
        try:
            action = self.game.parse_action(text)
        except ActionSyntaxError as exc:
            if exc.code == "decision.unknown" and self.phase != "over":
                raise ActionSyntaxError(
                    "decision.unknown_here",
                    text=exc.params["text"],
                    legal=reasons.legal_summary(self),
                ) from None
            raise
        self._check_legal(action)
        return action

    def _apply(self, action: Action) -> InBetweenState:
        fresh = self._copy(event=(), after=())
        if isinstance(action, Card):
            return advance(_DEALS[self.phase](fresh, action))
        assert isinstance(action, Decision)
        return advance(_DECISIONS[self.phase](fresh, action))

    def phase_name(self) -> PublicPhase:
        return PUBLIC_PHASE[self.phase]

    def event_view(self) -> dict[str, Any] | None:
        """The last transition as ``{"kind": ...}``; what followed it automatically in the
        same transition is the list ``"after"``, in order (see ``events``)."""
        if not self.event:
            return None
        out = event_dict(self.event)
        if self.after:
            out["after"] = [event_dict(e) for e in self.after]
        return out

    def last_event(self) -> dict[str, Any] | None:
        """The same as ``event_view()`` (kept for callers of the older name)."""
        return self.event_view()

    def termination(self) -> tuple[str, dict[str, Any]]:
        """How the session ended: a ``Termination`` (a key of ``inbetween_errors``), params."""
        code, params = self.ended
        return (Termination(code) if code else "game.over"), dict(params)

    def ending_returns(self, seat: int) -> tuple[Fraction, ...]:
        """The returns when ``seat`` gives the session up (resigns, or loses by a claim or a
        timeout): the session ends at once, every seat keeps its chips (a bet in flight
        goes back to its owner), and ``seat`` forfeits its claim on the pot (see
        ``pot_shares``).  No chip is created or lost.
        """
        start = self.rules.starting_chips
        return tuple(h - start for h in self.balances(forfeit=seat))

    def returns(self) -> tuple[Fraction, ...]:
        start = self.rules.starting_chips
        return tuple(b - start for b in self.balances())

    def pot_shares(self, forfeit: int | None = None) -> tuple[Fraction, ...]:
        """Each seat's share of the pot, were the session to end here (``forfeit``: a
        seat that gives it up; see ``lifecycle.pot_shares``)."""
        return lifecycle.pot_shares(self, forfeit)

    def balances(self, forfeit: int | None = None) -> tuple[Fraction, ...]:
        """Each seat's chips plus its share of the pot (and its bet in flight)."""
        bets = self.bets or (0,) * self.rules.players
        shares = self.pot_shares(forfeit)
        return tuple(Fraction(c + b) + p for c, b, p in zip(self.chips, bets, shares, strict=True))

    def winners(self) -> tuple[int, ...]:
        """The seats sharing the highest balance (chips plus share of the pot)."""
        b = self.balances()
        best = max(b)
        return tuple(i for i, v in enumerate(b) if v == best)

    def observe(self, seat: int | None) -> dict[str, Any]:
        """The game's fields of what ``seat`` may see (``None``: the public view); the keys
        are listed in ``view``."""
        return observe(self, seat)

    def ending_observe(self, seat: int | None, forfeit: int) -> dict[str, Any]:
        """The fields once ``forfeit`` gave the session up: ``pot_shares`` as it settles."""
        obs = observe(self, seat)
        obs["pot_shares"] = [str(v) for v in self.pot_shares(forfeit)]
        return obs

    def __str__(self) -> str:
        return render(self)

    # -- determinisation ------------------------------------------------------------------
    def determinisations(self, seat: int | None) -> list[tuple[InBetweenState, Fraction]]:
        """Every arrangement of the cards ``seat`` cannot see, with its exact chance
        (``determinise``: for small pools; ``resample`` draws one)."""
        return determinise.determinisations(self, self.check_seat(seat))

    def resample(self, seat: int | None, rng: random.Random) -> InBetweenState:
        """A state consistent with ``observation(seat)``, the cards ``seat`` cannot see
        drawn again with ``rng`` (see ``determinise``)."""
        return determinise.resample(self, self.check_seat(seat), rng)

    # -- the deck -------------------------------------------------------------------------
    @property
    def dealt(self) -> tuple[Card, ...]:
        """Cards out of the stock since the shuffle (see ``Shoe.dealt``)."""
        return self.shoe.dealt

    @property
    def seen(self) -> tuple[Card, ...]:
        """Cards shown face up since the shuffle."""
        return self.shoe.seen

    @property
    def deck_outs(self) -> int:
        """How often the stock ran out (the used cards were shuffled back)."""
        return self.shoe.deck_outs

    def _stock(self) -> Shoe:
        """The shoe chance deals from (the used cards shuffled back once it ran out)."""
        if self.shoe.left:
            return self.shoe
        return self.shoe.reshuffled(self.on_table())

    def on_table(self) -> list[Card]:
        """Cards that stay out when the used cards are shuffled back mid-round."""
        cards = list(self.posts) + list(self.split_rest)
        if self.aside is not None:
            cards.append(self.aside)
        if self.phase in ("deal-first", "deal-hand"):
            waiting = self.order
        else:
            waiting = self.order[self.turn + 1 :]
        for s in waiting:
            if self.first and self.first[s] is not None:
                cards.append(self.first[s])  # type: ignore[arg-type]
            if self.hands:
                cards.extend(self.hands[s])
        if self.phase == "draw":
            cards.extend(c for c in self.draw if c is not None)
        return cards

    def take(self, card: Card, *, face_up: bool = True) -> InBetweenState:
        """``card`` leaves the stock (reshuffling the used cards first if it had run out)."""
        shoe = self.shoe
        last = self.last_round
        if not shoe.left:
            shoe = shoe.reshuffled(self.on_table())
            last = last or (self.rules.reshuffle == "twice-through" and shoe.deck_outs >= 2)
        return self.evolve(shoe=shoe.take(card, face_up=face_up), last_round=last)

    # -- the hand in play -----------------------------------------------------------------
    def rank(self, card: Card) -> int:
        """A card's rank this round: an ace counts 1 after the dealer declared aces low."""
        return 1 if (self.aces_low and card.rank == 14) else card.rank

    def ranks(self) -> tuple[int, int]:
        """The ranks of the gap in play (a first-post ace called low counts 1)."""
        i = self.gap - 1
        a, b = self.posts[i], self.posts[i + 1]
        first = 1 if (self.ace_low and i == 0 and a.rank == 14) else self.rank(a)
        return (first, self.rank(b))

    def calls(self) -> list[Call]:
        if is_pair(self.ranks()) and self.rules.pairs == "higher-lower" and self.gap == 1:
            return ["higher", "lower"]
        return ["between"]

    def limits(self, call: Call) -> tuple[int, int] | None:
        seat = self.order[self.turn]
        ranks = self.ranks()
        second = self.gap == 2
        return stake_limits(
            self.rules,
            ranks,
            call,
            chips=self.chips[seat],
            pot=self.pot,
            round_number=self.round,
            second_gap=second,
            ante_cap=self.rules.ante_back and not self.won[seat],
            loss=self.game.worst_loss(ranks, call, second),
        )

    def can_split(self, seat: int) -> bool:
        return (
            self.rules.pairs == "split"
            and self.gap == 1
            and not self.split_done
            and is_pair(self.ranks())
            and self.chips[seat] >= self.rules.ante
        )

    def raise_top(self) -> int:
        """Red Dog: the largest raise (the ante, within the seat's chips)."""
        return min(self.rules.ante, max(self.chips[self.order[self.turn]], 0))

    # -- building the next state ----------------------------------------------------------
    def evolve(self, **changes: Any) -> InBetweenState:
        """A copy with ``changes``; a second event in one transition goes to ``after``."""
        ev = changes.get("event")
        if ev and self.event:
            del changes["event"]
            changes["after"] = (*self.after, ev)
        return self._copy(**changes)

    def _copy(self, **changes: Any) -> InBetweenState:
        """A copy with ``changes`` (field names only), without the per-field ``__init__``.

        The state is frozen for its users; this copies its field dictionary in one step
        (the cost that dominated a transition) before the copy is handed out, with memos
        of its own (legal actions, view).
        """
        new = _new(InBetweenState)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        fields["memo"] = Memo()
        return new

    def move(self, seat: int, delta: int, kind: str, **extra: Any) -> InBetweenState:
        """Move ``delta`` chips from the pot to ``seat`` (negative: into the pot)."""
        chips = put(self.chips, seat, self.chips[seat] + delta)
        return self.evolve(
            chips=chips,
            pot=self.pot - delta,
            event=event(kind, seat=seat, delta=delta, pot=self.pot - delta, **extra),
        )


_new = object.__new__


class Memo:
    """A state's derived values, computed on first use: the legal actions and the
    seat-independent part of the view (never part of the state's value)."""

    __slots__ = ("actions", "view")

    def __init__(self) -> None:
        self.actions: tuple[Decision, ...] | None = None
        self.view: dict[str, Any] | None = None


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``values[index]`` replaced."""
    return (*values[:index], value, *values[index + 1 :])


def advance(s: InBetweenState) -> InBetweenState:
    """Continue what a transition left to the dispatcher: a player's turn that begins
    (the round's lifecycle hands over to ``turns`` here, so neither imports the other)."""
    while s.phase == "begin-turn":
        s = turns.begin_turn(s)
    return s


#: The transition of each phase: chance's card, or a seat's decision.
_DEALS = {
    "draw": lifecycle.deal_draw,
    "deal-first": turns.deal_first,
    "deal-hand": turns.deal_hand,
    "deal-post": turns.deal_post,
    "third": turns.deal_third,
    "set-aside": turns.deal_aside,
    "common": house.deal_common,
    "house-third": house.deal_third,
}
assert set(_DEALS) == CHANCE_PHASES
_DECISIONS = {
    "declare": lifecycle.declare,
    "raise": house.decide,
    "ace": turns.decide,
    "decide": turns.decide,
}
