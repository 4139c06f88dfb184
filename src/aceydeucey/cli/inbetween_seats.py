"""In-Between's seats at the terminal: the person's seat (:class:`HumanAgent`: prompts,
the coach's ``?``, quitting), the bots, and the narrator of each event.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from aceydeucey.core.errors import AceyDeuceyError, ActionSyntaxError
from aceydeucey.locale import t

if TYPE_CHECKING:
    from rich.console import Console

    from aceydeucey.core.game import Action, Game, State
from aceydeucey.cli.inbetween_options import DOMAIN
from aceydeucey.cli.inbetween_words import (
    canonical_action,
    localized_action,
    plain_words,
    shown_error,
)

__all__ = ["HumanAgent", "Narrator", "QuitGame", "make_bot"]


# -- seats and narration -------------------------------------------------------


class QuitGame(Exception):
    """The human typed ``quit`` (or input ended): stop and save what was played.

    ``input_ended``: the input closed (not a choice to stop); the command then exits 1.
    """

    def __init__(self, *, input_ended: bool = False) -> None:
        super().__init__()
        self.input_ended = input_ended


_NEGATIVE = re.compile(r"^(\D+?)\s+-\d+$")


class HumanAgent:
    """A seat played from the terminal: shows the table, prompts, re-prompts on bad input.

    ``?`` (or ``odds``) shows the odds of the decision at hand from ``odds.decision_odds``;
    ``quit`` (``sair``) stops the game.  It learns the rules when seated.
    """

    name = "human"

    def __init__(self, names: list[str], lang: str, out: Console) -> None:
        self.names = names
        self.lang = lang
        self.out = out
        self.rules: Any = None
        self.seat = 0
        self._shown: dict[str, Any] | None = None
        self._obs: dict[str, Any] = {}
        self._typed = ""

    def seated(self, game: Game, seat: int) -> None:
        self.rules = game.rules
        self.seat = seat

    def legal_text(self, observation: dict[str, Any]) -> str:
        from aceydeucey.cli.inbetween_ui import compact_actions

        legal = [localized_action(a, self.lang) for a in observation.get("legal_actions") or []]
        return compact_actions(legal)

    def act(self, observation: dict[str, Any]) -> str:
        from aceydeucey.cli.inbetween_ui import table_view

        self._obs = observation
        if observation != self._shown:
            self._shown = observation
            self.out.print(table_view(observation, self.names, self.lang))
            self.show_gap(observation)
            self.out.print(
                t(DOMAIN, "ui.your_turn", self.lang, actions=self.legal_text(observation)),
                style="bold",
            )
        while True:
            try:
                text = self.out.input(f"[bold cyan]{t(DOMAIN, 'ui.prompt', self.lang)}:[/] ")
            except EOFError:
                self.out.print()
                raise QuitGame(input_ended=True) from None
            text = text.strip()
            plain = plain_words(text)
            if plain in ("odds", "?", "probabilidades"):
                self.show_odds(observation)
                continue
            if plain in ("quit", "exit", "q", "sair"):
                raise QuitGame
            if not text:  # a re-ask always says why: here, what may be typed
                self.out.print(
                    t(DOMAIN, "ui.your_turn", self.lang, actions=self.legal_text(observation)),
                    style="yellow",
                )
                continue
            negative = _NEGATIVE.match(text)
            if negative:
                low = observation.get("min_stake") or 1
                self.out.print(t(DOMAIN, "ui.at_least", self.lang, text=text, min=low), style="red")
                continue
            self._typed = text  # a refusal echoes what was typed, not its canonical form
            return canonical_action(text)

    def show_gap(self, observation: dict[str, Any]) -> None:
        """Three posts: which gap the bet is on, and that the second bet is compulsory."""
        from aceydeucey.cards import Card

        gap = observation.get("gap")
        posts = observation.get("posts") or []
        if not gap or len(posts) < 3 or not observation.get("legal_actions"):
            return
        a, b = (Card.from_text(c).symbol() for c in posts[gap - 1 : gap + 1])
        self.out.print(t(DOMAIN, "ui.gap", self.lang, gap=gap, a=a, b=b), style="bold")
        if "pass" not in observation["legal_actions"]:
            self.out.print(t(DOMAIN, "ui.compulsory", self.lang), style="yellow")

    def rejected(self, choice: Any, error: Exception) -> None:
        if isinstance(error, ActionSyntaxError):
            message = t(
                DOMAIN,
                "ui.not_understood",
                self.lang,
                text=self._typed or str(choice),
                actions=self.legal_text(self._obs),
            )
            self.out.print(message, style="red")
            return
        reason = shown_error(error, self.lang)
        self.out.print(t(DOMAIN, "ui.rejected", self.lang, reason=reason), style="red")

    def show_odds(self, observation: dict[str, Any]) -> None:
        """The odds of the decision at hand (bets, calls, ace calls, split, Red Dog raise)."""
        from aceydeucey.cli.inbetween_ui import decision_view
        from aceydeucey.inbetween.odds import decision_odds

        try:
            odds = decision_odds(self.rules, observation)
        except (AceyDeuceyError, ValueError) as exc:
            text = exc.render(self.lang) if isinstance(exc, AceyDeuceyError) else str(exc)
            self.out.print(text, style="red")
            return
        if odds.decision == "none":
            self.out.print(t(DOMAIN, "ui.no_odds", self.lang), style="yellow")
            return
        self.out.print(
            decision_view(odds, self.lang, word=lambda a: localized_action(a, self.lang))
        )


def make_bot(kind: str, seed: int | None) -> Any:
    """A bot of ``kind`` (a key of ``sim.inbetween_bots.ALL_BOTS``), seeded if it takes one."""
    from aceydeucey.sim.inbetween_bots import ALL_BOTS as BOTS

    cls = BOTS[kind]
    try:
        return cls(seed)
    except TypeError:
        return cls()


#: Events of a decision or its third card: under three posts, they name their gap.
_GAP_EVENTS = ("pass", "bet", "settle")


class Narrator:
    """A table listener: one line per event, and the table at each new round."""

    def __init__(self, names: list[str], lang: str, out: Console, *, viewer: int | None) -> None:
        self.names = names
        self.lang = lang
        self.out = out
        self.viewer = viewer
        self._round: Any = None

    def __call__(self, before: State, action: Action, after: State) -> None:
        from aceydeucey.cli.inbetween_ui import event_text, table_view

        obs = after.observation(self.viewer if self.viewer is not None else 0)
        event = obs.get("last_event")
        gap = self.gap_text(before)
        # The transition's own event first, then what followed it automatically
        # (a new round, a refilled pot, the end of the session).
        events = [event, *event.get("after", [])] if event else []
        outcome = obs.get("outcome")
        for each in events:
            if each.get("kind") == "over" and isinstance(outcome, dict):
                each = {**each, **outcome}
            line = event_text(
                each,
                self.names,
                self.lang,
                posts=obs.get("posts") or (),
                house=obs.get("bank") is not None,
                you=self.viewer,
            )
            if line is not None:
                if gap is not None and each is event and event.get("kind") in _GAP_EVENTS:
                    line.append("  (" + gap + ")", style="dim")
                self.out.print(line)
        if self.viewer is None and obs.get("round") != self._round and not after.is_terminal():
            self._round = obs.get("round")
            self.out.print(table_view(obs, self.names, self.lang, mark_seat=False))

    def gap_text(self, before: State) -> str | None:
        """Three posts: the gap a decision or a third card is on (``gap 2: K♣ to 10♠``)."""
        from aceydeucey.cards import Card

        obs = before.observation(self.viewer if self.viewer is not None else 0)
        gap, posts = obs.get("gap"), obs.get("posts") or []
        if not gap or len(posts) < 3:
            return None
        a, b = (Card.from_text(c).symbol() for c in posts[gap - 1 : gap + 1])
        return t(DOMAIN, "ui.gap_inline", self.lang, gap=gap, a=a, b=b)

    def show(self, state: State) -> None:
        """Print the table as the viewer (or, watching bots, seat 0) sees it."""
        from aceydeucey.cli.inbetween_ui import table_view

        obs = state.observation(self.viewer if self.viewer is not None else 0)
        self._round = obs.get("round")
        deciding = obs.get("to_act") == self.viewer and obs.get("legal_actions")
        if self.viewer is not None and deciding:
            return  # the viewer decides now: the seat's prompt shows the table
        self.out.print(table_view(obs, self.names, self.lang, mark_seat=self.viewer is not None))
