"""Run every benchmark: ``python benchmarks/run.py [NAME ...]``.

Each ``bench_*.py`` beside this file is a script that prints its figures (and
ratios against a peer measured in the same run, where one exists).  This
runner executes them one after another in fresh processes so that one
benchmark's warm caches or compiled code never flatter another.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if any(name in s.stem for name in argv)]
    failed = 0
    for script in scripts:
        print(f"== {script.stem}", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(script)])
        print(f"   ({time.perf_counter() - start:.1f} s, exit {code})\n", flush=True)
        failed += code != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
