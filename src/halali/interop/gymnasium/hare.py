"""``halali/Hare-v0``: one seat of the hare hunt against hare bots.

>>> import gymnasium as gym, halali.interop.gymnasium
>>> env = gym.make("halali/Hare-v0", players=3, opponent="heuristic", seat=0)

``players`` 2..6; ``seat`` 0..players-1 or ``None`` for a seat drawn each episode; ``opponent`` a level
of ``halali.ai.hare.registry`` (``"random"``, ``"heuristic"``, ``"strong"``) for every other seat; the
rule options (``bush``, ``overshoot``) are keywords. The dice are rolled between the decisions; the
bots see only their own seat's view and record. The episode ends when the hunt does or when the
agent's seat is out, which settles its return (-1 / (players - 1)).
"""

from __future__ import annotations

import random
from typing import Any

from halali.ai.hare.base import HareBot
from halali.ai.hare.registry import make_bot
from halali.games.hare.state import HareState
from halali.interop.games import HareSteps
from halali.interop.gymnasium.base import OneSeatEnv


class HareEnv(OneSeatEnv):
    game: HareSteps

    def __init__(self, players: int = 2, opponent: int | str = "random", seat: int | None = 0,
                 render_mode: str | None = None, movetime: float = 0.1, **options: Any) -> None:
        game = HareSteps(players, options)
        self.opponent = opponent
        self.movetime = movetime
        make_bot(opponent)  # an unknown level is refused now, not at the first move
        super().__init__(game, seat, render_mode)
        self._bots: list[HareBot] = []

    @property
    def state(self) -> HareState:
        return self.game.state

    def _start(self, rng: random.Random, bot_seed: int) -> None:
        self.game.start(rng)
        self._bots = [make_bot(self.opponent, bot_seed + p) for p in range(self.players)]

    def _bot_move(self) -> None:
        seat = self.state.to_move
        self.game.play_checked(self._bots[seat].choose(self.state.view(seat), self.movetime))

    def _done(self) -> bool:
        return self.game.over() or self.game.out(self.seat)

    def _reward(self) -> float:
        if self.game.over():
            return super()._reward()
        return -1.0 / (self.players - 1)  # out while others play on: a loser, whoever wins
