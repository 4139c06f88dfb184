"""In-Between as numbers: a seat's observation as a vector, decisions as a fixed table.

Actions (``num_actions = 7 + 4 * max_stake``): ``0 pass``, ``1 stay``, ``2 split``,
``3 ace low``, ``4 ace high``, ``5 aces low``, ``6 aces high``, then ``bet 1`` ...
``bet M``, ``higher 1`` ... ``higher M``, ``lower 1`` ... ``lower M``, ``raise 1`` ...
``raise M`` with ``M = max_stake``.  The table is the same under every rule set (a
word the rules do not use is never legal), so a policy keeps its meaning across
presets.  ``max_stake`` defaults to the chips in play (every seat's starting chips plus
the ``bank``): no stake can exceed it unless the rules allow debts (``stake_cap`` other
than ``cover`` with a shared or dealer's pot), where a larger legal stake is left out
of the table (and of the mask); pass ``max_stake`` to widen it.

Features (chip amounts are counted in starting stacks, ``chips / starting_chips``, and
clipped to the chips in play; cards as 13 rank and 4 suit flags; ``rel`` blocks start
with the observer): ``step`` (the engine's step, one-hot), ``to_act`` and ``dealer``
(``rel`` one-hot, last flag: nobody / the house), ``round`` and ``dealer_game`` (as
fractions of the session's), ``chips``, ``pot``, ``bank``, ``bets`` (Red Dog's),
``won_bet``, ``first_cards`` (rank, ``(r - 1) / 13`` with 2 = 1 ... ace = 13; 0 when
none), ``posts`` and ``hand`` (three card slots each), ``hand_face_down``, ``gap``
(three posts: the first or the second gap), ``seen`` (each of the 52 cards, its count
over the decks), ``ace_low`` and ``aces_low`` (called?, low?), ``stakes`` (open?,
``min_stake``, ``max_stake``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from aceydeucey.ai.codec import Codec, Vector
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game

__all__ = ["ACTION_WORDS", "AMOUNT_WORDS", "STEPS", "InBetweenCodec"]

RANKS = "23456789TJQKA"
SUITS = "CDHS"
#: The engine's steps (the observation's ``step``), in the order of the one-hot block.
STEPS = (
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
)
#: Decisions without an amount: table positions 0..6.
ACTION_WORDS = ("pass", "stay", "split", "ace low", "ace high", "aces low", "aces high")
#: Decisions with an amount, each a block of ``max_stake`` positions after the words.
AMOUNT_WORDS = ("bet", "higher", "lower", "raise")
CARD_SLOTS = 3
CARD_FEATURES = len(RANKS) + len(SUITS)


class InBetweenCodec(Codec):
    """The In-Between encoding (see the module docstring)."""

    game_id: ClassVar[str] = "inbetween"
    OPTIONS: ClassVar[tuple[str, ...]] = ("max_stake",)

    def __init__(self, game: Game, *, max_stake: int | None = None) -> None:
        super().__init__(game)
        rules = game.rules.to_dict()
        n = self.players
        self.unit = int(rules["starting_chips"])
        in_play = n * self.unit + int(rules["bank"])
        if max_stake is None:
            max_stake = in_play
        if isinstance(max_stake, bool) or not isinstance(max_stake, int) or max_stake < 1:
            raise ArgumentError("ai.bad_max_stake", value=repr(max_stake))
        self.max_stake = max_stake
        debts = rules["stake_cap"] != "cover" and rules["banking"] != "house"
        top = in_play / self.unit
        bottom = -top if debts else 0.0
        self.rounds = max(1, int(rules["rounds"]))
        self.dealer_games = max(1, int(rules["dealer_games"]) or n)
        self.decks = int(rules["decks"])
        add = self.layout.add
        self.s_step = add("step", len(STEPS))
        self.s_to_act = add("to_act", n + 1)
        self.s_dealer = add("dealer", n + 1)
        self.s_round = add("round", 1)
        self.s_dealer_game = add("dealer_game", 1)
        self.s_chips = add("chips", n, low=bottom, high=top)
        self.s_pot = add("pot", 1, high=max(top, self.max_stake / self.unit))
        self.s_bank = add("bank", 1, high=top)
        self.s_bets = add("bets", n, high=top)
        self.s_won = add("won_bet", n)
        self.s_first = add("first_cards", n)
        self.s_posts = add("posts", CARD_SLOTS * CARD_FEATURES)
        self.s_hand = add("hand", CARD_SLOTS * CARD_FEATURES)
        self.s_face_down = add("hand_face_down", 1)
        self.s_gap = add("gap", 2)
        self.s_seen = add("seen", 52)
        self.s_ace_low = add("ace_low", 2)
        self.s_aces_low = add("aces_low", 2)
        self.s_stakes = add("stakes", 3, high=max(top, self.max_stake / self.unit))
        self._finish()
        self._index = {word: i for i, word in enumerate(ACTION_WORDS)}
        base = len(ACTION_WORDS)
        for k, word in enumerate(AMOUNT_WORDS):
            start = base + k * max_stake
            for amount in range(1, max_stake + 1):
                self._index[f"{word} {amount}"] = start + amount - 1

    @property
    def num_actions(self) -> int:
        return len(ACTION_WORDS) + len(AMOUNT_WORDS) * self.max_stake

    def action_text(self, index: int) -> str:
        """The decision at table position ``index`` (``0`` is ``pass``, ``7`` is ``bet 1``)."""
        base = len(ACTION_WORDS)
        if not 0 <= index < self.num_actions:
            raise ArgumentError("ai.action_out_of_range", index=index, last=self.num_actions - 1)
        if index < base:
            return ACTION_WORDS[index]
        word, amount = divmod(index - base, self.max_stake)
        return f"{AMOUNT_WORDS[word]} {amount + 1}"

    def action_indices(self, legal: Sequence[str]) -> list[int | None]:
        return [self._index.get(text) for text in legal]

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        obs = observation
        vec = self._vector()
        n, unit = self.players, self.unit
        vec[self.s_step.start + STEPS.index(obs["step"])] = 1.0
        to_act = self._rel(obs, obs["to_act"])
        vec[self.s_to_act.start + (n if to_act is None else to_act)] = 1.0
        dealer = self._rel(obs, obs["dealer"])
        vec[self.s_dealer.start + (n if dealer is None else dealer)] = 1.0
        vec[self.s_round] = obs["round"] / self.rounds
        vec[self.s_dealer_game] = obs["dealer_game"] / self.dealer_games
        vec[self.s_chips] = [c / unit for c in self._per_seat(obs, obs["chips"])]
        vec[self.s_pot] = obs["pot"] / unit
        if obs["bank"] is not None:
            vec[self.s_bank] = obs["bank"] / unit
        if obs["bets"] is not None:
            vec[self.s_bets] = [b / unit for b in self._per_seat(obs, obs["bets"])]
        vec[self.s_won] = [float(w) for w in self._per_seat(obs, obs["won_bet"])]
        vec[self.s_first] = [
            0.0 if c is None else (RANKS.index(c[0]) + 1) / len(RANKS)
            for c in self._per_seat(obs, obs["first_cards"])
        ]
        _cards(vec, self.s_posts.start, obs["posts"])
        _cards(vec, self.s_hand.start, obs["hand"])
        vec[self.s_face_down] = float(bool(obs["hidden_hand"]))
        if obs["gap"] is not None:
            vec[self.s_gap.start + int(obs["gap"]) - 1] = 1.0
        seen = self.s_seen.start
        for card in obs["seen"]:
            vec[seen + _card_index(card)] += 1.0 / self.decks
        _call(vec, self.s_ace_low.start, obs["ace_low"])
        _call(vec, self.s_aces_low.start, obs["aces_low"])
        if obs["min_stake"] is not None:
            vec[self.s_stakes] = [1.0, obs["min_stake"] / unit, obs["max_stake"] / unit]
        return self._clip(vec)


def _card_index(card: str) -> int:
    """``2C`` is 0, ``2D`` 1, ... ``AS`` 51 (rank-major)."""
    return RANKS.index(card[0]) * len(SUITS) + SUITS.index(card[1])


def _cards(vec: Vector, start: int, cards: Sequence[str]) -> None:
    if len(cards) > CARD_SLOTS:
        raise ArgumentError("ai.too_many_cards", count=len(cards), slots=CARD_SLOTS)
    for slot, card in enumerate(cards):
        at = start + slot * CARD_FEATURES
        vec[at + RANKS.index(card[0])] = 1.0
        vec[at + len(RANKS) + SUITS.index(card[1])] = 1.0


def _call(vec: Vector, start: int, low: bool | None) -> None:
    if low is not None:
        vec[start] = 1.0
        vec[start + 1] = float(low)
