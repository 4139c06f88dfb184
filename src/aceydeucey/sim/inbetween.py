"""A vectorised In-Between session simulator: many whole sessions in one Numba kernel.

Each session plays the rules the reference engine (``aceydeucey.inbetween``) plays, with
its own shuffled deck(s), and every seat's strategy decided inside the kernel:

>>> from aceydeucey.inbetween.rules import Rules
>>> batch = play_sessions(Rules.resolve(players=3), ("ev", "kelly", "random"), 100, seed=1)
>>> batch.sessions, int(batch.hands.sum()) > 0
(100, True)
>>> bool((batch.chips.sum(axis=1) + batch.pot == 300).all())  # chips are conserved
True

Every preset and option the engine plays is played.  The compiled kernel
(``sim.inbetween_kernel``, reading the rules as the integer block and the payout tables of
``sim.inbetween_params``) plays all five presets (``guide``, ``banker``, ``three-posts``,
``sheets``, ``red-dog``) and every option at any value but these: the draw for the deal
(``dealer="draw"``), face-down hands (``hidden``, ``deal="both-around"``), ace calls
(``aces`` other than ``high``), split pairs, the deck-out reshuffles, the passed card
(``passed_card="next-post"``) and the ante to play.  Those are played by the engine itself
(``sim.inbetween_engine``): the same results, hundreds of times slower, and ``simulate``
says so.  ``kernel_plays`` says which path a rule set takes.

Strategies (``STRATEGY_NAMES``), the same decisions as the agents of the same names:
``random`` (uniform over the legal actions: a pass or each stake), ``ev``
(``inbetween.bots.ExpectedValueBot``: the largest stake when the exact expected value of
the cards still in the stock is positive, else a pass; the smallest on a compulsory bet),
``kelly``, ``cautious`` and ``session`` (``inbetween.strategies``; ``session`` in
``inbetween_bots``, its search in ``inbetween_session``, which models the guide's game:
under other rules the ``session`` strategy is ``ev``).  Every card the kernel deals is
face up, so the cards a counting bot has not seen are exactly the stock.

Randomness: session ``g`` of a run with seed ``s`` has its own generator (SplitMix64,
Steele, Lea and Flood 2014, seeded from ``s`` and ``g``), whose draws below ``k`` are
exact (Lemire's multiply-and-reject on 32-bit words).  Each card is one draw: the deck
is shuffled lazily (Fisher-Yates one position at a time), which is a uniform shuffle of
the whole deck; ``random`` seats draw their action from the same generator.  So
session ``g`` is the same whatever the chunking or the number of threads, and so are the
totals the kernel counts (exact integers).

Exact cross-checks: ``play_sessions(..., decks=D)`` deals the ranks ``D[g, r]`` in that
order in round ``r`` of session ``g`` instead of shuffling (``deck_orders`` makes such
orders with the cards behind them), so the engine can be fed the same cards
(``tests/sim/``).

A hand is one player's decision settled (a pass, or a bet's third card; three posts have
two a turn; at Red Dog each seat's bet of a round).

Every session ends: after at most ``inbetween_params.hand_limit`` hands (a guard in the
kernel stops one that would play more, ``sim.hand_limit``), and a session whose pot or a
seat's chips pass :data:`CHIP_LIMIT` (possible only under ``stake_cap="none"``, where
debts grow the pot) stops with ``RulesError("sim.chip_limit")`` instead of overflowing.
Runs of many sessions, their exact totals and the figures: ``sim.inbetween_runs``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt

from aceydeucey import kernels
from aceydeucey.core.errors import ArgumentError, RulesError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween_engine import play_on_engine
from aceydeucey.sim.inbetween_kernel import (
    CARRY_BITS,
    ENDINGS,
    HAND_LIMIT,
    STRATEGY_NAMES,
    TRACE_HEAD,
    _play,
    _raw,
    _totals,
)
from aceydeucey.sim.inbetween_params import OUTCOMES, encode, hand_limit, kernel_refusal
from aceydeucey.sim.inbetween_rng import CHIP_LIMIT

__all__ = [
    "CHIP_LIMIT",
    "ENDINGS",
    "OUTCOMES",
    "STRATEGY_NAMES",
    "SessionBatch",
    "Totals",
    "deck_orders",
    "kernel_plays",
    "play_sessions",
    "raw_draws",
    "session_rounds",
    "warm_up",
]

IntArray = npt.NDArray[np.int64]


def kernel_plays(rules: Rules) -> bool:
    """Whether the compiled kernel plays ``rules`` (else the engine does: the slow path)."""
    return kernel_refusal(rules) is None


def session_rounds(rules: Rules) -> int:
    """The most rounds a session deals (every dealer's game's under ``banking="dealer"``)."""
    games = rules.total_dealer_games if rules.banking == "dealer" else 1
    return rules.rounds * games


# -- the Python side ------------------------------------------------------------------------

#: holds the outcome of the kernels' build once :func:`play_sessions` has asked for it
_BUILT: list[bool] = []


def warm_up() -> None:
    """Compile the kernels (or load them from Numba's cache) by calling each once.

    The function of ``aceydeucey.kernels``' target ``inbetween``, run by its build
    process: one short session of every preset the kernel plays, one with given decks,
    the totals of sessions played elsewhere, and the generator alone.
    """
    from aceydeucey.inbetween.rules import PRESET_NAMES

    for preset in PRESET_NAMES:
        rules = Rules.resolve(preset=preset)
        if kernel_plays(rules):
            play_sessions(rules, [STRATEGY_NAMES[s % 5] for s in range(rules.players)], 2)
    rules = Rules.resolve(players=len(STRATEGY_NAMES))
    play_sessions(rules, STRATEGY_NAMES, 1, decks=deck_orders(rules, 1)[0], keep=False)
    b = play_sessions(rules, STRATEGY_NAMES, 1)
    totals_of(STRATEGY_NAMES, b.chips, b.pot, b.hands, b.ended, b.tally, b.seat_strategy)
    raw_draws(8, 8)


def _blocks(sessions: int) -> int:
    """Work blocks for the threads (a few per thread, so that uneven sessions even out)."""
    return max(1, min(sessions, numba.get_num_threads() * 8))


@dataclass(frozen=True)
class Totals:
    """Exact totals of a batch by strategy (``names``: the distinct strategies, in order):
    ``seats``, ``balance`` (sums of ``players * balance``), ``balance2`` (of its square),
    ``ties[i][t]`` (seat-sessions leading among ``t`` seats), ``outcomes[i]`` (hands by
    ``OUTCOMES``), ``ended`` (sessions by ``ENDINGS``) and ``hands``."""

    names: tuple[str, ...]
    seats: tuple[int, ...]
    balance: tuple[int, ...]
    balance2: tuple[int, ...]
    ties: tuple[tuple[int, ...], ...]
    outcomes: tuple[tuple[int, ...], ...]
    ended: tuple[int, ...]
    hands: int

    @classmethod
    def from_blocks(
        cls, names: tuple[str, ...], sums: IntArray, ties: IntArray, outs: IntArray, ends: IntArray
    ) -> Totals:
        total = sums.sum(axis=0)
        high = [int(h) for h in sums[:, :, 2].sum(axis=0).tolist()]
        low = [sum(int(x) for x in col) for col in sums[:, :, 3].T.tolist()]
        ended = ends.sum(axis=0).tolist()
        return cls(
            names,
            tuple(int(x) for x in total[:, 0].tolist()),
            tuple(int(x) for x in total[:, 1].tolist()),
            tuple((h << CARRY_BITS) + lo for h, lo in zip(high, low, strict=True)),
            tuple(tuple(row) for row in ties.sum(axis=0).tolist()),
            tuple(tuple(row) for row in outs.sum(axis=0).tolist()),
            tuple(ended[: len(ENDINGS)]),
            int(ended[len(ENDINGS)]),
        )


@dataclass(frozen=True)
class SessionBatch:
    """Sessions played by :func:`play_sessions` (row ``g``: session ``first + g``; the
    per-session rows are empty when ``keep=False`` asked for the totals alone)."""

    rules: Rules
    strategies: tuple[str, ...]
    first: int
    #: (G, N) each seat's chips at the end
    chips: IntArray
    #: (G,) the pot at the end (shared equally in the balances)
    pot: IntArray
    #: (G,) hands (player decisions) played
    hands: IntArray
    #: (G,) index into ``ENDINGS``
    ended: IntArray
    #: (G, N, len(OUTCOMES)) hands of each seat by ``OUTCOMES``
    tally: npt.NDArray[np.int32]
    #: (G, N) index into ``strategies`` of the strategy at each seat
    seat_strategy: IntArray
    seconds: float
    totals: Totals
    count: int
    #: played by the engine (the slow path), not the kernel
    engine: bool = False
    #: (G, R, TRACE_HEAD + N) each session's events when asked (``play_sessions(trace=R)``)
    trace: IntArray | None = None

    @property
    def sessions(self) -> int:
        return self.count

    def balances(self) -> npt.NDArray[np.float64]:
        """(G, N) chips plus an equal share of the pot (the engine's ``balances``)."""
        result: npt.NDArray[np.float64] = self.chips + self.pot[:, None] / self.chips.shape[1]
        return result

    def win_credit(self) -> npt.NDArray[np.float64]:
        """(G, N) 1/k for each of the k seats sharing the highest balance, else 0."""
        best = self.chips.max(axis=1, keepdims=True)
        top = self.chips == best
        credit: npt.NDArray[np.float64] = top / top.sum(axis=1, keepdims=True)
        return credit


def _codes(strategies: Sequence[str]) -> IntArray:
    codes = []
    for name in strategies:
        if name not in STRATEGY_NAMES:
            raise ArgumentError(
                "sim.unknown_strategy", name=name, accepted=", ".join(STRATEGY_NAMES)
            )
        codes.append(STRATEGY_NAMES.index(name))
    return np.array(codes, dtype=np.int64)


def _distinct(strategies: Sequence[str]) -> tuple[tuple[str, ...], IntArray]:
    """The distinct strategies in order, and each seat's index among them."""
    names = tuple(dict.fromkeys(strategies))
    return names, np.array([names.index(s) for s in strategies], dtype=np.int64)


def _accumulators(blocks: int, m: int, n: int) -> tuple[IntArray, ...]:
    return (
        np.zeros((blocks, m, 4), dtype=np.int64),
        np.zeros((blocks, m, n + 1), dtype=np.int64),
        np.zeros((blocks, m, len(OUTCOMES)), dtype=np.int64),
        np.zeros((blocks, len(ENDINGS) + 1), dtype=np.int64),
    )


def play_sessions(
    rules: Rules,
    strategies: Sequence[str],
    sessions: int,
    *,
    seed: int = 0,
    first: int = 0,
    rotate: bool = True,
    decks: npt.NDArray[np.int8] | None = None,
    max_hands: int | None = None,
    keep: bool = True,
    trace: int = 0,
) -> SessionBatch:
    """Play sessions ``first .. first + sessions - 1`` of the run with ``seed``.

    ``strategies`` names one strategy per seat; with ``rotate`` session ``g`` seats
    strategy ``(s + g) % N`` at seat ``s`` (each strategy takes every seat in turn, so no
    strategy keeps the last deal).  ``decks`` (shape ``(sessions, session_rounds(rules),
    52 * decks)``, ranks 2..14) replaces the shuffles; see :func:`deck_orders`.
    ``keep=False`` counts the totals alone (``SessionBatch.totals``), without the
    per-session rows.  ``trace=R`` records each session's first ``R`` events
    (``SessionBatch.trace``: every card, every decision and the end, each with the chips
    and the pot before it; see ``inbetween_kernel._rec``), for the card-by-card
    cross-checks; without it the kernel records nothing.

    Two guards stop a session inside the kernel rather than let it run on: more than
    ``max_hands`` hands (by default ``inbetween_params.hand_limit``, the most the rules
    allow, so only a defect can reach it) raises ``ArgumentError("sim.hand_limit")``; a
    pot or a seat's chips beyond :data:`CHIP_LIMIT` raises ``RulesError("sim.chip_limit")``.

    The first call after a fresh install waits for the kernels' compilation, which runs
    in a separate process and says so on the terminal (``aceydeucey.kernels``).
    """
    if not _BUILT:
        _BUILT.append(kernels.build("inbetween"))
    n = rules.players
    if len(strategies) != n:
        raise ArgumentError("sim.strategy_count", players=n, strategies=len(strategies))
    if sessions < 1:
        raise ArgumentError("sim.bad_sessions", sessions=sessions)
    codes = _codes(strategies)
    names, which = _distinct(strategies)
    if not kernel_plays(rules):
        return _on_engine(rules, tuple(strategies), sessions, seed, first, rotate, decks, keep)
    size = 52 * rules.decks
    if decks is None:
        given = np.zeros((0, 1, 1), dtype=np.int8)
    else:
        given = np.ascontiguousarray(decks, dtype=np.int8)
        expected = (sessions, session_rounds(rules), size)
        if given.shape != expected:
            raise ArgumentError("sim.bad_decks", shape=str(given.shape), expected=str(expected))
    rows = sessions if keep else 0
    chips = np.zeros((rows, n), dtype=np.int64)
    pot = np.zeros(rows, dtype=np.int64)
    hands = np.zeros(rows, dtype=np.int64)
    ended = np.zeros(rows, dtype=np.int64)
    tally = np.zeros((rows, n, len(OUTCOMES)), dtype=np.int32)
    blocks = _blocks(sessions)
    sums, ties, outs, ends = _accumulators(blocks, len(names), n)
    guard = np.zeros((blocks, 2), dtype=np.int64)
    events = np.zeros((sessions if trace else 0, trace, TRACE_HEAD + n), dtype=np.int64)
    block = encode(rules)
    most = hand_limit(rules) if max_hands is None else max_hands
    began = time.perf_counter()
    _play(
        first, sessions, np.uint64(seed % (1 << 64)), block.params, block.pays, block.kinds,
        block.losses, block.policies, block.round_limits, codes, which, rotate, given,
        CHIP_LIMIT, most, blocks, chips, pot, hands, ended, tally, sums, ties, outs, ends, guard,
        events,
    )  # fmt: skip
    seconds = time.perf_counter() - began
    _check_guards(rules, guard, first, most)
    totals = Totals.from_blocks(names, sums, ties, outs, ends)
    return SessionBatch(
        rules, tuple(strategies), first, chips, pot, hands, ended, tally,
        _seating(first, rows, n, rotate), seconds, totals, sessions, trace=events,
    )  # fmt: skip


def _seating(first: int, sessions: int, n: int, rotate: bool) -> IntArray:
    """(G, N): the index into the strategies of the strategy at each seat."""
    g = np.arange(first, first + sessions, dtype=np.int64)[:, None]
    seats = np.arange(n, dtype=np.int64)[None, :]
    return (seats + g) % n if rotate else np.broadcast_to(seats, (sessions, n)).copy()


def _on_engine(
    rules: Rules,
    strategies: tuple[str, ...],
    sessions: int,
    seed: int,
    first: int,
    rotate: bool,
    decks: npt.NDArray[np.int8] | None,
    keep: bool,
) -> SessionBatch:
    """:func:`play_sessions` on the engine (``sim.inbetween_engine``): the slow path."""
    if decks is not None:
        option, value = kernel_refusal(rules) or ("", "")
        raise ArgumentError("sim.engine_decks", option=f"{option}={value}")
    n = rules.players
    seating = _seating(first, sessions, n, rotate)
    began = time.perf_counter()
    played = play_on_engine(
        rules, [[strategies[i] for i in row] for row in seating.tolist()], seed=seed, first=first
    )
    seconds = time.perf_counter() - began
    big = np.flatnonzero(
        (np.abs(played.chips) > CHIP_LIMIT).any(axis=1) | (np.abs(played.pot) > CHIP_LIMIT)
    )
    if big.size:
        raise RulesError(
            "sim.chip_limit", session=first + int(big[0]), limit=CHIP_LIMIT,
            stake_cap=rules.stake_cap,
        )  # fmt: skip
    totals = totals_of(
        strategies, played.chips, played.pot, played.hands, played.ended, played.tally, seating
    )
    rows = sessions if keep else 0
    return SessionBatch(
        rules, strategies, first, played.chips[:rows], played.pot[:rows], played.hands[:rows],
        played.ended[:rows], played.tally[:rows], seating[:rows], seconds, totals, sessions,
        engine=True,
    )  # fmt: skip


def totals_of(
    strategies: Sequence[str],
    chips: IntArray,
    pot: IntArray,
    hands: IntArray,
    ended: IntArray,
    tally: npt.NDArray[np.int32],
    seating: IntArray,
) -> Totals:
    """The kernel's totals of per-session rows played elsewhere (``SessionBatch``'s
    fields); ``seating[g, s]``: the index into ``strategies`` of seat ``s``'s strategy."""
    names, which = _distinct(strategies)
    sums, ties, outs, ends = _accumulators(1, len(names), chips.shape[1])
    _totals(
        chips, pot, hands, ended, np.ascontiguousarray(tally, dtype=np.int32),
        np.ascontiguousarray(which[seating]), sums[0], ties[0], outs[0], ends[0],
    )  # fmt: skip
    return Totals.from_blocks(names, sums, ties, outs, ends)


def _check_guards(rules: Rules, guard: IntArray, first: int, most: int) -> None:
    """Raise for the first session a guard of the kernel stopped (see :func:`play_sessions`)."""
    stopped = guard[guard[:, 0] >= 0]
    if not stopped.size:
        return
    g, code = (int(x) for x in stopped[np.argmin(stopped[:, 0])])
    if code == HAND_LIMIT:
        raise ArgumentError("sim.hand_limit", session=first + g, limit=most)
    raise RulesError(
        "sim.chip_limit", session=first + g, limit=CHIP_LIMIT, stake_cap=rules.stake_cap
    )


def deck_orders(
    rules: Rules, sessions: int, seed: int = 0
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int16]]:
    """Shuffled decks for every round of ``sessions`` sessions: (ranks, card indices).

    The card indices (into ``inbetween.shoe.CARDS``, a multi-deck shoe repeating them)
    are what an engine's chance source deals; the ranks are what :func:`play_sessions`
    reads (``decks=``).  A session deals at most ``session_rounds(rules)`` rounds.
    """
    rng = np.random.default_rng(seed)
    size = 52 * rules.decks
    rounds = session_rounds(rules)
    base = np.tile(np.arange(52, dtype=np.int16), rules.decks)
    cards = np.empty((sessions, rounds, size), dtype=np.int16)
    for g in range(sessions):
        for r in range(rounds):
            cards[g, r] = rng.permutation(base)
    ranks = (cards // 4 + 2).astype(np.int8)
    return ranks, cards


def raw_draws(draws_per_stream: int, streams: int, size: int = 52, seed: int = 0) -> float:
    """Seconds the kernel's generator takes alone for the same kind of draws (benchmarks)."""
    _raw(np.uint64(seed), 8, 8, size, 8)  # compiled before the clock starts
    began = time.perf_counter()
    _raw(np.uint64(seed), streams, draws_per_stream, size, _blocks(streams))
    return time.perf_counter() - began
