"""The Table: seats agents around a game, lets chance act, writes the record.

An agent is anything with ``act(observation) -> action`` (an action or its
text); the observation is the seat's JSON-ready view and holds its legal
actions.  A human prompt is just another agent.

``next_step`` says what happens next in a state (chance draws, a seat throws its
own dice, a seat decides, or the game is over): the one answer every automatic
runner uses, this Table and the web server's alike.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple, Protocol

from aceydeucey.core.chance import ChanceSource, Seeded
from aceydeucey.core.errors import AceyDeuceyError, ArgumentError, IllegalActionError
from aceydeucey.core.game import Action, Game, State
from aceydeucey.core.record import Record

__all__ = ["Agent", "Next", "Table", "next_step", "seat_agent"]


class Agent(Protocol):
    """A player: given its observation, returns an action or the action's text.

    An agent may also define ``seated(game, seat)``: runners call it once, before
    the first observation, so the agent learns the game and its resolved rules
    (observations do not repeat the rules at every step).
    """

    def act(self, observation: dict[str, Any]) -> Action | str: ...


def seat_agent(agent: object, game: Game, seat: int) -> None:
    """Tell ``agent`` its game and seat, when it wants to know (``seated``)."""
    seated = getattr(agent, "seated", None)
    if seated is not None:
        seated(game, seat)


class Next(NamedTuple):
    """What happens next in a state, and whose it is.

    ``kind`` is ``chance`` (chance's outcome is drawn; ``seat`` is the seat whose throw
    it is, if any), ``throw`` (a seat throws its own dice: the runner waits for that
    seat's gesture before drawing), ``decide`` (``seat`` chooses an action) or ``over``.
    """

    kind: Literal["chance", "throw", "decide", "over"]
    seat: int | None


def _nobody(seat: int) -> bool:
    return False


def next_step(state: State, throws: Callable[[int], bool] = _nobody) -> Next:
    """What happens next in ``state``.

    ``throws(seat)`` says whether that seat throws its own dice (a person at a table
    that waits for the gesture); by default nobody does and chance simply draws.
    """
    if state.is_terminal():
        return Next("over", None)
    if state.is_chance_node():
        actor = state.chance_actor()
        if actor is not None and throws(actor) and not state.throw_asked():
            return Next("throw", actor)
        return Next("chance", actor)
    return Next("decide", state.current_player())


#: Called after every transition with (state before, action, state after).
Listener = Callable[[State, Action, State], None]


class Table:
    """Runs one game: agents per seat, a chance source, a record of every action."""

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent],
        *,
        chance: ChanceSource | None = None,
        names: Sequence[str] | None = None,
        listeners: Sequence[Listener] = (),
        max_retries: int = 100,
    ) -> None:
        if len(agents) != game.num_players:
            raise ArgumentError(
                "table.agent_count", game=game.game_id, seats=game.num_players, agents=len(agents)
            )
        self.game = game
        self.agents = list(agents)
        self.chance = chance if chance is not None else Seeded()
        self.names = list(names) if names is not None else [f"seat {i}" for i in range(len(agents))]
        self.listeners = list(listeners)
        self.max_retries = max_retries
        self.state = game.new_initial_state()
        self.record = Record.start(game, self.names)
        for seat, agent in enumerate(self.agents):
            seat_agent(agent, game, seat)

    def step(self) -> State:
        """Let chance or the seat to act make one move; return the new state."""
        before = self.state
        step = next_step(before)
        if step.kind == "over":
            raise IllegalActionError("table.game_over")
        if step.kind == "chance":
            action = self.chance.choose(before)
            after = before.apply(action)
        else:
            seat = before.current_player()
            agent = self.agents[seat]
            for _ in range(self.max_retries):
                choice = agent.act(before.observation(seat))
                try:
                    action = before.parse_action(choice) if isinstance(choice, str) else choice
                    after = before.apply(action, seat=seat)
                except AceyDeuceyError as exc:
                    rejected = getattr(agent, "rejected", None)
                    if rejected is None:
                        raise
                    rejected(choice, exc)
                    continue
                break
            else:
                raise IllegalActionError(
                    "table.too_many_retries", seat=seat, tries=self.max_retries
                )
        self.record.actions.append(str(action))
        self.state = after
        for listen in self.listeners:
            listen(before, action, after)
        return after

    def play(self, max_steps: int | None = None) -> Record:
        """Play to the end (or ``max_steps``); the record, with its result when finished."""
        steps = 0
        while next_step(self.state).kind != "over":
            if max_steps is not None and steps >= max_steps:
                break
            self.step()
            steps += 1
        self.record.finish(self.state)
        return self.record
