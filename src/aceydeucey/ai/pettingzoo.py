"""PettingZoo AEC environments for every game, over the game contract alone.

``env("inbetween", preset="guide", players=3)`` (or ``raw_env``, unwrapped) is one
environment class for any registered game; keyword options go to ``load_game``.  Agents
are ``player_0`` ... ``player_{n-1}`` (seat ``i`` is ``player_i``).  Each step is one
decision of the agent to act; chance's nodes are resolved inside the environment, drawn
through the game's exact ``chance_distribution()`` weights from a ``numpy`` generator
seeded by ``reset(seed=...)`` (same seed and same actions, same game).  In a game without
decisions (Aces in the Pot) each throw is handed to the seat that makes it as a turn with
one action, ``0``; ``agents_throw`` changes that default.

``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8 vector}``:
the vector is the game's codec (``aceydeucey.ai.codec``) applied to
``state.observation(seat)``, so it holds nothing that seat may not see; the mask marks
the table positions of the seat's legal actions (all zeros when it is not that seat's
turn).  ``infos[agent]`` holds ``legal_actions`` (the canonical text of each, in the
contract's order; empty when not its turn), ``throw`` (whether the turn is a throw) and,
once the game is over, ``outcome`` (``Outcome.to_dict()``).  Rewards come from the game's
exact returns: all of them at the end (``reward="terminal"``), or each step's change in
them (``reward="delta"``); either way an agent's rewards add up to its return.
``max_steps`` truncates a game after that many agent steps.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from aceydeucey.ai.codec import Codec, codec_for
from aceydeucey.core.chance import ChanceSource
from aceydeucey.core.errors import ActionSyntaxError, ArgumentError, IllegalActionError
from aceydeucey.core.game import Action, Game, State
from aceydeucey.core.registry import load_game

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as missing:  # pragma: no cover - exercised without the extra
    raise ModuleNotFoundError(
        f"aceydeucey.ai.pettingzoo needs {missing.name}: pip install 'aceydeucey[ai]'",
        name=missing.name,
    ) from missing

__all__ = ["AceyDeuceyEnv", "env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]
#: The one action of a turn that is a throw of the dice.
THROW = 0


class AceyDeuceyEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """One AEC environment over any game of the contract (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads it from the class
        "name": "aceydeucey_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str | Game = "inbetween",
        *,
        render_mode: str | None = None,
        reward: Literal["terminal", "delta"] = "terminal",
        max_steps: int | None = None,
        agents_throw: bool | None = None,
        encoding: Mapping[str, Any] | None = None,
        chance: ChanceSource | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if isinstance(game, Game):
            if options:
                raise ArgumentError("ai.game_and_options", options=", ".join(sorted(options)))
            self.game = game
        else:
            self.game = load_game(game, **options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(
                "ai.bad_render_mode",
                mode=render_mode,
                accepted=", ".join(self.metadata["render_modes"]),
            )
        if reward not in ("terminal", "delta"):
            raise ArgumentError("ai.bad_reward", reward=repr(reward))
        if max_steps is not None and (
            isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1
        ):
            raise ArgumentError("ai.bad_max_steps", value=repr(max_steps))
        self.codec: Codec = codec_for(self.game, **(encoding or {}))
        self.agents_throw = self.codec.agents_throw if agents_throw is None else agents_throw
        if not self.agents_throw and not self.codec.has_decisions:
            raise ArgumentError("ai.no_decisions", game=self.game.game_id)
        self.metadata = {**self.metadata, "name": f"aceydeucey_{self.game.game_id}_v0"}
        self.render_mode = render_mode
        self.reward_mode = reward
        self.max_steps = max_steps
        self._chance = chance
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seats = {agent: i for i, agent in enumerate(self.possible_agents)}
        mask_space = spaces.Box(0, 1, (self.codec.num_actions,), dtype=np.int8)
        vector_space = spaces.Box(self.codec.low, self.codec.high, dtype=np.float32)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": vector_space, "action_mask": mask_space})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents
        }
        self._rng = np.random.default_rng()
        self._state: State = self.game.new_initial_state()
        self._views: dict[int, dict[str, Any]] = {}
        self._choices: dict[int, Action] | None = None
        self._returns: tuple[Fraction, ...] = (Fraction(0),) * n
        self._steps = 0

    # -- the PettingZoo API ----------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` reseeds chance (``None`` draws on from the current generator)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._steps = 0
        self._set_state(self.game.new_initial_state())
        self._returns = self._state.returns()
        # What chance does before the first decision (antes, say) is paid out with the
        # first step's rewards: no reward is pending after a reset.
        self._advance(rewarded=False)

    def observe(self, agent: str) -> Observation:
        seat = self._seats[agent]
        mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not self._finished():
            mask[list(self._decisions())] = 1
        return {"observation": self.codec.encode(self._view(seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = self._decode(agent, action)
        self._cumulative_rewards[agent] = 0.0
        state = self._state
        if self._is_throw():
            after = state.apply(self._draw(state))
        else:
            after = state.apply(chosen, seat=self._seats[agent])
        self._steps += 1
        self._set_state(after)
        self._advance()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public view as readable text (``ansi`` returns it, ``human`` prints it).

        It is the spectator's observation, so a rendered frame never shows a face-down
        or undealt card, whoever is watching.
        """
        if self.render_mode is None:
            return None
        text = json.dumps(self._state.observation(None), indent=1, default=str, ensure_ascii=False)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no resources."""

    # -- beyond the API ----------------------------------------------------------------
    def game_observation(self, agent: str) -> dict[str, Any]:
        """The contract's ``observation(seat)`` for ``agent``: what its vector encodes."""
        return dict(self._view(self._seats[agent]))

    def action_index(self, agent: str, text: str) -> int:
        """The table position of the legal action written ``text`` (``roll``: a throw) now."""
        if agent == self.agent_selection and not self._finished():
            for index, action in self._decisions().items():
                if str(action) == text:
                    return index
        raise IllegalActionError("ai.text_not_legal", agent=agent, action=text)

    def afterstates(self, agent: str) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """Each legal action of ``agent`` now: its index, and ``agent``'s vector of the node
        it leads to before chance acts (a row each; none when it is not ``agent``'s decision).

        The position after a backgammon play, say, for learners that score afterstates.
        """
        seat = self._seats[agent]
        indices: list[int] = []
        rows: list[npt.NDArray[np.float32]] = []
        if agent == self.agent_selection and not self._finished() and not self._is_throw():
            for index, action in sorted(self._decisions().items()):
                indices.append(index)
                rows.append(self.codec.encode(self._state.apply(action).observation(seat)))
        vectors = np.stack(rows) if rows else np.zeros((0, self.codec.size), dtype=np.float32)
        return np.array(indices, dtype=np.int64), vectors

    # -- inside ----------------------------------------------------------------------
    def _set_state(self, state: State) -> None:
        self._state = state
        self._views = {}
        self._choices = None

    def _view(self, seat: int) -> dict[str, Any]:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self._state.observation(seat)
        return view

    def _finished(self) -> bool:
        return self._state.is_terminal() or any(self.truncations.values())

    def _is_throw(self) -> bool:
        return self._state.is_chance_node()

    def _decisions(self) -> dict[int, Action]:
        """The legal actions of the agent to act by table position (a throw: ``{0: ...}``)."""
        if self._choices is None:
            state = self._state
            if self._is_throw():
                self._choices = {THROW: "roll"}
            else:
                legal = state.legal_actions()
                texts = self._view(state.current_player())["legal_actions"]
                indices = self.codec.action_indices(texts)
                self._choices = {i: a for i, a in zip(indices, legal, strict=True) if i is not None}
        return self._choices

    def _decode(self, agent: str, action: Any) -> Action:
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ActionSyntaxError("ai.action_not_index", agent=agent, value=repr(action))
        index = int(action)
        if not 0 <= index < self.codec.num_actions:
            raise ActionSyntaxError(
                "ai.action_out_of_range", index=index, last=self.codec.num_actions - 1
            )
        choices = self._decisions()
        if index not in choices:
            shown = ", ".join(str(i) for i in sorted(choices)[:12])
            raise IllegalActionError("ai.action_masked", agent=agent, index=index, legal=shown)
        return choices[index]

    def _draw(self, state: State) -> Action:
        if self._chance is not None:
            return self._chance.choose(state)
        dist = state.chance_distribution()
        return dist.pick(_below(self._rng, dist.total))

    def _advance(self, *, rewarded: bool = True) -> None:
        """Resolve chance up to the next decision (or throw), then set selection and rewards."""
        state = self._state
        while state.is_chance_node() and not (
            self.agents_throw and state.chance_actor() is not None
        ):
            state = state.apply(self._draw(state))
        if state is not self._state:
            self._set_state(state)
        over = state.is_terminal()
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if rewarded and (over or self.reward_mode == "delta"):
            returns = state.returns()
            # exact differences, made floats last: the rewards add up to the return
            base = self._returns if self.reward_mode == "delta" else (Fraction(0),) * len(returns)
            for agent in self.agents:
                seat = self._seats[agent]
                self.rewards[agent] = float(returns[seat] - base[seat])
            self._returns = returns
        truncated = not over and self.max_steps is not None and self._steps >= self.max_steps
        to_act = state.chance_actor() if state.is_chance_node() else state.current_player()
        if to_act is not None and to_act >= 0:
            self.agent_selection = self.possible_agents[to_act]
        elif getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]
        outcome = state.outcome()
        self.infos = {}
        for agent in self.agents:
            self.terminations[agent] = over
            self.truncations[agent] = truncated
            acting = agent == self.agent_selection and not over and not truncated
            throw = acting and state.is_chance_node()
            legal = self._view(self._seats[agent])["legal_actions"] if acting else []
            info: dict[str, Any] = {"legal_actions": ["roll"] if throw else list(legal)}
            info["throw"] = throw
            if outcome is not None:
                info["outcome"] = outcome.to_dict()
            self.infos[agent] = info


def _below(rng: np.random.Generator, total: int) -> int:
    """A uniform integer in ``range(total)`` (exact for totals of any size)."""
    if total < 2**63:
        return int(rng.integers(total))
    bits = total.bit_length()
    size = (bits + 7) // 8
    while True:
        draw = int.from_bytes(rng.bytes(size), "little") >> (8 * size - bits)
        if draw < total:
            return draw


#: The unwrapped environment class (PettingZoo's name for it).
raw_env = AceyDeuceyEnv


def env(game: str | Game = "inbetween", **kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's own are (calls checked for order)."""
    return wrappers.OrderEnforcingWrapper(AceyDeuceyEnv(game, **kwargs))
