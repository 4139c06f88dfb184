"""The kernel always ends: the rule set that once looped, its draws, and the two guards.

The defect: under ``stake_cap="none"`` a seat may stake the whole pot without covering
the loss, so lost stakes grow the pot without bound (a lost stake of the whole pot
doubles it, a post multiplies it by ``post_multiplier + 1``).  In session 14,944 of the
run below (seed 304) the pot passed 2**32 chips within 30 rounds; a ``random`` seat then
drew its stake below ``pot + 1`` with Lemire's 32-bit method, which holds only for
bounds below 2**32.  The session's 243rd draw had the bound 7,990,593,329 and the
rejection threshold 6,788,128,031, above every 32-bit word, so the loop never ended.
Now every draw's bound is exact up to 2**63, and a session stops with a coded error when
its pot or a seat's chips pass ``CHIP_LIMIT``.

The checks that would hang if the defect came back run in a child process with a
timeout, so that they fail instead of stalling the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

import aceydeucey
from aceydeucey.core.errors import ArgumentError, RulesError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import CHIP_LIMIT, play_sessions
from aceydeucey.sim.inbetween_rng import _below, _seed

#: The rule set, strategies, seed and session that looped in the kernel.
LOOPED: dict[str, Any] = {
    "players": 3,
    "starting_chips": 300,
    "ante": 4,
    "ante_each_round": False,
    "rounds": 30,
    "post_multiplier": 4,
    "stake_cap": "none",
    "min_stake": "one",
    "first_round_limit": "pot",
}
LOOPED_STRATEGIES = ("random", "ev", "kelly")
LOOPED_SEED, LOOPED_SESSION = 304, 14944
#: Bounds of the wide path; the session that looped drew below the third, then the fourth.
WIDE = [2**32, 2**32 + 1, 7_122_383_438, 7_990_593_329, 3 * 2**40 + 7, 2**62 + 12345]

_CHILD = """
import json, sys
import numpy as np
from numba import njit
from aceydeucey.core.errors import RulesError
from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import play_sessions
from aceydeucey.sim.inbetween_rng import _below, _seed

spec = json.loads(sys.argv[1])

@njit
def draws(bound, count):
    state = _seed(np.uint64(11), 0)
    out = np.empty(count, np.int64)
    for i in range(count):
        state, out[i] = _below(state, bound)
    return out

wide = {str(b): draws(b, 200).tolist() for b in spec["wide"]}
rules = Rules.resolve(**spec["rules"])
try:
    play_sessions(rules, tuple(spec["strategies"]), 1, seed=spec["seed"], first=spec["session"])
    error = None
except RulesError as exc:
    error = {"code": exc.code, "params": exc.params, "pt": exc.render("pt")}
print(json.dumps({"wide": wide, "error": error}))
"""


def _child(spec: dict[str, Any]) -> dict[str, Any]:
    env = dict(os.environ)
    src = str(Path(aceydeucey.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join([src, env.get("PYTHONPATH", "")])
    # A hang fails the test instead of stalling the suite (compilation takes most of it).
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


# -- a reference of the generator, in Python integers ---------------------------------------
M64 = (1 << 64) - 1
GOLDEN, STREAM = 0x9E3779B97F4A7C15, 0xD1B54A32D192ED03


def mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def below(state: int, bound: int) -> tuple[int, int]:
    """SplitMix64 draws below ``bound``: Lemire's method under 2**32, masking above."""
    if bound >= 1 << 32:
        mask = (1 << (bound - 1).bit_length()) - 1
        while True:
            state = (state + GOLDEN) & M64
            x = mix(state) & mask
            if x < bound:
                return state, x
    state = (state + GOLDEN) & M64
    m = (mix(state) >> 32) * bound
    floor = (1 << 32) % bound  # 2**32 - bound, modulo bound
    while (m & 0xFFFFFFFF) < floor:
        state = (state + GOLDEN) & M64
        m = (mix(state) >> 32) * bound
    return state, m >> 32


def reference(bound: int, count: int, seed: int = 11) -> list[int]:
    state = mix((mix(seed) + 0 * STREAM) & M64)
    out = []
    for _ in range(count):
        state, x = below(state, bound)
        out.append(x)
    return out


@njit
def _draws(bound: int, count: int) -> np.ndarray:  # pragma: no cover - compiled
    state = _seed(np.uint64(11), 0)
    out = np.empty(count, np.int64)
    for i in range(count):
        state, out[i] = _below(state, bound)
    return out


@pytest.fixture(scope="module")
def child() -> dict[str, Any]:
    return _child(
        {
            "wide": WIDE,
            "rules": LOOPED,
            "strategies": list(LOOPED_STRATEGIES),
            "seed": LOOPED_SEED,
            "session": LOOPED_SESSION,
        }
    )


@pytest.mark.slow
def test_the_session_that_looped_now_stops_with_a_coded_error(child: dict[str, Any]) -> None:
    error = child["error"]
    assert error is not None and error["code"] == "sim.chip_limit"
    assert error["params"]["session"] == LOOPED_SESSION
    assert error["params"]["limit"] == CHIP_LIMIT and error["params"]["stake_cap"] == "none"
    assert "64 bits" in error["pt"] and str(LOOPED_SESSION) in error["pt"]


def test_draws_above_two_to_the_32_are_exact_and_end(child: dict[str, Any]) -> None:
    for bound in WIDE:
        got = child["wide"][str(bound)]
        assert got == reference(bound, 200), bound
        assert all(0 <= x < bound for x in got)
        assert max(got) >= bound // 2  # the whole range, not its lowest 32 bits


@pytest.mark.parametrize("bound", [1, 2, 3, 52, 416, 1000003, 2**31 + 11, 2**32 - 1])
def test_draws_below_two_to_the_32_keep_the_lemire_stream(bound: int) -> None:
    """The narrow path is unchanged, so every run's sessions stay as they were."""
    assert _draws(bound, 300).tolist() == reference(bound, 300)


def test_the_hand_guard_stops_a_session_with_a_coded_error() -> None:
    rules = Rules.resolve(players=4, rounds=3)
    names = ("ev", "kelly", "cautious", "random")
    free = play_sessions(rules, names, 200, seed=2)
    assert int(free.hands.max()) <= rules.rounds * rules.players  # the default never binds
    limit = 6
    first_over = int(np.flatnonzero(free.hands > limit)[0])
    with pytest.raises(ArgumentError) as err:
        play_sessions(rules, names, 200, seed=2, max_hands=limit)
    assert err.value.code == "sim.hand_limit"
    assert err.value.params == {"session": first_over, "limit": limit}
    assert "6 mãos" in err.value.render("pt")
    enough = play_sessions(rules, names, 200, seed=2, max_hands=int(free.hands.max()))
    assert np.array_equal(enough.chips, free.chips)  # a guard that does not bind changes nothing


@settings(max_examples=25, deadline=None)
@given(
    cap=st.sampled_from(["cover", "chips", "none"]),
    players=st.integers(2, 8),
    rounds=st.integers(20, 200),
    multiplier=st.integers(1, 10),
    chips=st.integers(1, 1000),
    seed=st.integers(0, 2**32),
)
def test_only_uncovered_stakes_reach_the_chip_limit(
    cap: str, players: int, rounds: int, multiplier: int, chips: int, seed: int
) -> None:
    rules = Rules.resolve(
        players=players,
        stake_cap=cap,
        rounds=rounds,
        post_multiplier=multiplier,
        starting_chips=chips,
        ante_each_round=False,
    )
    names = tuple(("random", "ev", "kelly", "cautious")[i % 4] for i in range(players))
    try:
        batch = play_sessions(rules, names, 300, seed=seed)
    except RulesError as exc:
        assert exc.code == "sim.chip_limit"
        assert cap != "cover"  # covered stakes keep every count within the chips in play
        return
    assert (np.abs(batch.chips) <= CHIP_LIMIT).all() and (batch.pot <= CHIP_LIMIT).all()
    assert (batch.chips.sum(axis=1) + batch.pot == players * chips).all()
