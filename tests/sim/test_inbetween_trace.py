"""Card by card: the kernel's own sessions, replayed on the engine, take the same steps.

The kernel plays seeded sessions with its trace on (``play_sessions(trace=R)``: every card
it deals, every decision, the end, each with the chips, the pot and the house's bank as
they stand before it).  The engine then plays each session at the core ``Table`` with the
same cards (chance deals a card of the rank the kernel dealt, which must be in the
engine's stock) and the same strategies: the deterministic ones decide as the engine's own
agents, the ``random`` seats replay the kernel's draws (each must be a legal action
there).  The engine's trace, read off its states before each step, must equal the
kernel's row by row: every deal, bet, call, raise, third card and chip moved, for every
preset and for option sets Hypothesis draws from every option the kernel plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import aceydeucey
from aceydeucey.cards import Card
from aceydeucey.core import Table
from aceydeucey.core.errors import RulesError
from aceydeucey.core.game import Action, State
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.inbetween.state import InBetweenState
from aceydeucey.sim.inbetween import kernel_plays, play_sessions
from aceydeucey.sim.inbetween_bots import ALL_BOTS
from aceydeucey.sim.inbetween_kernel import T_CARD, T_DECIDE, T_END, TRACE_HEAD

STRATEGIES = ("ev", "kelly", "cautious", "random", "session")
ROWS = 4000
#: A decision's call as the trace writes it (the kernel's codes).
CALL_CODES = {"pass": 0, "stay": 0, "bet": 1, "raise": 1, "higher": 2, "lower": 3}

IntArray = npt.NDArray[np.int64]


class TraceChance:
    """Deals, in order, a card of each rank the kernel's trace dealt."""

    def __init__(self, ranks: Iterator[int]) -> None:
        self.ranks = ranks

    def choose(self, state: State) -> Action:
        rank = next(self.ranks)
        for card in state.legal_actions():
            if card.rank == rank:  # type: ignore[attr-defined]
                return card
        raise AssertionError(f"the kernel dealt a {rank} the engine's stock lacks")


class Replay:
    """A seat that plays the kernel's decisions (its ``random`` seats' draws) in order."""

    def __init__(self, decisions: dict[int, list[str]], seat: int) -> None:
        self.queue = decisions.setdefault(seat, [])

    def act(self, observation: dict[str, Any]) -> str:
        text = self.queue.pop(0)
        assert text in observation["legal_actions"], (text, observation["legal_actions"])
        return text


def _text(row: IntArray, house: bool) -> str:
    """A decision row as the engine's action text."""
    code, stake = int(row[2]), int(row[3])
    if code == 0:
        return "stay" if house else "pass"
    word = {1: "raise" if house else "bet", 2: "higher", 3: "lower"}[code]
    return f"{word} {stake}"


def _row(kind: int, a: int, b: int, c: int, s: InBetweenState, house: bool) -> list[int]:
    return [kind, a, b, c, s.pot, s.bank if house else 0, *s.chips]


def engine_trace(
    rules: Rules, names: Sequence[str], kernel: IntArray
) -> tuple[list[list[int]], InBetweenState]:
    """The engine's trace of the session the kernel traced (``kernel``: its rows)."""
    house = rules.banking == "house"
    rows = kernel[: int(np.argmax(kernel[:, 0] == T_END)) + 1]
    ranks = iter(int(r[1]) for r in rows if r[0] == T_CARD)
    replayed: dict[int, list[str]] = {}
    for r in rows:
        if r[0] == T_DECIDE and names[int(r[1])] == "random":
            replayed.setdefault(int(r[1]), []).append(_text(r, house))
    agents = [
        Replay(replayed, s) if name == "random" else ALL_BOTS[name](s)
        for s, name in enumerate(names)
    ]
    game = aceydeucey.load_game("inbetween", **rules.to_dict())
    table = Table(game, agents, chance=TraceChance(ranks))
    out: list[list[int]] = []
    while not table.state.is_terminal():
        before = table.state
        assert isinstance(before, InBetweenState)
        chance = before.is_chance_node()
        seat = before.current_player()
        table.step()
        action = str(table.record.actions[-1])
        if chance:
            out.append(_row(T_CARD, Card.from_text(action).rank, 0, 0, before, house))
            continue
        word, _, amount = action.partition(" ")
        out.append(_row(T_DECIDE, seat, CALL_CODES[word], int(amount or 0), before, house))
    final = table.state
    assert isinstance(final, InBetweenState)
    out.append(_row(T_END, 0, 0, 0, final, house))
    return out, final


def check_traces(rules: Rules, sessions: int, seed: int) -> int:
    """Trace ``sessions`` kernel sessions and replay each on the engine; the rows compared."""
    n = rules.players
    strategies = tuple(STRATEGIES[(i + seed) % len(STRATEGIES)] for i in range(n))
    batch = play_sessions(rules, strategies, sessions, seed=seed, trace=ROWS)
    assert not batch.engine and batch.trace is not None
    compared = 0
    for g in range(sessions):
        kernel = batch.trace[g]
        assert (kernel[:, 0] == T_END).any(), "the trace outgrew its rows"
        names = [strategies[(s + g) % n] for s in range(n)]
        rows, final = engine_trace(rules, names, kernel)
        mine = kernel[: len(rows), : TRACE_HEAD + n].tolist()
        for i, (a, b) in enumerate(zip(mine, rows, strict=True)):
            assert a == b, (g, i, a, b, rows[max(0, i - 4) : i])
        assert tuple(int(c) for c in batch.chips[g]) == final.chips
        assert int(batch.pot[g]) == final.pot
        compared += len(rows)
    return compared


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_card_by_card(preset: str) -> None:
    rules = Rules.resolve(preset=preset)
    assert kernel_plays(rules)
    assert check_traces(rules, 12, 3) > 12 * 10  # many steps compared, not only the ends


def test_the_stock_runs_out_mid_round() -> None:
    """The kernel's refill (a round that outruns the deck, possible with re-deals) keeps
    out what the engine's ``on_table`` keeps out: the posts in hand and the first posts of
    the seats still to play, and puts every other card back in the stock."""
    from aceydeucey.sim.inbetween_kernel import _refill

    n, seats, dealer, kk = 5, 5, 1, 1  # seats 2, 3 have played; 4, 0, 1 wait
    deck = np.zeros(52, dtype=np.int64)
    cnt = np.zeros(15, dtype=np.int64)
    held = np.array([9, 9, 0], dtype=np.int64)
    first = np.array([14, 2, 3, 4, 14], dtype=np.int64)
    pos = _refill(deck, cnt, 4, held, 2, first, dealer, kk, seats, n, False)
    kept = [9, 9, 14, 14, 2]  # the posts in hand; the first posts of seats 4, 0, 1
    assert pos == len(kept)
    assert sorted(deck[:pos].tolist()) == sorted(kept)
    assert np.bincount(deck, minlength=15)[2:].tolist() == [4] * 13
    left = np.bincount(deck[pos:], minlength=15)
    assert cnt[2:].tolist() == left[2:].tolist()
    assert cnt[9] == 2 and cnt[14] == 2 and cnt[2] == 3 and cnt[3] == 4
    both = _refill(deck, cnt, 4, held, 1, first, dealer, kk, seats, n, True)
    assert both == 1 and cnt[9] == 3 and cnt[14] == 4  # both at one's turn: no first posts


#: Options the kernel plays, with values to draw (the presets' own among them).
OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "players": st.integers(2, 6),
    "starting_chips": st.sampled_from([10, 40, 100]),
    "ante": st.integers(1, 3),
    "ante_each_round": st.booleans(),
    "rounds": st.integers(1, 5),
    "decks": st.integers(1, 2),
    "post_multiplier": st.integers(1, 3),
    "ace_pair_multiplier": st.sampled_from([0, 1, 4]),
    "stake_cap": st.sampled_from(["cover", "chips"]),
    "min_stake": st.sampled_from(["one", "ante"]),
    "first_round_limit": st.sampled_from(["pot", "half-pot", "ante"]),
    "round_limits": st.sampled_from([(), (2, 5)]),
    "empty_pot": st.sampled_from(["end", "replenish"]),
    "deal": st.sampled_from(["first-around", "both-at-turn"]),
    "pairs": st.sampled_from(["bet", "win", "push", "redeal", "higher-lower"]),
    "adjacent": st.sampled_from(["bet", "lose", "push", "redeal"]),
    "pair_match_multiplier": st.integers(1, 3),
    "ace_third_loses": st.booleans(),
    "post_fee": st.integers(0, 2),
    "ante_back": st.booleans(),
    "spread_pays": st.sampled_from([(5, 4, 2, 1), (6, 3, 2, 1)]),
    "trips_pays": st.sampled_from([11, 5]),
    "bank": st.sampled_from([50, 1000]),
}


@st.composite
def kernel_rules(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(PRESET_NAMES))
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=6, unique=True))
    options: dict[str, Any] = {}
    for name in names:  # each option in turn, kept where the rules accept it
        value = draw(OPTIONS[name])
        try:
            Rules.resolve(preset=preset, **options, **{name: value})
        except RulesError:  # contradictory or moot beside the others: the engine refuses it
            continue
        options[name] = value
    return Rules.resolve(preset=preset, **options)


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=kernel_rules(), seed=st.integers(0, 50))
def test_drawn_options_card_by_card(rules: Rules, seed: int) -> None:
    assume(kernel_plays(rules))
    check_traces(rules, 4, seed)
