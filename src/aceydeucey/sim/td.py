"""TD(λ) self-play training of the backgammon evaluator (:mod:`aceydeucey.backgammon.net`).

Whole games run inside one Numba loop on the move-generation kernel
(:func:`~aceydeucey.backgammon.kernel._generate`), every event going through the
game's own turn step (:func:`aceydeucey.backgammon.turn.step`, compiled), as in
:mod:`aceydeucey.sim.playouts` (whose helpers it uses: the dice, the per-game
seed, the scoring).  Both sides are the same network.  Every decision is greedy
at 0-ply: each legal play's resulting position is encoded for the side that acts
next, as the turn step says (the opponent, or the mover again before the double
after a 1-2, an extra roll or a complement, or the opponent playing the dice
passed on), and the play with the best equity for the mover is made; a named
double after a 1-2 is the best of all six doubles' plays, a rolled one is drawn.

Learning is Sutton's TD(λ) on every output at once, all values taken from
seat 0's side (the other side's outputs are turned round by the output set's
permutation and complement), with one eligibility trace per weight and output:
after each decision ``δ = V(s') - V(s)``, ``w += α Σ_k δ_k e_k``, ``e = λ e +
∇V(s')``; the value of the final position is the game's result.  The
learning rate follows ``α(g) = max(α_min, α0 / sqrt(1 + g / τ))`` in the game
index ``g``, and game ``g`` draws its dice from its own stream (the seed of
``(seed, g)``), so a run is a function of its seed and hyper-parameters alone:
``train(N)`` and ``train(N/2)`` resumed for ``N/2`` more give the same weights
bit for bit.

The loop covers every option the game plays: the turn step's and the move
generator's (free choice of how many dice to play included).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from aceydeucey import kernels
from aceydeucey.backgammon.board import long_start, off_board_start, standard_start
from aceydeucey.backgammon.generate import to_board
from aceydeucey.backgammon.kernel import (
    _CAP,
    _MOVE_COLS,
    _TABLE,
    SLOTS,
    WORDS,
    _flip_into,
    _generate,
    game_points,
    move_params_of,
    turn_step,
)
from aceydeucey.backgammon.net import (
    MAX_ACTIVE,
    Network,
    encoding_of,
    features,
    forward_sparse,
    grow,
    output_set_of,
    widen,
)
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.backgammon.turn import (
    CUBE_ROLL,
    EV_CUBE,
    EV_DOUBLE,
    EV_NEW,
    EV_OPENING,
    EV_PLAY,
    EV_ROLL,
    G_NAMED,
    G_SCORING,
    N_TURN,
    PH_CUBE,
    PH_DOUBLE,
    PH_PLAY,
    PH_ROLL,
    PLAY_ENDS,
    PLAY_FROM_BAR,
    SCORE_PER_CHECKER,
    T_BAR_OPEN,
    T_DICE,
    T_GATE,
    T_MOVER,
    T_N,
    T_PHASE,
    game_params_of,
)
from aceydeucey.core.errors import ArgumentError
from aceydeucey.sim.playouts import (
    _NO_TRACE,
    TRACE_DOUBLE,
    TRACE_OPENING,
    TRACE_PLAY,
    TRACE_ROLL,
    _game_seed,
    _roll,
    _trace,
)

__all__ = [
    "Hyper",
    "TrainStats",
    "play_match",
    "start_board",
    "trace_game",
    "train",
    "train_games",
    "warm_up",
]

#: columns of the per-game statistics :func:`train_games` returns
S_WINNER, S_POINTS, S_DECISIONS, S_FIRST = range(4)
N_STATS = 4
#: a game longer than this is cut short (never seen: a guard against a broken net)
MAX_DECISIONS = 5_000


@dataclass(frozen=True)
class Hyper:
    """Hyper-parameters of a training run (saved in its checkpoints)."""

    hidden: int = 128
    lam: float = 0.7
    alpha0: float = 0.1
    alpha_min: float = 0.01
    tau: float = 10_000.0

    def alpha(self, game: int) -> float:
        """The learning rate of game ``game`` (0-based)."""
        return max(self.alpha_min, self.alpha0 / math.sqrt(1.0 + game / self.tau))


@dataclass(frozen=True)
class TrainStats:
    """What a batch of training games came to (per-game rows, see ``S_*``)."""

    rows: np.ndarray[Any, np.dtype[np.int64]]

    @property
    def games(self) -> int:
        return int(self.rows.shape[0])

    @property
    def mean_decisions(self) -> float:
        return float(self.rows[:, S_DECISIONS].mean()) if self.games else 0.0


@kernels.needs("td")
def train_games(
    net: Network,
    rules: BackgammonRules,
    start: np.ndarray[Any, np.dtype[np.int8]],
    first_game: int,
    games: int,
    seed: int,
    hyper: Hyper,
    on_chunk: Callable[[int], None] | None = None,
    chunk: int = 100,
    threads: int = 1,
) -> TrainStats:
    """Train ``net`` in place on games ``first_game .. first_game + games - 1`` of ``seed``.

    ``on_chunk(done)`` is called after every ``chunk`` games (for progress bars).
    ``threads`` > 1 plays the games on that many threads at once, each with its own
    traces, all updating the one set of weights without locks (Hogwild!: Recht, Ré, Wright
    and Niu, 2011): each game keeps its own dice, but the weights it reads depend on the
    threads' timing, so such a run is not reproducible bit for bit, as one thread's is.
    """
    if threads < 1:
        raise ValueError(f"threads must be at least 1, not {threads}")
    spec = net.spec
    perm, comp, coef = spec.arrays()
    mparams = move_params_of(rules)
    gparams = game_params_of(rules)
    rows = np.zeros((games, N_STATS), dtype=np.int64)
    works = [_Work(net.w1.shape[0], net.hidden, spec.size) for _ in range(threads)]
    weights = (net.w1, net.b1, net.w2, net.b2)

    def run(work: _Work, first: int, n: int, offset: int) -> int:
        alphas = np.array([hyper.alpha(g) for g in range(first, first + n)])
        status: int = _run_chunk(
            weights, weights, -1, True,
            perm, comp, coef, spec.bias, 0 if spec.name == "points" else 1,
            start, mparams, gparams, first, n, seed, alphas, hyper.lam,
            rows[offset : offset + n], *work.arrays, _NO_TRACE,
        )  # fmt: skip
        return status

    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    try:
        done = 0
        while done < games:
            n = min(chunk * threads, games - done)
            cut = [n * k // threads for k in range(threads + 1)]  # each thread's share
            parts = [
                (works[k], first_game + done + cut[k], cut[k + 1] - cut[k], done + cut[k])
                for k in range(threads)
                if cut[k + 1] > cut[k]
            ]
            if pool is None:
                statuses = [run(*parts[0])]
            else:
                statuses = list(pool.map(lambda part: run(*part), parts))
            if min(statuses) < 0:
                raise RuntimeError("fast move generation overflowed its result table")
            done += n
            if on_chunk is not None:
                on_chunk(done)
    finally:
        if pool is not None:
            pool.shutdown()
    return TrainStats(rows)


def start_board(rules: BackgammonRules) -> np.ndarray[Any, np.dtype[np.int8]]:
    """The kernel board of the rules' starting position (seat 0 on roll's side)."""
    starts = {"off_board": off_board_start, "standard": standard_start, "long": long_start}
    return to_board(starts[rules.start]())


#: Called after each block of games with (games done in all, the network, the block's
#: games per CPU second of training); returns figures to keep in the checkpoint's history.
Evaluate = Callable[[int, Network, float], dict[str, Any]]


def train(
    variant: str,
    games: int,
    seed: int,
    *,
    resume: str | Path | None = None,
    out: str | Path | None = None,
    hyper: Hyper | None = None,
    retune: dict[str, float] | None = None,
    block: int = 5_000,
    on_games: Callable[[int], None] | None = None,
    evaluate: Evaluate | None = None,
    options: Mapping[str, Any] | None = None,
    encoding: int | None = None,
    hidden: int | None = None,
    threads: int = 1,
) -> Network:
    """Train (or go on training) the network of ``variant`` for ``games`` more games.

    A fresh run starts from small random weights drawn from ``seed`` with ``hyper``;
    ``resume`` loads a checkpoint and continues it exactly (its seed, hyper-parameters
    and game count; ``bg.train.resume_variant`` if it is another variant's).
    ``retune`` changes learning hyper-parameters (``lam``, ``alpha0``, ``alpha_min``,
    ``tau``) from here on, e.g. a lower learning rate for a last phase; the checkpoint
    records the change in its history, so the run stays reproducible from its commands.
    After every ``block`` games the network is saved to ``out`` (the checkpoint:
    weights, games done, seed, hyper-parameters, encoding version, history) and
    ``evaluate`` is called; ``on_games(n)`` reports the games done in this run.
    ``options`` are rule options over the variant's (``{"bearoff_rule": "exact_only"}``):
    the games are played under them and the checkpoint records them (``meta["options"]``),
    so the bots can choose the network trained for a table's reading. A resumed run keeps
    its checkpoint's options unless ``options`` is given; a change is recorded in the
    history, like ``retune`` (a network trained under one reading, then fine-tuned under
    another).
    ``encoding`` is the input encoding of a fresh network (default 1); given with
    ``resume`` for a checkpoint of encoding 1, the network is first widened to it
    (:func:`.net.widen`: it plays exactly as before, and learns the new inputs' weights
    from here on, the change recorded in its history); a checkpoint is never narrowed
    (``bg.train.narrow``). ``hidden`` given with ``resume`` grows the network to that many
    hidden units (:func:`.net.grow`, the new units' input weights drawn from the run's seed
    and game count: it plays exactly as before, the change in its history); it is never
    shrunk (``bg.train.shrink``). A fresh run takes its hidden units from ``hyper``.
    ``threads`` > 1 trains on that many threads at once (:func:`train_games`: faster on
    as many cores, not reproducible bit for bit); each block's history entry records it.
    """
    given = dict(options or {})
    rules = BackgammonRules.resolve(variant=variant, **given)  # refuses a bad option first
    if resume is not None:
        net = Network.load(resume)
        if net.variant != variant:
            raise ArgumentError(
                "bg.train.resume_variant", path=str(resume), found=net.variant, variant=variant
            )
        if encoding is not None and encoding != net.encoding:
            if encoding < net.encoding:
                raise ArgumentError(
                    "bg.train.narrow", path=str(resume), found=net.encoding, encoding=encoding
                )
            net = widen(net, encoding)
        if hidden is not None and hidden != net.hidden:
            if hidden < net.hidden:
                raise ArgumentError(
                    "bg.train.shrink", path=str(resume), found=net.hidden, hidden=hidden
                )
            drawn = int(net.meta.get("seed", seed)) * 1_000_003 + int(net.meta.get("games", 0))
            net = grow(net, hidden, seed=drawn)
        # a network saved outside a run (no training state) starts its count at zero
        meta = net.meta
        hyper = Hyper(**meta["hyper"]) if "hyper" in meta else Hyper(hidden=net.hidden)
        seed = int(meta.get("seed", seed))
        meta.update(games=int(meta.get("games", 0)), seed=seed, hyper=asdict(hyper))
        if options is None:
            given = dict(meta.get("options", {}))
        elif given != dict(meta.get("options", {})):
            meta.setdefault("history", []).append(
                {"games": int(meta["games"]), "options": dict(given)}
            )
        meta["options"] = dict(given)
    else:
        hyper = hyper or Hyper()
        net = Network.initial(
            variant, output_set_of(rules.scoring).name, hyper.hidden, seed,
            encoding=encoding or 1,
        )  # fmt: skip
        net.meta = {
            "games": 0, "seed": seed, "hyper": asdict(hyper), "history": [], "options": given,
        }  # fmt: skip
    if retune:
        hyper = Hyper(**{**asdict(hyper), **{k: float(v) for k, v in retune.items()}})
        net.meta["hyper"] = asdict(hyper)
        net.meta.setdefault("history", []).append(
            {"games": int(net.meta["games"]), "retune": dict(retune)}
        )
    rules = BackgammonRules.resolve(variant=variant, **given)
    start = start_board(rules)
    done_before = int(net.meta["games"])
    done = 0
    while done < games:
        n = min(block, games - done)
        clock = time.process_time()
        first = done_before + done

        def progress(k: int, base: int = done) -> None:
            if on_games is not None:
                on_games(base + k)

        train_games(net, rules, start, first, n, seed, hyper, on_chunk=progress, threads=threads)
        cpu = time.process_time() - clock
        done += n
        net.meta["games"] = done_before + done
        net.meta["cpu_seconds"] = float(net.meta.get("cpu_seconds", 0.0)) + cpu
        rate = n / cpu if cpu > 0 else 0.0
        entry: dict[str, Any] = {
            "games": done_before + done,
            "cpu_seconds": cpu,
            "games_per_cpu_second": rate,
        }
        if threads > 1:
            entry["threads"] = threads
        if evaluate is not None:
            entry.update(evaluate(done_before + done, net, rate))
        net.meta.setdefault("history", []).append(entry)
        if out is not None:
            net.save(out)
    return net


@kernels.needs("td")
def play_match(
    net: Network,
    opponent: Network | None,
    rules: BackgammonRules,
    start: np.ndarray[Any, np.dtype[np.int8]],
    pairs: int,
    seed: int,
    first_pair: int = 0,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Points ``net`` wins in each of ``2 * pairs`` games against ``opponent`` (``None``:
    a random player), both at 0-ply, with duplicate dice: game ``i`` of ``seed`` is
    played once with ``net`` in seat 0 and once in seat 1 (the same dice as long as the
    random player's draws do not shift them).  Rows: pair ``i``'s two games side by side.
    """
    spec = net.spec
    if opponent is not None and opponent.outputs != net.outputs:
        raise ArgumentError("bg.net.outputs", first=net.outputs, second=opponent.outputs)
    perm, comp, coef = spec.arrays()
    mparams = move_params_of(rules)
    gparams = game_params_of(rules)
    work = _Work(0, 0, spec.size)
    mine = (net.w1, net.b1, net.w2, net.b2)
    theirs = mine if opponent is None else (opponent.w1, opponent.b1, opponent.w2, opponent.b2)
    kind = 0 if spec.name == "points" else 1
    alphas = np.zeros(pairs)
    result = np.zeros((pairs, 2), dtype=np.int64)
    for side in (0, 1):
        rows = np.zeros((pairs, N_STATS), dtype=np.int64)
        a, b = (mine, theirs) if side == 0 else (theirs, mine)
        random_seat = -1 if opponent is not None else 1 - side
        status = _run_chunk(
            a, b, random_seat, False, perm, comp, coef, spec.bias, kind,
            start, mparams, gparams, first_pair, pairs, seed, alphas, 0.0, rows, *work.arrays,
            _NO_TRACE,
        )  # fmt: skip
        if status < 0:
            raise RuntimeError("fast move generation overflowed its result table")
        sign = np.where(rows[:, S_WINNER] == side, 1, -1)
        result[:, side] = sign * rows[:, S_POINTS]
    return result


@kernels.needs("td")
def trace_game(
    net: Network,
    rules: BackgammonRules,
    seed: int,
    *,
    first_game: int = 0,
    max_events: int = 20_000,
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], np.ndarray[Any, np.dtype[np.int64]]]:
    """Game ``first_game`` of ``seed`` as :func:`play_match` plays it for ``net`` against
    itself (no learning), event by event: ``(stats_row, events)``, the events in the rows
    of :func:`aceydeucey.sim.playouts.trace_game` (a play's ``y`` is -1: the plays open
    are not counted)."""
    spec = net.spec
    perm, comp, coef = spec.arrays()
    work = _Work(0, 0, spec.size)
    weights = (net.w1, net.b1, net.w2, net.b2)
    rows = np.zeros((1, N_STATS), dtype=np.int64)
    trace = np.zeros((max_events, 4 + SLOTS), dtype=np.int64)
    n = _run_chunk(
        weights, weights, -1, False, perm, comp, coef, spec.bias,
        0 if spec.name == "points" else 1, start_board(rules), move_params_of(rules),
        game_params_of(rules), first_game, 1, seed, np.zeros(1), 0.0, rows, *work.arrays, trace,
    )  # fmt: skip
    if n < 0:
        raise RuntimeError("fast move generation overflowed its result table")
    return rows[0], trace[:n]


def warm_up() -> None:
    """Compile the trainer's kernels (or load them from Numba's cache): the function of
    ``aceydeucey.kernels``' target ``td``, one short call of each entry point."""
    rules = BackgammonRules.resolve(variant="classic")
    net = Network.initial("classic", output_set_of(rules.scoring).name, 8, 0)
    start = start_board(rules)
    train_games(net, rules, start, 0, 1, 0, Hyper(hidden=8))
    play_match(net, None, rules, start, 1, 0)
    play_match(net, net, rules, start, 1, 0)
    trace_game(net, rules, 0)


class _Work:
    """The trainer's scratch arrays: the kernel's work space, traces, buffers."""

    def __init__(self, n_inputs: int, hidden: int, n_out: int) -> None:
        self.arrays = (
            np.zeros((_CAP, SLOTS), dtype=np.int8),  # pos
            np.zeros((_CAP, _MOVE_COLS), dtype=np.int8),  # moves
            np.zeros((_CAP, 4), dtype=np.int64),  # meta
            np.full(_TABLE, -1, dtype=np.int64),  # table
            np.zeros(_CAP, dtype=np.int64),  # keep
            np.zeros((5, WORDS), dtype=np.int64),  # work
            np.zeros(32, dtype=np.int64),  # aux
            np.zeros((n_inputs, hidden, n_out), dtype=np.float64),  # ew1
            np.zeros((hidden, n_out), dtype=np.float64),  # eb1
            np.zeros((hidden, n_out, n_out), dtype=np.float64),  # ew2
            np.zeros((n_out, n_out), dtype=np.float64),  # eb2
        )


# =============================================================================
# kernels
# =============================================================================


@njit(cache=True)
def _to_frame(out: Any, flip: bool, perm: Any, comp: Any, res: Any) -> None:
    """``out`` seen from the other side when ``flip``, else copied, into ``res``."""
    for k in range(out.shape[0]):
        if flip:
            v = out[perm[k]]
            res[k] = 1.0 - v if comp[k] == 1 else v
        else:
            res[k] = out[k]


@njit(cache=True)
def _won(board: Any, scoring: int, kind: int, tmp: Any, res: Any) -> None:
    """Outputs of a won game for the winner (``board``: after its last checker left)."""
    _flip_into(board, tmp)
    points = game_points(tmp, scoring)
    for k in range(res.shape[0]):
        res[k] = 0.0
    res[0] = 1.0
    if kind == 0:
        res[1] = points / 15.0 if scoring == SCORE_PER_CHECKER else 0.0
    else:
        res[1] = 1.0 if points >= 2 and scoring != SCORE_PER_CHECKER else 0.0
        res[2] = 1.0 if points >= 3 and scoring != SCORE_PER_CHECKER else 0.0


@njit(cache=True)
def _choose(
    board: Any, turn: Any, gparams: Any,
    w1: Any, b1: Any, w2: Any, b2: Any, perm: Any, comp: Any, coef: Any, bias: float,
    kind: int, scoring: int, mparams: Any,
    pos: Any, moves: Any, meta: Any, table: Any, keep: Any, work: Any, aux: Any,
    idx: Any, val: Any, hid: Any, out: Any, res: Any, tmp: Any, best_board: Any,
    hand: Any, after: Any, rand: bool,
) -> tuple[float, int, int, int]:  # fmt: skip
    """The best play of the dice in hand (turn record ``turn``, at a play) for the mover
    at 0-ply, copied into ``best_board``.

    Each resulting position is evaluated for the side the turn step says acts next
    (the opponent when the mover changes, with a pending double when the double after
    a 1-2 comes next), by one step on a copy of the record (``after``) for the plays of
    each number of dice (all of them use the same number unless the dice are freely
    chosen).  A closed gate (the mover's entry
    gate, or the bar's with a checker on it) leaves only the pass.  Returns
    ``(equity for the mover, dice used, whether a one-die play used the higher die,
    outcome)``: outcome 1 when the best play wins the game, 0 otherwise, -1 on a
    kernel overflow.  With ``rand`` the play is drawn uniformly instead (a random
    player, for evaluations) and its equity is 0.
    """
    n = turn[T_N]
    for i in range(n):
        hand[i] = turn[T_DICE + i]
    if turn[T_GATE + turn[T_MOVER]] == 0 or (board[24] > 0 and turn[T_BAR_OPEN] == 0):
        for i in range(SLOTS):
            pos[0, i] = board[i]
        keep[0] = 0
        meta[0, 1] = 0
        meta[0, 2] = 0
        k, used = 1, 0
        gated = True
    else:
        k, used = _generate(board, hand[:n], mparams, pos, moves, meta, table, keep, work, aux)
        gated = False
    if k <= 0:
        return 0.0, 0, 0, -1
    if rand:
        pick = keep[0] if gated else keep[np.random.randint(0, k)]
        row = pos[pick]
        for i in range(SLOTS):
            best_board[i] = row[i]
        return 0.0, meta[pick, 1], meta[pick, 2], 1 if row[28] == 15 else 0
    best = -1e300
    best_outcome = 0
    best_high = 0
    best_used = used
    stepped = -1  # the dice used by the plays the step last answered for
    flip = False
    pend = 0
    for j in range(k):
        row = pos[keep[j]]
        if meta[keep[j], 1] != stepped:  # once, unless the dice are freely chosen
            stepped = meta[keep[j], 1]
            for i in range(N_TURN):
                after[i] = turn[i]
            turn_step(gparams, after, EV_PLAY, stepped, meta[keep[j], 2], 0)
            flip = after[T_MOVER] != turn[T_MOVER]
            pend = 1 if after[T_PHASE] == PH_DOUBLE else 0
        if row[28] == 15:
            _won(row, scoring, kind, tmp, res)
            outcome = 1
        else:
            nnz = features(row, flip, pend, idx, val, encoding_of(w1))
            forward_sparse(idx, val, nnz, w1, b1, w2, b2, hid, out)
            _to_frame(out, flip, perm, comp, res)
            outcome = 0
        eq = bias
        for q in range(res.shape[0]):
            eq += coef[q] * res[q]
        if eq > best:
            best = eq
            best_outcome = outcome
            best_high = meta[keep[j], 2]
            best_used = meta[keep[j], 1]
            for i in range(SLOTS):
                best_board[i] = row[i]
    return best, best_used, best_high, best_outcome


@njit(cache=True, nogil=True)
def _run_chunk(
    net_a: Any, net_b: Any, random_seat: int, learn: bool,
    perm: Any, comp: Any, coef: Any, bias: float, kind: int,
    start: Any, mparams: Any, gparams: Any, first_game: int, games: int, seed: int,
    alphas: Any, lam: float, stats: Any,
    pos: Any, moves: Any, meta: Any, table: Any, keep: Any, work: Any, aux: Any,
    ew1: Any, eb1: Any, ew2: Any, eb2: Any, trace: Any,
) -> int:  # fmt: skip
    """Games ``first_game ..`` of ``seed``: seat 0 plays ``net_a``, seat 1 ``net_b``, except
    that seat ``random_seat`` (when 0 or 1) plays at random; with ``learn``, TD(λ) on
    ``net_a`` (self-play: pass the same network twice).  Each network is a tuple
    ``(w1, b1, w2, b2)``, updated in place.

    Every event goes through the turn step; the TD states are the positions after
    each decision, from the side that acts next.  The first game's events go to
    ``trace`` (rows as :func:`aceydeucey.sim.playouts.trace_game` writes them, as many
    as fit).  Returns their count, or -1 on a kernel overflow.
    """
    w1, b1, w2, b2 = net_a
    nh = b1.shape[0]
    no = b2.shape[0]
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    hid = np.zeros(max(nh, net_b[1].shape[0]), dtype=np.float64)
    out = np.zeros(no, dtype=np.float64)
    res = np.zeros(no, dtype=np.float64)
    prev = np.zeros(no, dtype=np.float64)
    target = np.zeros(no, dtype=np.float64)
    delta = np.zeros(no, dtype=np.float64)
    ident = np.arange(no)
    tmp = np.zeros(SLOTS, dtype=np.int8)
    board = np.zeros(SLOTS, dtype=np.int8)
    cand = np.zeros(SLOTS, dtype=np.int8)
    best_board = np.zeros(SLOTS, dtype=np.int8)
    hand = np.zeros(4, dtype=np.int64)
    t = np.zeros(N_TURN, dtype=np.int64)
    trial = np.zeros(N_TURN, dtype=np.int64)
    after = np.zeros(N_TURN, dtype=np.int64)
    touched = np.zeros(w1.shape[0], dtype=np.bool_)
    rows_touched = np.zeros(w1.shape[0], dtype=np.int64)
    encoding = encoding_of(w1)
    scoring = gparams[G_SCORING]
    named_is_decision = gparams[G_NAMED] == 1
    tn = 0
    for gi in range(games):
        tracing = gi == 0
        g = first_game + gi
        alpha = alphas[gi]
        np.random.seed(_game_seed(seed, g))
        for i in range(SLOTS):
            board[i] = start[i]
        n_touched = 0
        if learn:  # traces start at zero each game (ew1: only the rows touched last game)
            eb1[:, :] = 0.0
            ew2[:, :, :] = 0.0
            eb2[:, :] = 0.0
        turn_step(gparams, t, EV_NEW, 0, 0, 0)
        a = _roll()
        b = _roll()
        while a == b:
            a = _roll()
            b = _roll()
        if tracing:
            tn = _trace(trace, tn, TRACE_OPENING, 0 if a > b else 1, a, b, board)
        if turn_step(gparams, t, EV_OPENING, a, b, 0):
            _flip_into(board, tmp)
            for i in range(SLOTS):
                board[i] = tmp[i]
        have_prev = False
        decisions = 0
        winner = -1
        points = 0
        nnz = 0
        while decisions < MAX_DECISIONS:
            phase = t[T_PHASE]
            if phase == PH_ROLL:
                d1 = _roll()
                d2 = _roll()
                if d2 > d1:
                    d1, d2 = d2, d1
                if tracing:
                    tn = _trace(trace, tn, TRACE_ROLL, t[T_MOVER], d1, d2, board)
                turn_step(gparams, t, EV_ROLL, d1, d2, 0)
                continue
            if phase == PH_CUBE:  # the trainer's cube policy: never double
                turn_step(gparams, t, EV_CUBE, CUBE_ROLL, 0, 0)
                continue
            if phase == PH_DOUBLE and not named_is_decision:
                rolled = _roll()
                if tracing:
                    tn = _trace(trace, tn, TRACE_DOUBLE, t[T_MOVER], rolled, 0, board)
                turn_step(gparams, t, EV_DOUBLE, rolled, 0, 0)
                continue
            if phase != PH_DOUBLE and phase != PH_PLAY:
                break  # over (reached only through a win, handled below)
            mover = t[T_MOVER]
            net = net_a if mover == 0 else net_b
            rand = mover == random_seat
            from_bar = PLAY_FROM_BAR if board[24] > 0 else 0
            if phase == PH_DOUBLE:
                # name the double: the best play of all six (a random player draws one)
                best = -1e300
                outcome = 0
                best_double = 0
                used = 0
                high = 0
                for d in range(1, 7):
                    if rand and d > 1:
                        break
                    named = _roll() if rand else d
                    for i in range(N_TURN):
                        trial[i] = t[i]
                    turn_step(gparams, trial, EV_DOUBLE, named, 0, 0)
                    eq, u, h, oc = _choose(
                        board, trial, gparams,
                        net[0], net[1], net[2], net[3], perm, comp, coef, bias, kind, scoring,
                        mparams, pos, moves, meta, table, keep, work, aux,
                        idx, val, hid, out, res, tmp, cand, hand, after, rand,
                    )  # fmt: skip
                    if oc < 0:
                        return -1
                    if eq > best:
                        best = eq
                        outcome = oc
                        best_double = named
                        used = u
                        high = h
                        for i in range(SLOTS):
                            best_board[i] = cand[i]
                if tracing:
                    tn = _trace(trace, tn, TRACE_DOUBLE, mover, best_double, 0, board)
                turn_step(gparams, t, EV_DOUBLE, best_double, 0, 0)
                decisions += 2  # the naming and the play
            else:
                _, used, high, outcome = _choose(
                    board, t, gparams,
                    net[0], net[1], net[2], net[3], perm, comp, coef, bias, kind, scoring,
                    mparams, pos, moves, meta, table, keep, work, aux,
                    idx, val, hid, out, res, tmp, best_board, hand, after, rand,
                )  # fmt: skip
                decisions += 1
                if outcome < 0:
                    return -1
            # the new state s'
            for i in range(SLOTS):
                board[i] = best_board[i]
            if tracing:
                tn = _trace(trace, tn, TRACE_PLAY, mover, used, -1, board)
            ends = PLAY_ENDS if outcome == 1 else 0
            if turn_step(gparams, t, EV_PLAY, used, high, ends | from_bar):
                _flip_into(board, tmp)
                for i in range(SLOTS):
                    board[i] = tmp[i]
            seat = t[T_MOVER]
            if outcome == 1:
                winner = mover
                _flip_into(board, tmp)
                points = game_points(tmp, scoring)
                if not learn:
                    break
                _won(board, scoring, kind, tmp, res)
                _to_frame(res, mover == 1, perm, comp, target)
            else:
                if not learn:
                    continue
                pending = 1 if t[T_PHASE] == PH_DOUBLE else 0
                nnz = features(board, False, pending, idx, val, encoding)
                forward_sparse(idx, val, nnz, w1, b1, w2, b2, hid, out)
                _to_frame(out, seat == 1, perm, comp, target)
            # TD step (values from seat 0's side): w += alpha sum_k delta_k e_k; e *= lambda
            if have_prev:
                for k in range(no):
                    delta[k] = alpha * (target[k] - prev[k])
                _update(w1, b1, w2, b2, ew1, eb1, ew2, eb2, delta, lam, rows_touched, n_touched)
                if lam == 0.0:  # TD(0): every trace is now zero, so no row need be visited again
                    for r in range(n_touched):
                        touched[rows_touched[r]] = False
                    n_touched = 0
            if outcome == 1:
                break
            if have_prev:
                # the value and gradient of s' at the updated weights
                forward_sparse(idx, val, nnz, w1, b1, w2, b2, hid, out)
                _to_frame(out, seat == 1, perm, comp, target)
            for j in range(nnz):
                i = idx[j]
                if not touched[i]:
                    touched[i] = True
                    rows_touched[n_touched] = i
                    n_touched += 1
            frame = perm if seat == 1 else ident
            _add_gradient(
                idx, val, nnz, w2, hid, out, frame, comp, seat == 1,
                ew1, eb1, ew2, eb2,
            )  # fmt: skip
            for k in range(no):
                prev[k] = target[k]
            have_prev = True
        for r in range(n_touched):
            i = rows_touched[r]
            touched[i] = False
            ew1[i, :, :] = 0.0
        stats[gi, S_WINNER] = winner
        stats[gi, S_POINTS] = points
        stats[gi, S_DECISIONS] = decisions
        stats[gi, S_FIRST] = 0 if a > b else 1
    return tn


@njit(cache=True)
def _update(
    w1: Any, b1: Any, w2: Any, b2: Any, ew1: Any, eb1: Any, ew2: Any, eb2: Any,
    delta: Any, lam: float, rows: Any, n_rows: int,
) -> None:  # fmt: skip
    """``w += sum_k delta_k e_k`` (``delta`` already times alpha), then ``e *= lam``.

    Only the input rows touched this game (``rows[:n_rows]``; under TD(0), since the last
    update) have nonzero traces.
    """
    nh = b1.shape[0]
    no = b2.shape[0]
    for r in range(n_rows):
        i = rows[r]
        for h in range(nh):
            s = 0.0
            for k in range(no):
                s += delta[k] * ew1[i, h, k]
                ew1[i, h, k] *= lam
            w1[i, h] += s
    for h in range(nh):
        s = 0.0
        for k in range(no):
            s += delta[k] * eb1[h, k]
            eb1[h, k] *= lam
        b1[h] += s
        for j in range(no):
            s = 0.0
            for k in range(no):
                s += delta[k] * ew2[h, j, k]
                ew2[h, j, k] *= lam
            w2[h, j] += s
    for j in range(no):
        s = 0.0
        for k in range(no):
            s += delta[k] * eb2[j, k]
            eb2[j, k] *= lam
        b2[j] += s


@njit(cache=True)
def _add_gradient(
    idx: Any, val: Any, nnz: int, w2: Any, hid: Any, out: Any, perm: Any, comp: Any,
    flipped: bool, ew1: Any, eb1: Any, ew2: Any, eb2: Any,
) -> None:  # fmt: skip
    """``e_k += grad V_k`` for every output ``k`` from seat 0's side.

    ``V_k`` is output ``perm[k]`` of the network (complemented where ``flipped`` and
    ``comp[k]``, which turns the gradient's sign), ``hid``/``out`` its activations.
    """
    nh = w2.shape[0]
    no = out.shape[0]
    for k in range(no):
        j = perm[k]
        sign = -1.0 if flipped and comp[k] == 1 else 1.0
        g_out = sign * out[j] * (1.0 - out[j])
        eb2[j, k] += g_out
        for h in range(nh):
            ew2[h, j, k] += g_out * hid[h]
            g_h = g_out * w2[h, j] * hid[h] * (1.0 - hid[h])
            eb1[h, k] += g_h
            for q in range(nnz):
                ew1[idx[q], h, k] += g_h * val[q]
