"""A vectorised In-Between session simulator: many whole sessions in one Numba kernel.

Each session plays the rules the reference engine (``aceydeucey.inbetween``) plays, with
its own shuffled deck(s), and every seat's strategy decided inside the kernel:

>>> from aceydeucey.inbetween.rules import Rules
>>> batch = play_sessions(Rules.resolve(players=3), ("ev", "kelly", "random"), 100, seed=1)
>>> batch.sessions, int(batch.hands.sum()) > 0
(100, True)
>>> bool((batch.chips.sum(axis=1) + batch.pot == 300).all())  # chips are conserved
True

What it covers: the ``guide`` preset's game (a shared pot, the first card dealt round
the table, a second card at one's turn, a stake or a pass, the third card, a reshuffle
every round; sessions end after ``rounds`` rounds, when the pot is emptied or when a
seat cannot ante) with these options free: ``players``, ``dealer`` (a seat),
``starting_chips``, ``ante``, ``ante_each_round``, ``rounds``, ``decks``,
``post_multiplier``, ``stake_cap``, ``min_stake``, ``first_round_limit`` and
``round_limits``.  Any other option away from the guide's value (the ``banker``,
``sheets``, ``red-dog`` and ``three-posts`` presets among them) raises
:class:`~aceydeucey.core.errors.RulesError` naming it (:func:`check_supported`).

Strategies (``STRATEGY_NAMES``), the same decisions as the agents of the same names:
``random`` (uniform over the legal actions: a pass or each stake), ``ev``
(``inbetween.bots.ExpectedValueBot``: the largest stake when the exact expected value of
the cards still in the stock is positive, else a pass), ``kelly``, ``cautious`` and
``session`` (``inbetween.strategies``; ``session`` in ``inbetween_bots``, its search in
``inbetween_session``).
In a guide session every card dealt is face up, so the cards a counting bot has not seen
are exactly the stock.

Randomness: session ``g`` of a run with seed ``s`` has its own generator (SplitMix64,
Steele, Lea and Flood 2014, seeded from ``s`` and ``g``), whose draws below ``k`` are
exact (Lemire's multiply-and-reject on 32-bit words).  Each card is one draw: the deck
is shuffled lazily (Fisher-Yates one position at a time), which is a uniform shuffle of
the whole deck; ``random`` seats draw their action from the same generator.  So
session ``g`` is the same whatever the chunking or the number of threads.

Exact cross-checks: ``play_sessions(..., decks=D)`` deals the ranks ``D[g, r]`` in that
order in round ``r`` of session ``g`` instead of shuffling (``deck_orders`` makes such
orders with the cards behind them), so the engine can be fed the same cards
(``tests/sim/``).

A hand is one player's turn (posts, a decision and, after a stake, a third card).

Every session ends: after at most ``rounds * players`` hands (a guard in the kernel
stops one that would play more, ``sim.hand_limit``), and a session whose pot or a seat's
chips pass :data:`CHIP_LIMIT` (possible only under ``stake_cap="none"``, where debts grow
the pot) stops with ``RulesError("sim.chip_limit")`` instead of overflowing.  Runs of
many sessions, their exact totals and the figures: ``sim.inbetween_runs``.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from aceydeucey import kernels
from aceydeucey.core.errors import ArgumentError, RulesError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.inbetween.strategies import CAUTIOUS_SHARE, CAUTIOUS_SPREAD
from aceydeucey.sim.inbetween_rng import CHIP_LIMIT, _below, _grows, _kelly, _seed
from aceydeucey.sim.inbetween_session import _session_stake

__all__ = [
    "CHIP_LIMIT",
    "ENDINGS",
    "OUTCOMES",
    "STRATEGY_NAMES",
    "SUPPORTED_OPTIONS",
    "SessionBatch",
    "check_supported",
    "deck_orders",
    "play_sessions",
    "raw_draws",
    "warm_up",
]

#: Strategies the kernel plays, by code (their index).
STRATEGY_NAMES = ("random", "ev", "kelly", "cautious", "session")
RANDOM, EV, KELLY, CAUTIOUS, SESSION = range(5)
#: How sessions end (``SessionBatch.ended``), as the engine's termination codes.
ENDINGS = ("session.rounds_played", "session.pot_emptied", "session.cannot_ante")
#: What became of a hand (``SessionBatch.tally``'s last axis).
OUTCOMES = ("pass", "inside", "outside", "post")
PASS, INSIDE, OUTSIDE, POST = range(4)

#: Options the kernel reads; every other one must keep the guide's value.
SUPPORTED_OPTIONS = (
    "preset",
    "players",
    "dealer",
    "starting_chips",
    "ante",
    "ante_each_round",
    "rounds",
    "decks",
    "post_multiplier",
    "stake_cap",
    "min_stake",
    "first_round_limit",
    "round_limits",
)
#: The most chips a session may start with in all (``starting_chips`` times ``players``).
MAX_CHIPS_IN_PLAY = 10**6
#: Codes of a session stopped by a guard (``play_sessions`` raises for them).
CHIP_LIMIT_PASSED = 3
HAND_LIMIT = 4

IntArray = npt.NDArray[np.int64]

_CAPS = {"cover": 0, "chips": 1, "none": 2}
_FIRST_LIMITS = {"pot": 0, "half-pot": 1, "ante": 2}


@functools.cache
def _guide() -> Rules:
    return Rules.resolve(preset="guide")


def check_supported(rules: Rules) -> None:
    """Raise ``RulesError("sim.unsupported_option")`` for an option the kernel does not play."""
    guide = _guide()
    for f in dataclasses.fields(Rules):
        value = getattr(rules, f.name)
        if f.name not in SUPPORTED_OPTIONS and value != getattr(guide, f.name):
            raise RulesError(
                "sim.unsupported_option",
                option=f.name,
                value=str(value),
                supported=", ".join(SUPPORTED_OPTIONS[1:]),
            )
    if rules.dealer == "draw":
        raise RulesError(
            "sim.unsupported_option",
            option="dealer",
            value="draw",
            supported=", ".join(SUPPORTED_OPTIONS[1:]),
        )
    if rules.starting_chips * rules.players > MAX_CHIPS_IN_PLAY:
        raise RulesError(
            "sim.too_many_chips",
            chips=rules.starting_chips * rules.players,
            limit=MAX_CHIPS_IN_PLAY,
        )


@njit(parallel=True, cache=True)
def _play(  # pragma: no cover - compiled
    first_session: int,
    seed: np.uint64,
    n: int,
    start: int,
    ante: int,
    ante_every: bool,
    rounds: int,
    ndecks: int,
    k: int,
    cap: int,
    min_ante: bool,
    first_limit: int,
    round_limits: IntArray,
    dealer0: int,
    codes: IntArray,
    rotate: bool,
    given: npt.NDArray[np.int8],
    limit: int,
    max_hands: int,
    blocks: int,
    chips: IntArray,
    pot_out: IntArray,
    hands_out: IntArray,
    end_out: IntArray,
    tally: npt.NDArray[np.int32],
) -> None:
    sessions = chips.shape[0]
    size = 52 * ndecks
    use_given = given.shape[0] > 0
    for b in prange(blocks):
        deck = np.empty(size, np.int64)
        sorted_deck = np.empty(size, np.int64)
        for i in range(size):
            sorted_deck[i] = i // (4 * ndecks) + 2
        own = np.empty(n, np.int64)  # each seat's strategy in the session
        params = np.array(
            [n, ante, ante_every, rounds, ndecks, k, cap, min_ante, first_limit], np.int64
        )
        cnt = np.zeros(15, np.int64)
        first = np.zeros(n, np.int64)
        lo_g = b * sessions // blocks
        hi_g = (b + 1) * sessions // blocks
        for g in range(lo_g, hi_g):
            gid = first_session + g
            state = _seed(seed, gid)
            deck[:] = sorted_deck  # each session starts from the sorted deck: reproducible
            shift = gid % n if rotate else 0
            for s in range(n):
                own[s] = codes[s + shift - n if s + shift >= n else s + shift]
            for s in range(n):
                chips[g, s] = start
            pot = 0
            dealer = dealer0
            rnd = 0
            hands = 0
            end = -1
            while end < 0:
                if rnd >= rounds:
                    end = 0
                    break
                if ante > 0 and (ante_every or rnd == 0):
                    short = False
                    for s in range(n):
                        if chips[g, s] < ante:
                            short = True
                    if short:
                        end = 2
                        break
                    for s in range(n):
                        chips[g, s] -= ante
                    pot += ante * n
                rnd += 1
                for r in range(2, 15):
                    cnt[r] = 4 * ndecks
                pos = 0
                seat = dealer
                for _ in range(n):
                    seat = 0 if seat == n - 1 else seat + 1
                    if use_given:
                        c = np.int64(given[g, rnd - 1, pos])
                    else:
                        state, j = _below(state, size - pos)
                        j += pos
                        c = deck[j]
                        deck[j] = deck[pos]
                        deck[pos] = c
                    pos += 1
                    cnt[c] -= 1
                    first[seat] = c
                seat = dealer
                for kk in range(n):
                    if hands >= max_hands:  # a guard: no session plays past it
                        end = HAND_LIMIT
                        break
                    seat = 0 if seat == n - 1 else seat + 1
                    a = first[seat]
                    if use_given:
                        c = np.int64(given[g, rnd - 1, pos])
                    else:
                        state, j = _below(state, size - pos)
                        j += pos
                        c = deck[j]
                        deck[j] = deck[pos]
                        deck[pos] = c
                    pos += 1
                    cnt[c] -= 1
                    hands += 1
                    lo = min(a, c)
                    hi = max(a, c)
                    low = ante if min_ante else 1
                    high = pot
                    if rnd == 1 and first_limit == 1:
                        high = min(high, pot // 2)
                    elif rnd == 1 and first_limit == 2:
                        high = min(high, ante)
                    if rnd <= round_limits.shape[0]:
                        high = min(high, round_limits[rnd - 1])
                    have = chips[g, seat]
                    if cap == 0:
                        if have < high * k:  # divide only when the cover binds
                            high = max(have, 0) // k
                    elif cap == 1:
                        high = min(high, max(have, 0))
                    low = max(low, 1)
                    stake = 0
                    if high >= low:
                        strategy = own[seat]
                        if strategy == 0:
                            state, r = _below(state, high - low + 2)
                            stake = 0 if r == 0 else low + r - 1
                        elif strategy == 3:
                            if hi - lo - 1 >= CAUTIOUS_SPREAD:
                                stake = max(low, min(high, have // CAUTIOUS_SHARE))
                        elif strategy == 4:
                            stake = _session_stake(
                                chips[g],
                                pot,
                                rnd,
                                dealer,
                                kk,
                                seat,
                                first,
                                cnt,
                                lo,
                                hi,
                                low,
                                high,
                                params,
                                round_limits,
                            )
                        else:
                            total = size - pos
                            ins = 0
                            for r in range(lo + 1, hi):
                                ins += cnt[r]
                            post = cnt[lo] if lo == hi else cnt[lo] + cnt[hi]
                            out = total - ins - post
                            if ins - out - k * post > 0:
                                if strategy == 1:
                                    stake = high
                                else:
                                    stake = min(_kelly(ins, out, post, k, have), high)
                                    if stake < low:
                                        stake = low if _grows(ins, out, post, k, have, low) else 0
                    if stake == 0:
                        tally[g, seat, 0] += 1
                        continue
                    if use_given:
                        t = np.int64(given[g, rnd - 1, pos])
                    else:
                        state, j = _below(state, size - pos)
                        j += pos
                        t = deck[j]
                        deck[j] = deck[pos]
                        deck[pos] = t
                    pos += 1
                    cnt[t] -= 1
                    if lo < t < hi:
                        m = 1
                        tally[g, seat, 1] += 1
                    elif t in (lo, hi):
                        m = -k
                        tally[g, seat, 3] += 1
                    else:
                        m = -1
                        tally[g, seat, 2] += 1
                    chips[g, seat] += m * stake
                    pot -= m * stake
                    if pot <= 0:
                        end = 1
                        break
                    if pot > limit or chips[g, seat] > limit or chips[g, seat] < -limit:
                        end = CHIP_LIMIT_PASSED
                        break
                dealer = 0 if dealer == n - 1 else dealer + 1
            pot_out[g] = pot
            hands_out[g] = hands
            end_out[g] = end


@njit(parallel=True, cache=True)
def _raw(
    seed: np.uint64, streams: int, draws: int, size: int, blocks: int
) -> int:  # pragma: no cover
    """The generator alone: ``draws`` draws below ``size`` (and down) in each stream."""
    total = 0
    for b in prange(blocks):
        acc = 0
        for g in range(b * streams // blocks, (b + 1) * streams // blocks):
            state = _seed(seed, g)
            for i in range(draws):
                state, j = _below(state, size - i % size)
                acc += j
        total += acc
    return total


# -- the Python side ------------------------------------------------------------------------

#: holds the outcome of the kernels' build once :func:`play_sessions` has asked for it
_BUILT: list[bool] = []


def warm_up() -> None:
    """Compile the kernels (or load them from Numba's cache) by calling each once.

    The function of ``aceydeucey.kernels``' target ``inbetween``, run by its build
    process: one short session of every preset the simulator plays (a preset it
    refuses is skipped), one with given decks, and the generator alone.
    """
    from aceydeucey.inbetween.rules import PRESET_NAMES

    for preset in PRESET_NAMES:
        try:
            rules = Rules.resolve(preset=preset)
            play_sessions(rules, [STRATEGY_NAMES[s % 5] for s in range(rules.players)], 2)
        except RulesError:
            continue
    rules = Rules.resolve(players=len(STRATEGY_NAMES))
    play_sessions(rules, STRATEGY_NAMES, 1, decks=deck_orders(rules, 1)[0])
    raw_draws(8, 8)


def _blocks(sessions: int) -> int:
    """Work blocks for the threads (a few per thread, so that uneven sessions even out)."""
    return max(1, min(sessions, numba.get_num_threads() * 8))


@dataclass(frozen=True)
class SessionBatch:
    """Sessions played by :func:`play_sessions` (row ``g``: session ``first + g``)."""

    rules: Rules
    strategies: tuple[str, ...]
    first: int
    #: (G, N) each seat's chips at the end
    chips: IntArray
    #: (G,) the pot at the end (shared equally in the balances)
    pot: IntArray
    #: (G,) hands (player turns) played
    hands: IntArray
    #: (G,) index into ``ENDINGS``
    ended: IntArray
    #: (G, N, 4) hands of each seat by ``OUTCOMES``
    tally: npt.NDArray[np.int32]
    #: (G, N) index into ``strategies`` of the strategy at each seat
    seat_strategy: IntArray
    seconds: float

    @property
    def sessions(self) -> int:
        return int(self.chips.shape[0])

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
) -> SessionBatch:
    """Play sessions ``first .. first + sessions - 1`` of the run with ``seed``.

    ``strategies`` names one strategy per seat; with ``rotate`` session ``g`` seats
    strategy ``(s + g) % N`` at seat ``s`` (each strategy takes every seat in turn, so no
    strategy keeps the last deal).  ``decks`` (shape ``(sessions, rounds, 52 * decks)``,
    ranks 2..14) replaces the shuffles; see :func:`deck_orders`.

    Two guards stop a session inside the kernel rather than let it run on: more than
    ``max_hands`` hands (by default ``rounds * players``, the most the rules allow, so
    only a defect can reach it) raises ``ArgumentError("sim.hand_limit")``; a pot or a
    seat's chips beyond :data:`CHIP_LIMIT` raises ``RulesError("sim.chip_limit")``.

    The first call after a fresh install waits for the kernels' compilation, which runs
    in a separate process and says so on the terminal (``aceydeucey.kernels``).
    """
    if not _BUILT:
        _BUILT.append(kernels.build("inbetween"))
    check_supported(rules)
    n = rules.players
    if len(strategies) != n:
        raise ArgumentError("sim.strategy_count", players=n, strategies=len(strategies))
    if sessions < 1:
        raise ArgumentError("sim.bad_sessions", sessions=sessions)
    codes = _codes(strategies)
    size = 52 * rules.decks
    if decks is None:
        given = np.zeros((0, 1, 1), dtype=np.int8)
    else:
        given = np.ascontiguousarray(decks, dtype=np.int8)
        if given.shape != (sessions, rules.rounds, size):
            raise ArgumentError(
                "sim.bad_decks",
                shape=str(given.shape),
                expected=str((sessions, rules.rounds, size)),
            )
    chips = np.zeros((sessions, n), dtype=np.int64)
    pot = np.zeros(sessions, dtype=np.int64)
    hands = np.zeros(sessions, dtype=np.int64)
    ended = np.zeros(sessions, dtype=np.int64)
    tally = np.zeros((sessions, n, 4), dtype=np.int32)
    dealer = rules.dealer if isinstance(rules.dealer, int) else 0
    most = rules.rounds * n if max_hands is None else max_hands
    began = time.perf_counter()
    _play(
        first,
        np.uint64(seed % (1 << 64)),
        n,
        rules.starting_chips,
        rules.ante,
        rules.ante_each_round,
        rules.rounds,
        rules.decks,
        rules.post_multiplier,
        _CAPS[rules.stake_cap],
        rules.min_stake == "ante",
        _FIRST_LIMITS[rules.first_round_limit],
        np.array(rules.round_limits, dtype=np.int64),
        dealer,
        codes,
        rotate,
        given,
        CHIP_LIMIT,
        most,
        _blocks(sessions),
        chips,
        pot,
        hands,
        ended,
        tally,
    )
    seconds = time.perf_counter() - began
    _check_guards(rules, ended, first, most)
    g = np.arange(first, first + sessions, dtype=np.int64)[:, None]
    seats = np.arange(n, dtype=np.int64)[None, :]
    seat_strategy = (seats + g) % n if rotate else np.broadcast_to(seats, (sessions, n)).copy()
    return SessionBatch(
        rules, tuple(strategies), first, chips, pot, hands, ended, tally, seat_strategy, seconds
    )


def _check_guards(rules: Rules, ended: IntArray, first: int, most: int) -> None:
    """Raise for the first session a guard of the kernel stopped (see :func:`play_sessions`)."""
    stopped = np.flatnonzero(ended >= CHIP_LIMIT_PASSED)
    if not stopped.size:
        return
    g = int(stopped[0])
    if ended[g] == HAND_LIMIT:
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
    reads (``decks=``).
    """
    rng = np.random.default_rng(seed)
    size = 52 * rules.decks
    base = np.tile(np.arange(52, dtype=np.int16), rules.decks)
    cards = np.empty((sessions, rules.rounds, size), dtype=np.int16)
    for g in range(sessions):
        for r in range(rules.rounds):
            cards[g, r] = rng.permutation(base)
    ranks = (cards // 4 + 2).astype(np.int8)
    return ranks, cards


def raw_draws(draws_per_stream: int, streams: int, size: int = 52, seed: int = 0) -> float:
    """Seconds the kernel's generator takes alone for the same kind of draws (benchmarks)."""
    _raw(np.uint64(seed), 8, 8, size, 8)  # compiled before the clock starts
    began = time.perf_counter()
    _raw(np.uint64(seed), streams, draws_per_stream, size, _blocks(streams))
    return time.perf_counter() - began
