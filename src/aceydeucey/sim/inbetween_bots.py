"""Every In-Between bot the front ends offer, with ``session``: the strategy that plays the
simulator's compiled search (``sim.inbetween_session``).

``session`` plays for the highest balance at the end of a guide session rather than for
chips: each candidate stake is valued by its chance of finishing ahead, over the third
card's exact odds and playouts of the rest of the session (the same compiled search the
simulator runs); under rules its search does not model (anything but the guide's game),
and for decisions that are not a stake, it is the ``ev`` bot, as in the simulator's
kernel.  It lives here, beside the simulator, because the engine (``inbetween``) never
imports the simulator; NumPy and Numba load when it first acts.
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

    Under rules its search does not model (``sim.inbetween_params.search_plays``: the
    guide's game), and for decisions that are not a stake on posts, it is the ``ev`` bot.
    """

    name = "session"

    def seated(self, game: Game, seat: int) -> None:
        super().seated(game, seat)
        from aceydeucey.sim.inbetween_params import search_plays  # NumPy: loaded on first use

        assert self.rules is not None
        self.supported = search_plays(self.rules)

    def act(self, observation: dict[str, Any]) -> str:
        import numpy as np

        from aceydeucey.sim.inbetween_params import encode
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
        block = encode(rules)
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
            block.params,
            block.round_limits,
        )
        return f"bet {stake}" if stake else "pass"


#: Every In-Between strategy beyond ``bots.BOTS``, name -> class taking ``seed``.
STRATEGIES: dict[str, Any] = {**ENGINE_STRATEGIES, "session": SessionBot}

#: Every In-Between bot: what tables and the terminal offer (``core.registry``).
ALL_BOTS: dict[str, Any] = {**BOTS, **STRATEGIES}
