"""``halali/Forest-v0``: one colour of the forest game against a forest bot.

>>> import gymnasium as gym, halali.interop.gymnasium
>>> env = gym.make("halali/Forest-v0", opponent="greedy", seat="brown")

``seat`` is ``"blue"`` / ``0`` (who begins), ``"brown"`` / ``1``, or ``None`` for a colour drawn each
episode; ``opponent`` a level of ``halali.ai.registry`` (``"random"``, ``"greedy"``, 3..6 or their
names) with ``movetime`` seconds per move for the searching ones; the rule options are keywords.
"""

from __future__ import annotations

from typing import Any

from halali.games.forest.position import Position
from halali.games.forest.tiles import PLAYER_NAMES
from halali.interop.games import ForestSteps
from halali.interop.gymnasium.base import OneSeatEnv


def seat_of(seat: int | str | None) -> int | None:
    if isinstance(seat, str):
        if seat not in PLAYER_NAMES:
            raise ValueError(f"seat must be blue, brown, 0, 1 or None, not {seat!r}")
        return PLAYER_NAMES.index(seat)
    return seat


class ForestEnv(OneSeatEnv):
    game: ForestSteps

    def __init__(self, opponent: int | str = "random", seat: int | str | None = 0, render_mode: str | None = None,
                 movetime: float = 0.1, **options: Any) -> None:
        super().__init__(ForestSteps(options), seat_of(seat), render_mode, opponent, movetime)

    @property
    def position(self) -> Position:
        return self.game.position
