"""``halali/Forest-v0``: one colour of the forest game against a forest bot.

>>> import gymnasium as gym, halali.interop.gymnasium
>>> env = gym.make("halali/Forest-v0", opponent="greedy", seat="brown")

``seat`` is ``"blue"`` / ``0`` (who begins), ``"brown"`` / ``1``, or ``None`` for a colour drawn each
episode; ``opponent`` a level of ``halali.ai.registry`` (``"random"``, ``"greedy"``, 3..6 or their
names) with ``movetime`` seconds per move for the searching ones; the rule options are keywords.
"""

from __future__ import annotations

import random
from typing import Any

from halali.ai.base import Bot
from halali.ai.registry import make_bot
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
        self.opponent = opponent
        self.movetime = movetime
        make_bot(opponent)  # an unknown level is refused now, not at the first move
        super().__init__(ForestSteps(options), seat_of(seat), render_mode)
        self._bot: Bot = make_bot(opponent, 0)

    @property
    def position(self) -> Position:
        return self.game.position

    def _start(self, rng: random.Random, bot_seed: int) -> None:
        self.game.start(rng)
        self._bot = make_bot(self.opponent, bot_seed)

    def _bot_move(self) -> None:
        self.game.push(self._bot.choose(self.position.view(), self.movetime))
