"""Aces in the Pot's table at the terminal: the narrator of each throw (from the public
observation), a person's throws (Enter, or ``q`` to stop) and the session's tally.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from rich.table import Table as RichTable

from aceydeucey.cli.common import console
from aceydeucey.locale import t

if TYPE_CHECKING:
    from aceydeucey.core.chance import ChanceSource
    from aceydeucey.core.game import Action, Game, State
    from aceydeucey.core.session import Session

__all__ = ["Narrator", "Stop", "Throws", "print_tally"]


class Stop(Exception):
    """The person at the table stopped the game (q, or the end of input)."""

    def __init__(self, *, input_ended: bool = False) -> None:
        super().__init__()
        self.input_ended = input_ended  # the input closed: the command exits 1


class Throws:
    """The chance source, waiting for a person's Enter when their seat throws.

    The outcome is still chance's (drawn after the gesture, from the given source), so a
    seeded game throws the same dice whether a person or nobody holds the seat.
    """

    def __init__(self, chance: ChanceSource, humans: tuple[int, ...], narrator: Narrator):
        self.chance = chance
        self.humans = humans
        self.narrator = narrator

    def choose(self, state: State) -> Action:
        actor = state.chance_actor()
        if actor is not None and actor in self.humans:
            self.narrator.ask_to_throw(state, actor)
        return self.chance.choose(state)


def print_tally(session: Session, names: list[str], lang: str, *, stopped: bool = False) -> None:
    table = RichTable(title=t("aces", "tally.title", lang))
    table.add_column(t("aces", "analysis.seat", lang))
    table.add_column("#", justify="right")
    for name, pots in zip(names, session.wins, strict=True):
        table.add_row(name, str(pots))
    console.print(table)
    winner = session.winner
    if stopped:  # an interrupted session has no winner, only leaders so far
        leading = ", ".join(names[s] for s in session.leaders())
        console.print(t("aces", "tally.stopped", lang, count=session.games, names=leading))
    elif winner is not None:
        console.print(
            "[bold green]"
            + t("aces", "tally.winner", lang, name=names[winner], count=session.wins[winner])
            + "[/]"
        )
    else:
        tied = ", ".join(names[s] for s in session.leaders())
        console.print(t("aces", "tally.tie", lang, names=tied))


class Narrator:
    """A Table listener that prints each throw's event, from the public observation."""

    def __init__(
        self,
        game: Game,
        names: list[str],
        lang: str,
        games: int | None,
        first_to: int | None,
        pause: float,
        humans: tuple[int, ...] = (),
    ) -> None:
        self.game = game
        self.names = names
        self.lang = lang
        self.games = games
        self.first_to = first_to
        self.pause = pause
        self.humans = humans
        self.number = 0
        self.started = False

    def say(self, key: str, **values: Any) -> str:
        return t("aces", key, self.lang, **values)

    def say_of(self, key: str, seat: int, **values: Any) -> str:
        """A line about ``seat`` (its name in ``name``), worded for "You" when it is the
        person at the table."""
        if seat in self.humans and len(self.humans) == 1:
            key += ".you"
        return self.say(key, name=self.names[seat], **values)

    def ask_to_throw(self, state: State, seat: int) -> None:
        """The person's seat throws: show the table and wait for Enter (q stops)."""
        view = state.observation(seat)
        if not self.started:
            self._opening(view)
        key = "prompt.rolloff" if view["phase"] == "roll-off" else "prompt.throw"
        if view["phase"] == "finish":
            key = "prompt.finish"
        prompt = self.say(
            key, name=self.names[seat], number=view["roll_number"], rolls=view["finish_rolls"]
        )
        try:
            text = console.input(f"[bold cyan]{prompt}[/] ")
        except EOFError:
            raise Stop(input_ended=True) from None
        if text.strip().lower() in ("q", "quit", "exit", "sair"):
            raise Stop

    def _opening(self, view: dict[str, Any]) -> None:
        """The header of a game, before its first throw."""
        self.started = True
        self.number += 1
        if self.first_to is not None:
            console.rule(self.say("game.header.match", number=self.number, target=self.first_to))
        elif self.games is not None and self.games > 1:
            console.rule(self.say("game.header", number=self.number, games=self.games))
        if view["last_event"] is not None:  # a resumed game
            console.print(f"[bold]{self.say('resumed')}[/]")
            self._show_table(view)
        elif view["phase"] == "play":  # no roll-off: the rules name the first roller
            console.print(f"[bold]{self.say_of('start.fixed', view['roller'])}[/]")
            self._show_table(view)

    def __call__(self, before: State, action: Any, after: State) -> None:
        if not self.started:
            self._opening(before.observation(None))
        view = after.observation(None)
        event = view["last_event"]
        if event is None:  # pragma: no cover - every transition records its event
            return
        kind = event["kind"]
        seat = event["seat"]
        if event["phase"] == "roll-off":
            console.print(self.say_of("rolloff.die", seat, die=event["action"].split()[-1]))
            if kind == "roll-off-tie":
                tied = ", ".join(self.names[s] for s in event["tied"])
                console.print(self.say("rolloff.tie", names=tied))
            elif kind == "roll-off-won":
                console.print(f"[bold]{self.say_of('rolloff.won', event['next_seat'])}[/]")
                self._show_table(view)
        elif event["phase"] == "play":
            console.print(
                f"{self.say_of('throw', seat, roll=event['action'])}: {self._moves(event)}"
            )
            if event["skipped"]:
                skipped = ", ".join(self.names[s] for s in event["skipped"])
                console.print(f"  [dim]{self.say('skipped', names=skipped)}[/]")
            self._show_table(view)
            if kind == "finish-start":
                line = self.say_of(
                    "finish.start", event["next_seat"], rolls=view["finish_rolls"], pot=view["pot"]
                )
                console.print(f"[bold yellow]{line}[/]")
        else:
            rolls = view["finish_rolls"]
            number = event["roll_number"]
            head = self.say_of(
                "throw.finish", seat, roll=event["action"], number=number, rolls=rolls
            )
            nxt = self.names[event["next_seat"]] if event["next_seat"] is not None else ""
            if kind == "finish-continue":
                tail = self.say("finish.clean", count=rolls - number)
            elif kind == "finish-pass":
                tail = self.say("finish.pass", name=nxt)
            elif kind == "back-to-play":
                tail = self.say("finish.back", name=nxt)
            else:
                tail = "[bold green]" + self.say_of("win", seat, pot=view["pot"]) + "[/]"
            console.print(f"{head}: {tail}")
            if kind == "back-to-play":
                self._show_table(view)
        if after.is_terminal():
            self.started = False
        elif self.pause and event["seat"] not in self.humans:
            time.sleep(self.pause)

    def _moves(self, event: dict[str, Any]) -> str:
        parts = []
        if event["to_pot"]:
            parts.append(self.say("move.pot", count=event["to_pot"]))
        if event["to_left"]:
            left = self.names[(event["seat"] + 1) % len(self.names)]
            parts.append(self.say("move.left", count=event["to_left"], name=left))
        if event["kept"]:
            parts.append(self.say("move.kept"))
        if event["unpaid"]:
            parts.append(self.say("move.unpaid", count=event["unpaid"]))
        return ", ".join(parts) if parts else self.say("move.nothing")

    def _show_table(self, view: dict[str, Any]) -> None:
        seats = "  ".join(
            f"{name}: {'●' * chips if chips else '-'}"
            for name, chips in zip(self.names, view["chips"], strict=True)
        )
        console.print(f"  [dim]{self.say('table', pot=view['pot'], seats=seats)}[/]")
