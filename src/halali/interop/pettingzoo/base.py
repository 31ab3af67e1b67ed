"""What both PettingZoo environments share: PettingZoo's AEC protocol over one engine state.

Written for PettingZoo directly (not through OpenSpiel or Shimmy): agents ``player_0``..``player_{n-1}``
are the game's seats, the observation is a dict with the tensor and the action mask (the classic
board games' form), spaces are made once, the game's randomness comes from one ``random.Random``
that ``reset(seed=...)`` seeds, and the rewards are the zero-sum returns, paid when the game ends.
A subclass says how a game is started, played, encoded and drawn; every rule is the engine's.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from halali.games.forest.rules import Rules
from halali.games.hare.rules import HareRules
from halali.interop.encoding import mask_of, zero_sum
from halali.interop.games import RENDER_MODES, ForestSteps, HareSteps, check_render_mode, frame


class HalaliAEC(AECEnv):
    """The AEC machinery over ``game`` (``halali.interop.games``)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": RENDER_MODES, "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: ForestSteps | HareSteps, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.num_actions, self.observation_shape, players = game.num_actions, (game.size,), game.players
        check_render_mode(render_mode)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents: list[str] = []
        self._index = {a: p for p, a in enumerate(self.possible_agents)}
        self._observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(0.0, 1.0, self.observation_shape, np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self._action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self._legal: list[int] = []
        self._legal_ply = -1
        self._ply = 0

    @property
    def rules(self) -> Rules | HareRules:
        return self.game.rules

    # ---- spaces: made once, the same objects every time (PettingZoo seeds them) -----------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._action_spaces[agent]

    # ---- the protocol ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds every random draw of it and of the games after it (the deal, the
        dice); without one the first reset seeds from the operating system and later ones go on."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.game.start(self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._ply = 0
        self._legal_ply = -1
        self.agent_selection = self.possible_agents[self.game.to_move()]
        if self.render_mode == "human":
            self.render()

    def legal_actions(self) -> list[int]:
        """The legal action ids of the agent to move, ascending (computed once per step)."""
        if self._legal_ply != self._ply:
            self._legal = self.game.legal_ids()
            self._legal_ply = self._ply
        return self._legal

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        i = int(action)
        if i not in self.legal_actions():
            raise ValueError(f"{agent}: action {i} is not legal now (see the observation's action_mask)")
        self._cumulative_rewards[agent] = 0.0
        self.game.play(i)
        self._ply += 1
        if self.game.over():
            for a, r in zip(self.agents, zero_sum(self.game.result()), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.possible_agents[(self._index[agent] + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[self.game.to_move()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own view and, for the agent to move, its legal actions as a mask (all zero for
        the others and once the game is over)."""
        seat = self._index[agent]
        ids = self.legal_actions() if agent == self.agent_selection and not self.game.over() else []
        return {"observation": self.game.observation(seat), "action_mask": mask_of(ids, self.num_actions)}

    def render(self) -> Any:
        return frame(self.game, self.render_mode)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])
