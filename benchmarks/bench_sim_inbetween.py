"""In-Between simulator speed: hands per second, against the engine and the bare generator.

Run: ``python benchmarks/bench_sim_inbetween.py`` (about half a minute).

One run prints, for guide sessions of 4 players (one seat each of ``ev``, ``kelly``,
``cautious`` and ``random``, rotating every session) and for 4 ``ev`` seats:

* the simulator's hands per second (``sim.inbetween.play_sessions``, every thread Numba
  has; a hand is one player's turn; wall time of the kernel, compilation excluded);
* the reference engine playing the same sessions: the same deck orders dealt through
  the core ``Table`` to the agents of the same names, checked to end exactly as the
  simulator ends them on those decks; its hands per second, and the simulator's ratio
  to it (target: at least 1,000);
* the bare generator: the same count of draws per session from the kernel's own
  generator (SplitMix64 with Lemire's exact bounded draws, the same threads), as hands
  per second at the draws a hand needs; the simulator's ratio to it (1 would mean the
  game itself costs nothing beyond its random numbers).  NumPy's
  ``Generator.integers`` rate for the same draws is printed beside it.

End to end, as ``aceydeucey simulate inbetween --json`` reports it (``hands / seconds``:
``sim.inbetween_runs.simulate``, the command's whole run of ``E2E_SESSIONS`` sessions with
its default seats ``ev,kelly,random``, the kernel loaded before the clock as the command
does), then the same for each of the five presets (seats ``ev``, ``kelly``, ``cautious``,
``random`` in turn): hands per second, the CPU time and hands per CPU-second, Numba's
threads, the load average when the run began, and the peer ratio to NumPy's raw draws
(``Generator.integers`` below 52, one thread, draws per second).

Then the ``session`` strategy against ``ev``: ``SESSION_SESSIONS`` guide sessions with one
``session`` seat and three ``ev`` seats (rotating), its win rate with a 95 % interval beside
the ``ev`` seats' rate, against the quarter that an ``ev`` seat wins among four ``ev``
seats (measured in the same run).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

import aceydeucey
from aceydeucey.core import Table
from aceydeucey.inbetween.bots import BOTS
from aceydeucey.inbetween.rules import PRESET_NAMES, Rules
from aceydeucey.inbetween.state import InBetweenState
from aceydeucey.sim.inbetween import deck_orders, play_sessions, raw_draws
from aceydeucey.sim.inbetween_bots import STRATEGIES
from aceydeucey.sim.inbetween_engine import DeckChance
from aceydeucey.sim.inbetween_runs import prepare, simulate, summarize

SIM_SESSIONS = 4_000_000
E2E_SESSIONS = 3_000_000
SESSION_SESSIONS = 40_000
ENGINE_SECONDS = 4.0
AGENTS: dict[str, Any] = {**BOTS, **STRATEGIES}
#: The seats of the presets' end-to-end runs (cycled over the table).
PRESET_SEATS = ("ev", "kelly", "cautious", "random")


def draws_per_session(rules: Rules, batch: Any) -> float:
    """Random numbers a session used: first cards of each round begun, a second post per
    hand, a third card per stake, and a draw per decision of a ``random`` seat."""
    n = rules.players
    rounds = -(-batch.hands // n)
    bets = batch.tally[:, :, 1:].sum(axis=(1, 2))
    random_index = [i for i, s in enumerate(batch.strategies) if s == "random"]
    random_hands = batch.tally[np.isin(batch.seat_strategy, random_index)].sum()
    total = (n * rounds + batch.hands + bets).sum() + random_hands
    return float(total / batch.sessions)


def engine(rules: Rules, strategies: Sequence[str]) -> tuple[float, int]:
    """(hands/s, sessions) of the engine on the simulator's first sessions' decks, each
    checked against the simulator's result on the same decks."""
    game = aceydeucey.load_game("inbetween", **rules.to_dict())
    n = rules.players
    ranks, cards = deck_orders(rules, 20_000, seed=1)
    check = play_sessions(rules, strategies, 20_000, decks=ranks)
    hands = played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < ENGINE_SECONDS:
        g = played
        agents = [AGENTS[strategies[(s + g) % n]](g * 10 + s) for s in range(n)]
        table = Table(game, agents, chance=DeckChance(cards[g]))
        table.play()
        state = table.state
        assert isinstance(state, InBetweenState)
        if "random" not in strategies:
            assert state.chips == tuple(int(c) for c in check.chips[g]), g
        hands += int(check.hands[g]) if "random" not in strategies else _hands(table)
        played += 1
    return hands / (time.perf_counter() - start), played


def _hands(table: Table) -> int:
    return sum(1 for a in table.record.actions if a == "pass" or a.startswith("bet "))


def end_to_end() -> None:
    """The command's figure: hands / seconds of a whole run (see the module), for the
    guide's default seats and then for every preset (all five in the compiled kernel),
    with the machine's load beside it (``os.getloadavg``: the machine is shared)."""
    rng = np.random.default_rng(0)
    began = time.perf_counter()
    rng.integers(0, 52, size=30_000_000)
    numpy_draws = 30_000_000 / (time.perf_counter() - began)
    runs: list[tuple[str, Rules, tuple[str, ...]]] = [
        ("guide", Rules.resolve(players=3), ("ev", "kelly", "random")),
    ]
    for preset in PRESET_NAMES:
        rules = Rules.resolve(preset=preset)
        runs.append((preset, rules, tuple(PRESET_SEATS[s % 4] for s in range(rules.players))))
    for preset, rules, names in runs:
        prepare(rules, names)
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        acc = simulate(rules, names, E2E_SESSIONS)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        rate = acc.hands / wall
        print(
            f"inbetween {preset} end to end [{','.join(names)}] (simulate --json): "
            f"{rate:,.0f} hands/s ({E2E_SESSIONS:,} sessions, {acc.hands:,} hands, "
            f"{wall:.2f} s wall, {cpu:.2f} s CPU: {acc.hands / cpu:,.0f} hands per CPU-second, "
            f"kernel {acc.seconds:.2f} s, {numba.get_num_threads()} threads, load {load:.1f}); "
            f"hands / NumPy raw draws ({numpy_draws:,.0f}/s): {rate / numpy_draws:.3f}"
        )


def main() -> None:
    threads = numba.get_num_threads()
    print(f"numba threads: {threads}")
    end_to_end()
    rules = Rules.resolve(players=4)
    for strategies in (("ev", "kelly", "cautious", "random"), ("ev", "ev", "ev", "ev")):
        label = ",".join(strategies)
        play_sessions(rules, strategies, 1000)  # compiled (or loaded) before the clock
        batch = play_sessions(rules, strategies, SIM_SESSIONS, seed=7, keep=True)
        hands = int(batch.hands.sum())
        sim_rate = hands / batch.seconds
        print(
            f"inbetween guide [{label}] simulator: {sim_rate:,.0f} hands/s "
            f"({SIM_SESSIONS:,} sessions, {hands:,} hands, {batch.seconds:.2f} s)"
        )
        ref_rate, played = engine(rules, strategies)
        print(
            f"inbetween guide [{label}] engine (Table, same decks): {ref_rate:,.0f} hands/s "
            f"({played:,} sessions); simulator / engine: {sim_rate / ref_rate:,.0f}x"
        )
        per_session = draws_per_session(rules, batch)
        per_hand = per_session * SIM_SESSIONS / hands
        draws = round(per_session)
        seconds = raw_draws(draws, SIM_SESSIONS, 52)
        raw_hands = draws * SIM_SESSIONS / seconds / per_hand
        rng = np.random.default_rng(0)
        total = draws * SIM_SESSIONS // 10
        began = time.perf_counter()
        rng.integers(0, 52, size=total)
        numpy_rate = total / (time.perf_counter() - began) / per_hand
        print(
            f"inbetween guide [{label}] generator alone: {raw_hands:,.0f} hands/s at "
            f"{per_hand:.2f} draws a hand; simulator / generator: {sim_rate / raw_hands:.2f} "
            f"(NumPy integers, one thread: {numpy_rate:,.0f} hands/s)"
        )

    play_sessions(rules, ("session", "ev", "ev", "ev"), 10)
    batch = play_sessions(rules, ("session", "ev", "ev", "ev"), SESSION_SESSIONS, seed=3)
    stats = {st.strategy: st for st in summarize(batch)}
    base = {st.strategy: st for st in summarize(play_sessions(rules, ("ev",) * 4, 400_000))}
    me, ev = stats["session"], stats["ev"]
    print(
        f"inbetween guide session vs 3 ev: session wins {me.win_rate:.4f} "
        f"± {me.win_ci:.4f} (95 %), each ev seat {ev.win_rate:.4f} ± {ev.win_ci:.4f}; "
        f"an ev seat among 4 ev: {base['ev'].win_rate:.4f}; mean balances "
        f"{me.mean_balance:.2f} vs {ev.mean_balance:.2f}; "
        f"{batch.hands.sum() / batch.seconds:,.0f} hands/s ({SESSION_SESSIONS:,} sessions)"
    )


if __name__ == "__main__":
    main()
