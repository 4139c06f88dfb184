"""The numeric encodings say what the observations say, seen from the observer's seat.

Each block is read back by its feature names from real positions: the classic and the
Acey-Deucey starts in Tesauro's units from both sides, In-Between's chips turned to the
observer and its cards as flags, Aces in the Pot's roller.  The In-Between action table
is the game's own notation, one position per decision.  The environment is one class
over any game with a codec: a toy game passes PettingZoo's ``api_test`` as well.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
import pytest

from aceydeucey import load_game
from aceydeucey.ai.codec import Codec, Vector, codec_for, register_codec
from aceydeucey.ai.codec_backgammon import MAX_DECISIONS
from aceydeucey.ai.codec_inbetween import InBetweenCodec
from aceydeucey.core import Seeded
from aceydeucey.core.errors import ArgumentError
from aceydeucey.core.game import Game, State
from tests.core.toy import ToyGame, ToyRules


def features(codec: Codec, vec: Vector, prefix: str) -> list[float]:
    """The values of the features whose names start with ``prefix``."""
    return [float(v) for n, v in zip(codec.feature_names, vec, strict=True) if n.startswith(prefix)]


def first_decision(game: Game, seed: int = 0) -> State:
    state = game.new_initial_state()
    chance = Seeded(seed)
    while state.is_chance_node():
        state = state.apply(chance.choose(state))
    return state


def point(codec: Codec, vec: Vector, number: int) -> tuple[list[float], list[float]]:
    """Tesauro's own and opponent's units on point ``number`` (the observer's numbering)."""
    units = features(codec, vec, "points")[(number - 1) * 8 : number * 8]
    return units[:4], units[4:]


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("inbetween", {"players": 3}),
        ("inbetween", {"preset": "red-dog", "players": 5}),
        ("backgammon", {"variant": "dutch"}),
        ("aces-in-the-pot", {"players": 4}),
    ],
)
def test_every_feature_is_named_and_bounded(game_id: str, options: dict[str, Any]) -> None:
    codec = codec_for(load_game(game_id, **options))
    assert len(codec.feature_names) == codec.size == codec.low.shape[0] == codec.high.shape[0]
    assert len(set(codec.feature_names)) == codec.size
    assert (codec.low < codec.high).all()


def test_classic_start_in_tesauro_units_from_both_sides() -> None:
    game = load_game("backgammon", variant="classic")
    codec = codec_for(game)
    state = first_decision(game)
    for seat in (0, 1):
        vec = codec.encode(state.observation(seat))
        # every side: 2 on its 24-point, 5 on 13, 3 on 8, 5 on 6 (the opponent's 1, 12, 17, 19)
        assert point(codec, vec, 6) == ([1, 1, 1, 1], [0, 0, 0, 0])
        assert point(codec, vec, 8) == ([1, 1, 1, 0], [0, 0, 0, 0])
        assert point(codec, vec, 13) == ([1, 1, 1, 1], [0, 0, 0, 0])
        assert point(codec, vec, 24) == ([1, 1, 0, 0], [0, 0, 0, 0])
        assert point(codec, vec, 1) == ([0, 0, 0, 0], [1, 1, 0, 0])
        assert point(codec, vec, 19) == ([0, 0, 0, 0], [1, 1, 1, 1])
        assert point(codec, vec, 2) == ([0] * 4, [0] * 4)
        assert features(codec, vec, "pip") == pytest.approx([167 / 375] * 2)
        mover = [1.0, 0.0] if seat == state.current_player() else [0.0, 1.0]
        assert features(codec, vec, "mover") == mover
        assert features(codec, vec, "phase") == [0, 0, 0, 1, 0]
        dice = state.observation(seat)["dice"]
        assert sum(features(codec, vec, "dice[")) == pytest.approx(len(dice) / 4)


def test_acey_deucey_start_has_every_checker_unentered() -> None:
    game = load_game("backgammon")
    codec = codec_for(game)
    vec = codec.encode(first_decision(game).observation(1))
    assert features(codec, vec, "unentered") == [1.0, 1.0]
    assert features(codec, vec, "points") == [0.0] * 192
    assert features(codec, vec, "off") == [0.0, 0.0]
    assert codec.num_actions == MAX_DECISIONS == 27405


def test_inbetween_seats_turn_to_the_observer_and_cards_are_flags() -> None:
    game = load_game("inbetween", players=3, decks=2, starting_chips=50)
    codec = codec_for(game)
    state = first_decision(game, seed=4)
    for seat in range(3):
        obs = state.observation(seat)
        vec = codec.encode(obs)
        chips = obs["chips"]
        assert features(codec, vec, "chips") == pytest.approx(
            [chips[(seat + k) % 3] / 50 for k in range(3)]
        )
        to_act = [0.0] * 4
        to_act[(obs["to_act"] - seat) % 3] = 1.0
        assert features(codec, vec, "to_act") == to_act
        seen = features(codec, vec, "seen")
        assert sum(seen) == pytest.approx(len(obs["seen"]) / 2)  # two decks: half a card each
        assert features(codec, vec, "pot") == pytest.approx([obs["pot"] / 50])
    actor = state.observation(state.current_player())
    vec = codec.encode(actor)
    posts = features(codec, vec, "posts")
    for slot, card in enumerate(actor["posts"]):
        flags = posts[slot * 17 : (slot + 1) * 17]
        assert flags.index(1.0) == "23456789TJQKA".index(card[0])
        assert flags[13:].index(1.0) == "CDHS".index(card[1])
        assert sum(flags) == 2
    assert features(codec, vec, "stakes") == pytest.approx(
        [1.0, actor["min_stake"] / 50, actor["max_stake"] / 50]
    )


def test_inbetween_action_table_is_the_game_notation() -> None:
    game = load_game("inbetween", players=2, starting_chips=5)
    codec = codec_for(game)
    assert isinstance(codec, InBetweenCodec)
    assert codec.max_stake == 10 and codec.num_actions == 7 + 4 * 10
    texts = [codec.action_text(i) for i in range(codec.num_actions)]
    assert texts[:8] == [
        "pass",
        "stay",
        "split",
        "ace low",
        "ace high",
        "aces low",
        "aces high",
        "bet 1",
    ]
    assert texts[-1] == "raise 10"
    assert codec.action_indices(texts) == list(range(codec.num_actions))
    assert [str(game.parse_action(t)) for t in texts] == texts
    assert codec.action_indices(["bet 11", "pass"]) == [None, 0]
    with pytest.raises(ArgumentError) as err:
        codec.action_text(codec.num_actions)
    assert err.value.code == "ai.action_out_of_range"


def test_aces_roller_is_seen_from_each_seat() -> None:
    game = load_game("aces-in-the-pot", players=3, first_roller=2)
    codec = codec_for(game)
    state = game.new_initial_state()
    assert state.observation(0)["roller"] == 2
    for seat in range(3):
        vec = codec.encode(state.observation(seat))
        roller = [0.0] * 4
        roller[(2 - seat) % 3] = 1.0
        assert features(codec, vec, "roller") == roller
        assert features(codec, vec, "holder") == [0.0, 0.0, 0.0, 1.0]
        assert features(codec, vec, "chips") == [1.0, 1.0, 1.0]


def test_public_views_and_unknown_games_are_refused() -> None:
    game = load_game("inbetween")
    with pytest.raises(ArgumentError) as spectator:
        codec_for(game).encode(first_decision(game).observation(None))
    assert spectator.value.code == "ai.spectator_view"
    with pytest.raises(ArgumentError) as unknown:
        codec_for(ToyGame(ToyRules.resolve()))
    assert unknown.value.code == "ai.no_codec"
    assert "inbetween" in unknown.value.params["accepted"]


class ToyCodec(Codec):
    """The toy game's number and whose turn it is; actions ``stay`` and ``double``."""

    game_id: ClassVar[str] = "toy"
    WORDS = ("stay", "double")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.s_number = self.layout.add("number", 1, high=3.0)
        self.s_turn = self.layout.add("my_turn", 1)
        self._finish()

    @property
    def num_actions(self) -> int:
        return 2

    def action_indices(self, legal: Sequence[str]) -> list[int | None]:
        return [self.WORDS.index(t) for t in legal]

    def encode(self, observation: Mapping[str, Any]) -> Vector:
        vec = self._vector()
        vec[self.s_number] = observation["number"] or 0
        vec[self.s_turn] = float(bool(observation["legal_actions"]))
        return vec


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # the Dict observation's
def test_the_environment_runs_any_game_with_a_codec() -> None:
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from aceydeucey.ai.pettingzoo import env

    register_codec("toy", "tests.ai.test_encoding:ToyCodec")
    game = ToyGame(ToyRules.resolve(factor=10))
    pettingzoo_test.api_test(env(game), num_cycles=50)
    e = env(game)
    e.reset(seed=5)
    assert e.observe("player_0")["action_mask"].tolist() == [1, 1]
    e.step(1)  # double
    e.step(0)  # stay
    number = int(e.observe("player_0")["observation"][0])
    assert e.rewards == {"player_0": 20.0 * number, "player_1": -20.0 * number}
    assert np.all(e.observe("player_1")["action_mask"] == 0)
