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

from typing import Any, ClassVar

from pettingzoo.utils import wrappers

from halali.games.forest.position import Position
from halali.interop.games import ForestSteps
from halali.interop.pettingzoo.base import HalaliAEC


class raw_env(HalaliAEC):
    """The forest game, unwrapped; ``options`` are the rule options (``green_lock``,
    ``no_return_neutrals``, ``stall_limit``) as keywords."""

    metadata: ClassVar[dict[str, Any]] = {**HalaliAEC.metadata, "name": "halali_forest_v0"}
    game: ForestSteps

    def __init__(self, render_mode: str | None = None, **options: Any) -> None:
        super().__init__(ForestSteps(options), render_mode)

    @property
    def position(self) -> Position:
        return self.game.position


def env(render_mode: str | None = None, **options: Any) -> Any:
    """The forest game with PettingZoo's usual wrappers (illegal actions end the game, actions out of
    range are refused, the AEC order is enforced)."""
    e: Any = raw_env(render_mode=render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
