"""No module of the package runs over 450 lines unless it is one cohesive thing.

A module does one thing and is named for it (DESIGN.md); a long one that mixes concerns is
split.  Each entry below says why its module stays long, or which issue will split it; the
list is trimmed as they are.
"""

from __future__ import annotations

from pathlib import Path

import aceydeucey

ROOT = Path(aceydeucey.__file__).parent
LIMIT = 450

#: path under the package -> why it may run long (one cohesive thing, or who splits it).
ALLOWED: dict[str, str] = {
    # one cohesive thing each
    "aces_in_the_pot/game.py": "one state machine: the Aces in the Pot state and its transitions",
    "aces_in_the_pot/analysis.py": "one exact solution: the game's value recursion and its tables",
    "backgammon/generate.py": "one move generator: plays from dice, with its option branches",
    "backgammon/kernel.py": "one compiled kernel: Numba functions that must share one module",
    "sim/inbetween_kernel.py": "one compiled kernel: the In-Between session loop in Numba",
    "backgammon/cubeful.py": "one cube model: Janowski's cubeful equity and its decisions",
    "kernels.py": "one build machinery: targets, the separate build process, locks and stamps",
    "backgammon/net.py": "one evaluator: the network's layers, features and weights I/O",
    "backgammon/evaluator.py": "one evaluator: the network's plays at 0, 2 and 3 ply, and the"
    " looks before a roll the cube reads, all on one batched kernel",
    "backgammon/turn.py": "one turn step (issue 16): the turn structure written once",
    "inbetween/rules.py": "one Rules dataclass: every option with its help and source",
    "inbetween/sheet.py": "one rules sheet: the sentences of every option, in rule order",
    "sim/td.py": "one trainer: the compiled TD(lambda) loop and its driver",
    "server/pages.py": "the pages' routes: each page's context, one per route",
    "cli/backgammon.py": "the backgammon terminal game: its loop, prompts and commands",
}


def _sizes() -> dict[str, int]:
    return {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(ROOT.rglob("*.py"))
    }


def test_no_module_runs_long_unless_listed() -> None:
    too_long = {p: n for p, n in _sizes().items() if n > LIMIT and p not in ALLOWED}
    assert not too_long, f"modules over {LIMIT} lines (split them, or list why): {too_long}"


def test_every_listed_module_exists_and_says_why() -> None:
    # A stale entry would let a new long module of that name in unnoticed.
    sizes = _sizes()
    assert all(path in sizes for path in ALLOWED), set(ALLOWED) - set(sizes)
    assert all(reason.strip() for reason in ALLOWED.values())
