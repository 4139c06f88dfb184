"""The In-Between game: ``InBetweenGame`` (rules and facts) and its ``InBetweenState``.

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

The state machine is split by concept: ``state`` (the state and its queries), ``shoe``
(deck accounting), ``events``, ``phases``, ``lifecycle`` (session, dealer's games,
rounds), ``turns`` (a player's posts, decision and third card), ``house`` (Red Dog) and
``reasons`` (why an action is illegal).

Hidden cards (``hidden=True``): each hand is dealt face down and stays so until its seat
bets (or splits) or a pairs/adjacent rule (``redeal``, ``push``, ``lose``, ``win``) applies
to it, which turns it up for everyone first; a redeal's new posts, and each split hand's
new post, come face down again (the split pair itself stays face up).
Only the seat whose hand it is sees its stake limits; a face-down first ace cannot be
called, so ``aces="first-card"`` is refused with ``hidden``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from aceydeucey.cards import Card
from aceydeucey.core.errors import ActionSyntaxError
from aceydeucey.core.game import Action, Game, GameInfo
from aceydeucey.inbetween import lifecycle
from aceydeucey.inbetween import rules as rules_module
from aceydeucey.inbetween.actions import Decision
from aceydeucey.inbetween.phases import CHANCE_PHASES, PUBLIC_PHASE, Phase, PublicPhase
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.settle import Call, worst_loss
from aceydeucey.inbetween.shoe import Shoe
from aceydeucey.inbetween.state import InBetweenState, advance
from aceydeucey.inbetween.termination import Termination

__all__ = [
    "CHANCE_PHASES",
    "PUBLIC_PHASE",
    "Decision",
    "InBetweenGame",
    "InBetweenState",
    "Phase",
    "PublicPhase",
]


class InBetweenGame(Game):
    """In-Between with resolved rules: ``load_game("inbetween", preset="guide", players=3)``."""

    game_id: ClassVar[str] = "inbetween"
    rules_class: ClassVar[type[Rules]] = Rules
    terminations: ClassVar[type[Termination]] = Termination
    rules: Rules

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self._worst: dict[tuple[tuple[int, int], Call, bool], int] = {}

    def worst_loss(self, posts: tuple[int, int], call: Call, second_gap: bool = False) -> int:
        """``settle.worst_loss`` under these rules (cached: it settles every third card)."""
        key = (posts, call, second_gap)
        loss = self._worst.get(key)
        if loss is None:
            loss = self._worst[key] = worst_loss(self.rules, posts, call, second_gap=second_gap)
        return loss

    @property
    def num_players(self) -> int:
        return self.rules.players

    def new_initial_state(self) -> InBetweenState:
        rules = self.rules
        n = rules.players
        house = rules.banking == "house"
        blank = InBetweenState(
            game=self,
            phase="start",
            chips=(rules.starting_chips,) * n,
            shoe=Shoe.fresh(rules.decks),
            bank=rules.bank if house else 0,
            bets=(0,) * n if house else (),
            first=(None,) * n,
            hands=((),) * n,
            won=(False,) * n,
        )
        return advance(lifecycle.open_session(blank))

    def make_info(self) -> GameInfo:
        """Fixed facts: seats, zero-sum (not under Red Dog's house), hidden cards, bounds."""
        rules = self.rules
        house = rules.banking == "house"
        n = rules.players
        start = rules.starting_chips
        fewest, most = players_range(rules)
        debts = rules.allows_debt and not house  # Red Dog's bets are paid up front
        low = None if debts else Fraction(-start)
        if house:
            high: Fraction | None = Fraction(rules.bank)
        else:
            high = None if debts else Fraction((n - 1) * start)
        return GameInfo(
            game_id=self.game_id,
            num_players=n,
            min_players=fewest,
            max_players=most,
            zero_sum=not house,
            # a card dealt face down: hidden hands, or the card a pass sets aside
            hidden_information=rules.hidden or rules.passed_card == "next-post",
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


def players_range(rules: Rules) -> tuple[int, int]:
    """The table sizes these rules allow: the option's range, narrowed by the preset's source
    where it states one (``rules.PRESET_PLAYERS``), and at least 2 without the house."""
    low = 1 if rules.banking == "house" else 2
    top = int(Rules.option_help()["players"]["max"])
    stated = getattr(rules_module, "PRESET_PLAYERS", {}).get(rules.preset)
    if stated is not None:
        low, top = max(low, stated[0]), min(top, stated[1])
    return low, top


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
