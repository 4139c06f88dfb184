"""Aces in the Pot: time and peak memory to solve the game exactly, 3 to 8 players.

Targets: under 1 s up to 6 players, under 30 s for 8.  Each size is solved
from scratch (the chain is rebuilt) and timed without tracing; a second, traced
solve gives the peak heap (tracemalloc, which sees NumPy's arrays), and the
process's maximum resident size is printed at the end.  Exact fractions are
timed for 3 players.  The first float solve of a
large chain may include compiling the numba kernel (cached afterwards); it is
warmed up on 7 players before the timed runs.
"""

from __future__ import annotations

import resource
import sys
import time
import tracemalloc

from aceydeucey.aces_in_the_pot.analysis import solve
from aceydeucey.aces_in_the_pot.rules import AcesRules

TARGETS = {3: 1.0, 4: 1.0, 5: 1.0, 6: 1.0, 7: None, 8: 30.0}


def measure(players: int, exact: bool) -> tuple[float, float, str]:
    """Seconds of an untraced solve, then peak heap (MiB) of a second, traced solve."""
    rules = AcesRules.resolve(players=players)
    start = time.perf_counter()
    solution = solve(rules, exact=exact)
    seconds = time.perf_counter() - start
    tracemalloc.start()
    solve(rules, exact=exact)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    shown = ", ".join(f"{p:.6f}" for p in solution.win_probability)
    return seconds, peak / 2**20, f"{solution.states} states; P(win) {shown}"


def main(argv: list[str]) -> int:
    largest = int(argv[0]) if argv else 8
    solve(AcesRules.resolve(players=7), exact=False)  # warm-up: numba compile or cache load
    failed = 0
    seconds, peak, info = measure(3, exact=True)
    print(f"N=3 exact fractions: {seconds:.3f} s, peak heap {peak:.1f} MiB ({info})")
    for players in range(3, largest + 1):
        seconds, peak, info = measure(players, exact=False)
        target = TARGETS.get(players)
        verdict = "" if target is None else (" ok" if seconds < target else " OVER TARGET")
        goal = "" if target is None else f" (target < {target:g} s){verdict}"
        print(f"N={players} floats: {seconds:.3f} s{goal}, peak heap {peak:.1f} MiB ({info})")
        failed += verdict == " OVER TARGET"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"max resident size of the whole run: {rss:.0f} MiB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
