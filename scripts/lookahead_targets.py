"""Fine-tune a backgammon network toward its own look-ahead values (an experiment).

Two steps, each a command (docs/bots.md has the figures of the run tried):

``label NET OUT --games G --seed S [--depth 1|2] [--limit N]``
    plays G games of NET against itself (the trainer's kernel, no learning), keeps every
    position before a roll but the bear-off races the exact table plays, and labels each
    with the ``Evaluator``'s look-ahead from NET: one roll deep (``lookahead_many``) or two
    (``before_roll_many``, what ``net3`` reads); ``--limit`` draws N of them at random.
    Writes ``boards`` and ``targets`` to OUT (``.npz``), every 6,400 positions too.
``fit NET OUT LABELS... --lr A --epochs E``
    fits NET's outputs to the targets (squared error, Adam, batches of 256, 5 % held out
    and its error printed after each epoch) and writes the network to OUT.
``siblings NET OUT --games G --seed S [--top K]``
    the decisions of G games of NET against itself in contact positions: for each, the
    best K plays by 2-ply (``net2``'s ranking), each labelled two rolls deep (what ``net3``
    reads), from the side to roll next. Writes ``boards`` (the mover's side, to be read
    flipped), ``targets`` and ``groups`` (the decision of each row).
``siblings ... --teacher look1``
    labels each of those plays one roll deep instead (``lookahead_many``: the values
    ``net2`` ranks them by).
``siblings ... --teacher rollout [--trials T] [--plies P]``
    labels each of those plays by a truncated rollout of NET's own 0-ply play instead
    (``Evaluator.rollout``): T games from the play's result (the first roll of game ``i`` is
    the ordered roll ``i mod 36``), P plies each, then NET's 0-ply value, the luck of each
    roll taken out (variance reduction), the same dice for every play of a decision.
``fit ... --centered W``
    with labels of ``siblings``: adds W times the squared error of each play's equity
    less its decision's mean (what ranks the plays), beside the outputs' squared error.
``misread NET OUT --kind K --positions N --seed S [--trials T]`` (``crashed`` also names it)
    positions the networks misread (:mod:`aceydeucey.backgammon.misread`; K: ``crashed``,
    the default, a side hit late against a made home board, or ``primes``, prime against
    prime), half of them with the other side on roll, each labelled by T rollouts of
    NET's 0-ply play to the game's end, the luck taken out; written as ``siblings`` rows
    (one play a decision) to join their labels in ``fit``.
``trajectories NET OUT --games G --seed S [--plies P]``
    every position before a roll of G games of NET against itself (up to the bear-off
    races), each labelled with a one-trial truncated rollout of P plies along the game's
    own dice, the luck taken out (:func:`trajectory_targets`); writes ``boards``,
    ``targets`` and what they are made of (``look``, ``value``, ``seat``, ``game``).
``fit ... --plies P``
    with ``trajectories`` files: the targets of P plies instead; whole games held out.
``fit ... --anchor-games G [--anchor-weight A] [--anchor-seed S]``
    holds the positions before a roll of G self-play games of NET (the bear-off races
    aside) to NET's own values: each batch of labels is joined by as many of them, their
    squared error weighted A, so the fit moves the network only where the labels speak.

Measure the result against NET with ``benchmarks/bench_networks.py OUT NET``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from aceydeucey.backgammon import bearoff
from aceydeucey.backgammon.evaluator import Evaluator
from aceydeucey.backgammon.misread import KINDS
from aceydeucey.backgammon.net import Network, encode
from aceydeucey.backgammon.rules import BackgammonRules
from aceydeucey.sim.playouts import SLOTS, TRACE_ROLL
from aceydeucey.sim.td import trace_game


def positions(net: Network, games: int, seed: int) -> Any:
    """Every position before a roll of ``games`` games of ``net`` against itself, but the
    bear-off races the exact table plays."""
    rules = BackgammonRules.resolve(variant=net.variant)
    found = []
    for game in range(games):
        _, events = trace_game(net, rules, seed, first_game=game)
        found.append(events[events[:, 0] == TRACE_ROLL, 4 : 4 + SLOTS].astype(np.int8))
    boards = np.concatenate(found)
    keep = np.ones(len(boards), dtype=bool)
    keep[bearoff.race_rows(boards)] = False
    return boards[keep]


def label(args: argparse.Namespace) -> None:
    net = Network.load(args.net)
    evaluator = Evaluator(BackgammonRules.resolve(variant=net.variant), net)
    boards = positions(net, args.games, args.seed)
    if args.limit and args.limit < len(boards):
        rng = np.random.default_rng(args.seed)
        boards = boards[rng.choice(len(boards), args.limit, replace=False)]
    targets = np.zeros((len(boards), net.spec.size))
    start = time.perf_counter()
    batch = 256 if args.depth == 1 else 64
    for i in range(0, len(boards), batch):
        part = boards[i : i + batch]
        if args.depth == 1:
            targets[i : i + batch] = evaluator.lookahead_many(part, 0, 0)
        else:
            targets[i : i + batch] = evaluator.before_roll_many(part)
        if (i // batch) % (6400 // batch) == 0:
            np.savez(args.out, boards=boards[: i + batch], targets=targets[: i + batch])
            print(f"{i + len(part)} of {len(boards)} ({time.perf_counter() - start:.0f} s)")
    np.savez(args.out, boards=boards, targets=targets)
    gap = np.abs(net.evaluate(boards, False, 0) - targets).mean(axis=0)
    print(f"{len(boards)} positions; mean |network - look-ahead| by output: {gap.round(4)}")


def siblings(args: argparse.Namespace) -> None:
    from aceydeucey.backgammon.board import CHECKERS
    from aceydeucey.backgammon.generate import position_of_board
    from aceydeucey.backgammon.pubeval import is_race

    net = Network.load(args.net)
    rules = BackgammonRules.resolve(variant=net.variant)
    evaluator = Evaluator(rules, net)
    boards: list[Any] = []
    targets: list[Any] = []
    groups: list[int] = []
    start = time.perf_counter()
    decision = 0
    for game in range(args.games):
        _, events = trace_game(net, rules, args.seed, first_game=game)
        for row in events[events[:, 0] == TRACE_ROLL]:
            position = position_of_board(row[4 : 4 + SLOTS].astype(np.int8).tobytes())
            if is_race(position):
                continue
            d1, d2 = int(row[2]), int(row[3])
            dice = (d1,) * 4 if d1 == d2 else (d1, d2)
            ranked = evaluator._rank0(position, dice, "roll", 0)
            if len(ranked.ranking) < 2 or not ranked.flip:
                continue
            ranked = evaluator._deepen(ranked)
            top = [r for r in ranked.ranking[: args.top] if ranked.boards[r, 28] != CHECKERS]
            if len(top) < 2:
                continue
            boards.append(ranked.boards[top])
            if args.teacher == "rollout":  # the same dice for every play of the decision
                seed = args.seed * 1_000_000 + decision
                targets.append(
                    [
                        evaluator.rollout(ranked.flipped[r], args.trials, args.plies, seed).mean(0)
                        for r in top
                    ]
                )
            elif args.teacher == "look1":  # one roll deep: net2's own values
                targets.append(evaluator.lookahead_many(ranked.flipped[top], 0, 0))
            else:
                targets.append(evaluator.before_roll_many(ranked.flipped[top], 0))
            groups.extend([decision] * len(top))
            decision += 1
        if boards:  # after every game: a stop loses at most the game under way
            np.savez(
                args.out,
                boards=np.concatenate(boards),
                targets=np.concatenate(targets),
                groups=np.array(groups),
            )
            print(f"game {game + 1}: {decision} decisions ({time.perf_counter() - start:.0f} s)")


def misread(args: argparse.Namespace) -> None:
    from aceydeucey.backgammon import generate, kernel
    from aceydeucey.backgammon.misread import positions

    net = Network.load(args.net)
    evaluator = Evaluator(BackgammonRules.resolve(variant=net.variant), net)
    boards, targets = [], []
    start = time.perf_counter()
    for i, position in enumerate(positions(args.kind, args.positions, args.seed)):
        board = generate.to_board(position).reshape(kernel.SLOTS)
        targets.append(
            evaluator.rollout(board, args.trials, 400, args.seed * 1_000_000 + i).mean(0)
        )
        boards.append(kernel.flip_board(board))  # read flipped, as siblings' rows are
        if (i + 1) % 100 == 0 or i + 1 == args.positions:
            np.savez(
                args.out,
                boards=np.array(boards),
                targets=np.array(targets),
                groups=np.arange(len(boards)),
            )
            print(f"{i + 1} positions ({time.perf_counter() - start:.0f} s)", flush=True)


def trajectory_targets(
    lookahead: Any, value: Any, seats: Any, plies: int, perm: Any, comp: Any
) -> Any:
    """The targets of one game's positions before a roll (in order, each from its side to
    roll): what a truncated rollout of ``plies`` plies with the luck taken out gives along
    the game's own dice. A trial's value is its last position's value less the luck of
    each roll, ``luck_k = V(s_k+1) - L(s_k)`` (``L``: the one-roll look, the mean over the
    rolls; ``V``: 0-ply), which telescopes to ``L(s_t) + sum_{k=t+1}^{t+plies-1} (L(s_k) -
    V(s_k))``, each term read from ``s_t``'s side (a difference seen from the other side is
    permuted and negated where the outputs are complemented). The game's end and the
    bear-off races (the caller stops the game there) end the sum."""
    gap = lookahead - value
    other = np.where(np.asarray(comp, dtype=bool), -gap[:, perm], gap[:, perm])
    targets = lookahead.copy()
    for k in range(1, plies):
        same = seats[k:] == seats[:-k]
        targets[:-k] += np.where(same[:, None], gap[k:], other[k:])
    return targets


def trajectories(args: argparse.Namespace) -> None:
    net = Network.load(args.net)
    rules = BackgammonRules.resolve(variant=net.variant)
    evaluator = Evaluator(rules, net)
    perm, comp, _ = net.spec.arrays()
    parts: dict[str, list[Any]] = {key: [] for key in ("boards", "look", "value", "seat", "game")}
    start = time.perf_counter()
    for game in range(args.games):
        _, events = trace_game(net, rules, args.seed, first_game=game)
        rows = events[events[:, 0] == TRACE_ROLL]
        board = rows[:, 4 : 4 + SLOTS].astype(np.int8)
        races = bearoff.race_rows(board)
        stop = int(np.min(races)) if len(races) else len(board)
        if not stop:
            continue
        parts["boards"].append(board[:stop])
        parts["look"].append(evaluator.lookahead_many(board[:stop], 0, 0))
        parts["value"].append(net.evaluate(board[:stop], False, 0))
        parts["seat"].append(rows[:stop, 1])
        parts["game"].append(np.full(stop, game))
        if (game + 1) % 100 == 0 or game + 1 == args.games:
            data = {key: np.concatenate(rows) for key, rows in parts.items()}
            data["targets"] = rollout_targets(data, args.plies, perm, comp)
            np.savez(args.out, **data)
            count = len(data["boards"])
            print(f"game {game + 1}: {count} positions ({time.perf_counter() - start:.0f} s)")


def rollout_targets(data: Any, plies: int, perm: Any, comp: Any) -> Any:
    """:func:`trajectory_targets` of every game of a ``trajectories`` file."""
    game = data["game"]
    targets = np.empty_like(data["look"])
    starts = np.flatnonzero(np.r_[True, game[1:] != game[:-1]])
    for a, b in zip(starts, np.r_[starts[1:], len(game)], strict=True):
        targets[a:b] = trajectory_targets(
            data["look"][a:b], data["value"][a:b], data["seat"][a:b], plies, perm, comp
        )
    return targets


def fit(args: argparse.Namespace) -> None:
    net = Network.load(args.net)
    data = [np.load(name) for name in args.labels]
    boards = np.concatenate([d["boards"] for d in data])
    flipped = "groups" in data[0]  # siblings: the plays' boards, read by the other side
    x = encode(boards, flipped, 0, encoding=net.encoding).astype(np.float32)
    if args.plies:  # trajectories files: the targets of another rollout length
        perm, comp, _ = net.spec.arrays()
        t = np.concatenate([rollout_targets(d, args.plies, perm, comp) for d in data])
        t = t.astype(np.float32)
    else:
        t = np.concatenate([d["targets"] for d in data]).astype(np.float32)
    rng = np.random.default_rng(0)
    if flipped:  # hold out and shuffle whole decisions
        offset, parts = 0, []
        for d in data:
            parts.append(d["groups"] + offset)
            offset = int(parts[-1].max()) + 1
        group = np.concatenate(parts)
        starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        bounds = list(zip(starts, np.r_[starts[1:], len(group)], strict=True))
        picks = rng.permutation(len(bounds))
        cut = len(bounds) // 20
        held = np.concatenate([np.arange(*bounds[i]) for i in picks[:cut]])
        train_groups = [bounds[i] for i in picks[cut:]]
    elif "game" in data[0]:  # trajectories: hold out whole games (their labels share dice)
        game = np.concatenate([d["game"] + 1_000_000 * i for i, d in enumerate(data)])
        kept = rng.permutation(np.unique(game))
        out = np.isin(game, kept[: len(kept) // 20])
        held, train = np.flatnonzero(out), np.flatnonzero(~out)
    else:
        order = rng.permutation(len(x))
        held, train = order[: len(x) // 20], order[len(x) // 20 :]
    if args.anchor_games:  # held to NET's values: the fit moves only what the labels speak of
        anchors = positions(net, args.anchor_games, args.anchor_seed)
        xa = encode(anchors, False, 0, encoding=net.encoding).astype(np.float32)
        ta = net.evaluate(anchors, False, 0).astype(np.float32)
        print(f"{len(xa)} anchor positions, weight {args.anchor_weight}")
    coef = np.array(net.spec.coef, dtype=np.float32)
    params = [a.astype(np.float32) for a in (net.w1, net.b1, net.w2, net.b2)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]

    def forward(rows: Any) -> tuple[Any, Any]:
        hidden = 1.0 / (1.0 + np.exp(-(rows @ params[0] + params[1])))
        return hidden, 1.0 / (1.0 + np.exp(-(hidden @ params[2] + params[3])))

    def centered(rows: Any, out: Any) -> Any:
        """Each row's equity error less its decision's mean error."""
        gap = (out - t[rows]) @ coef
        ids = np.unique(group[rows], return_inverse=True)[1]
        mean = np.bincount(ids, gap) / np.bincount(ids)
        return gap - mean[ids]

    def error(rows: Any) -> str:
        out = forward(x[rows])[1]
        text = f"{float(((out - t[rows]) ** 2).mean()):.3e}"
        if flipped:
            text += f", centered equity {float((centered(rows, out) ** 2).mean()):.3e}"
        return text

    print(f"{len(x)} positions; held-out squared error {error(held)}")
    step = 0
    for epoch in range(args.epochs):
        if flipped:
            picked = rng.permutation(len(train_groups))
            train = np.concatenate([np.arange(*train_groups[i]) for i in picked])
        else:
            rng.shuffle(train)
        for i in range(0, len(train), 256):
            rows = train[i : i + 256]
            inputs = x[rows]
            hidden, out = forward(inputs)
            d_out = (out - t[rows]) * (2.0 / len(rows))
            if flipped and args.centered:
                d_out += np.outer(centered(rows, out), coef) * (2.0 * args.centered / len(rows))
            if args.anchor_games:  # as many anchor positions beside each batch
                picked_anchors = rng.integers(0, len(xa), len(rows))
                hidden_a, out_a = forward(xa[picked_anchors])
                d_anchor = (out_a - ta[picked_anchors]) * (2.0 * args.anchor_weight / len(rows))
                inputs = np.concatenate([inputs, xa[picked_anchors]])
                hidden = np.concatenate([hidden, hidden_a])
                out = np.concatenate([out, out_a])
                d_out = np.concatenate([d_out, d_anchor])
            d_out *= out * (1.0 - out)
            d_hidden = d_out @ params[2].T * hidden * (1.0 - hidden)
            grads = (inputs.T @ d_hidden, d_hidden.sum(0), hidden.T @ d_out, d_out.sum(0))
            step += 1
            for p, g, m, v in zip(params, grads, first, second, strict=True):
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= args.lr * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        drift = ""
        if args.anchor_games:
            drift = f"; anchors' squared drift {float(((forward(xa)[1] - ta) ** 2).mean()):.3e}"
        print(f"epoch {epoch + 1}: held-out squared error {error(held)}{drift}")
    w1, b1, w2, b2 = (p.astype(np.float64) for p in params)
    meta = {
        **net.meta,
        "lookahead_targets": {
            "lr": args.lr,
            "epochs": args.epochs,
            "centered": args.centered,
            "anchor_games": args.anchor_games,
            "anchor_weight": args.anchor_weight,
        },
    }
    Network(w1, b1, w2, b2, outputs=net.outputs, variant=net.variant, meta=meta).save(args.out)
    print(f"written: {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)

    def self_play(name: str, games: int) -> argparse.ArgumentParser:
        """A step that labels ``--games`` self-play games of NET, written to OUT."""
        step = steps.add_parser(name)
        step.add_argument("net")
        step.add_argument("out")
        step.add_argument("--games", type=int, default=games)
        step.add_argument("--seed", type=int, default=1)
        return step

    one = self_play("label", 10_000)
    one.add_argument("--depth", type=int, choices=(1, 2), default=1)
    one.add_argument("--limit", type=int, default=0)
    two = steps.add_parser("fit")
    two.add_argument("net")
    two.add_argument("out")
    two.add_argument("labels", nargs="+")
    two.add_argument("--lr", type=float, default=1e-4)
    two.add_argument("--epochs", type=int, default=2)
    two.add_argument("--centered", type=float, default=0.0)
    two.add_argument("--plies", type=int, default=0)
    two.add_argument("--anchor-games", type=int, default=0)
    two.add_argument("--anchor-seed", type=int, default=99)
    two.add_argument("--anchor-weight", type=float, default=1.0)
    three = self_play("siblings", 1_000)
    three.add_argument("--top", type=int, default=3)
    three.add_argument("--teacher", choices=("look", "look1", "rollout"), default="look")
    three.add_argument("--trials", type=int, default=36)
    three.add_argument("--plies", type=int, default=10)
    self_play("trajectories", 1_000).add_argument("--plies", type=int, default=10)
    four = steps.add_parser("misread", aliases=["crashed"])
    four.add_argument("--kind", choices=tuple(KINDS), default="crashed")
    four.add_argument("net")
    four.add_argument("out")
    four.add_argument("--positions", type=int, default=5_000)
    four.add_argument("--seed", type=int, default=1)
    four.add_argument("--trials", type=int, default=36)
    args = parser.parse_args()
    steps_of = {
        "label": label,
        "fit": fit,
        "siblings": siblings,
        "trajectories": trajectories,
        "misread": misread,
        "crashed": misread,
    }
    steps_of[args.step](args)


if __name__ == "__main__":
    main()
