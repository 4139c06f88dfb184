"""In-Between speed: the engine's hands per second, whole sessions, and exact odds.

Prints, for each preset, the engine's hands per second (a plain loop through the
contract: a uniform random legal decision, chance from ``Seeded``; a hand is one
player's turn settled: a third card, a pass, a pair or neighbours rule, Red Dog's
common hand; CPU time, so that a busy machine reads the same), then sessions and
actions per second with random bots and with the exact expected-value bot (both
driven by the core ``Table``, which builds an observation for every decision), and
how many exact post-odds queries per second ``inbetween.odds.post_odds`` answers.
There is no peer engine to compare with.  Issue 7's baseline: about 1,000 hands/s
on the guide before the state was split and the shoe carried its counts (3x asked).
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
#: Events that close a hand (``hands``).
HAND_ENDS = frozenset(("settle", "pass", "adjacent-loss", "push", "pair-win", "house-takes"))


def hands(preset: str, seconds: float = 2.0) -> tuple[float, float]:
    """(hands/s, actions/s) of the bare engine on ``preset``, in CPU time."""
    game = aceydeucey.load_game("inbetween", preset=preset)
    rng = random.Random(0)
    start = time.process_time()
    played = count = actions = 0
    while time.process_time() - start < seconds:
        chance = Seeded(played)
        played += 1
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = chance.choose(state)
            else:
                action = rng.choice(list(state.legal_actions()))
            state = state.apply(action)
            actions += 1
            event = state.event_view()
            if event is not None:
                count += event["kind"] in HAND_ENDS
                count += sum(e["kind"] in HAND_ENDS for e in event.get("after", ()))
    elapsed = time.process_time() - start
    return count / elapsed, actions / elapsed


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
    presets = ("guide", "banker", "sheets", "red-dog", "three-posts")
    for preset in presets:
        per_s, acts = hands(preset)
        print(f"inbetween {preset} engine: {per_s:,.0f} hands/s, {acts:,.0f} actions/s (CPU time)")
    for preset in presets:
        for bot in ("random", "ev"):
            per_s, acts, n = sessions(preset, bot)
            print(
                f"inbetween {preset} with {bot} bots: {per_s:,.1f} sessions/s, "
                f"{acts:,.0f} actions/s ({n} sessions)"
            )
    print(f"inbetween exact post odds: {odds_queries():,.0f} queries/s (posts + 6 seen cards)")


if __name__ == "__main__":
    main()
