"""The neural-network evaluator of backgammon positions (TD-Gammon style).

A position is evaluated for the side *about to act* (to roll, or to name the
double after a 1-2), seen from its side like the kernel's board
(:mod:`aceydeucey.backgammon.kernel`).  One hidden layer of sigmoid units, sigmoid
outputs; inference is NumPy, batched over every candidate play at once.

Inputs (encoding 1: :data:`N_INPUTS`; encodings 2 and 3: :data:`N_INPUTS_OF`)
----------------------------------------------------------------------------
=============  ===================================================================
index          meaning
=============  ===================================================================
0 .. 95        my checkers on my points 1..24, four units each (Tesauro's):
               ``n >= 1``, ``n >= 2``, ``n >= 3``, ``(n - 3) / 2`` when ``n > 3``
96 .. 191      the opponent's, on *its* points 1..24 (its numbering), the same way
192, 193       checkers on the bar / 2: mine, the opponent's
194, 195       checkers borne off / 15: mine, the opponent's
196, 197       checkers not yet entered / 15 (Acey-Deucey): mine, the opponent's
198, 199       1 while any checker is not yet entered: mine, the opponent's
200            1 when I am to name the double after a 1-2 (the roll after it is mine
               too when it is played in full): the position *before* the named double
201, 202       pip counts / 200 (bar and unentered count 25): mine, the opponent's
203            1 in a pure race (no contact possible any more)
204 .. 211     encodings 2 and 3: the side to act's hand-crafted figures
               (:mod:`.features`: shots, pip loss, back escapes, containment,
               prime, home board, dance, break-contact pips)
212 .. 219     encodings 2 and 3: the same figures of the opponent
220 .. 226     encoding 3 only: more figures of the side to act (timing, back and
               forward anchor, mobility, free pips, anchors and checkers in the
               opponent's home board)
227 .. 233     encoding 3 only: the same figures of the opponent
=============  ===================================================================

Encoding 1 is the raw board (the shipped Acey-Deucey networks); encodings 2 and 3 add
GNU Backgammon style figures computed from it (:mod:`.features`), each extending the
one before.  A network's encoding is told by its input rows (``w1.shape[0]``:
:data:`N_INPUTS_OF`), so the Numba kernels read it from the weights they are given
(:func:`encoding_of`) and pass it to :func:`features`: a network of any encoding plays,
trains and looks ahead through the same code, and networks of different encodings can
meet in a match.  :func:`widen` turns a network into one of a later encoding that
evaluates every position exactly as before (zero weights on the new inputs), to go on
training it;
:func:`grow` gives a network more hidden units the same way (zero output weights).

The side that rolls again (after a fully played named double, or natural
doubles where the rules give another roll) is simply the side on roll of the
position evaluated: the caller passes the board from whoever acts next.

Outputs
-------
Two output sets, by the scoring the rules use (:data:`OUTPUTS`):

* ``points`` (``scoring="per_checker"``, Acey-Deucey): ``P(win)``, ``E[points
  won] / 15`` and ``E[points lost] / 15`` (the loser pays one point per checker
  not borne off, so each is the expected remaining checkers of the loser,
  counted only in the games it loses); equity ``= 15 (o1 - o2)`` points.
* ``gammons`` (classic and the others): ``P(win)``, ``P(gammon win)``, ``P(backgammon
  win)``, ``P(gammon loss)``, ``P(backgammon loss)`` (each counting the bigger
  results too); equity is the cubeless money equity
  ``2 P(win) - 1 + P(gw) + P(bw) - P(gl) - P(bl)``.

Seen from the other side, an output vector changes by a fixed permutation and
complement (:attr:`OutputSpec.perm`, :attr:`OutputSpec.comp`): the trainer and
the bots use it to express every value from one side.

Weights
-------
:class:`Network` holds ``w1 (N_INPUTS, H)``, ``b1 (H,)``, ``w2 (H, n_out)``,
``b2 (n_out,)`` in float64.  A weights file is a NumPy ``.npz`` with those arrays
and its metadata (encoding version, variant, output set, training figures); the
trainer's checkpoints are the same files.  The package ships one per trained
variant in ``backgammon/weights/<variant>.npz``; :func:`shipped` loads them.
Files of encodings 1, 2 and 3 are read; another encoding version is refused
(``bg.net.version``).

The encoder (:func:`features`) and the network on its sparse inputs
(:func:`forward_sparse`) are Numba functions used by the trainer's loop and by
:meth:`Network.evaluate` (the bots and ``hint``): the encoding and the forward
pass exist once.  :func:`encode` and :meth:`Network.forward` give the same as
dense NumPy arrays (tests hold the two to agreement).
"""

from __future__ import annotations

import json
import math
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from aceydeucey import kernels
from aceydeucey.backgammon.features import N_EXTRA, N_EXTRA_3, extra_features, put
from aceydeucey.backgammon.kernel import generate_rows
from aceydeucey.core.errors import ArgumentError, message

__all__ = [
    "ENCODING_VERSION",
    "N_INPUTS",
    "N_INPUTS_OF",
    "OUTPUTS",
    "READINGS",
    "Network",
    "OutputSpec",
    "average",
    "encode",
    "encoding_of",
    "features",
    "forward_sparse",
    "grow",
    "output_set_of",
    "shipped",
    "shipped_for",
    "warm_up",
    "weights_path",
    "widen",
]

#: The newest version of the input encoding; every weights file records its own.
ENCODING_VERSION = 3
#: Inputs of encoding 1 (the raw board); encodings 2 and 3 add the figures of :mod:`.features`.
N_INPUTS = 204
N_INPUTS_2 = N_INPUTS + N_EXTRA
N_INPUTS_3 = N_INPUTS_2 + N_EXTRA_3
#: Inputs of each encoding version read (a network's encoding is told by its input rows).
N_INPUTS_OF = {1: N_INPUTS, 2: N_INPUTS_2, 3: N_INPUTS_3}
#: Most nonzero inputs a position can have (4 per occupied point, 30 points at most, + 12,
#: + the figures of encoding 3).
MAX_ACTIVE = 4 * 30 + 12 + N_EXTRA + N_EXTRA_3

I_BAR = 192
I_OFF = 194
I_UNENTERED = 196
I_ANY_UNENTERED = 198
I_PENDING = 200
I_PIPS = 201
I_RACE = 203

#: Folder of the shipped weights.
WEIGHTS_DIR = Path(__file__).parent / "weights"


@dataclass(frozen=True)
class OutputSpec:
    """One output set: names, how it looks from the other side, its equity and end values."""

    name: str
    labels: tuple[str, ...]
    #: from the other side, output k is ``o[perm[k]]`` (``1 - o[perm[k]]`` where ``comp[k]``)
    perm: tuple[int, ...]
    comp: tuple[int, ...]
    #: equity = ``bias + sum(coef[k] * o[k])``
    bias: float
    coef: tuple[float, ...]

    @property
    def size(self) -> int:
        return len(self.labels)

    def arrays(self) -> tuple[np.ndarray[Any, Any], ...]:
        """``(perm, comp, coef)`` as arrays, for the Numba kernels."""
        return (
            np.array(self.perm, dtype=np.int64),
            np.array(self.comp, dtype=np.int64),
            np.array(self.coef, dtype=np.float64),
        )

    def flip(self, outputs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """The same outputs from the other side (last axis)."""
        out = outputs[..., list(self.perm)].copy()
        comp = np.array(self.comp, dtype=bool)
        out[..., comp] = 1.0 - out[..., comp]
        return out

    def equity(self, outputs: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        """Equity of each output row (last axis), from the side the outputs are for."""
        result: np.ndarray[Any, Any] = self.bias + outputs @ np.array(self.coef)
        return result


#: The output sets by name.
OUTPUTS: dict[str, OutputSpec] = {
    "points": OutputSpec(
        "points",
        ("win", "points_won", "points_lost"),
        perm=(0, 2, 1),
        comp=(1, 0, 0),
        bias=0.0,
        coef=(0.0, 15.0, -15.0),
    ),
    "gammons": OutputSpec(
        "gammons",
        ("win", "gammon_win", "backgammon_win", "gammon_loss", "backgammon_loss"),
        perm=(0, 3, 4, 1, 2),
        comp=(1, 0, 0, 0, 0),
        bias=-1.0,
        coef=(2.0, 1.0, 1.0, -1.0, -1.0),
    ),
}


def output_set_of(scoring: str) -> OutputSpec:
    """The output set for a ``scoring`` option value."""
    return OUTPUTS["points" if scoring == "per_checker" else "gammons"]


# -- the encoder (one for training and play) ------------------------------------------------


@njit(cache=True, inline="always")
def encoding_of(w1: Any) -> int:
    """The input encoding of a network with first-layer weights ``w1`` (by its rows)."""
    rows = w1.shape[0]
    return 3 if rows == N_INPUTS_3 else 2 if rows == N_INPUTS_2 else 1


@njit(cache=True)
def features(board: Any, flip: bool, pending: int, idx: Any, val: Any, encoding: int) -> int:
    """The nonzero inputs of ``board`` (int8[32]) into ``idx``/``val``; returns their count.

    ``board`` is from the side that has just moved when ``flip`` is true (its
    opponent acts next), else from the side about to act.  ``pending`` is 1 when
    that side is to name the double after a 1-2.  ``encoding`` is 1, 2 or 3 (2 and 3
    add the figures of :func:`.features.extra_features`).  Indices increase.
    """
    n = 0
    pips_me = 0
    pips_op = 0
    back_me = 0  # my rearmost point (1..24), 0 if none on the board
    front_op = 25  # the opponent's rearmost, in my numbering (it moves up from my 1)
    for side in range(2):
        for p in range(24):
            # my point p + 1 (side 0), or the opponent's point p + 1 (side 1) in its numbering
            if not flip:
                c = board[p] if side == 0 else -board[23 - p]
            else:
                c = -board[23 - p] if side == 0 else board[p]
            if c <= 0:
                continue
            if side == 0:
                pips_me += (p + 1) * c
                if p + 1 > back_me:
                    back_me = p + 1
            else:
                pips_op += (p + 1) * c
                if 24 - p < front_op:
                    front_op = 24 - p
            base = 96 * side + 4 * p
            idx[n] = base
            val[n] = 1.0
            n += 1
            if c >= 2:
                idx[n] = base + 1
                val[n] = 1.0
                n += 1
            if c >= 3:
                idx[n] = base + 2
                val[n] = 1.0
                n += 1
            if c > 3:
                idx[n] = base + 3
                val[n] = (c - 3) / 2.0
                n += 1
    s_me = 1 if flip else 0
    s_op = 1 - s_me
    bar_me = board[24 + s_me]
    bar_op = board[24 + s_op]
    un_me = board[26 + s_me]
    un_op = board[26 + s_op]
    off_me = board[28 + s_me]
    off_op = board[28 + s_op]
    n = put(idx, val, n, I_BAR, bar_me / 2.0)
    n = put(idx, val, n, I_BAR + 1, bar_op / 2.0)
    n = put(idx, val, n, I_OFF, off_me / 15.0)
    n = put(idx, val, n, I_OFF + 1, off_op / 15.0)
    n = put(idx, val, n, I_UNENTERED, un_me / 15.0)
    n = put(idx, val, n, I_UNENTERED + 1, un_op / 15.0)
    n = put(idx, val, n, I_ANY_UNENTERED, 1.0 if un_me > 0 else 0.0)
    n = put(idx, val, n, I_ANY_UNENTERED + 1, 1.0 if un_op > 0 else 0.0)
    n = put(idx, val, n, I_PENDING, 1.0 if pending != 0 else 0.0)
    pips_me += 25 * (bar_me + un_me)
    pips_op += 25 * (bar_op + un_op)
    n = put(idx, val, n, I_PIPS, pips_me / 200.0)
    n = put(idx, val, n, I_PIPS + 1, pips_op / 200.0)
    race = bar_me + un_me + bar_op + un_op == 0 and back_me < front_op
    n = put(idx, val, n, I_RACE, 1.0 if race else 0.0)
    if encoding >= 2:
        n = extra_features(board, flip, idx, val, n, N_INPUTS, encoding)
    return n


@njit(cache=True)
def forward_sparse(idx: Any, val: Any, nnz: int, w1: Any, b1: Any, w2: Any, b2: Any,
                   hid: Any, out: Any) -> None:  # fmt: skip
    """The network on one position's nonzero inputs: hidden activations and outputs."""
    nh = b1.shape[0]
    for h in range(nh):
        hid[h] = b1[h]
    for j in range(nnz):
        i = idx[j]
        v = val[j]
        if v == 1.0:
            for h in range(nh):
                hid[h] += w1[i, h]
        else:
            for h in range(nh):
                hid[h] += v * w1[i, h]
    for h in range(nh):
        hid[h] = 1.0 / (1.0 + math.exp(-hid[h]))
    for k in range(b2.shape[0]):
        s = b2[k]
        for h in range(nh):
            s += hid[h] * w2[h, k]
        out[k] = 1.0 / (1.0 + math.exp(-s))


@njit(cache=True, nogil=True)
def _evaluate_rows(
    boards: Any, flip: bool, pending: int, w1: Any, b1: Any, w2: Any, b2: Any, out: Any
) -> None:
    """:func:`features` then :func:`forward_sparse` for each board (one thread, no BLAS)."""
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    hid = np.zeros(b1.shape[0], dtype=np.float64)
    encoding = encoding_of(w1)
    for r in range(boards.shape[0]):
        n = features(boards[r], flip, pending, idx, val, encoding)
        forward_sparse(idx, val, n, w1, b1, w2, b2, hid, out[r])


@njit(cache=True, nogil=True)
def best_replies(
    boards: Any,
    dice_sets: Any,
    n_dice: Any,
    params: Any,
    flips: Any,
    pendings: Any,
    w1: Any,
    b1: Any,
    w2: Any,
    b2: Any,
    perm: Any,
    comp: Any,
    coef: Any,
    bias: float,
    scoring: int,
    won: Any,
    races: bool,
    work: Any,
    best: Any,
    flagged: Any,
    chosen: Any,
    turned: Any,
) -> int:
    """For each board ``k`` and each hand ``r`` of ``dice_sets``: the outputs, for the side
    on roll of ``boards[k]``, of its best play of that hand by 0-ply equity, into
    ``best[k, r]``.  One call for what :meth:`.evaluator.Evaluator._best_reply` does hand by
    hand (the same kernels in the same order, so the same figures).

    ``dice_sets[r, :n_dice[r]]`` is hand ``r``; after a play using ``u`` of its dice the
    result is evaluated for the opponent (turned round) when ``flips[r, u]``, else for the
    mover, naming a double next when ``pendings[r, u]``.  ``perm``/``comp`` turn outputs
    round (:meth:`OutputSpec.flip`); equity is ``bias + coef . outputs``.  A play bearing
    off the mover's last checker is worth ``won[points]`` (``scoring``: 0 per checker, 1
    single, 2 gammons; see :func:`.evaluator.points_won`).  ``work`` is a move generator's
    work space (:attr:`.kernel.Generator.work_space`).  With ``races``, a hand whose plays
    include a race with both sides home (valued from the bear-off table by the caller,
    not here) sets ``flagged[k, r]`` and is the caller's to value.  The best play's board
    goes to ``chosen[k, r]`` (the mover's side; a ``(0, 0, SLOTS)`` array skips it), and
    ``turned[k, r]`` is 1 when that play hands the turn to the opponent with the game
    going on (the position a deeper look evaluates next).  Returns 0, or -1 when the move
    generator overflowed.
    """
    pos, moves, meta, table, keep, gwork, aux, rows = work
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    hid = np.zeros(b1.shape[0], dtype=np.float64)
    size = b2.shape[0]
    raw = np.zeros(size, dtype=np.float64)
    cur = np.zeros(size, dtype=np.float64)
    keep_boards = chosen.shape[0] > 0
    encoding = encoding_of(w1)
    for k in range(boards.shape[0]):
        for r in range(dice_sets.shape[0]):
            n, used = generate_rows(
                boards[k], dice_sets[r, : n_dice[r]], params, pos, moves, meta, table, keep,
                gwork, aux, rows,
            )  # fmt: skip
            if n < 0:
                return -1
            flip = flips[r, used] != 0
            pending = 0 if flip else pendings[r, used]
            flagged[k, r] = 0
            turned[k, r] = 0
            top = -np.inf
            for j in range(n):
                row = rows[j]
                if races and (flip or pending == 0) and _race_row(row):
                    flagged[k, r] = 1
                if row[28] == 15:
                    # the mover has borne off its last checker: the game's result
                    if scoring == 0:
                        points = 15 - row[29]
                    elif scoring == 1 or row[29] > 0:
                        points = 1
                    else:
                        points = 2
                        if row[25] > 0 or row[27] > 0:
                            points = 3
                        for p in range(6):
                            if row[p] < 0:
                                points = 3
                    for c in range(size):
                        cur[c] = won[points, c]
                else:
                    nnz = features(row, flip, pending, idx, val, encoding)
                    forward_sparse(idx, val, nnz, w1, b1, w2, b2, hid, raw)
                    for c in range(size):
                        if flip:
                            o = raw[perm[c]]
                            cur[c] = 1.0 - o if comp[c] != 0 else o
                        else:
                            cur[c] = raw[c]
                e = 0.0
                for c in range(size):
                    e += cur[c] * coef[c]
                e += bias
                if e > top:
                    top = e
                    for c in range(size):
                        best[k, r, c] = cur[c]
                    turned[k, r] = 1 if flip and row[28] != 15 else 0
                    if keep_boards:
                        for c in range(chosen.shape[2]):
                            chosen[k, r, c] = row[c]
    return 0


@njit(cache=True, inline="always")
def _race_row(row: Any) -> bool:
    """A race with both sides home and neither finished (:func:`.bearoff.race_rows`)."""
    for p in range(6, 24):
        if row[p] > 0:
            return False
    for p in range(18):
        if row[p] < 0:
            return False
    for p in range(24, 28):
        if row[p] != 0:
            return False
    return bool(row[28] != 15 and row[29] != 15)


@njit(cache=True)
def _encode_rows(boards: Any, flips: Any, pendings: Any, encoding: int, out: Any) -> None:
    idx = np.zeros(MAX_ACTIVE, dtype=np.int64)
    val = np.zeros(MAX_ACTIVE, dtype=np.float64)
    for r in range(boards.shape[0]):
        k = features(boards[r], flips[r] != 0, pendings[r], idx, val, encoding)
        for j in range(k):
            out[r, idx[j]] = val[j]


@kernels.needs("net")
def encode(
    boards: np.ndarray[Any, Any],
    flips: np.ndarray[Any, Any] | bool = False,
    pendings: np.ndarray[Any, Any] | int = 0,
    encoding: int = 1,
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The input rows (``(n, N_INPUTS_OF[encoding])`` float64) of ``n`` kernel boards
    (``(n, 32)`` int8).

    ``flips`` and ``pendings`` are per board or one value for all (see :func:`features`).
    """
    boards = np.ascontiguousarray(np.atleast_2d(boards), dtype=np.int8)
    n = boards.shape[0]
    flips_a = np.broadcast_to(np.asarray(flips, dtype=np.int64), (n,)).copy()
    pend_a = np.broadcast_to(np.asarray(pendings, dtype=np.int64), (n,)).copy()
    out = np.zeros((n, N_INPUTS_OF[encoding]), dtype=np.float64)
    _encode_rows(boards, flips_a, pend_a, encoding, out)
    return out


def warm_up() -> None:
    """Compile the encoder and the sparse forward pass (or load them from Numba's cache):
    the function of ``aceydeucey.kernels``' target ``net``, each entry point once."""
    from aceydeucey.backgammon.board import standard_start
    from aceydeucey.backgammon.generate import to_board
    from aceydeucey.backgammon.kernel import Generator, move_params

    boards = to_board(standard_start())[None, :]
    for encoding in N_INPUTS_OF:
        encode(boards, encoding=encoding)
    work = Generator().work_space
    for outputs, encoding in ((name, e) for name in OUTPUTS for e in N_INPUTS_OF):
        net = Network.initial("classic", outputs, 4, 0, encoding=encoding)
        net.evaluate(boards, False, 0)
        perm, comp, coef = net.spec.arrays()
        size = net.spec.size
        best_replies(
            boards, np.array([[3, 1, 0, 0]]), np.array([2]), move_params(),
            np.zeros((1, 5), dtype=np.int64), np.zeros((1, 5), dtype=np.int64),
            net.w1, net.b1, net.w2, net.b2, perm, comp, coef, net.spec.bias, 2,
            np.zeros((16, size)), True, work, np.zeros((1, 1, size)),
            np.zeros((1, 1), dtype=np.int64), np.zeros((1, 1, boards.shape[1]), dtype=np.int8),
            np.zeros((1, 1), dtype=np.int64),
        )  # fmt: skip


# -- the network ---------------------------------------------------------------------------


def _sigmoid(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    result: np.ndarray[Any, Any] = 1.0 / (1.0 + np.exp(-np.clip(x, -50.0, 50.0)))
    return result


@dataclass
class Network:
    """Weights of one evaluator and what is known about how they were trained."""

    w1: np.ndarray[Any, np.dtype[np.float64]]
    b1: np.ndarray[Any, np.dtype[np.float64]]
    w2: np.ndarray[Any, np.dtype[np.float64]]
    b2: np.ndarray[Any, np.dtype[np.float64]]
    outputs: str = "points"
    variant: str = "acey-deucey"
    #: training state and figures (games done, seed, hyper-parameters, evaluations...)
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def initial(
        cls, variant: str, outputs: str, hidden: int, seed: int, *, encoding: int = 1
    ) -> Network:
        """Small random weights (uniform in ±0.1 for the hidden layer), from ``seed``, for
        input ``encoding`` 1, 2 or 3."""
        rng = np.random.default_rng(seed)
        n_out = OUTPUTS[outputs].size
        return cls(
            w1=rng.uniform(-0.1, 0.1, (N_INPUTS_OF[encoding], hidden)),
            b1=np.zeros(hidden),
            w2=rng.uniform(-0.1, 0.1, (hidden, n_out)),
            b2=np.zeros(n_out),
            outputs=outputs,
            variant=variant,
        )

    @property
    def spec(self) -> OutputSpec:
        return OUTPUTS[self.outputs]

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[1])

    @property
    def encoding(self) -> int:
        """The input encoding version (1, 2 or 3), told by the input rows of ``w1``."""
        return int(encoding_of(self.w1))

    def forward(self, x: np.ndarray[Any, Any]) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs of the input rows ``x`` (``(n, N_INPUTS_OF[encoding])``), each for the
        side to act."""
        hidden = _sigmoid(x @ self.w1 + self.b1)
        return _sigmoid(hidden @ self.w2 + self.b2)

    @kernels.needs("net")
    def evaluate(
        self, boards: np.ndarray[Any, Any], flip: bool = False, pending: int = 0
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """Outputs of kernel boards (``(n, 32)`` int8), for the side to act in each.

        The same values as ``forward(encode(boards, flip, pending))``, computed on the
        sparse inputs one board at a time (what the trainer does): faster for the few
        dozen boards of a roll than a dense product, and never waiting on BLAS threads.
        """
        boards = np.ascontiguousarray(np.atleast_2d(boards), dtype=np.int8)
        out = np.zeros((boards.shape[0], self.spec.size), dtype=np.float64)
        _evaluate_rows(boards, bool(flip), int(pending), self.w1, self.b1, self.w2, self.b2, out)
        return out

    # -- files ---------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Write the weights and metadata to ``path`` (an ``.npz``; written whole, then moved)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        header = {
            "encoding_version": self.encoding,
            "n_inputs": int(self.w1.shape[0]),
            "outputs": self.outputs,
            "variant": self.variant,
            "meta": self.meta,
        }
        with tmp.open("wb") as f:
            np.savez_compressed(
                f,
                header=np.array(json.dumps(header, sort_keys=True)),
                w1=self.w1,
                b1=self.b1,
                w2=self.w2,
                b2=self.b2,
            )
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """The network saved in ``path``; ``bg.net.file`` if unreadable, ``bg.net.version``
        if made for an input encoding other than 1, 2 and 3."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                header = json.loads(str(data["header"]))
                arrays = {k: np.array(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2")}
            if not isinstance(header, dict):
                raise ValueError("the header is not an object")
        except FileNotFoundError:
            raise ArgumentError(
                "bg.net.file", path=str(path), reason=message("bg.net.reason.missing")
            ) from None
        except OSError as exc:  # a folder, no permission: the system's own words
            reason = message("bg.net.reason.os", detail=exc.strerror or type(exc).__name__)
            raise ArgumentError("bg.net.file", path=str(path), reason=reason) from None
        except (ValueError, KeyError, EOFError, zipfile.BadZipFile):
            # not an .npz of weights: a broken zip, a cut array, a pickle (never loaded)
            raise ArgumentError(
                "bg.net.file", path=str(path), reason=message("bg.net.reason.not_weights")
            ) from None
        version = header.get("encoding_version")
        if version not in N_INPUTS_OF or isinstance(version, bool):
            expected = ", ".join(str(v) for v in N_INPUTS_OF)
            raise ArgumentError("bg.net.version", path=str(path), found=version, expected=expected)
        outputs = header.get("outputs")
        if outputs not in OUTPUTS or arrays["w1"].shape[0] != N_INPUTS_OF[version]:
            raise ArgumentError("bg.net.shape", path=str(path))
        hidden = arrays["w1"].shape[1]
        n_out = OUTPUTS[outputs].size
        shapes = {"b1": (hidden,), "w2": (hidden, n_out), "b2": (n_out,)}
        if any(arrays[k].shape != shape for k, shape in shapes.items()):
            raise ArgumentError("bg.net.shape", path=str(path))
        return cls(
            **arrays,
            outputs=outputs,
            variant=str(header.get("variant", "")),
            meta=dict(header.get("meta", {})),
        )


def average(networks: list[Network]) -> Network:
    """The mean of checkpoints of one network (the same variant, outputs and shapes): each
    weight averaged, the last checkpoint's metadata with the average recorded in its
    history.  Averaging the checkpoints of a run's last stretch at a low constant learning
    rate smooths out the noise each TD step leaves in the weights (Polyak averaging);
    ``bg.net.average`` when two of them are not checkpoints of one network."""
    last = networks[-1]
    for other in networks[:-1]:
        kind = (other.variant, other.outputs, other.w1.shape)
        if kind != (last.variant, last.outputs, last.w1.shape):
            raise ArgumentError(
                "bg.net.average",
                first=f"{other.variant}, {other.outputs}, {other.w1.shape[1]}",
                second=f"{last.variant}, {last.outputs}, {last.w1.shape[1]}",
            )
    mean = {
        name: np.mean([getattr(n, name) for n in networks], axis=0)
        for name in ("w1", "b1", "w2", "b2")
    }
    meta = json.loads(json.dumps(last.meta))
    meta.setdefault("history", []).append(
        {"average": [int(n.meta.get("games", 0)) for n in networks]}
    )
    return Network(**mean, outputs=last.outputs, variant=last.variant, meta=meta)


def widen(net: Network, encoding: int = ENCODING_VERSION) -> Network:
    """``net`` as a network of the later ``encoding``: its weights on the inputs both
    share, zero weights on the new ones, so it evaluates every position exactly as
    before; the training state is kept (a resumed run goes on from its game count) and
    the change recorded in its history.  A network already of ``encoding`` is copied."""
    rows = N_INPUTS_OF[encoding]
    if net.w1.shape[0] > rows:
        raise ValueError(f"cannot narrow a network of encoding {net.encoding} to {encoding}")
    w1 = np.zeros((rows, net.hidden), dtype=np.float64)
    w1[: net.w1.shape[0]] = net.w1
    meta = json.loads(json.dumps(net.meta))
    if net.encoding != encoding:
        meta.setdefault("history", []).append(
            {"games": int(meta.get("games", 0)), "widened": [net.encoding, encoding]}
        )
    return Network(
        w1=w1, b1=net.b1.copy(), w2=net.w2.copy(), b2=net.b2.copy(),
        outputs=net.outputs, variant=net.variant, meta=meta,
    )  # fmt: skip


def grow(net: Network, hidden: int, seed: int) -> Network:
    """``net`` with ``hidden`` hidden units: the new units' input weights uniform in ±0.1
    (as a fresh network's) from ``seed``, their biases and output weights zero, so it
    evaluates every position exactly as before while training can use them (each new
    unit's output weight learns from its activation, its input weights from there).  The
    training state is kept and the change recorded in its history.  A network of
    ``hidden`` units is copied; one of more is never shrunk."""
    extra = hidden - net.hidden
    if extra < 0:
        raise ValueError(f"cannot shrink a network of {net.hidden} hidden units to {hidden}")
    rng = np.random.default_rng(seed)
    meta = json.loads(json.dumps(net.meta))
    if extra:
        meta.setdefault("history", []).append(
            {"games": int(meta.get("games", 0)), "grown": [net.hidden, hidden]}
        )
        if "hyper" in meta:
            meta["hyper"]["hidden"] = hidden
    return Network(
        w1=np.hstack([net.w1, rng.uniform(-0.1, 0.1, (net.w1.shape[0], extra))]),
        b1=np.concatenate([net.b1, np.zeros(extra)]),
        w2=np.vstack([net.w2, np.zeros((extra, net.w2.shape[1]))]),
        b2=net.b2.copy(), outputs=net.outputs, variant=net.variant, meta=meta,
    )  # fmt: skip


def weights_path(variant: str) -> Path:
    """Where the package keeps the shipped weights of ``variant``."""
    return WEIGHTS_DIR / f"{variant}.npz"


#: The shipped network used for each scoring rule: the variant trained for it.
SHIPPED_FOR_SCORING = {"per_checker": "acey-deucey", "gammons": "classic", "single": "classic"}

#: Networks trained for a reading of the rules that changes play materially: for each
#: scoring's base network, the shipped files trained (or fine-tuned) under other option
#: values, and those values (each file records them too, in ``meta["options"]``).
READINGS: dict[str, tuple[tuple[str, dict[str, Any]], ...]] = {
    "acey-deucey": (("acey-deucey-exact-count", {"bearoff_rule": "exact_only"}),),
}


def shipped_for(rules: Any) -> Network:
    """The shipped network for a table's rules: the one trained under its reading.

    The scoring chooses the base network (:data:`SHIPPED_FOR_SCORING`); a network of
    :data:`READINGS` whose options all hold in ``rules`` replaces it (the one with the most
    such options), when its file is shipped.
    """
    base = SHIPPED_FOR_SCORING[rules.scoring]
    fitting = [
        (len(options), name)
        for name, options in READINGS.get(base, ())
        if all(getattr(rules, key) == value for key, value in options.items())
        and weights_path(name).is_file()
    ]
    return shipped(max(fitting)[1]) if fitting else shipped(base)


@cache
def shipped(variant: str) -> Network:
    """The shipped network of ``variant`` (a file of ``weights/``), loaded once.

    ``bg.net.missing`` when the package has no weights for it.
    """
    path = weights_path(variant)
    if not path.is_file():
        raise ArgumentError("bg.net.missing", variant=variant)
    return Network.load(path)
