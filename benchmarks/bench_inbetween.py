"""In-Between speed: whole sessions through the contract API, and exact odds.

Prints, for each preset, sessions per second and actions per second with random
bots and with the exact expected-value bot (both driven by the core ``Table``,
chance from ``Seeded``), and how many exact post-odds queries per second
``inbetween.odds.post_odds`` answers.  There is no peer engine to compare with.
"""

from __future__ import annotations

import random
import time

import aceydeucey
from aceydeucey.cards import deck
from aceydeucey.core import Seeded, Table
from aceydeucey.inbetween.bots import BOTS
from aceydeucey.inbetween.odds import post_odds

SECONDS = 3.0


def sessions(preset: str, bot: str) -> tuple[float, float, int]:
    """(sessions/s, actions/s, sessions) for ``preset`` with every seat played by ``bot``."""
    game = aceydeucey.load_game("inbetween", preset=preset)
    start = time.perf_counter()
    played = actions = 0
    while time.perf_counter() - start < SECONDS:
        agents = [BOTS[bot](played * 10 + seat) for seat in range(game.num_players)]
        record = Table(game, agents, chance=Seeded(played)).play()
        actions += len(record.actions)
        played += 1
    elapsed = time.perf_counter() - start
    return played / elapsed, actions / elapsed, played


def odds_queries() -> float:
    rng = random.Random(0)
    cards = list(deck())
    pairs = []
    for _ in range(2000):
        rng.shuffle(cards)
        pairs.append((cards[0], cards[1], cards[2:8]))
    start = time.perf_counter()
    for low, high, seen in pairs:
        post_odds(low, high, seen=seen)
    return len(pairs) / (time.perf_counter() - start)


def main() -> None:
    for preset in ("guide", "banker", "sheets", "red-dog", "three-posts"):
        for bot in ("random", "ev"):
            per_s, acts, n = sessions(preset, bot)
            print(
                f"inbetween {preset} with {bot} bots: {per_s:,.1f} sessions/s, "
                f"{acts:,.0f} actions/s ({n} sessions)"
            )
    print(f"inbetween exact post odds: {odds_queries():,.0f} queries/s (posts + 6 seen cards)")


if __name__ == "__main__":
    main()
