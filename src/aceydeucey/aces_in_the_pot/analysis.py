"""The exact solution of Aces in the Pot: who wins, and how long a game lasts.

There are no decisions in this game, so everything about it follows from the
dice.  The game is a Markov chain over play states (:mod:`.chain`: chips per
seat seen from the roller), plus the finish, whose value is a closed form.

The finish, with a single chip.  A throw shows no six with probability
``q = 25/36``; an attempt succeeds with ``s = q**R`` (``R = finish_rolls``), so
the seat ``j`` places to the left of the first holder wins with
``s (1 - s)**j / (1 - (1 - s)**N)``: a geometric series round the table.
An attempt lasts ``(1 - q**R) / (1 - q)`` throws on average, and ``1 / s``
attempts are needed.  A holder of several chips (``finish = one-holder``)
wins with ``s`` or, after a six, plays on from the play state where the left
neighbour holds one chip and the dice.

Play states are solved level by level (chips in play), lowest first: chips in
play never increase, and within a level they only move to the left neighbour,
so each level is one linear system whose right-hand side needs only the
levels already solved.  The systems are solved exactly with ``Fraction``
(sparse Gaussian elimination, small tables) or in floats by iteration: NumPy
Jacobi sweeps for small levels, a numba-compiled Gauss-Seidel kernel for
levels of 200 states or more.  Every throw with an ace leaves the level, so a
sweep contracts the error by 25/36 at least; sweeps stop at a relative change
of 1e-15, and the results agree with the fractions to about 1e-14.

The distribution of the number of throws comes from pushing the probability
mass forward one throw at a time.  Throws count every two-dice throw from the
first turn on (roll-off dice are not counted); a turn is one throw in play or
one attempt (up to ``finish_rolls`` throws) in the finish.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from aceydeucey.aces_in_the_pot.chain import THROW_CLASSES, Chain, IntArray, build_chain
from aceydeucey.aces_in_the_pot.rules import AcesRules

__all__ = [
    "EXACT_MAX_PLAYERS",
    "NO_SIX",
    "Solution",
    "finish_attempt_rolls",
    "finish_success",
    "finish_win_probabilities",
    "solve",
    "warm_up",
]

#: Probability that a throw of two dice shows no six.
NO_SIX = Fraction(25, 36)
#: ``solve`` works in exact fractions by default up to this many players.
EXACT_MAX_PLAYERS = 3

FloatArray = npt.NDArray[np.float64]


def finish_success(finish_rolls: int = 3) -> Fraction:
    """Probability that one finish attempt gets through ``finish_rolls`` throws without a six."""
    return NO_SIX**finish_rolls


def finish_attempt_rolls(finish_rolls: int = 3) -> Fraction:
    """Expected throws in one attempt: throw ``i`` happens when the ``i - 1`` before had no six."""
    return sum((NO_SIX**i for i in range(finish_rolls)), Fraction(0))


def finish_win_probabilities(players: int, finish_rolls: int = 3) -> tuple[Fraction, ...]:
    """Who wins a single-chip finish, by seats to the left of its first holder."""
    s = finish_success(finish_rolls)
    miss = 1 - s
    norm = 1 - miss**players
    return tuple(s * miss**j / norm for j in range(players))


@dataclass(frozen=True)
class Solution:
    """The numbers of one rule set, seat 0 (or ``rules.first_roller``) rolling first."""

    rules: AcesRules
    exact: bool
    win_probability: tuple[float, ...]
    expected_rolls: float
    expected_turns: float
    first_holder_wins: float
    median_rolls: int
    p90_rolls: int
    length_pmf: tuple[float, ...]  # P(game lasts t throws), t = 0, 1, ...
    states: int
    win_probability_exact: tuple[Fraction, ...] | None = None
    expected_rolls_exact: Fraction | None = None
    expected_turns_exact: Fraction | None = None
    first_holder_wins_exact: Fraction | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready figures; fractions as ``"p/q"`` strings when solved exactly."""
        exact = self.win_probability_exact
        return {
            "players": self.rules.players,
            "rules": self.rules.to_dict(),
            "exact": self.exact,
            "win_probability": [str(p) for p in exact] if exact is not None else None,
            "win_probability_float": list(self.win_probability),
            "expected_rolls": self.expected_rolls,
            "expected_rolls_exact": _text(self.expected_rolls_exact),
            "expected_turns": self.expected_turns,
            "expected_turns_exact": _text(self.expected_turns_exact),
            "median_rolls": self.median_rolls,
            "p90_rolls": self.p90_rolls,
            "first_holder_wins": self.first_holder_wins,
            "first_holder_wins_exact": _text(self.first_holder_wins_exact),
            "states": self.states,
        }


def solve(rules: AcesRules, *, exact: bool | None = None, tail: float = 1e-6) -> Solution:
    """Solve ``rules`` (seat 0 rolls first, or the seat ``rules.first_roller`` names).

    The chain is solved with seat 0 first; a different first roller only turns
    the table, so the win probabilities are rotated by that many seats
    (seat ``s`` gets seat ``s - first_roller``'s chance with seat 0 first).

    ``exact`` defaults to True for up to :data:`EXACT_MAX_PLAYERS` players (4
    players take about 8 s in fractions); floats are accurate to about 1e-14.
    ``tail`` is the probability left unaccounted for when the length
    distribution stops.
    """
    if exact is None:
        exact = rules.players <= EXACT_MAX_PLAYERS
    chain = build_chain(rules)
    pmf = _length_pmf(chain, tail)
    cdf = np.cumsum(pmf)
    median = int(np.searchsorted(cdf, 0.5))
    p90 = int(np.searchsorted(cdf, 0.9))
    values: _Values | _FloatValues = _Values(chain) if exact else _FloatValues(chain)
    wins = values.win_probability()
    shift = rules.first_roller or 0
    wins = [wins[(seat - shift) % rules.players] for seat in range(rules.players)]
    rolls = values.expected_rolls()
    turns = values.expected_turns()
    first = values.first_holder_wins()
    return Solution(
        rules=rules,
        exact=exact,
        win_probability=tuple(float(p) for p in wins),
        expected_rolls=float(rolls),
        expected_turns=float(turns),
        first_holder_wins=float(first),
        median_rolls=median,
        p90_rolls=p90,
        length_pmf=tuple(float(p) for p in pmf),
        states=chain.size,
        win_probability_exact=tuple(map(Fraction, wins)) if exact else None,
        expected_rolls_exact=Fraction(rolls) if exact else None,
        expected_turns_exact=Fraction(turns) if exact else None,
        first_holder_wins_exact=Fraction(first) if exact else None,
    )


# -- the backward values --------------------------------------------------------
@dataclass
class _System:
    """A level's linear system: ``x = const + sum over edges coef * x[dst]`` per state,
    the edge's value seen from ``offset`` seats on when ``rotate``."""

    size: int
    width: int
    rotate: bool
    const: list[list[Any]]  # size x width
    edges: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[Any]]]


class _Values:
    """Backward values over the chain, in one number type (Fraction or float)."""

    kind: type = Fraction

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        kind = self.kind
        rules = chain.rules
        self.n = rules.players
        self.s: Any = kind(finish_success(rules.finish_rolls))
        self.attempt: Any = kind(finish_attempt_rolls(rules.finish_rolls))
        self.single = [kind(p) for p in finish_win_probabilities(self.n, rules.finish_rolls)]
        self.p = [kind(p) for _, _, p in THROW_CLASSES]
        self._x: list[list[Any]] | None = None

    def win_probability(self) -> list[Any]:
        return self._win_table()[self.chain.start]

    def expected_rolls(self) -> Any:
        one = self.kind(1)
        table = self._solve(
            width=1,
            rotate=False,
            reward=lambda i: [one],
            single=lambda o: [one * self.attempt / self.s],
            several=lambda o, dst: [self.attempt],
            several_edge=True,
        )
        return table[self.chain.start][0]

    def expected_turns(self) -> Any:
        one = self.kind(1)
        table = self._solve(
            width=1,
            rotate=False,
            reward=lambda i: [one],
            single=lambda o: [one / self.s],
            several=lambda o, dst: [one],
            several_edge=True,
        )
        return table[self.chain.start][0]

    def first_holder_wins(self) -> Any:
        """P(the seat holding chips when the finish first starts wins it)."""
        x = self._win_table()
        n, s = self.n, self.s
        zero = self.kind(0)
        table = self._solve(
            width=1,
            rotate=False,
            reward=lambda i: [zero],
            single=lambda o: [self.single[0]],
            several=lambda o, dst: [s + (1 - s) * x[dst][n - 1]],
            several_edge=False,
        )
        return table[self.chain.start][0]

    def _win_table(self) -> list[list[Any]]:
        if self._x is None:
            n, zero = self.n, self.kind(0)

            def unit(o: int) -> list[Any]:
                return [self.s if i == o else zero for i in range(n)]

            self._x = self._solve(
                width=n,
                rotate=True,
                reward=lambda i: [zero] * n,
                single=lambda o: _rotate(self.single, o),
                several=lambda o, dst: unit(o),
                several_edge=True,
            )
        return self._x

    def _solve(
        self,
        *,
        width: int,
        rotate: bool,
        reward: Callable[[int], list[Any]],
        single: Callable[[int], list[Any]],
        several: Callable[[int, int], list[Any]],
        several_edge: bool,
    ) -> list[list[Any]]:
        """Values of every play state: reward + the throw's consequences, level by level."""
        chain = self.chain
        n = self.n
        values: list[list[Any]] = [[] for _ in range(chain.size)]
        kind, target, offset, fin = (
            chain.kind.tolist(), chain.target.tolist(), chain.offset.tolist(), chain.fin.tolist()
        )  # fmt: skip
        level = chain.level.tolist()
        miss = 1 - self.s
        for lv in sorted(chain.level_start):
            lo, hi = chain.level_start[lv], chain.level_stop[lv]
            system = _System(hi - lo, width, rotate, [list(reward(i)) for i in range(lo, hi)], [])
            edges: list[list[tuple[int, int, Any]]] = [[] for _ in range(hi - lo)]

            def add(
                local: int,
                coef: Any,
                dst: int,
                off: int,
                lo: int = lo,
                lv: int = lv,
                system: _System = system,
                edges: list[list[tuple[int, int, Any]]] = edges,
            ) -> None:
                if level[dst] < lv:
                    seen = _rotate(values[dst], off) if rotate else values[dst]
                    row = system.const[local]
                    for j in range(width):
                        row[j] += coef * seen[j]
                else:
                    edges[local].append((dst - lo, off, coef))

            for c in range(6):
                p = self.p[c]
                kc, tc, oc, fc = kind[c], target[c], offset[c], fin[c]
                for i in range(lo, hi):
                    local = i - lo
                    k, o = kc[i], oc[i]
                    if k == 1:
                        add(local, p, tc[i], o)
                        continue
                    if k == 0:
                        extra = single(o)
                    else:
                        after = chain.after_six[fc[i]]
                        extra = several(o, after)
                        if several_edge:
                            add(local, p * miss, after, (o + 1) % n)
                    row = system.const[local]
                    for j in range(width):
                        row[j] += p * extra[j]
            system.edges = _pack_edges(edges)
            values[lo:hi] = _solve_exact(system)
        return values


def _pack_edges(
    edges: list[list[tuple[int, int, Any]]],
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], list[Any]]]:
    """Edges as columns: column ``e`` holds each state's ``e``-th edge (or a zero edge)."""
    width = max((len(row) for row in edges), default=0)
    out = []
    for e in range(width):
        d = np.array([row[e][0] if e < len(row) else 0 for row in edges], dtype=np.int64)
        o = np.array([row[e][1] if e < len(row) else 0 for row in edges], dtype=np.int64)
        c = [row[e][2] if e < len(row) else 0 for row in edges]
        out.append((d, o, c))
    return out


def _rotate(values: list[Any], off: int) -> list[Any]:
    """Values seen from a roller ``off`` seats to the right: ``out[i] = values[i - off]``."""
    n = len(values)
    return [values[(i - off) % n] for i in range(n)]


# -- solvers -------------------------------------------------------------------
def _solve_exact(system: _System) -> list[list[Any]]:
    """Sparse Gaussian elimination in fractions (rows are diagonally dominant)."""
    w = system.width
    size = system.size
    nvar = size * w
    rows: list[dict[int, Fraction]] = [{u: Fraction(1)} for u in range(nvar)]
    rhs: list[Fraction] = [Fraction(system.const[u // w][u % w]) for u in range(nvar)]
    for dst, off, coef in system.edges:
        for i in range(size):
            c = coef[i]
            if not c:
                continue
            d, o = int(dst[i]), int(off[i])
            for j in range(w):
                u = i * w + j
                v = d * w + ((j - o) % w if system.rotate else 0)
                rows[u][v] = rows[u].get(v, Fraction(0)) - c
    holders: list[set[int]] = [set() for _ in range(nvar)]
    for u, row in enumerate(rows):
        for v in row:
            if v != u:
                holders[v].add(u)
    # Eliminate the variable of least (row length x column length) first: a greedy minimum
    # degree order, which keeps the fill-in (and the size of the fractions) small.  Row
    # diagonal dominance survives elimination in any order, so no pivoting is needed.
    remaining = set(range(nvar))
    order: list[int] = []
    while remaining:
        u = min(remaining, key=lambda v: len(rows[v]) * len(holders[v]))
        remaining.discard(u)
        order.append(u)
        row_u = rows[u]
        pivot = row_u[u]
        for v in holders[u] & remaining:
            row_v = rows[v]
            factor = row_v.pop(u) / pivot
            for k, a in row_u.items():
                if k == u:
                    continue
                new = row_v.get(k, Fraction(0)) - factor * a
                if new:
                    row_v[k] = new
                    holders[k].add(v)
                else:
                    row_v.pop(k, None)
                    holders[k].discard(v)
            rhs[v] -= factor * rhs[u]
        for k in row_u:
            holders[k].discard(u)
        holders[u] = set()
    x: list[Fraction] = [Fraction(0)] * nvar
    for u in reversed(order):
        row_u = rows[u]
        total = rhs[u] - sum((a * x[k] for k, a in row_u.items() if k != u), Fraction(0))
        x[u] = total / row_u[u]
    return [x[i * w : (i + 1) * w] for i in range(size)]


class _FloatValues:
    """The same values as :class:`_Values`, in floats, vectorised over each level.

    Win probabilities (N columns, seen from the roller), expected throws and
    expected turns are solved together as one system of N + 2 columns.
    """

    def __init__(self, chain: Chain) -> None:
        self.chain = chain
        rules = chain.rules
        self.n = rules.players
        self.s = float(finish_success(rules.finish_rolls))
        self.attempt = float(finish_attempt_rolls(rules.finish_rolls))
        self.single = np.array(
            [float(p) for p in finish_win_probabilities(self.n, rules.finish_rolls)]
        )
        after = np.zeros(rules.total_chips + 1, dtype=np.int64)
        for c, i in chain.after_six.items():
            after[c] = i
        self.after = after
        self._table: FloatArray | None = None

    def win_probability(self) -> list[float]:
        out: list[float] = self._main()[self.chain.start, : self.n].tolist()
        return out

    def expected_rolls(self) -> float:
        return float(self._main()[self.chain.start, self.n])

    def expected_turns(self) -> float:
        return float(self._main()[self.chain.start, self.n + 1])

    def first_holder_wins(self) -> float:
        x = self._main()
        s, n = self.s, self.n
        table = self._solve(
            rotating=0,
            reward=np.zeros(1),
            single=lambda o: np.full((len(o), 1), self.single[0]),
            several=lambda o, dst: (s + (1 - s) * x[dst, n - 1])[:, None],
            several_edge=False,
        )
        return float(table[self.chain.start, 0])

    def _main(self) -> FloatArray:
        if self._table is None:
            n = self.n
            cols = np.arange(n)
            fixed_single = np.array([self.attempt / self.s, 1 / self.s])
            fixed_several = np.array([self.attempt, 1.0])

            def single(o: IntArray) -> FloatArray:
                wins = self.single[(cols[None, :] - o[:, None]) % n]
                return np.hstack([wins, np.broadcast_to(fixed_single, (len(o), 2))])

            def several(o: IntArray, dst: IntArray) -> FloatArray:
                wins = np.where(cols[None, :] == o[:, None], self.s, 0.0)
                return np.hstack([wins, np.broadcast_to(fixed_several, (len(o), 2))])

            self._table = self._solve(
                rotating=n,
                reward=np.array([0.0] * n + [1.0, 1.0]),
                single=single,
                several=several,
                several_edge=True,
            )
        return self._table

    def _solve(
        self,
        *,
        rotating: int,
        reward: FloatArray,
        single: Callable[[IntArray], FloatArray],
        several: Callable[[IntArray, IntArray], FloatArray],
        several_edge: bool,
        tol: float = 1e-15,
        max_sweeps: int = 10_000,
    ) -> FloatArray:
        """Values of every play state; the first ``rotating`` columns are per seat."""
        chain = self.chain
        n = self.n
        width = len(reward)
        miss = 1 - self.s
        values = np.zeros((chain.size, width))
        cols = np.arange(width)

        perms = [cols.copy() for _ in range(n)]
        for d in range(n):
            if rotating:
                perms[d][:rotating] = (cols[:rotating] - d) % rotating

        for lv in sorted(chain.level_start):
            lo, hi = chain.level_start[lv], chain.level_stop[lv]
            const = np.tile(reward, (hi - lo, 1))
            edges = []
            for c, (_, _, prob) in enumerate(THROW_CLASSES):
                p = float(prob)
                k = chain.kind[c, lo:hi]
                o = chain.offset[c, lo:hi]
                after = self.after[chain.fin[c, lo:hi]]
                one, many = k == 0, k == 2
                if one.any():
                    const[one] += p * single(o[one])
                if many.any():
                    const[many] += p * several(o[many], after[many])
                play = k == 1
                jump = many & several_edge
                dst = np.where(play, chain.target[c, lo:hi], after)
                coef = np.where(play, p, p * miss)
                off = np.where(play, o, (o + 1) % n)
                live = play | jump
                lower = live & (chain.level[dst] < lv)
                inner = live & ~lower
                for d in range(n):
                    at = off == d
                    low = np.flatnonzero(lower & at)
                    if low.size:
                        const[low] += coef[low][:, None] * values[dst[low]][:, perms[d]]
                    src = np.flatnonzero(inner & at)
                    if src.size:
                        edges.append((src, dst[src] - lo, perms[d], coef[src][:, None]))
            if hi - lo >= _COMPILED_FROM and (kernel := _gauss_seidel_kernel()) is not None:
                x = _sweep_compiled(kernel, const, edges, np.array(perms), tol, max_sweeps)
            else:
                x = _sweep_numpy(const, edges, tol, max_sweeps)
            values[lo:hi] = x
        return values


#: Levels with at least this many states are swept by the compiled kernel when numba loads.
_COMPILED_FROM = 200

Edges = list[tuple[IntArray, IntArray, IntArray, FloatArray]]  # src, dst, column perm, coef


def _sweep_numpy(const: FloatArray, edges: Edges, tol: float, max_sweeps: int) -> FloatArray:
    """Jacobi sweeps ``x = const + sum coef * x[dst][:, perm]`` until the change is below tol."""
    x = const.copy()
    for _ in range(max_sweeps):
        new = const.copy()
        for src, rows, perm, cf in edges:
            new[src] += cf * x[rows][:, perm]
        change = float((np.abs(new - x) / np.maximum(1.0, np.abs(new))).max())
        x = new
        if change <= tol:
            return x
    raise ArithmeticError("the float iteration did not converge")


def _sweep_compiled(
    kernel: Callable[..., Any],
    const: FloatArray,
    edges: Edges,
    perms: IntArray,
    tol: float,
    max_sweeps: int,
) -> FloatArray:
    """Gauss-Seidel sweeps of the same system, compiled with numba (edges sorted by state)."""
    n_perm = perms.shape[0]
    src = np.concatenate([e[0] for e in edges]) if edges else np.zeros(0, np.int64)
    dst = np.concatenate([e[1] for e in edges]) if edges else np.zeros(0, np.int64)
    coef = np.concatenate([e[3][:, 0] for e in edges]) if edges else np.zeros(0)
    which = [next(d for d in range(n_perm) if np.array_equal(perms[d], e[2])) for e in edges]
    off = np.concatenate(
        [np.full(len(e[0]), d, dtype=np.int64) for e, d in zip(edges, which, strict=True)]
    ) if edges else np.zeros(0, np.int64)  # fmt: skip
    order = np.argsort(src, kind="stable")
    src, dst, coef, off = src[order], dst[order], coef[order], off[order]
    start = np.searchsorted(src, np.arange(const.shape[0] + 1)).astype(np.int64)
    x = const.copy()
    sweeps = int(kernel(x, const, start, dst, coef, off, perms, tol, max_sweeps))
    if sweeps >= max_sweeps:
        raise ArithmeticError("the float iteration did not converge")
    return x


def _gauss_seidel(
    x: Any, const: Any, start: Any, dst: Any, coef: Any, off: Any, perms: Any, tol: float,
    max_sweeps: int,
) -> int:  # fmt: skip
    """In-place Gauss-Seidel; returns the number of sweeps made (compiled by numba)."""
    size, width = const.shape
    acc = np.empty(width)
    for sweep in range(max_sweeps):
        change = 0.0
        for i in range(size):
            for j in range(width):
                acc[j] = const[i, j]
            for e in range(start[i], start[i + 1]):
                d, c, perm = dst[e], coef[e], perms[off[e]]
                for j in range(width):
                    acc[j] += c * x[d, perm[j]]
            for j in range(width):
                delta = abs(acc[j] - x[i, j]) / max(1.0, abs(acc[j]))
                change = max(change, delta)
                x[i, j] = acc[j]
        if change <= tol:
            return sweep + 1
    return max_sweeps


_KERNEL: list[Callable[..., Any] | None] = []


def _gauss_seidel_kernel() -> Callable[..., Any] | None:
    """The numba-compiled sweep, or None when numba is not available.

    The first call in a process has it built in a separate process when the cache does
    not hold it yet (``aceydeucey.kernels``' target ``aces``), saying so on the terminal.
    """
    if not _KERNEL:
        try:
            import numba

            from aceydeucey import kernels

            kernels.ensure("aces")

            _KERNEL.append(numba.njit(cache=True)(_gauss_seidel))
        except ImportError:  # pragma: no cover - numba is a dependency
            _KERNEL.append(None)
    return _KERNEL[0]


def warm_up() -> None:
    """Compile the sweep (or load it from Numba's cache): the function of
    ``aceydeucey.kernels``' target ``aces``, on a two-state system of the solver's types."""
    kernel = _gauss_seidel_kernel()
    if kernel is None:  # pragma: no cover - numba is a dependency
        return
    const = np.ones((2, 2))
    edge = (np.array([0]), np.array([1]), np.array([1, 0]), np.full((1, 2), 0.5))
    _sweep_compiled(kernel, const, [edge], np.array([[0, 1], [1, 0]]), 1e-12, 1_000)


# -- the length distribution -----------------------------------------------------
def _length_pmf(chain: Chain, tail: float, max_rolls: int = 100_000) -> FloatArray:
    """P(the game lasts exactly t throws), until less than ``tail`` is left."""
    rules = chain.rules
    s_count = chain.size
    r = rules.finish_rolls
    holders = rules.total_chips if rules.finish == "one-holder" else 1
    size = s_count + holders * r

    def finish_index(chips: npt.NDArray[np.int64], roll: int) -> npt.NDArray[np.int64]:
        return s_count + (chips - 1) * r + (roll - 1)

    dsts: list[npt.NDArray[np.int64]] = []
    probs: list[float] = []
    for c, (_, _, p) in enumerate(THROW_CLASSES):
        k = chain.kind[c]
        d = np.where(k == 1, chain.target[c], finish_index(np.maximum(chain.fin[c], 1), 1))
        dsts.append(d)
        probs.append(float(p))
    q = float(NO_SIX)
    mass = np.zeros(size)
    mass[chain.start] = 1.0
    pmf = [0.0]
    left = 1.0
    for _ in range(max_rolls):
        play = mass[:s_count]
        new = np.zeros(size)
        for d, weight in zip(dsts, probs, strict=True):
            new += np.bincount(d, weights=play * weight, minlength=size)
        fin = mass[s_count:].reshape(holders, r)
        nfin = new[s_count:].reshape(holders, r)
        done = float(fin[:, r - 1].sum()) * q
        nfin[:, 1:] += fin[:, :-1] * q
        sixes = fin.sum(axis=1) * (1 - q)
        nfin[0, 0] += sixes[0]
        for c in range(2, holders + 1):
            new[chain.after_six[c]] += sixes[c - 1]
        pmf.append(done)
        left -= done
        mass = new
        if left < tail:
            break
    return np.array(pmf)


def _text(value: Fraction | None) -> str | None:
    return None if value is None else str(value)
