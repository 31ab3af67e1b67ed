"""The forest game as a PettingZoo AEC environment, ``halali/forest-v0``.

>>> from halali.interop.pettingzoo import forest
>>> env = forest.env(stall_limit=30)
>>> env.reset(seed=1)

Agents ``player_0`` (blue, who begins) and ``player_1`` (brown). The observation is a dict: the
865-long vector of ``halali.interop.encoding.forest`` (the same as OpenSpiel's observation
tensor; its ``split`` gives the (17, 7, 7) board planes and the global features) and the 1422-long
``action_mask``. The environment deals the tiles from its own
random source when it resets, so a reveal turns up the tile the deal put there at once; the rewards,
+1, -1 or 0, come when the game ends. ``env`` wraps ``raw_env`` as PettingZoo's classic games are
wrapped: an illegal action ends the game with -1 for the player who made it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from pettingzoo.utils import wrappers

from halali.games.forest.position import Position
from halali.interop.encoding import forest as E
from halali.interop.options import forest_rules
from halali.interop.pettingzoo.base import HalaliAEC
from halali.interop.render.text import forest_text
from halali.svg import forest as forest_svg


class raw_env(HalaliAEC):
    """The forest game, unwrapped; ``options`` are the rule options (``green_lock``,
    ``no_return_neutrals``, ``stall_limit``) as keywords."""

    metadata: ClassVar[dict[str, Any]] = {**HalaliAEC.metadata, "name": "halali_forest_v0"}
    num_actions = E.NUM_ACTIONS
    observation_shape = (E.SIZE,)

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        self.rules = forest_rules(options)
        super().__init__(2, render_mode)
        self.position = Position(self.rules)
        self._tracker = E.Tracker(self.position)

    def _start(self, rng: random.Random) -> None:
        self.position = Position.deal(self.rules, rng)
        self._tracker.reset(self.position)

    def _legal_ids(self) -> list[int]:
        return E.legal_ids(self.position)

    def _play(self, i: int) -> None:
        a = E.engine_action(self.position, i)
        self.position.push(a)
        self._tracker.push(self.position, a)

    def _to_move(self) -> int:
        return self.position.turn

    def _over(self) -> bool:
        return self.position.is_over()

    def _result(self) -> list[float]:
        w = self.position.winner()
        return [0.5, 0.5] if w is None else [1.0 if p == w else 0.0 for p in (0, 1)]

    def _observation(self, seat: int) -> np.ndarray:
        return self._tracker.observation(seat)

    def _text(self) -> str:
        return forest_text(self.position)

    def _svg(self) -> str:
        return forest_svg(self.position, lastaction=self.position.last_action)


def env(render_mode: str | None = None, **options: Any) -> Any:
    """The forest game with PettingZoo's usual wrappers (illegal actions end the game, actions out of
    range are refused, the AEC order is enforced)."""
    e: Any = raw_env(render_mode=render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
