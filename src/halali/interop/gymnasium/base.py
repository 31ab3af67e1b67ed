"""What both Gymnasium environments share: one seat of a game against the project's bots.

The agent plays ``seat``; every other seat is a bot of level ``opponent`` that sees only its own view,
as at a table. The observation is the agent's tensor (the same vector as in OpenSpiel and PettingZoo),
the action an id of the shared encoding, and the legal ones are given as a mask in ``info`` and by
``action_masks()`` (the method sb3-contrib's MaskablePPO calls). The reward is the agent's zero-sum
return, paid when its episode ends: with the game, or in the hare hunt as soon as the agent's seat is
out (its return is then settled: a loser's). An action that is not legal ends the episode as a loss (reward -1,
``info["illegal_action"]``), as PettingZoo's classic games treat one, so that an unmasked policy
learns instead of crashing.

Everything random (the deal or the clubs, the dice, the seat when it is not fixed, the bots' own
choices) comes from ``self.np_random``, which ``reset(seed=...)`` seeds: a seeded episode repeats
exactly, as long as the bots do not search on the clock (the searching forest levels, 3 and up, do).
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from halali.games.forest.rules import Rules
from halali.games.hare.rules import HareRules
from halali.interop.encoding import mask_of
from halali.interop.games import RENDER_MODES, ForestSteps, HareSteps, check_render_mode, frame


class OneSeatEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The episode loop over ``game`` (``halali.interop.games``), which also holds the bots of the
    other seats (level ``opponent``, ``movetime`` seconds a move); a subclass only makes the game."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 2}  # noqa: RUF012  (Env declares it so)

    def __init__(self, game: ForestSteps | HareSteps, seat: int | None, render_mode: str | None,
                 opponent: int | str, movetime: float) -> None:
        game.check_level(opponent)
        self.game = game
        self.opponent = opponent
        self.movetime = movetime
        self.num_actions, self.observation_size, players = game.num_actions, game.size, game.players
        check_render_mode(render_mode)
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be one of 0..{players - 1} (or None: drawn each episode), not {seat}")
        self.render_mode = render_mode
        self.players = players
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (self.observation_size,), np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.num_actions)
        self._over_by_illegal = False

    @property
    def rules(self) -> Rules | HareRules:
        return self.game.rules

    def _draw(self, bound: int) -> int:
        return int(self.np_random.integers(bound))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.seat = self._draw(self.players) if self.fixed_seat is None else self.fixed_seat
        self._over_by_illegal = False
        self.game.start(random.Random(self._draw(2**62)))
        self.game.seat_bots(self.opponent, self._draw(2**31))
        self._opponents_move()
        if self.render_mode == "human":
            self.render()
        return self.game.observation(self.seat), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done() or self._over_by_illegal:
            raise RuntimeError("the episode is over: call reset()")
        i = int(action)
        if i not in self.game.legal_ids():
            self._over_by_illegal = True
            info = self._info()
            info["illegal_action"] = True
            return self.game.observation(self.seat), -1.0, True, False, info
        self.game.play(i)
        self._opponents_move()
        if self.render_mode == "human":
            self.render()
        done = self._done()
        return self.game.observation(self.seat), self._reward() if done else 0.0, done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now, as a boolean mask (MaskablePPO's hook)."""
        return self._mask().astype(bool)

    def _mask(self) -> np.ndarray:
        live = not self._done() and not self._over_by_illegal
        return mask_of(self.game.legal_ids() if live else [], self.num_actions)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "seat": self.seat}

    def _opponents_move(self) -> None:
        while not self._done() and self.game.to_move() != self.seat:
            self.game.bot_move(self.movetime)

    def _done(self) -> bool:
        """Whether the agent's episode is over: the game is (the hare hunt: or the agent's seat is out)."""
        return self.game.seat_done(self.seat)

    def _reward(self) -> float:
        """The agent's return once its episode is over."""
        return self.game.seat_return(self.seat)

    def render(self) -> Any:
        return frame(self.game, self.render_mode)
