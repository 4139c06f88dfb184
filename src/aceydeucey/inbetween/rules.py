"""In-Between rules as data: every option the sources describe, and the named presets.

Seeds (in ``shared/seeds/``): ``000`` is the team's guide (the default preset), ``003`` the same
guide in Portuguese, ``001`` the banker rules with their variants (Red Dog, three posts, ...),
``002`` the card-game section (the "Sheets" rules and their variations).  ``SOURCES.md`` adds
Bicycle's pair payout, oinc's replaced identical posts and the half-pot first-round limit.

The engine reads options only; it never looks at the preset's name.  Option names:

===================  =====================================================================
``players``          seats (1 only with ``banking="house"``)
``dealer``           the first dealer's seat, or ``"draw"`` (one card each, highest deals,
                     ties redraw among the tied)
``starting_chips``   each seat's chips at the start
``ante``             chips each player antes (0 = no ante)
``ante_each_round``  ante before every round (else only before the first round)
``rounds``           complete rounds in the session (a dealer's game with ``banking="dealer"``)
``dealer_games``     dealer's games in a session (``banking="dealer"``; 0 = every seat deals once)
``bank``             the banker's opening pot (``"dealer"``) or the house's chips (``"house"``)
``decks``            52-card decks shuffled together
``banking``          ``shared`` pot, ``dealer`` banker's pot, or ``house`` (Red Dog, no pot)
``deal``             ``first-around``, ``both-at-turn``, ``both-around`` (face-down hands) or
                     ``common`` (one set of posts for everyone, Red Dog)
``dealer_plays``     the dealer gets cards and bets last
``reshuffle``        ``round`` (collect after every round), ``deck-out`` (deal on; shuffle the
                     used cards when the deck runs out), ``twice-through`` (as ``deck-out``, and
                     after the second run-out the round is finished and the game ends)
``aces``             ``high`` always, ``first-card`` (an ace as first post may be called
                     low or high; later aces are high) or ``dealer-declares`` (the dealer
                     calls every ace of the round high or low before the first card)
``post_multiplier``  stakes lost when the third card equals a post
``adjacent``         neighbouring posts: ``bet`` (bet or pass), ``lose`` (the ante is lost),
                     ``redeal`` (two new posts), ``push`` (the ante comes back)
``pairs``            equal posts: ``bet``, ``higher-lower`` (call ``higher N``/``lower N``),
                     ``win`` (``pair_win`` chips from the pot), ``push``, ``redeal``,
                     ``split`` (pay an ante, play two hands) or ``third-card`` (Red Dog)
``pair_win``         chips won with a pair under ``pairs="win"``
``pair_match_multiplier``  stakes lost when a higher/lower call meets the same rank again
``ace_pair_multiplier``    stakes lost when an ace meets a pair of aces (0 = the usual rule)
``ace_third_loses``  an ace as third card loses against any (non-ace) pair
``stake_cap``        ``cover`` (the worst loss must be payable: half one's chips when posts
                     cost double), ``chips`` (stake up to one's chips; debts allowed),
                     ``none`` (the pot only; debts allowed)
``min_stake``        ``one`` chip or the ``ante``
``first_round_limit``  the most one may stake in the first round: ``pot``, ``half-pot``, ``ante``
``round_limits``       escalating limits: the most one may stake in rounds 1, 2, ... (then the pot)
``ante_to_play``     each player antes at their turn; passing or adjacent posts forfeit it
``hidden``           both cards face down; a pass folds without showing them
``empty_pot``        ``end`` the session, ``replenish`` (everyone antes again) or
                     ``next-dealer`` (the dealer's game ends)
``three_posts``      three posts, two bets (seed 001's harsher version)
``second_post_multiplier``  stakes lost on a post hit in the second gap of three posts
``spread_pays``      Red Dog odds paid for spreads 1, 2, 3 and 4+
``trips_pays``       Red Dog odds paid when a pair meets its rank again
``post_fee``         chips each player pays into the pot for each pair of posts, bet or pass
``ante_back``        until a player has won a bet, their stake is at most the ante
``passed_card``      ``discard`` (no third card after a pass) or ``next-post`` (the top card is
                     set aside face down and becomes the next player's next post)
===================  =====================================================================
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from aceydeucey.core.options import json_ready
from aceydeucey.core.rules import Preset, RulesBase, option, refusal

__all__ = ["PRESET_NAMES", "InBetweenRules", "Rules"]

_S000 = "seed 000 (guide), seed 003 (Portuguese)"
_S001 = "seed 001 (banker rules and variants)"
_S002 = "seed 002 (card section, 'Sheets')"

PRESETS: dict[str, Preset] = {
    "guide": Preset(
        "guide",
        {},
        _S000,
        "Shared pot, 2-8 players, 100 chips, ante 1 every round, at most 3 rounds, "
        "stake up to the pot and half one's chips, posts cost double, aces high.",
    ),
    "banker": Preset(
        "banker",
        {
            "banking": "dealer",
            "ante": 0,
            "bank": 20,
            "rounds": 3,
            "dealer_plays": False,
            "empty_pot": "next-dealer",
        },
        _S001,
        "The dealer's game: the dealer puts 20 chips in the pot and plays 3 rounds against "
        "each player; posts cost double; the dealer takes what is left; everyone deals once.",
    ),
    "sheets": Preset(
        "sheets",
        {
            "players": 4,
            "deal": "both-at-turn",
            "ante_each_round": False,
            "rounds": 10,
            "post_multiplier": 1,
            "adjacent": "redeal",
            "pairs": "higher-lower",
            "pair_match_multiplier": 2,
            "empty_pot": "replenish",
        },
        _S002,
        "Ante 1 once, both cards at one's turn, equal or outside loses one stake, "
        "consecutive posts re-dealt, pairs call higher or lower, an empty pool is refilled.",
    ),
    "red-dog": Preset(
        "red-dog",
        {
            "players": 4,
            "banking": "house",
            "deal": "common",
            "bank": 1000,
            "rounds": 10,
            "post_multiplier": 1,
            "adjacent": "push",
            "pairs": "third-card",
            "stake_cap": "chips",
            "dealer_plays": False,
            "empty_pot": "end",
        },
        _S001 + ", SOURCES.md (Red Dog)",
        "The casino version: the house banks, one set of posts for all, pushes on "
        "neighbouring posts, 11 to 1 on trips, spread odds 5/4/2/1 to 1 and a raise.",
    ),
    "three-posts": Preset(
        "three-posts",
        {"three_posts": True, "second_post_multiplier": 3},
        _S001 + " (Three posts)",
        "Three posts, two gaps: a usual bet on the first gap, then a second bet of at least "
        "the ante on the second gap, where a post costs three times.",
    ),
}

#: The preset names, default first.
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)

#: Table sizes a preset's own source states, where it states one (else the option's range).
#: Seed 000: "For 2-8 players"; seed 003: "Para 2-8 jogadores".
PRESET_PLAYERS: dict[str, tuple[int, int]] = {"guide": (2, 8)}


@dataclass(frozen=True)
class InBetweenRules(RulesBase):
    """Every option of In-Between; build it with ``InBetweenRules.resolve(preset=..., ...)``."""

    GAME: ClassVar[str] = "inbetween"
    PRESETS: ClassVar[dict[str, Preset]] = PRESETS
    DEFAULT_PRESET: ClassVar[str] = "guide"

    preset: str = option("guide", help="named rule set", source=_S000)
    players: int = option(4, min=1, max=10, help="seats at the table", source=_S000)
    dealer: int | Literal["draw"] = option(
        0,
        min=0,
        help="first dealer's seat, or 'draw' (highest card deals)",
        source=_S001,
        seat=True,
    )
    starting_chips: int = option(100, min=1, help="chips each seat starts with", source=_S000)
    ante: int = option(1, min=0, help="chips each player antes", source=_S000)
    ante_each_round: bool = option(
        True, help="ante before every round (else before the first only)", source=_S000
    )
    rounds: int = option(3, min=1, max=1000, help="complete rounds to play", source=_S000)
    dealer_games: int = option(
        0, min=0, help="dealer's games per session (0: every seat deals once)", source=_S001
    )
    bank: int = option(0, min=0, help="banker's opening pot or the house's chips", source=_S001)
    decks: int = option(1, min=1, max=8, help="decks shuffled together", source=_S002)
    banking: Literal["shared", "dealer", "house"] = option(
        "shared",
        help="who the bets play against",
        source=_S001,
    )
    deal: Literal["first-around", "both-at-turn", "both-around", "common"] = option(
        "first-around",
        help="when the posts are dealt",
        source=_S000,
    )
    dealer_plays: bool = option(True, help="the dealer gets cards and bets last", source=_S000)
    reshuffle: Literal["round", "deck-out", "twice-through"] = option(
        "round",
        help="when the used cards are shuffled back",
        source=_S001,
    )
    aces: Literal["high", "first-card", "dealer-declares"] = option(
        "high",
        help="aces always high, a first-post ace may be called low, or the dealer calls a round",
        source=_S001 + ", " + _S002 + ", SOURCES.md (everything2: the dealer declares)",
    )
    post_multiplier: int = option(2, min=1, max=10, help="stakes lost on a post", source=_S000)
    adjacent: Literal["bet", "lose", "redeal", "push"] = option(
        "bet",
        help="neighbouring posts",
        source=_S000,
    )
    pairs: Literal["bet", "higher-lower", "win", "push", "redeal", "split", "third-card"] = option(
        "bet",
        help="equal posts",
        source=_S000,
    )
    pair_win: int = option(2, min=1, help="chips a pair wins (pairs='win')", source="SOURCES.md")
    pair_match_multiplier: int = option(
        2, min=1, max=10, help="stakes lost when a pair call meets the same rank", source=_S002
    )
    ace_pair_multiplier: int = option(
        0, min=0, max=10, help="stakes lost when an ace meets two aces (0: usual)", source=_S002
    )
    ace_third_loses: bool = option(
        False, help="an ace as third card loses against any pair", source=_S002
    )
    stake_cap: Literal["cover", "chips", "none"] = option(
        "cover",
        help="personal stake limit: worst loss payable / own chips / none (debts)",
        source=_S000,
    )
    min_stake: Literal["one", "ante"] = option("one", help="smallest stake", source=_S001)
    first_round_limit: Literal["pot", "half-pot", "ante"] = option(
        "pot",
        help="largest stake in the first round",
        source="SOURCES.md",
    )
    round_limits: tuple[int, ...] = option(
        (),
        help="escalating limits: the largest stake in rounds 1, 2, ... (later rounds: the pot)",
        source="SOURCES.md: Shemitz (25c, 50c, $1 in the first three rounds, then 'pot it')",
    )
    ante_to_play: bool = option(False, help="ante at one's turn; a pass forfeits it", source=_S002)
    hidden: bool = option(False, help="both cards face down", source=_S001)
    empty_pot: Literal["end", "replenish", "next-dealer"] = option(
        "end",
        help="what an emptied pot does",
        source=_S000,
    )
    three_posts: bool = option(False, help="three posts, two bets", source=_S001)
    second_post_multiplier: int = option(
        3, min=1, max=10, help="stakes lost on a post in the second gap", source=_S001
    )
    spread_pays: tuple[int, ...] = option(
        (5, 4, 2, 1), help="Red Dog odds for spreads 1, 2, 3, 4+", source=_S001
    )
    trips_pays: int = option(11, min=1, help="Red Dog odds on trips", source=_S001)
    post_fee: int = option(
        0,
        min=0,
        help="chips paid into the pot for each pair of posts, bet or pass",
        source="SOURCES.md: Shemitz ('each player pays a dime for each pair of posts')",
    )
    ante_back: bool = option(
        False,
        help="stake at most the ante until one has won a bet",
        source="SOURCES.md: the-game-farm ('Win Your Ante Back')",
    )
    passed_card: Literal["discard", "next-post"] = option(
        "discard",
        help="after a pass: nothing, or the top card goes face down to the next player",
        source="SOURCES.md: oinc (the passed card becomes one of the next player's posts)",
    )

    def check(self) -> None:
        """Reject contradictory combinations, naming the options concerned (``refusal``)."""
        n = self.players

        def bad(code: str, *options: str, **params: Any) -> None:
            raise refusal(self, f"ib_rules.{code}", *options, **params)

        house = self.banking == "house"
        if any(limit < 1 for limit in self.round_limits):
            bad("round_limits_positive", "round_limits", limits=repr(self.round_limits))
        if isinstance(self.dealer, int) and self.dealer >= n:
            bad("dealer_not_a_seat", "dealer", "players")
        if n < 2 and not house:
            bad("one_player_needs_house", "players", "banking")
        low, high = PRESET_PLAYERS.get(self.preset, (1, n))
        if not low <= n <= high:
            bad("players_for_preset", "players", "preset", low=low, high=high)
        if house != (self.deal == "common"):
            bad("house_deals_common", "banking", "deal")
        if house and not self.ante_each_round:
            bad("house_antes_each_round", "banking", "ante_each_round")
        if house and self.ante < 1:
            bad("house_needs_ante", "banking", "ante")
        if house and self.pairs not in ("third-card", "push"):
            bad("house_pairs", "banking", "pairs")
        if house and self.adjacent not in ("push", "lose"):
            bad("house_adjacent", "banking", "adjacent")
        if house and self.aces != "high":
            bad("house_aces", "banking", "aces")
        if house and self.three_posts:
            bad("house_three_posts", "banking", "three_posts")
        if house and self.hidden:
            bad("house_hidden", "banking", "hidden")
        if not house and self.pairs == "third-card":
            bad("third_card_needs_house", "pairs", "banking")
        if house and self.bank < 1:
            bad("house_needs_bank", "banking", "bank")
        if self.banking == "dealer" and self.dealer_plays:
            bad("banker_gets_no_cards", "banking", "dealer_plays")
        if self.banking == "dealer" and self.bank < 1:
            bad("banker_needs_bank", "banking", "bank")
        if self.empty_pot == "next-dealer" and self.banking != "dealer":
            bad("next_dealer_needs_banker", "empty_pot", "banking")
        if self.banking == "dealer" and self.empty_pot == "replenish":
            bad("banker_no_replenish", "banking", "empty_pot")
        if self.empty_pot == "replenish" and self.ante < 1:
            bad("replenish_needs_ante", "empty_pot", "ante")
        if self.banking == "shared" and self.ante < 1:
            bad("shared_needs_ante", "banking", "ante")
        for name, value in (("adjacent", self.adjacent), ("pairs", self.pairs)):
            if value in ("lose", "push", "split") and self.ante < 1:
                bad("moves_an_ante", name, "ante", option=name, value=value)
        if self.ante_to_play and self.ante < 1:
            bad("ante_to_play_needs_ante", "ante_to_play", "ante")
        if self.ante_to_play and house:
            bad("ante_to_play_house", "ante_to_play", "banking")
        if self.min_stake == "ante" and self.ante < 1:
            bad("min_stake_needs_ante", "min_stake", "ante")
        if self.hidden and self.deal != "both-around":
            bad("hidden_needs_both_around", "hidden", "deal")
        if self.deal == "both-around" and not self.hidden:
            bad("both_around_needs_hidden", "deal", "hidden")
        if self.three_posts:
            if self.deal != "first-around":
                bad("three_posts_deal", "three_posts", "deal")
            for name, value in (
                ("pairs", self.pairs),
                ("adjacent", self.adjacent),
            ):
                if value != "bet":
                    bad("three_posts_bet_every_gap", "three_posts", name, option=name, value=value)
            if self.aces != "high":
                bad("three_posts_aces", "three_posts", "aces")
            if self.ante < 1:
                bad("three_posts_needs_ante", "three_posts", "ante")
        if len(self.spread_pays) != 4 or any(p < 1 for p in self.spread_pays):
            bad("spread_pays_four", "spread_pays", pays=repr(self.spread_pays))
        if self.hidden and self.aces == "first-card":
            bad("hidden_first_card", "hidden", "aces")
        if self.reshuffle != "round" and self.hidden:
            bad("reshuffle_hidden", "reshuffle", "hidden")
        if self.post_fee and house:
            bad("post_fee_house", "post_fee", "banking")
        if self.post_fee and self.ante_to_play:
            bad("post_fee_ante_to_play", "post_fee", "ante_to_play")
        if self.ante_back and house:
            bad("ante_back_house", "ante_back", "banking")
        if self.ante_back and self.ante < 1:
            bad("ante_back_needs_ante", "ante_back", "ante")
        if self.passed_card == "next-post":
            if self.deal not in ("first-around", "both-at-turn"):
                bad("passed_card_deal", "passed_card", "deal")
            if self.reshuffle != "round":
                bad("passed_card_reshuffle", "passed_card", "reshuffle")
            if self.pairs == "split":
                bad("passed_card_split", "passed_card", "pairs")
            if self.three_posts:
                bad("passed_card_three_posts", "passed_card", "three_posts")
        if self.dealer_games and self.banking != "dealer":
            bad("dealer_games_needs_banker", "dealer_games", "banking", games=self.dealer_games)

        self._check_moot()

    def _check_moot(self) -> None:
        """Refuse an option set away from its preset's value where the rules ignore it.

        Each entry names the option that makes another moot: ``bank`` with a shared pot,
        Red Dog's odds off Red Dog, the post multiplier and the stake limits under the house
        (Red Dog's own table), pair options under another pair rule, and so on.  A value the
        preset already implies (its own or the option's default) is never refused.
        """
        house = self.banking == "house"
        settled_pairs = self.pairs in ("bet", "higher-lower", "split")
        moot: list[tuple[str, bool, str]] = [
            ("bank", self.banking == "shared", "banking"),
            ("spread_pays", not house, "banking"),
            ("trips_pays", not house, "banking"),
            ("trips_pays", house and self.pairs != "third-card", "pairs"),
            ("post_multiplier", house, "banking"),
            ("dealer", house, "banking"),
            ("dealer_plays", house, "banking"),
            ("stake_cap", house, "banking"),
            ("min_stake", house, "banking"),
            ("first_round_limit", house, "banking"),
            ("round_limits", house, "banking"),
            ("empty_pot", house, "banking"),
            ("pair_win", self.pairs != "win", "pairs"),
            ("pair_match_multiplier", self.pairs != "higher-lower", "pairs"),
            ("ace_third_loses", self.pairs != "higher-lower", "pairs"),
            ("ace_pair_multiplier", not settled_pairs, "pairs"),
            ("second_post_multiplier", not self.three_posts, "three_posts"),
            ("ante_each_round", self.ante == 0, "ante"),
            # one round (a banker's rounds are per dealer's game, the session's antes count
            # across them): "before every round" and "before the first only" are the same
            ("ante_each_round", self.rounds == 1 and self.banking != "dealer", "rounds"),
            ("reshuffle", self._reshuffle_inert(), "rounds"),
        ]
        implied = self.implied()
        for name, is_moot, by in moot:
            if is_moot and getattr(self, name) != implied[name]:
                raise refusal(
                    self,
                    "ib_rules.moot_option",
                    name,
                    by,
                    option=name,
                    value=json_ready(getattr(self, name)),
                    by=by,
                    by_value=json_ready(getattr(self, by)),
                )

    def _reshuffle_inert(self) -> bool:
        """Whether ``reshuffle`` cannot take effect within the rounds played.

        ``deck-out`` keeps the used cards out from one round to the next: with one round
        (per session, or per dealer's game, whose shoe is gathered when it ends) and no draw
        for the deal it deals as ``round`` does.  ``twice-through`` ends the session at the
        deck's second run-out: when the rounds cannot deal that many cards it plays as
        ``deck-out``.  The bound is
        generous (every seat's largest turn, every round), so nothing that could take effect
        is refused; a redeal of pairs or neighbours has no bound and is never refused.
        """
        if self.reshuffle == "deck-out":
            # the draw for the deal leaves its cards out of a deck-out shoe
            return self.rounds == 1 and self.dealer != "draw"
        if self.reshuffle != "twice-through":
            return False
        if "redeal" in (self.pairs, self.adjacent) or self.dealer == "draw":
            return False  # a redeal, and ties in the draw, may go on without bound
        seats = self.players if self.dealer_plays or self.banking == "house" else self.players - 1
        per_seat = 5 if self.three_posts else 6 if self.pairs == "split" else 3
        per_round = seats * (per_seat + 1) + 3  # a set-aside card each, the common posts
        dealt = self.rounds * per_round
        need = 2 * seats  # the most a round's deal asks the shoe to hold at its start
        on_table = 3 * seats + 3  # cards kept out when the used ones are shuffled back
        return dealt < 2 * 52 * self.decks - 2 * need - on_table

    def changes(self) -> list[tuple[str, str]]:
        """The options set away from the preset, as ``(name, value as written)``.

        >>> Rules.resolve(pairs="split", round_limits=(1, 2, 4)).changes()
        [('pairs', 'split'), ('round_limits', '1,2,4')]
        """
        implied = self.implied()
        return [
            (f.name, _shown(getattr(self, f.name)))
            for f in dataclasses.fields(self)
            if f.name != "preset" and getattr(self, f.name) != implied[f.name]
        ]

    def implied(self) -> dict[str, Any]:
        """Each option's value under this preset before any override."""
        values = {f.name: f.default for f in dataclasses.fields(self)}
        values.update(self.PRESETS[self.preset].options)
        return values

    # -- derived facts ----------------------------------------------------------
    @property
    def allows_debt(self) -> bool:
        """Whether a balance may go below zero (any stake cap but ``cover``)."""
        return self.stake_cap != "cover"

    @property
    def total_dealer_games(self) -> int:
        """Dealer's games in a session under ``banking='dealer'``."""
        return self.dealer_games or self.players


def _shown(value: Any) -> str:
    """An option's value as written on the command line: ``5,4,2,1``, ``true``, ``draw``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


#: The short name the rest of the package uses.
Rules = InBetweenRules
