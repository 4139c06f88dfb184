"""The In-Between simulator's compiled kernel: whole sessions, and their totals, in Numba.

:func:`_play` plays sessions ``first .. first + count - 1`` of a run in parallel blocks
(``prange``), each session from its own generator (``sim.inbetween_rng``: SplitMix64
seeded from the run's seed and the session's number), so a session is the same whatever
the blocks or the threads.  The rules come as the block of ``sim.inbetween_params``
(no option is read by name here; the payouts, worst losses and pair/neighbour rules are
tables read off the engine's ``settle``).  Every session's totals are counted in the
kernel, per block (seat-sessions, balance sums, wins by ties, hands by outcome, endings);
the per-session rows are written only when asked (``chips_out`` non-empty).

A session (:func:`_session`): a shared pot, or a banker's pot (``banking="dealer"``: each
dealer's game the dealer banks the pot and the others play ``rounds`` rounds against the pot);
the antes; each round the first posts dealt round the table (or both at one's turn);
each hand the post fee, the pair/neighbour rule (a re-deal deals two new posts), a
decision (on a pair under ``pairs="higher-lower"`` a call, :func:`_decide_call`) and the
third card; under three posts a second, compulsory bet on the second gap; an emptied pot
ends the session, passes the deal or is replenished.  A round that outruns the deck
shuffles the used cards back, those on the table kept out (:func:`_refill`).  Red Dog
(``banking="house"``, :func:`_house_session`): every seat's ante rides on two common
posts; neighbours push or lose, a pair turns a third card (trips), any other spread is
announced and each seat stays or raises (:func:`_raise`) before the third card settles
every bet against the house's bank.

With a non-empty ``trace`` the kernel records each session's events (:func:`_rec`: every
card, every decision, the end, each with the pot, the bank and the chips before it), for
the card-by-card cross-check against the engine; without it, a branch per event.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from aceydeucey.inbetween.strategies import CAUTIOUS_SHARE, CAUTIOUS_SPREAD
from aceydeucey.inbetween.termination import Termination
from aceydeucey.sim.inbetween_params import (
    ANTE,
    ANTE_BACK,
    BANK,
    BANKER,
    BETWEEN,
    BOTH_AT_TURN,
    CALLS,
    CAP,
    DEALER,
    DEALER_GAMES,
    DEALER_PLAYS,
    DECKS,
    EMPTY,
    EMPTY_END,
    EMPTY_NEXT_DEALER,
    EVERY,
    FIRST,
    HIGHER,
    HOUSE,
    LOSE,
    LOWER,
    MIN_ANTE,
    PAIR_WIN,
    POST_FEE,
    PUSH,
    REDEAL,
    ROUNDS,
    SEARCH,
    SECOND,
    START,
    THREE,
    TRIPS,
    WIN,
    N,
)
from aceydeucey.sim.inbetween_rng import _below, _grows, _kelly, _seed
from aceydeucey.sim.inbetween_session import _session_stake

__all__ = ["ENDINGS", "GUARDS", "STRATEGY_NAMES"]

#: Strategies the kernel plays, by code (their index).
STRATEGY_NAMES = ("random", "ev", "kelly", "cautious", "session")
RANDOM, EV, KELLY, CAUTIOUS, SESSION = range(5)
#: How sessions end (``SessionBatch.ended``): the engine's termination codes.
ENDINGS: tuple[str, ...] = (
    Termination.ROUNDS_PLAYED,
    Termination.POT_EMPTIED,
    Termination.CANNOT_ANTE,
    Termination.CANNOT_REPLENISH,
    Termination.DEALER_GAMES_PLAYED,
    Termination.DEALER_CANNOT_BANK,
    Termination.DECK_OUT_TWICE,
    Termination.HOUSE_CANNOT_COVER,
)
(
    E_ROUNDS,
    E_POT,
    E_ANTE,
    E_REPLENISH,
    E_GAMES,
    E_BANK,
    _E_DECK,
    E_HOUSE,
) = range(len(ENDINGS))
#: Trace rows' kinds (``_rec``): a card dealt, a decision, the session's end.
T_CARD, T_DECIDE, T_END = range(1, 4)
#: Trace columns before the chips: kind, three values, the pot, the house's bank.
TRACE_HEAD = 6
#: Codes of a session stopped by a guard (``play_sessions`` raises for them).
CHIP_LIMIT_PASSED = 100
HAND_LIMIT = 101
GUARDS = (CHIP_LIMIT_PASSED, HAND_LIMIT)
#: Carry bits of the sums of squares (two int64 words: ``high << CARRY_BITS`` plus ``low``).
CARRY_BITS = 62

IntArray = npt.NDArray[np.int64]


@njit(inline="always")
def _card(
    state: np.uint64, deck: IntArray, pos: int, given: npt.NDArray[np.int8], g: int, rnd: int
) -> tuple[np.uint64, int]:  # pragma: no cover - compiled
    """The next card's rank: a lazy Fisher-Yates step (or the given deck's card)."""
    if given.shape[0] > 0:
        return state, int(given[g, rnd - 1, pos])
    state, j = _below(state, deck.shape[0] - pos)
    j += pos
    c = deck[j]
    deck[j] = deck[pos]
    deck[pos] = c
    return state, c


@njit(cache=True)
def _refill(
    deck: IntArray,
    cnt: IntArray,
    per_rank: int,
    held: IntArray,
    nh: int,
    first: IntArray,
    dealer: int,
    kk: int,
    seats: int,
    n: int,
    both: bool,
) -> int:  # pragma: no cover - compiled
    """The stock ran out mid-round: every card but those on the table (the posts ``held``,
    the first posts of the seats still to play) is shuffled back; the next position."""
    for r in range(2, 15):
        cnt[r] = per_rank
    for i in range(deck.shape[0]):
        deck[i] = i // per_rank + 2
    pos = 0
    keep = np.empty(nh + seats, np.int64)
    for i in range(nh):
        keep[i] = held[i]
    m = nh
    if not both:
        seat = dealer
        for q in range(seats):
            seat = 0 if seat == n - 1 else seat + 1
            if q > kk:
                keep[m] = first[seat]
                m += 1
    for i in range(m):  # the kept cards to the front: out of the stock
        for j in range(pos, deck.shape[0]):
            if deck[j] == keep[i]:
                deck[j] = deck[pos]
                deck[pos] = keep[i]
                break
        pos += 1
        cnt[keep[i]] -= 1
    return pos


@njit(inline="always")
def _rec(
    trace: IntArray,
    g: int,
    ti: int,
    kind: int,
    a: int,
    b: int,
    c: int,
    pot: int,
    bank: int,
    chips: IntArray,
) -> int:  # pragma: no cover - compiled
    """One event of session ``g``'s trace (row ``ti``; none recorded past the array's end):
    ``kind`` (:data:`T_CARD` a card of rank ``a``; :data:`T_DECIDE` seat ``a``'s decision,
    call ``b`` and stake ``c``; :data:`T_END`), then the pot, the house's bank and the
    chips, as they stand before the event."""
    if ti < trace.shape[1]:
        row = trace[g, ti]
        row[0] = kind
        row[1] = a
        row[2] = b
        row[3] = c
        row[4] = pot
        row[5] = bank
        for s in range(chips.shape[0]):
            row[6 + s] = chips[s]
    return ti + 1


@njit(inline="always")
def _session(  # pragma: no cover - compiled
    p: IntArray,
    pays: IntArray,
    kinds: IntArray,
    losses: IntArray,
    policies: IntArray,
    limits: IntArray,
    own: IntArray,
    state: np.uint64,
    deck: IntArray,
    cnt: IntArray,
    first: IntArray,
    chips: IntArray,
    won: IntArray,
    tally: IntArray,
    held: IntArray,
    given: npt.NDArray[np.int8],
    g: int,
    limit: int,
    max_hands: int,
    trace: IntArray,
) -> tuple[int, int, int]:
    """One session (see the module): ``chips`` and ``tally`` are its results; returns
    (the pot left, hands played, an index of ``ENDINGS`` or a guard's code).  ``held``
    (three cards: the posts on the table) is the block's buffer, as ``deck`` is: a
    session is a handful of hands, so an array allocated per session cost about a
    tenth of the simulator's time."""
    n = p[N]
    for s in range(n):
        chips[s] = p[START]
        won[s] = 0
        for o in range(tally.shape[1]):
            tally[s, o] = 0
    if p[HOUSE]:  # ``won`` holds the bets riding
        return _house_session(
            p, pays, kinds, policies, own, state, deck, cnt, chips, won, tally, given, g,
            max_hands, trace,
        )  # fmt: skip
    ante = p[ANTE]
    banker = p[BANKER] != 0
    three = p[THREE] != 0
    gaps = 2 if three else 1
    calls = p[CALLS] != 0
    rule = (ante, p[MIN_ANTE], p[FIRST], p[ANTE_BACK], p[CAP], p[SEARCH])
    fee_each = p[POST_FEE]
    both = p[BOTH_AT_TURN] != 0
    empty = p[EMPTY]
    seats = n if p[DEALER_PLAYS] else n - 1
    per_rank = 4 * p[DECKS]
    size = deck.shape[0]
    tracing = trace.shape[0] > 0
    ti = 0
    held[0] = held[1] = held[2] = 0
    pot = 0
    dealer = p[DEALER]
    rnd = 0
    hands = 0
    end = -1
    games = 0
    while end < 0:
        if banker:  # a dealer's game: the dealer banks the pot
            if games >= p[DEALER_GAMES]:
                end = E_GAMES
                break
            if chips[dealer] < p[BANK]:
                end = E_BANK
                break
            chips[dealer] -= p[BANK]
            pot += p[BANK]
        dealer_rounds = 0
        passed = False  # the deal passes (an emptied banker's pot)
        while end < 0 and not passed:
            if banker and dealer_rounds >= p[ROUNDS]:
                break
            if not banker and rnd >= p[ROUNDS]:
                end = E_ROUNDS
                break
            if ante > 0 and (p[EVERY] or rnd == 0):
                for s in range(n):
                    if (not banker or s != dealer) and chips[s] < ante:
                        end = E_ANTE
                if end >= 0:
                    break
                for s in range(n):
                    if not banker or s != dealer:
                        chips[s] -= ante
                        pot += ante
            rnd += 1
            dealer_rounds += 1
            for r in range(2, 15):
                cnt[r] = per_rank
            pos = 0
            if not both:
                seat = dealer
                for _ in range(seats):
                    seat = 0 if seat == n - 1 else seat + 1
                    state, c = _card(state, deck, pos, given, g, rnd)
                    if tracing:
                        ti = _rec(trace, g, ti, T_CARD, c, 0, 0, pot, 0, chips)
                    pos += 1
                    cnt[c] -= 1
                    first[seat] = c
            seat = dealer
            for kk in range(seats):
                seat = 0 if seat == n - 1 else seat + 1
                a = first[seat]
                b = 0
                c3 = 0
                nh = 0 if both else 1
                held[0] = a
                policy = REDEAL
                while policy == REDEAL:  # the posts, dealt again while the rule says so
                    need = 3 if three else 2
                    while nh < need:
                        if pos == size:
                            pos = _refill(
                                deck, cnt, per_rank, held, nh, first, dealer, kk, seats, n, both
                            )
                        state, c = _card(state, deck, pos, given, g, rnd)
                        if tracing:
                            ti = _rec(trace, g, ti, T_CARD, c, 0, 0, pot, 0, chips)
                        pos += 1
                        cnt[c] -= 1
                        held[nh] = c
                        nh += 1
                    a = held[0]
                    b = held[1]
                    c3 = held[2] if three else 0
                    if fee_each > 0:
                        fee = min(fee_each, max(chips[seat], 0))
                        chips[seat] -= fee
                        pot += fee
                    policy = policies[a, b]
                    nh = 0
                nh = 3 if three else 2
                for gap in range(gaps):
                    x = a if gap == 0 else b
                    y = b if gap == 0 else c3
                    policy = policies[x, y] if gap == 0 else 0
                    emptied = False
                    if policy == LOSE:
                        amount = min(ante, max(chips[seat], 0))
                        chips[seat] -= amount
                        pot += amount
                        continue
                    if policy == PUSH:
                        amount = min(ante, pot)
                        chips[seat] += amount
                        pot -= amount
                        emptied = pot <= 0 and empty != EMPTY_END
                    elif policy == WIN:
                        amount = min(p[PAIR_WIN], pot)
                        chips[seat] += amount
                        pot -= amount
                        emptied = pot <= 0
                    else:
                        if hands >= max_hands:  # a guard: no session plays past it
                            return pot, hands, HAND_LIMIT
                        hands += 1
                        bet = gap
                        if calls and x == y:
                            state, stake, bet = _decide_call(
                                p, rule, pays, losses, limits, own[seat], state, cnt, chips,
                                won, pot, rnd, seat, x,
                            )  # fmt: skip
                        else:
                            state, stake = _decide(
                                p, rule, pays, losses, limits, own[seat], state, cnt, first,
                                chips, won, pot, rnd, dealer, kk, seat, gap, x, y,
                            )  # fmt: skip
                        if tracing:
                            code = 0 if stake == 0 else 1 if bet < HIGHER else bet
                            ti = _rec(trace, g, ti, T_DECIDE, seat, code, stake, pot, 0, chips)
                        if stake == 0:
                            tally[seat, 0] += 1
                            continue
                        if pos == size:
                            pos = _refill(
                                deck, cnt, per_rank, held, nh, first, dealer, kk, seats, n, both
                            )
                        state, t = _card(state, deck, pos, given, g, rnd)
                        if tracing:
                            ti = _rec(trace, g, ti, T_CARD, t, 0, 0, pot, 0, chips)
                        pos += 1
                        cnt[t] -= 1
                        m = pays[bet, x, y, t]
                        tally[seat, kinds[bet, x, y, t]] += 1
                        chips[seat] += m * stake
                        pot -= m * stake
                        if m > 0:
                            won[seat] = 1
                        if pot > limit or chips[seat] > limit or chips[seat] < -limit:
                            return pot, hands, CHIP_LIMIT_PASSED
                        emptied = pot <= 0
                    if emptied:
                        if empty == EMPTY_END:
                            end = E_POT
                        elif empty == EMPTY_NEXT_DEALER:
                            passed = True
                        else:  # everyone antes again
                            for s in range(n):
                                if chips[s] < ante:
                                    end = E_REPLENISH
                            if end < 0:
                                for s in range(n):
                                    chips[s] -= ante
                                pot += ante * n
                        if end >= 0 or passed:
                            break
                if end >= 0 or passed:
                    break
            if not banker:
                dealer = 0 if dealer == n - 1 else dealer + 1
        if banker and end < 0:  # the dealer takes what is left; the deal passes left
            chips[dealer] += pot
            pot = 0
            dealer = 0 if dealer == n - 1 else dealer + 1
            games += 1
    if banker:  # the session's end: the dealer keeps the pot
        chips[dealer] += pot
        pot = 0
    if tracing:
        ti = _rec(trace, g, ti, T_END, 0, 0, 0, pot, 0, chips)
    return pot, hands, end


@njit(inline="always")
def _house_session(  # pragma: no cover - compiled
    p: IntArray,
    pays: IntArray,
    kinds: IntArray,
    policies: IntArray,
    own: IntArray,
    state: np.uint64,
    deck: IntArray,
    cnt: IntArray,
    chips: IntArray,
    bets: IntArray,
    tally: IntArray,
    given: npt.NDArray[np.int8],
    g: int,
    max_hands: int,
    trace: IntArray,
) -> tuple[int, int, int]:
    """A Red Dog session (``banking="house"``): each round every seat's ante rides on two
    common posts; neighbours push or lose, a pair turns a third card (trips), any other
    spread is announced, each seat stays or raises up to its ante, and the third card
    settles every bet at the spread's odds against the house's bank."""
    n = p[N]
    ante = p[ANTE]
    bank = p[BANK]
    per_rank = 4 * p[DECKS]
    tracing = trace.shape[0] > 0
    ti = 0
    rnd = 0
    hands = 0
    end = -1
    while end < 0:
        if rnd >= p[ROUNDS]:
            end = E_ROUNDS
            break
        for s in range(n):
            if chips[s] < ante:
                end = E_ANTE
        if end >= 0:
            break
        if bank < n * ante * p[HOUSE]:  # the worst the house may owe in one round
            end = E_HOUSE
            break
        for s in range(n):
            bets[s] = ante
            chips[s] -= ante
        rnd += 1
        for r in range(2, 15):
            cnt[r] = per_rank
        state, a = _card(state, deck, 0, given, g, rnd)
        if tracing:
            ti = _rec(trace, g, ti, T_CARD, a, 0, 0, 0, bank, chips)
        cnt[a] -= 1
        state, b = _card(state, deck, 1, given, g, rnd)
        if tracing:
            ti = _rec(trace, g, ti, T_CARD, b, 0, 0, 0, bank, chips)
        cnt[b] -= 1
        if hands + n > max_hands:  # a guard: no session plays past it
            return 0, hands, HAND_LIMIT
        hands += n
        policy = policies[a, b]
        if policy in (LOSE, PUSH):  # neighbours (or a pair without trips)
            for s in range(n):
                if policy == LOSE:
                    bank += bets[s]
                    tally[s, 2] += 1
                else:
                    chips[s] += bets[s]
                    tally[s, 4] += 1
            continue
        if policy != TRIPS:  # a spread: each seat stays or raises
            for seat in range(n):
                state, more = _raise(own[seat], state, pays[BETWEEN, a, b], cnt, chips[seat], ante)
                if tracing:
                    ti = _rec(trace, g, ti, T_DECIDE, seat, min(more, 1), more, 0, bank, chips)
                bets[seat] += more
                chips[seat] -= more
        state, t = _card(state, deck, 2, given, g, rnd)
        if tracing:
            ti = _rec(trace, g, ti, T_CARD, t, 0, 0, 0, bank, chips)
        cnt[t] -= 1
        m = pays[BETWEEN, a, b, t]
        kind = kinds[BETWEEN, a, b, t]
        for s in range(n):
            gain = m * bets[s]
            if gain >= 0:
                chips[s] += bets[s] + gain
            bank -= gain
            tally[s, kind] += 1
    if tracing:
        ti = _rec(trace, g, ti, T_END, 0, 0, 0, 0, bank, chips)
    return 0, hands, end


@njit(inline="always")
def _raise(
    strategy: int, state: np.uint64, row: IntArray, cnt: IntArray, have: int, ante: int
) -> tuple[np.uint64, int]:  # pragma: no cover - compiled
    """(the generator, the raise: 0 a stay) of ``strategy`` on Red Dog's spread paying
    ``row``, with ``have`` chips besides the riding ante; the raise is at most the ante."""
    top = min(ante, max(have, 0))
    if top == 0:
        return state, 0
    if strategy == RANDOM:
        state, r = _below(state, top + 1)
        return state, r
    if strategy == CAUTIOUS:
        return state, 0
    ev = _ev(row, cnt)
    if ev <= 0:
        return state, 0
    if strategy != KELLY:  # ev (and session, whose search models the guide's game only)
        return state, top
    ins = 0
    lose = 0
    pay = 1
    for t in range(2, 15):
        if row[t] > 0:
            ins += cnt[t]
            pay = row[t]
        elif row[t] < 0:
            lose += cnt[t]
    if lose == 0:
        return state, top
    wealth = have + ante  # the stake counts the riding ante
    lo = 0
    hi = wealth - 1  # the largest stake that cannot ruin
    while lo < hi:  # the largest stake where the expected log still grows
        s = (lo + hi + 1) // 2
        if ins * pay * (wealth - s) >= lose * (wealth + pay * s):
            lo = s
        else:
            hi = s - 1
    if lo < wealth - 1:
        gain = ins * np.log((wealth + pay * (lo + 1)) / (wealth + pay * lo))
        gain += lose * np.log((wealth - lo - 1) / (wealth - lo))
        if gain > 0:
            lo += 1
    stake = min(max(lo, ante), ante + top)
    return state, stake - ante


@njit(inline="always")
def _limits(
    rule: tuple[int, int, int, int, int, int],
    losses: IntArray,
    limits: IntArray,
    won: IntArray,
    have: int,
    pot: int,
    rnd: int,
    seat: int,
    bet: int,
    x: int,
    y: int,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """``settle.stake_limits`` for bet ``bet`` (an index of ``pays``) on posts ``x``, ``y``."""
    ante, min_ante, first_limit, ante_back, cap, _ = rule
    low = ante if (min_ante or bet == SECOND) else 1
    high = pot
    if rnd == 1 and first_limit == 1:
        high = min(high, pot // 2)
    elif rnd == 1 and first_limit == 2:
        high = min(high, ante)
    if ante_back and not won[seat]:
        high = min(high, ante)
    if rnd <= limits.shape[0]:
        high = min(high, limits[rnd - 1])
    if cap == 0:
        worst = losses[bet, x, y]
        if have < high * worst:  # divide only when the cover binds
            high = max(have, 0) // worst
    elif cap == 1:
        high = min(high, max(have, 0))
    return max(low, 1), high


@njit(inline="always")
def _kelly_bet(
    row: IntArray, k: int, cnt: IntArray, have: int, low: int, high: int, forced: bool
) -> int:  # pragma: no cover - compiled
    """Kelly's stake (0: a pass) on a favourable bet of per-card multiples ``row``."""
    ins = 0
    out = 0
    post = 0
    for t in range(2, 15):
        m = row[t]
        if m > 0:
            ins += cnt[t]
        elif m == -1:
            out += cnt[t]
        else:
            post += cnt[t]
    stake = min(_kelly(ins, out, post, k, have), high)
    if stake < low:
        stake = low if (forced or _grows(ins, out, post, k, have, low)) else 0
    return stake


@njit(inline="always")
def _ev(row: IntArray, cnt: IntArray) -> int:  # pragma: no cover - compiled
    """A one-chip stake's expected chips, times the cards in the stock."""
    ev = 0
    for t in range(2, 15):
        ev += row[t] * cnt[t]
    return ev


@njit(inline="always")
def _decide(  # pragma: no cover - compiled
    p: IntArray,
    rule: tuple[int, int, int, int, int, int],
    pays: IntArray,
    losses: IntArray,
    limits: IntArray,
    strategy: int,
    state: np.uint64,
    cnt: IntArray,
    first: IntArray,
    chips: IntArray,
    won: IntArray,
    pot: int,
    rnd: int,
    dealer: int,
    kk: int,
    seat: int,
    gap: int,
    x: int,
    y: int,
) -> tuple[np.uint64, int]:
    """(the generator, the stake: 0 a pass) of ``strategy`` on posts ``x``, ``y``;
    ``rule``: the block's ante, min_stake, first-round limit, ante back, cap and search."""
    have = chips[seat]
    low, high = _limits(rule, losses, limits, won, have, pot, rnd, seat, gap, x, y)
    if high < low:
        return state, 0
    forced = gap == 1  # three posts' second bet: no pass while a stake is affordable
    if strategy == SESSION and not rule[5]:
        strategy = EV  # the search models the guide's game only
    lo = min(x, y)
    hi = max(x, y)
    if strategy == RANDOM:
        if forced:
            state, r = _below(state, high - low + 1)
            return state, low + r
        state, r = _below(state, high - low + 2)
        return state, 0 if r == 0 else low + r - 1
    if strategy == CAUTIOUS:
        if forced or hi - lo - 1 >= CAUTIOUS_SPREAD:
            return state, max(low, min(high, have // CAUTIOUS_SHARE))
        return state, 0
    if strategy == SESSION:
        stake = _session_stake(
            chips, pot, rnd, dealer, kk, seat, first, cnt, lo, hi, low, high, p, limits
        )
        return state, stake
    row = pays[gap, x, y]
    if _ev(row, cnt) <= 0:
        return state, low if forced else 0
    if strategy == EV:
        return state, high
    return state, _kelly_bet(row, losses[gap, x, y], cnt, have, low, high, forced)


@njit(inline="always")
def _decide_call(  # pragma: no cover - compiled
    p: IntArray,
    rule: tuple[int, int, int, int, int, int],
    pays: IntArray,
    losses: IntArray,
    limits: IntArray,
    strategy: int,
    state: np.uint64,
    cnt: IntArray,
    chips: IntArray,
    won: IntArray,
    pot: int,
    rnd: int,
    seat: int,
    x: int,
) -> tuple[np.uint64, int, int]:
    """A pair under ``pairs="higher-lower"``: (the generator, the stake: 0 a pass, the
    call: ``HIGHER`` or ``LOWER``) of ``strategy``.  Both calls have the same limits (the
    same worst loss); ``session`` plays ``ev`` (its search models the guide's game)."""
    have = chips[seat]
    low, high = _limits(rule, losses, limits, won, have, pot, rnd, seat, HIGHER, x, x)
    if high < low:
        return state, 0, HIGHER
    if strategy == RANDOM:  # a pass, each stake called higher, each called lower
        span = high - low + 1
        state, r = _below(state, 2 * span + 1)
        if r == 0:
            return state, 0, HIGHER
        if r <= span:
            return state, low + r - 1, HIGHER
        return state, low + r - span - 1, LOWER
    if strategy == CAUTIOUS:  # a pair is no wide spread
        return state, 0, HIGHER
    up = _ev(pays[HIGHER, x, x], cnt)
    down = _ev(pays[LOWER, x, x], cnt)
    if strategy != KELLY:  # ev (and session): the better call's largest stake, ties higher
        if up <= 0 and down <= 0:
            return state, 0, HIGHER
        return state, high, HIGHER if up >= down else LOWER
    best = 0
    call = HIGHER
    best_ev = 0
    for bet in (HIGHER, LOWER):  # the call of higher EV that Kelly stakes on, ties higher
        ev = up if bet == HIGHER else down
        if ev <= 0:
            continue
        stake = _kelly_bet(pays[bet, x, x], losses[bet, x, x], cnt, have, low, high, False)
        if stake > 0 and (best == 0 or ev > best_ev):
            best = stake
            call = bet
            best_ev = ev
    return state, best, call


@njit(parallel=True, cache=True, error_model="numpy")
def _play(  # pragma: no cover - compiled
    first_session: int,
    count: int,
    seed: np.uint64,
    p: IntArray,
    pays: IntArray,
    kinds: IntArray,
    losses: IntArray,
    policies: IntArray,
    limits: IntArray,
    codes: IntArray,
    which: IntArray,
    rotate: bool,
    given: npt.NDArray[np.int8],
    limit: int,
    max_hands: int,
    blocks: int,
    chips_out: IntArray,
    pot_out: IntArray,
    hands_out: IntArray,
    end_out: IntArray,
    tally_out: npt.NDArray[np.int32],
    sums: IntArray,
    ties: IntArray,
    outs: IntArray,
    ends: IntArray,
    guard: IntArray,
    trace: IntArray,
) -> None:
    """Sessions ``first_session ..`` (``count``) in ``blocks`` blocks; per block ``b`` the
    totals by accumulator strategy ``which[code]``: ``sums[b, i]`` = seat-sessions, the sum
    of ``players * balance``, its square (high and low words), ``ties[b, i, t]`` leads
    shared by ``t`` seats, ``outs[b, i, o]`` hands by outcome, ``ends[b, e]`` endings and
    ``ends[b, -1]`` hands; ``guard[b]`` the first session a guard stopped (-1: none)
    and the guard's code; ``trace[g]`` (when not empty) session ``g``'s events (``_rec``)."""
    n = p[N]
    size = 52 * p[DECKS]
    keep = chips_out.shape[0] > 0
    endings = len(ENDINGS)
    for b in prange(blocks):
        deck = np.empty(size, np.int64)
        sorted_deck = np.empty(size, np.int64)
        for i in range(size):
            sorted_deck[i] = i // (4 * p[DECKS]) + 2
        own = np.empty(n, np.int64)
        mine = np.empty(n, np.int64)
        cnt = np.zeros(15, np.int64)
        first = np.zeros(n, np.int64)
        chips = np.empty(n, np.int64)
        won = np.empty(n, np.int64)
        tally = np.empty((n, outs.shape[2]), np.int64)
        held = np.zeros(3, np.int64)
        guard[b, 0] = -1
        for g in range(b * count // blocks, (b + 1) * count // blocks):
            gid = first_session + g
            deck[:] = sorted_deck  # each session starts from the sorted deck: reproducible
            shift = gid % n if rotate else 0
            for s in range(n):
                j = s + shift - n if s + shift >= n else s + shift
                own[s] = codes[j]
                mine[s] = which[j]
            pot, hands, end = _session(
                p, pays, kinds, losses, policies, limits, own, _seed(seed, gid), deck, cnt,
                first, chips, won, tally, held, given, g, limit, max_hands, trace,
            )  # fmt: skip
            if keep:
                for s in range(n):
                    chips_out[g, s] = chips[s]
                    for o in range(tally.shape[1]):
                        tally_out[g, s, o] = tally[s, o]
                pot_out[g] = pot
                hands_out[g] = hands
                end_out[g] = end
            if end >= endings:
                if guard[b, 0] < 0:
                    guard[b, 0] = g
                    guard[b, 1] = end
                continue
            _count(chips, pot, hands, end, tally, mine, sums[b], ties[b], outs[b], ends[b])


@njit(inline="always")
def _count(  # pragma: no cover - compiled
    chips: IntArray,
    pot: int,
    hands: int,
    end: int,
    tally: IntArray,
    mine: IntArray,
    sums: IntArray,
    ties: IntArray,
    outs: IntArray,
    ends: IntArray,
) -> None:
    """Add one session's results to the totals (one block's rows of :func:`_play`'s)."""
    n = chips.shape[0]
    carry = np.int64(1) << CARRY_BITS
    ends[end] += 1
    ends[ends.shape[0] - 1] += hands
    best = chips[0]
    for s in range(1, n):
        best = max(best, chips[s])
    shared = 0
    for s in range(n):
        if chips[s] == best:
            shared += 1
    for s in range(n):
        i = mine[s]
        v = chips[s] * n + pot
        sums[i, 0] += 1
        sums[i, 1] += v
        sums[i, 3] += v * v
        if sums[i, 3] >= carry:
            sums[i, 3] -= carry
            sums[i, 2] += 1
        if chips[s] == best:
            ties[i, shared] += 1
        for o in range(tally.shape[1]):
            outs[i, o] += tally[s, o]


@njit(cache=True)
def _totals(  # pragma: no cover - compiled
    chips: IntArray,
    pot: IntArray,
    hands: IntArray,
    ended: IntArray,
    tally: npt.NDArray[np.int32],
    seats: IntArray,
    sums: IntArray,
    ties: IntArray,
    outs: IntArray,
    ends: IntArray,
) -> None:
    """:func:`_play`'s totals (one block) of sessions played elsewhere (the engine);
    ``seats[g, s]``: the accumulator strategy at seat ``s`` of session ``g``."""
    for g in range(chips.shape[0]):
        mine = seats[g]
        _count(
            chips[g],
            pot[g],
            hands[g],
            ended[g],
            tally[g].astype(np.int64),
            mine,
            sums,
            ties,
            outs,
            ends,
        )


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
