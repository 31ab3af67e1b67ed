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

import numpy as np

from halali.ai.base import Bot
from halali.ai.registry import make_bot
from halali.games.forest.position import Position
from halali.games.forest.tiles import PLAYER_NAMES
from halali.interop.encoding import forest as E
from halali.interop.gymnasium.base import OneSeatEnv
from halali.interop.options import forest_rules
from halali.interop.render.text import forest_text
from halali.svg import forest as forest_svg


def seat_of(seat: int | str | None) -> int | None:
    if isinstance(seat, str):
        if seat not in PLAYER_NAMES:
            raise ValueError(f"seat must be blue, brown, 0, 1 or None, not {seat!r}")
        return PLAYER_NAMES.index(seat)
    return seat


class ForestEnv(OneSeatEnv):
    num_actions = E.NUM_ACTIONS
    observation_size = E.SIZE

    def __init__(self, opponent: int | str = "random", seat: int | str | None = 0, render_mode: str | None = None,
                 movetime: float = 0.1, **options: Any) -> None:
        self.rules = forest_rules(options)
        self.opponent = opponent
        self.movetime = movetime
        make_bot(opponent)  # an unknown level is refused now, not at the first move
        super().__init__(2, seat_of(seat), render_mode)
        self.position = Position(self.rules)
        self._bot: Bot = make_bot(opponent, 0)

    def _start(self, rng: random.Random, bot_seed: int) -> None:
        self.position = Position.deal(self.rules, rng)
        self._bot = make_bot(self.opponent, bot_seed)

    def _legal_ids(self) -> list[int]:
        return E.legal_ids(self.position)

    def _play(self, i: int) -> None:
        self.position.push(E.engine_action(self.position, i))

    def _bot_move(self) -> None:
        self.position.push(self._bot.choose(self.position.view(), self.movetime))

    def _to_move(self) -> int:
        return self.position.turn

    def _over(self) -> bool:
        return self.position.is_over()

    def _result(self) -> list[float]:
        w = self.position.winner()
        return [0.5, 0.5] if w is None else [1.0 if p == w else 0.0 for p in (0, 1)]

    def _observation(self, seat: int) -> np.ndarray:
        return E.observation(self.position, seat)

    def _text(self) -> str:
        return forest_text(self.position)

    def _svg(self) -> str:
        return forest_svg(self.position, lastaction=self.position.last_action)
