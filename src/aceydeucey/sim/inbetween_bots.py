"""Every In-Between bot the front ends offer, with ``session``: the strategy that plays the
simulator's compiled search (``sim.inbetween_session``).

``session`` plays for the highest balance at the end of a guide session rather than for
chips: each candidate stake is valued by its chance of finishing ahead, over the third
card's exact odds and playouts of the rest of the session (the same compiled search the
simulator runs); under rules the simulator does not play, and for decisions that are not
a stake, it is the ``ev`` bot.  It lives here, beside the simulator, because the engine
(``inbetween``) never imports the simulator; NumPy and Numba load when it first acts.
"""

from __future__ import annotations

from typing import Any

from aceydeucey.cards import Card
from aceydeucey.core.game import Game
from aceydeucey.inbetween.bots import BOTS, ExpectedValueBot
from aceydeucey.inbetween.strategies import STRATEGIES as ENGINE_STRATEGIES
from aceydeucey.inbetween.strategies import _amount, unseen_and_posts

__all__ = ["ALL_BOTS", "STRATEGIES", "SessionBot"]


class SessionBot(ExpectedValueBot):
    """Plays for the highest balance at the end of a guide session (``sim.inbetween_session``).

    Under rules the simulator does not play (``sim.inbetween.check_supported``), and for
    decisions that are not a stake on posts, it is the ``ev`` bot.
    """

    name = "session"

    def seated(self, game: Game, seat: int) -> None:
        super().seated(game, seat)
        from aceydeucey.core.errors import RulesError
        from aceydeucey.sim.inbetween import check_supported  # Numba: loaded on first use

        self.supported = True
        try:
            check_supported(game.rules)  # type: ignore[arg-type]
        except RulesError:
            self.supported = False

    def act(self, observation: dict[str, Any]) -> str:
        import numpy as np

        from aceydeucey.sim.inbetween_session import session_stake

        legal: list[str] = list(observation["legal_actions"])
        bets = [_amount(t) for t in legal if t.startswith("bet ")]
        if not bets or observation.get("step") != "decide" or not getattr(self, "supported", 0):
            return super().act(observation)
        rules = self.rules
        assert rules is not None
        n = rules.players
        seat = int(observation["seat"])
        dealer = int(observation["dealer"])
        left, ranks = unseen_and_posts(rules, observation)
        cnt = np.zeros(15, dtype=np.int64)
        for rank, copies in left.items():
            cnt[rank] = copies
        first = np.array(
            [Card.from_text(c).rank if c else 0 for c in observation["first_cards"]],
            dtype=np.int64,
        )
        params = np.array(
            [
                n,
                rules.ante,
                rules.ante_each_round,
                rules.rounds,
                rules.decks,
                rules.post_multiplier,
                {"cover": 0, "chips": 1, "none": 2}[rules.stake_cap],
                rules.min_stake == "ante",
                {"pot": 0, "half-pot": 1, "ante": 2}[rules.first_round_limit],
            ],
            dtype=np.int64,
        )
        stake = session_stake(
            np.array(observation["chips"], dtype=np.int64),
            int(observation["pot"]),
            int(observation["round"]),
            dealer,
            (seat - dealer - 1) % n,
            seat,
            first,
            cnt,
            (ranks[0], ranks[1]),
            (min(bets), max(bets)),
            params,
            np.array(rules.round_limits, dtype=np.int64),
        )
        return f"bet {stake}" if stake else "pass"


#: Every In-Between strategy beyond ``bots.BOTS``, name -> class taking ``seed``.
STRATEGIES: dict[str, Any] = {**ENGINE_STRATEGIES, "session": SessionBot}

#: Every In-Between bot: what tables and the terminal offer (``core.registry``).
ALL_BOTS: dict[str, Any] = {**BOTS, **STRATEGIES}
