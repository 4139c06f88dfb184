"""The summaries: a run in chunks gives the figures of one batch, computed directly."""

from __future__ import annotations

import numpy as np
import pytest

from aceydeucey.inbetween.rules import Rules
from aceydeucey.sim.inbetween import Accumulator, play_sessions, summarize


def test_chunks_accumulate_to_the_direct_figures() -> None:
    rules = Rules.resolve(players=3)
    names = ("ev", "random", "ev")  # a strategy named twice pools both seats
    whole = play_sessions(rules, names, 3000, seed=8)
    acc = Accumulator(names)
    for first in range(0, 3000, 700):
        acc.add(play_sessions(rules, names, min(700, 3000 - first), seed=8, first=first))
    stats = {s.strategy: s for s in acc.stats()}
    direct = {s.strategy: s for s in summarize(whole)}
    assert set(stats) == {"ev", "random"}
    balances, credit = whole.balances(), whole.win_credit()
    for i, name in enumerate(("ev", "random")):
        mask = np.isin(whole.seat_strategy, [j for j, s in enumerate(names) if s == name])
        assert stats[name].seats == direct[name].seats == int(mask.sum())
        assert stats[name].win_rate == pytest.approx(credit[mask].mean())
        assert stats[name].mean_balance == pytest.approx(balances[mask].mean())
        assert stats[name].win_ci == pytest.approx(direct[name].win_ci)
        values, counts = acc.balance_counts(i)
        assert int(counts.sum()) == int(mask.sum())
        assert float((values * counts).sum() / counts.sum()) == pytest.approx(balances[mask].mean())
    assert sum(s.win_rate * s.seats for s in stats.values()) == pytest.approx(3000)
    assert int(acc.ended.sum()) == 3000 and acc.hands == int(whole.hands.sum())
