"""The In-Between state machine: posts, stakes, the third card, the pot.

Notation (``str`` of an action, which ``InBetweenGame.parse_action`` reads back):

- chance deals a card: its text, rank ``23456789TJQKA`` then suit ``CDHS``: ``4C``, ``QD``;
  with several decks the same text may come up more than once per shuffle.
- ``pass``: no bet (with ``hidden`` it folds without showing the cards).
- ``bet N``: stake N chips that the third card falls strictly between the posts.
- ``higher N`` / ``lower N``: with a pair of posts under ``pairs="higher-lower"``.
- ``split``: with a pair under ``pairs="split"``: pay an ante and play each post as a hand.
- ``ace low`` / ``ace high``: under ``aces="first-card"``, call a first-post ace.
- ``aces low`` / ``aces high``: under ``aces="dealer-declares"``, the dealer's call for every
  ace of the round, made after the antes and before the first card.
- ``stay`` / ``raise N``: Red Dog (``banking="house"``), after the spread is announced.

Order of play: the first cards go round clockwise from the dealer's left, the dealer last
(when the dealer plays); then each player in the same order gets the second card, decides,
and gets a third card only after a bet.  Antes are paid automatically when a round starts;
``post_fee`` is paid automatically each time a player's pair of posts is complete.  Under
``passed_card="next-post"`` a pass (except the round's last) makes chance deal a card face
down (``set-aside``): nobody sees it until it is placed as the next player's next post.

Hidden cards (``hidden=True``): each hand is dealt face down and stays so until its seat
bets (or splits) or a pairs/adjacent rule (``redeal``, ``push``, ``lose``, ``win``) applies
to it, which turns it up for everyone first; a redeal's new posts come face down again.
Only the seat whose hand it is sees its stake limits; a face-down first ace cannot be
called, so ``aces="first-card"`` is refused with ``hidden``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Literal, get_args

from aceydeucey.cards import Card, deck
from aceydeucey.core.errors import ActionSyntaxError, IllegalActionError, message
from aceydeucey.core.game import CHANCE, TERMINAL, Action, Game, GameInfo, State
from aceydeucey.inbetween.actions import Decision
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import (
    Call,
    is_adjacent,
    is_pair,
    settle,
    settle_trips,
    stake_limits,
    worst_loss,
)
from aceydeucey.inbetween.view import event_dict, observe, render

__all__ = ["Decision", "InBetweenGame", "InBetweenState", "Phase", "PublicPhase"]

#: The engine's phases (``state.phase``); ``phase_name()`` maps them to ``PublicPhase``.
Phase = Literal[
    "start",
    "draw",
    "deal-first",
    "deal-hand",
    "deal-post",
    "third",
    "common",
    "house-third",
    "set-aside",
    "ace",
    "declare",
    "decide",
    "raise",
    "over",
]
#: The phase every observation shows (the envelope's ``phase``).
PublicPhase = Literal["draw", "deal", "ace", "declare", "decide", "third", "over"]

CHANCE_PHASES: frozenset[Phase] = frozenset(
    ("draw", "deal-first", "deal-hand", "deal-post", "third", "common", "house-third", "set-aside")
)
PUBLIC_PHASE: dict[Phase, PublicPhase] = {
    "start": "deal",
    "draw": "draw",
    "deal-first": "deal",
    "deal-hand": "deal",
    "deal-post": "deal",
    "common": "deal",
    "set-aside": "deal",
    "ace": "ace",
    "declare": "declare",
    "decide": "decide",
    "raise": "decide",
    "third": "third",
    "house-third": "third",
    "over": "over",
}
assert set(PUBLIC_PHASE) == set(get_args(Phase))


class InBetweenGame(Game):
    """In-Between with resolved rules: ``load_game("inbetween", preset="guide", players=3)``."""

    game_id: ClassVar[str] = "inbetween"
    rules_class: ClassVar[type[Rules]] = Rules
    rules: Rules

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)

    @property
    def num_players(self) -> int:
        return self.rules.players

    def new_initial_state(self) -> InBetweenState:
        return _new_session(self)

    @property
    def info(self) -> GameInfo:
        """Fixed facts: seats, zero-sum (not under Red Dog's house), hidden cards, bounds."""
        rules = self.rules
        house = rules.banking == "house"
        n = rules.players
        start = rules.starting_chips
        debts = rules.allows_debt and not house  # Red Dog's bets are paid up front
        low = None if debts else Fraction(-start)
        if house:
            high: Fraction | None = Fraction(rules.bank)
        else:
            high = None if debts else Fraction((n - 1) * start)
        return GameInfo(
            game_id=self.game_id,
            num_players=n,
            min_players=1 if house else 2,
            max_players=int(Rules.option_help()["players"]["max"]),
            zero_sum=not house,
            hidden_information=rules.hidden,
            chance=True,
            min_return=low,
            max_return=high,
            max_length=_max_length(rules),
        )

    def parse_action(self, text: str) -> Action:
        """A card (chance's action) or a decision; raises ActionSyntaxError on neither."""
        t = text.strip()
        if len(t) <= 3 and not t.lower().startswith(("bet", "ace")):
            try:
                return Card.from_text(t)
            except ActionSyntaxError:
                pass
        return Decision.from_text(t)


Event = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class InBetweenState(State):
    """One moment of an In-Between session (immutable).

    ``chips`` and ``pot`` are the balances; ``bank`` is the house's chips under Red Dog.
    """

    game: InBetweenGame
    phase: Phase
    chips: tuple[int, ...]
    pot: int = 0
    bank: int = 0
    bets: tuple[int, ...] = ()
    round: int = 0
    dealer: int = 0
    dealer_round: int = 0
    dealer_game: int = 0
    order: tuple[int, ...] = ()
    turn: int = 0
    dealt: tuple[Card, ...] = ()
    seen: tuple[Card, ...] = ()
    first: tuple[Card | None, ...] = ()
    hands: tuple[tuple[Card, ...], ...] = ()
    posts: tuple[Card, ...] = ()
    revealed: bool = True
    shown: tuple[int, ...] = ()
    ace_low: bool | None = None
    gap: int = 1
    call: str = "between"
    stake: int = 0
    split_rest: tuple[Card, ...] = ()
    split_done: bool = False
    draw: tuple[Card | None, ...] = ()
    contenders: tuple[int, ...] = ()
    aces_low: bool | None = None
    won: tuple[bool, ...] = ()
    aside: Card | None = None
    deck_outs: int = 0
    last_round: bool = False
    ended: tuple[str, tuple[tuple[str, Any], ...]] = ("", ())
    event: Event = ()
    after: tuple[Event, ...] = ()

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
        if self.phase == "declare":
            return self.dealer
        if self.phase in ("over", "draw", "common", "house-third") or not self.order:
            return None
        if self.phase in ("deal-first", "deal-hand"):
            return None
        if self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        if self.phase not in CHANCE_PHASES:
            return []
        return list(self._outcomes)

    @functools.cached_property
    def _outcomes(self) -> tuple[tuple[Card, Fraction], ...]:
        left = self._stock()
        total = sum(copies for _, copies in left)
        return tuple((card, Fraction(copies, total)) for card, copies in left)

    def player_actions(self) -> Sequence[Action]:
        if self.phase == "ace":
            return [Decision("ace high"), Decision("ace low")]
        if self.phase == "declare":
            return [Decision("aces high"), Decision("aces low")]
        if self.phase == "raise":
            seat = self.order[self.turn]
            top = min(self.rules.ante, max(self.chips[seat], 0))
            return [Decision("stay"), *(Decision("raise", n) for n in range(1, top + 1))]
        if self.phase != "decide":
            return []
        seat = self.order[self.turn]
        actions: list[Decision] = []
        limits = {call: self._limits(call) for call in self._calls()}
        forced = self.gap == 2 and any(v is not None for v in limits.values())
        if not forced:
            actions.append(Decision("pass"))
        for call, span in limits.items():
            if span is None:
                continue
            word = "bet" if call == "between" else call
            actions.extend(Decision(word, n) for n in range(span[0], span[1] + 1))
        if self._can_split(seat):
            actions.append(Decision("split"))
        return actions

    def explain_illegal(self, action: Action) -> str:
        """Why ``action`` is not legal here, in English (``illegal_error`` has the code)."""
        return str(self.illegal_error(action))

    def _check_legal(self, action: Action) -> None:
        if self.is_terminal():
            super()._check_legal(action)
        elif self.phase in CHANCE_PHASES:
            if not (isinstance(action, Card) and any(a == action for a, _ in self._outcomes)):
                raise self.illegal_error(action)
        elif action not in self.player_actions():
            raise self.illegal_error(action)

    def parse_action(self, text: str) -> Action:
        """Text to a legal action; unknown words list what is legal now."""
        try:
            action = self.game.parse_action(text)
        except ActionSyntaxError as exc:
            if exc.code == "decision.unknown" and not self.is_terminal():
                raise ActionSyntaxError(
                    "decision.unknown_here", text=exc.params["text"], legal=self._legal_summary()
                ) from None
            raise
        self._check_legal(action)
        return action

    def illegal_error(self, action: Action) -> IllegalActionError:
        """The precise, coded reason why ``action`` is not legal here."""
        rules = self.rules
        phase = self.phase
        if isinstance(action, Card):
            if phase in CHANCE_PHASES:
                return IllegalActionError("card.none_left", card=str(action))
            return IllegalActionError("card.not_now", card=str(action), seat=self.to_act)
        text = str(action)
        if not isinstance(action, Decision):
            return IllegalActionError(
                "decision.not_legal", action=text, legal=self._legal_summary()
            )
        word = action.word
        # First what the rules never allow, then what this moment does not.
        if word in ("aces low", "aces high") and rules.aces != "dealer-declares":
            return IllegalActionError("aces.not_in_rules", action=text, aces=rules.aces)
        if word in ("ace low", "ace high") and rules.aces != "first-card":
            return IllegalActionError("ace.not_in_rules", action=text, aces=rules.aces)
        if word in ("stay", "raise") and rules.banking != "house":
            return IllegalActionError("raise.not_in_rules", action=text)
        if word == "split" and rules.pairs != "split":
            return IllegalActionError("split.not_in_rules", pairs=rules.pairs)
        if phase in CHANCE_PHASES:
            return IllegalActionError("decision.chance_deals", action=text)
        if word in ("aces low", "aces high"):
            return IllegalActionError("aces.not_now", action=text)
        if phase == "declare":
            return IllegalActionError("aces.declare_first", action=text, seat=self.dealer)
        if word in ("ace low", "ace high"):
            return IllegalActionError("ace.not_now", action=text)
        if phase == "ace":
            return IllegalActionError("ace.call_first", action=text)
        if word in ("stay", "raise"):  # under the house, the one decision is the raise
            top = self._raise_top()
            if top < 1:
                return IllegalActionError("raise.none_affordable", action=text)
            return IllegalActionError("raise.out_of_range", action=text, top=top)
        if phase == "raise":
            return IllegalActionError("raise.stay_or_raise", action=text)
        if phase == "decide":
            reason = self._decide_error(action)
            if reason is not None:
                return reason
        return IllegalActionError("decision.not_legal", action=text, legal=self._legal_summary())

    def _decide_error(self, action: Decision) -> IllegalActionError | None:
        rules = self.rules
        text = str(action)
        seat = self.order[self.turn]
        word = action.word
        if word == "split":
            if self.gap != 1 or not is_pair(self._ranks()):
                return IllegalActionError("split.not_a_pair")
            if self.split_done:
                return IllegalActionError("split.once")
            return IllegalActionError("split.cannot_pay", ante=rules.ante, count=self.chips[seat])
        if word == "pass" and self.gap == 2:
            return IllegalActionError("pass.compulsory")
        calls: dict[str, Call] = {"bet": "between", "higher": "higher", "lower": "lower"}
        call = calls.get(word)
        if call is None:
            return None
        if call not in self._calls():
            allowed = sorted({str(a).split()[0] for a in self.player_actions()})
            return IllegalActionError("call.not_with_posts", action=text, allowed=allowed)
        span = self._limits(call)
        if span is None:
            return IllegalActionError("stake.none_affordable", action=text)
        amount = action.amount if action.amount is not None else 0
        if amount < span[0]:
            return IllegalActionError(
                "stake.below_min", action=text, limit=span[0], because=self._min_reason()
            )
        if amount > span[1]:
            return IllegalActionError(
                "stake.above_max",
                action=text,
                limit=span[1],
                because=self._cap_reason(call, span[1]),
            )
        return None

    def _raise_top(self) -> int:
        """Red Dog: the largest raise (the ante, within the seat's chips)."""
        return min(self.rules.ante, max(self.chips[self.order[self.turn]], 0))

    def _legal_summary(self) -> list[str]:
        """The legal decisions, stakes as ranges (``["pass", "bet 1–4"]``); cards as one."""
        if self.phase in CHANCE_PHASES:
            return []
        amounts: dict[str, list[int]] = {}
        out: list[str] = []
        for a in self.player_actions():
            if isinstance(a, Decision) and a.amount is not None:
                if a.word not in amounts:
                    amounts[a.word] = []
                    out.append(a.word)
                amounts[a.word].append(a.amount)
            else:
                out.append(str(a))
        shown = []
        for item in out:
            if item in amounts:
                low, high = min(amounts[item]), max(amounts[item])
                shown.append(f"{item} {low}" if low == high else f"{item} {low}–{high}")
            else:
                shown.append(item)
        return shown

    def _apply(self, action: Action) -> InBetweenState:
        fresh = dataclasses.replace(self, event=(), after=())
        if isinstance(action, Card):
            return fresh._deal(action)
        assert isinstance(action, Decision)
        return fresh._decide(action)

    def phase_name(self) -> PublicPhase:
        return PUBLIC_PHASE[self.phase]

    def event_view(self) -> dict[str, Any] | None:
        """The last transition as ``{"kind": ...}``; what followed it automatically (in
        the same transition: a settlement's refill, the next round's antes...) is the
        list ``"after"``, in order."""
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
        """How the session ended: a code of the ``inbetween_errors`` catalog and its params."""
        code, params = self.ended
        return (code or "game.over"), dict(params)

    def returns(self) -> tuple[Fraction, ...]:
        start = self.rules.starting_chips
        return tuple(b - start for b in self.balances())

    def balances(self) -> tuple[Fraction, ...]:
        """Each seat's chips plus its share of the pot (and its bet in flight)."""
        n = self.rules.players
        share = Fraction(self.pot, n) if self.rules.banking == "shared" else Fraction(0)
        bets = self.bets or (0,) * n
        out = [Fraction(c + b) + share for c, b in zip(self.chips, bets, strict=True)]
        if self.rules.banking == "dealer":
            out[self.dealer] += self.pot
        return tuple(out)

    def winners(self) -> tuple[int, ...]:
        """The seats sharing the highest balance (chips plus share of the pot)."""
        b = self.balances()
        best = max(b)
        return tuple(i for i, v in enumerate(b) if v == best)

    # -- observation ----------------------------------------------------------------------
    def observe(self, seat: int | None) -> dict[str, Any]:
        """The game's fields of what ``seat`` may see (``None``: the public view); the keys
        are listed in ``view.observe``."""
        return observe(self, seat)

    def __str__(self) -> str:
        return render(self)

    # -- deck -----------------------------------------------------------------------------
    def _stock(self) -> list[tuple[Card, int]]:
        """The cards still in the deck with their copies (the discards once it has run out)."""
        return _left(self.rules.decks, self.dealt) or _left(self.rules.decks, self._on_table())

    def _on_table(self) -> list[Card]:
        """Cards that stay out when the used cards are shuffled back mid-round."""
        cards = list(self.posts) + list(self.split_rest)
        if self.aside is not None:
            cards.append(self.aside)
        waiting = self.order[self.turn + 1 :] if self.phase not in ("deal-first",) else self.order
        if self.phase in ("deal-first", "deal-hand"):
            waiting = self.order
        for s in waiting:
            if self.first and self.first[s] is not None:
                cards.append(self.first[s])  # type: ignore[arg-type]
            if self.hands:
                cards.extend(self.hands[s])
        if self.phase == "draw":
            cards.extend(c for c in self.draw if c is not None)
        return cards

    def _take(self, card: Card, *, face_up: bool = True) -> InBetweenState:
        """Record that ``card`` left the deck (reshuffling the discards if it had run out)."""
        state = self
        if not _left(self.rules.decks, self.dealt):
            table = self._on_table()
            outs = self.deck_outs + 1
            state = replace(
                self,
                dealt=tuple(table),
                seen=tuple(c for c in self.seen if c in table),
                deck_outs=outs,
                last_round=self.last_round
                or (self.rules.reshuffle == "twice-through" and outs >= 2),
            )
        seen = (*state.seen, card) if face_up else state.seen
        return replace(state, dealt=(*state.dealt, card), seen=seen)

    # -- chance ---------------------------------------------------------------------------
    def _deal(self, card: Card) -> InBetweenState:
        phase = self.phase
        if phase == "draw":
            return self._deal_draw(card)
        if phase == "deal-first":
            seat = self.order[sum(1 for s in self.order if self.first[s] is not None)]
            s = self._take(card)
            first = _put(s.first, seat, card)
            s = replace(s, first=first, event=_event("first", seat=seat, card=str(card)))
            if all(first[p] is not None for p in self.order):
                return s._begin_turn()
            return s
        if phase == "deal-hand":
            m = len(self.order)
            k = sum(len(h) for h in self.hands)
            seat = self.order[k % m]
            s = self._take(card, face_up=False)
            hands = _put(s.hands, seat, s.hands[seat] + (card,))
            s = replace(s, hands=hands, event=_event("hand", seat=seat))
            if k + 1 == 2 * m:
                return s._begin_turn()
            return s
        if phase == "deal-post":
            seat = self.order[self.turn]
            if not self.revealed:  # a redeal's new post to a face-down hand
                s = self._take(card, face_up=False)
                hands = _put(s.hands, seat, (*s.hands[seat], card))
                s = replace(s, posts=(*s.posts, card), hands=hands, event=_event("hand", seat=seat))
                return s._after_post()
            s = self._take(card)
            s = replace(s, posts=(*s.posts, card), event=_event("post", seat=seat, card=str(card)))
            return s._after_post()
        if phase == "third":
            return self._third(card)
        if phase == "common":
            s = self._take(card)
            s = replace(s, posts=(*s.posts, card), event=_event("post", seat=None, card=str(card)))
            if len(s.posts) < 2:
                return s
            return s._house_posts()
        if phase == "house-third":
            return self._house_third(card)
        if phase == "set-aside":
            seat = self.order[self.turn]
            s = self._take(card, face_up=False)
            s = replace(s, aside=card, event=_event("set-aside", seat=seat))
            return s._end_hand()
        raise AssertionError(phase)

    def _deal_draw(self, card: Card) -> InBetweenState:
        seat = next(i for i in self.contenders if self.draw[i] is None)
        s = self._take(card)
        draw = _put(s.draw, seat, card)
        s = replace(s, draw=draw, event=_event("draw", seat=seat, card=str(card)))
        if any(draw[i] is None for i in s.contenders):
            return s
        ranks = {i: card.rank for i, card in enumerate(draw) if card is not None}
        best = max(ranks[i] for i in s.contenders)
        tied = tuple(i for i in s.contenders if ranks[i] == best)
        if len(tied) > 1:
            cleared = tuple(None if i in tied else c for i, c in enumerate(draw))
            return replace(s, draw=cleared, contenders=tied, event=_event("tie", seats=list(tied)))
        s = replace(s, dealer=tied[0], dealt=(), seen=(), event=_event("dealer", seat=tied[0]))
        return s._start_dealer_game() if self.rules.banking == "dealer" else s._start_round()

    # -- rounds ---------------------------------------------------------------------------
    def _over(self, code: str, **params: Any) -> InBetweenState:
        chips, pot = self.chips, self.pot
        if self.rules.banking == "dealer" and pot:
            chips, pot = _put(chips, self.dealer, chips[self.dealer] + pot), 0
        return replace(
            self,
            phase="over",
            chips=chips,
            pot=pot,
            ended=(code, tuple(params.items())),
            event=_event("over", reason=Message(code, tuple(params.items()))),
        )

    def _start_dealer_game(self) -> InBetweenState:
        rules = self.rules
        if self.dealer_game >= rules.total_dealer_games:
            return self._over("session.dealer_games_played", count=rules.total_dealer_games)
        if self.chips[self.dealer] < rules.bank:
            return self._over("session.dealer_cannot_bank", seat=self.dealer, bank=rules.bank)
        chips = _put(self.chips, self.dealer, self.chips[self.dealer] - rules.bank)
        s = replace(self, chips=chips, pot=self.pot + rules.bank, dealer_round=0, last_round=False)
        return s._start_round()

    def _end_dealer_game(self) -> InBetweenState:
        chips = _put(self.chips, self.dealer, self.chips[self.dealer] + self.pot)
        s = replace(
            self,
            chips=chips,
            pot=0,
            dealer=(self.dealer + 1) % self.rules.players,
            dealer_game=self.dealer_game + 1,
            dealt=() if self.rules.reshuffle != "round" else self.dealt,
            seen=() if self.rules.reshuffle != "round" else self.seen,
            deck_outs=0,
            event=_event("dealer-takes", seat=self.dealer, amount=self.pot),
        )
        return s._start_dealer_game()

    def _start_round(self) -> InBetweenState:
        rules = self.rules
        n = rules.players
        if rules.banking == "dealer":
            if self.dealer_round >= rules.rounds or self.last_round:
                return self._end_dealer_game()
        else:
            if self.round >= rules.rounds:
                return self._over("session.rounds_played", count=rules.rounds)
            if self.last_round:
                return self._over("session.deck_out_twice")
        if rules.banking == "house":
            order = tuple(range(n))
        else:
            order = tuple((self.dealer + k) % n for k in range(1, n + 1))
            if not rules.dealer_plays:
                order = order[:-1]
        payers = order if rules.banking == "dealer" else tuple(range(n))
        chips, pot, bets = self.chips, self.pot, self.bets
        if rules.ante and (rules.ante_each_round or self.round == 0):
            short = [s for s in payers if chips[s] < rules.ante]
            if short:
                return self._over("session.cannot_ante", seat=short[0], ante=rules.ante)
            if rules.banking == "house":
                worst = n * rules.ante * max(rules.trips_pays, 2 * max(rules.spread_pays))
                if self.bank < worst:
                    return self._over("session.house_cannot_cover", bank=self.bank, worst=worst)
                bets = tuple(rules.ante if s in payers else 0 for s in range(n))
            else:
                pot += rules.ante * len(payers)
            chips = tuple(c - rules.ante if s in payers else c for s, c in enumerate(chips))
        dealt, seen, outs = self.dealt, self.seen, self.deck_outs
        last: bool = self.last_round
        if rules.reshuffle == "round":
            dealt, seen = (), ()
        else:
            need = {"first-around": len(order), "both-around": 2 * len(order), "common": 2}.get(
                rules.deal, 2
            )
            if len(deck(rules.decks)) - len(dealt) < need:
                dealt, seen, outs = (), (), outs + 1
                last = last or (rules.reshuffle == "twice-through" and outs >= 2)
        s = replace(
            self,
            chips=chips,
            pot=pot,
            bets=bets,
            round=self.round + 1,
            dealer_round=self.dealer_round + 1,
            order=order,
            turn=0,
            dealt=dealt,
            seen=seen,
            deck_outs=outs,
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
            event=_event("round", round=self.round + 1, dealer=self.dealer, pot=pot),
        )
        if rules.aces == "dealer-declares":
            return replace(s, phase="declare")
        return s._open_deal()

    def _open_deal(self) -> InBetweenState:
        """The round's first dealing step (after the antes and any declaration)."""
        phase = {
            "first-around": "deal-first",
            "both-around": "deal-hand",
            "common": "common",
        }.get(self.rules.deal)
        if phase is None:
            return self._begin_turn()
        return replace(self, phase=phase)

    def _end_round(self) -> InBetweenState:
        rules = self.rules
        s = replace(self, posts=(), first=(None,) * rules.players, order=self.order)
        if rules.banking == "shared":
            s = replace(s, dealer=(self.dealer + 1) % rules.players)
        return s._start_round()

    # -- turns ----------------------------------------------------------------------------
    def _begin_turn(self) -> InBetweenState:
        if self.turn >= len(self.order):
            return self._end_round()
        seat = self.order[self.turn]
        rules = self.rules
        base = replace(self, ace_low=None, gap=1, split_rest=(), split_done=False, revealed=True)
        if rules.deal == "first-around":
            first = self.first[seat]
            assert first is not None
            return base._begin_hand((first,))
        if rules.deal == "both-around":
            return replace(base, posts=self.hands[seat], revealed=False)._posts_complete()
        return replace(base, posts=())._await_post()

    def _begin_hand(self, posts: tuple[Card, ...]) -> InBetweenState:
        s = replace(self, posts=posts, ace_low=None, gap=1)
        if self.rules.aces == "first-card" and posts and posts[0].rank == 14:
            return replace(s, phase="ace")
        return s._await_post()

    def _await_post(self) -> InBetweenState:
        """Wait for the next post: chance deals it, or the card set aside by a pass is placed."""
        if self.aside is None:
            return replace(self, phase="deal-post")
        card, seat = self.aside, self.order[self.turn]
        s = replace(
            self,
            aside=None,
            posts=(*self.posts, card),
            seen=(*self.seen, card),
            event=_event("post", seat=seat, card=str(card), passed=True),
        )
        return s._after_post()

    def _after_post(self) -> InBetweenState:
        need = 3 if self.rules.three_posts else 2
        if len(self.posts) < need:
            return replace(self, phase="deal-post")
        if self.rules.aces == "first-card" and self.posts[0].rank == 14 and self.ace_low is None:
            return replace(self, phase="ace")
        return self._posts_complete()

    def _rank(self, card: Card) -> int:
        """A card's rank this round: an ace counts 1 after the dealer declared aces low."""
        return 1 if (self.aces_low and card.rank == 14) else card.rank

    def _ranks(self) -> tuple[int, int]:
        i = self.gap - 1
        a, b = self.posts[i], self.posts[i + 1]
        first = 1 if (self.ace_low and i == 0 and a.rank == 14) else self._rank(a)
        return (first, self._rank(b))

    def _posts_complete(self) -> InBetweenState:
        """A pair of posts is complete: pay ``post_fee``, then apply the pair/adjacent rule."""
        seat = self.order[self.turn]
        fee = min(self.rules.post_fee, max(self.chips[seat], 0))
        return (self._move(seat, -fee, "fee") if fee else self)._post_policy()

    def _post_policy(self) -> InBetweenState:
        """Apply the pairs/adjacent rule to complete posts (else wait for the decision).

        A face-down hand (``hidden``) that such a rule applies to is turned up first: every
        seat sees the cards the rule acts on (they join ``seen``), and the rule's event
        names them (``posts``).  A redeal's new posts come face down again.
        """
        rules = self.rules
        ranks = self._ranks()
        seat = self.order[self.turn]
        policy: str | None = None
        if is_pair(ranks):
            policy = rules.pairs
        elif is_adjacent(ranks):
            policy = rules.adjacent
        if policy not in ("redeal", "lose", "push", "win"):
            return replace(self, phase="decide")
        face_down = not self.revealed
        shown = [str(c) for c in self.posts]
        up = self._turn_up(seat)
        extra: dict[str, Any] = {"posts": shown} if face_down else {}
        s = replace(up, phase="decide")
        if policy == "redeal":
            kind = "pair" if is_pair(ranks) else "adjacent"
            return replace(
                up,
                posts=(),
                ace_low=None,
                phase="deal-post",
                revealed=not face_down,
                hands=_put(up.hands, seat, ()) if face_down else up.hands,
                shown=tuple(x for x in up.shown if x != seat) if face_down else up.shown,
                event=_event("redeal", seat=seat, posts=shown, what=kind),
            )
        if policy == "lose":
            amount = min(rules.ante, max(self.chips[seat], 0))
            s = s._move(seat, -amount, "adjacent-loss", **extra)
            return s._end_hand()
        if policy == "push":
            amount = min(rules.ante, self.pot)
            s = s._move(seat, amount, "push", **extra)
            return s._end_hand()
        amount = min(rules.pair_win, self.pot)
        s = s._move(seat, amount, "pair-win", **extra)
        return s._after_settle()

    def _turn_up(self, seat: int) -> InBetweenState:
        """A face-down hand is turned up: its posts join ``seen`` (a face-up hand: as is)."""
        if self.revealed:
            return self
        return replace(self, revealed=True, seen=self.seen + self.posts, shown=(*self.shown, seat))

    def _move(self, seat: int, delta: int, kind: str, **extra: Any) -> InBetweenState:
        """Move ``delta`` chips from the pot to ``seat`` (negative: into the pot)."""
        chips = _put(self.chips, seat, self.chips[seat] + delta)
        return replace(
            self,
            chips=chips,
            pot=self.pot - delta,
            event=_event(kind, seat=seat, delta=delta, pot=self.pot - delta, **extra),
        )

    def _calls(self) -> list[Call]:
        if is_pair(self._ranks()) and self.rules.pairs == "higher-lower" and self.gap == 1:
            return ["higher", "lower"]
        return ["between"]

    def _limits(self, call: Call) -> tuple[int, int] | None:
        seat = self.order[self.turn]
        return stake_limits(
            self.rules,
            self._ranks(),
            call,
            chips=self.chips[seat],
            pot=self.pot,
            round_number=self.round,
            second_gap=self.gap == 2,
            ante_cap=self.rules.ante_back and not self.won[seat],
        )

    def _cap_reason(self, call: Call, top: int) -> dict[str, Any]:
        """Which limit caps the stake at ``top``, as a message."""
        rules = self.rules
        seat = self.order[self.turn]
        chips = self.chips[seat]
        loss = worst_loss(rules, self._ranks(), call, second_gap=self.gap == 2)
        if top == self.pot:
            return message("stake.because_pot", pot=self.pot)
        if rules.stake_cap == "cover" and top == max(chips, 0) // loss:
            if loss == 2:
                return message("stake.because_half_chips", count=chips)
            return message("stake.because_cover", count=chips, loss=loss)
        if rules.stake_cap == "chips" and top == max(chips, 0):
            return message("stake.because_chips", count=chips)
        if rules.ante_back and not self.won[seat] and top == rules.ante:
            return message("stake.because_ante_back", ante=rules.ante)
        if 1 <= self.round <= len(rules.round_limits) and top == rules.round_limits[self.round - 1]:
            return message("stake.because_round_limit", round=self.round, limit=top)
        if rules.first_round_limit == "half-pot":
            return message("stake.because_half_pot", pot=self.pot)
        return message("stake.because_first_round_ante", ante=rules.ante)

    def _min_reason(self) -> dict[str, Any]:
        """Which rule sets the smallest stake, as a message."""
        if self.gap == 2:
            return message("stake.because_second_gap", ante=self.rules.ante)
        if self.rules.min_stake == "ante":
            return message("stake.because_min_ante", ante=self.rules.ante)
        return message("stake.because_min_one")

    def _can_split(self, seat: int) -> bool:
        return (
            self.rules.pairs == "split"
            and self.gap == 1
            and not self.split_done
            and is_pair(self._ranks())
            and self.chips[seat] >= self.rules.ante
        )

    # -- decisions ------------------------------------------------------------------------
    def _decide(self, d: Decision) -> InBetweenState:
        seat = self.order[self.turn]
        rules = self.rules
        if d.word in ("ace low", "ace high"):
            low = d.word == "ace low"
            s = replace(self, ace_low=low, event=_event("ace", seat=seat, low=low))
            if len(self.posts) >= (3 if rules.three_posts else 2):
                return s._posts_complete()
            return s._await_post()
        if d.word in ("aces low", "aces high"):
            low = d.word == "aces low"
            s = replace(self, aces_low=low, event=_event("aces", seat=self.dealer, low=low))
            return s._open_deal()
        if d.word == "stay":
            return replace(self, event=_event("stay", seat=seat))._next_raiser()
        if d.word == "raise":
            amount = d.amount or 0
            chips = _put(self.chips, seat, self.chips[seat] - amount)
            bets = _put(self.bets, seat, self.bets[seat] + amount)
            s = replace(
                self, chips=chips, bets=bets, event=_event("raise", seat=seat, amount=amount)
            )
            return s._next_raiser()
        if d.word == "pass":
            s = replace(self, event=_event("pass", seat=seat))
            if rules.ante_to_play:
                amount = min(rules.ante, max(self.chips[seat], 0))
                s = s._move(seat, -amount, "pass", forfeit=amount)
            if rules.passed_card == "next-post" and self.turn + 1 < len(self.order):
                return replace(s, phase="set-aside")
            return s._end_hand()
        if d.word == "split":  # a face-down pair is turned up to be split
            s = self._turn_up(seat)._move(
                seat, -rules.ante, "split", posts=[str(c) for c in self.posts]
            )
            a, b = self.posts[0], self.posts[1]
            s = replace(s, split_rest=(b,), split_done=True)
            return s._begin_hand((a,))
        call: Call = "between" if d.word == "bet" else d.word  # type: ignore[assignment]
        return replace(
            self,
            phase="third",
            call=call,
            stake=d.amount or 0,
            revealed=True,
            seen=self.seen if self.revealed else self.seen + self.posts,
            shown=self.shown if self.revealed else (*self.shown, seat),
            event=_event("bet", seat=seat, call=call, stake=d.amount),
        )

    def _third(self, card: Card) -> InBetweenState:
        seat = self.order[self.turn]
        s = self._take(card)
        third = self._rank(card)
        result = settle(self.rules, self._ranks(), self.call, third, second_gap=self.gap == 2)  # type: ignore[arg-type]
        delta = result.delta(self.stake)
        s = s._move(seat, delta, "settle", third=str(card), outcome=result.outcome)
        if delta > 0 and not s.won[seat]:
            s = replace(s, won=_put(s.won, seat, True))
        return s._after_settle()

    def _after_settle(self) -> InBetweenState:
        if self.pot <= 0:
            return self._empty_pot()
        return self._end_hand()

    def _empty_pot(self) -> InBetweenState:
        rules = self.rules
        if rules.empty_pot == "end":
            return self._over("session.pot_emptied")
        if rules.empty_pot == "next-dealer":
            return self._end_dealer_game()
        short = [s for s in range(rules.players) if self.chips[s] < rules.ante]
        if short:
            return self._over("session.cannot_replenish", seat=short[0], ante=rules.ante)
        chips = tuple(c - rules.ante for c in self.chips)
        s = replace(
            self,
            chips=chips,
            pot=self.pot + rules.ante * rules.players,
            event=_event(
                "replenish",
                amount=rules.ante * rules.players,
                pot=self.pot + rules.ante * rules.players,
            ),
        )
        return s._end_hand()

    def _end_hand(self) -> InBetweenState:
        if self.rules.three_posts and self.gap == 1 and len(self.posts) == 3:
            return replace(self, gap=2, phase="decide")
        if self.split_rest:
            rest = self.split_rest
            return replace(self, split_rest=())._begin_hand(rest)
        seat = self.order[self.turn]
        first = _put(self.first, seat, None)  # a finished player's cards are discarded
        return replace(self, turn=self.turn + 1, posts=(), first=first)._begin_turn()

    # -- Red Dog --------------------------------------------------------------------------
    def _house_posts(self) -> InBetweenState:
        rules = self.rules
        ranks = (self.posts[0].rank, self.posts[1].rank)
        if is_pair(ranks) and rules.pairs == "third-card":
            return replace(self, phase="house-third", turn=0)
        if is_pair(ranks) or is_adjacent(ranks):
            policy = rules.pairs if is_pair(ranks) else rules.adjacent
            if policy == "lose":
                return replace(
                    self,
                    bank=self.bank + sum(self.bets),
                    bets=(0,) * rules.players,
                    event=_event("house-takes", amount=sum(self.bets)),
                )._end_round()
            return self._house_push()
        return replace(
            self, phase="raise", turn=0, event=_event("spread", spread=abs(ranks[0] - ranks[1]) - 1)
        )

    def _house_push(self) -> InBetweenState:
        chips = tuple(c + b for c, b in zip(self.chips, self.bets, strict=True))
        return replace(
            self, chips=chips, bets=(0,) * self.rules.players, event=_event("push")
        )._end_round()

    def _next_raiser(self) -> InBetweenState:
        if self.turn + 1 < len(self.order):
            return replace(self, turn=self.turn + 1)
        return replace(self, phase="house-third", turn=len(self.order))

    def _house_third(self, card: Card) -> InBetweenState:
        rules = self.rules
        s = self._take(card)
        ranks = (self.posts[0].rank, self.posts[1].rank)
        chips, bank = list(s.chips), s.bank
        if is_pair(ranks):
            result = settle_trips(rules, ranks[0], card.rank)
        else:
            result = settle(rules, ranks, "between", card.rank)
        deltas = []
        for seat, bet in enumerate(s.bets):
            gain = result.delta(bet)
            if gain >= 0:
                chips[seat] += bet + gain
            bank -= gain
            deltas.append(gain)
        s = replace(
            s,
            chips=tuple(chips),
            bank=bank,
            bets=(0,) * rules.players,
            event=_event("settle", third=str(card), outcome=result.outcome, deltas=deltas),
        )
        return s._end_round()


def _new_session(game: InBetweenGame) -> InBetweenState:
    rules = game.rules
    n = rules.players
    s = InBetweenState(
        game=game,
        phase="start",
        chips=(rules.starting_chips,) * n,
        bank=rules.bank if rules.banking == "house" else 0,
        bets=(0,) * n if rules.banking == "house" else (),
        first=(None,) * n,
        hands=((),) * n,
        won=(False,) * n,
    )
    if rules.dealer == "draw":
        return replace(s, phase="draw", draw=(None,) * n, contenders=tuple(range(n)))
    s = replace(s, dealer=rules.dealer)
    return s._start_dealer_game() if rules.banking == "dealer" else s._start_round()


def replace(state: InBetweenState, **changes: Any) -> InBetweenState:
    """``dataclasses.replace``; a second event in one transition goes to ``after``."""
    event = changes.get("event")
    if event and state.event:
        del changes["event"]
        changes["after"] = (*state.after, event)
    return dataclasses.replace(state, **changes)


@functools.lru_cache(maxsize=16)
def _full_deck(decks: int) -> tuple[tuple[Card, int], ...]:
    """Each distinct card of ``decks`` decks with its copies, sorted."""
    return tuple(sorted(Counter(deck(decks)).items()))


def _left(decks: int, out: Sequence[Card]) -> list[tuple[Card, int]]:
    """The cards of ``decks`` decks not in ``out``, with their copies left."""
    used = Counter(out)
    return [(card, k - used[card]) for card, k in _full_deck(decks) if k > used[card]]


@dataclass(frozen=True)
class Message:
    """A catalog code with its params, as an event field (hashable); JSON: ``{code, params}``."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def _max_length(rules: Rules) -> int | None:
    """A bound on a session's actions (chance's included), or None where none holds.

    A redeal of pairs or neighbours, and ties in the draw for the deal, may repeat without
    end; otherwise a seat's turn takes at most 16 actions (posts, calls, bets, third cards,
    a split's second hand) and a round adds at most a declaration, two common posts, the
    raises and a third card.
    """
    if "redeal" in (rules.pairs, rules.adjacent) or rules.dealer == "draw":
        return None
    rounds = rules.rounds * (rules.total_dealer_games if rules.banking == "dealer" else 1)
    return rounds * (16 * rules.players + 4 + rules.players)


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _event(kind: str, **fields: Any) -> Event:
    """A hashable description of a transition (lists become tuples)."""
    return (
        ("kind", kind),
        *((k, tuple(v) if isinstance(v, list) else v) for k, v in fields.items()),
    )
