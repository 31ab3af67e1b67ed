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

import numpy as np

from halali.ai.hare.base import HareBot
from halali.ai.hare.registry import make_bot
from halali.games.hare.actions import ROLL_ACTION
from halali.games.hare.phases import PH_AIM, PH_ROLL
from halali.games.hare.state import HareState
from halali.interop.encoding import hare as E
from halali.interop.gymnasium.base import OneSeatEnv
from halali.interop.options import hare_rules
from halali.interop.render.text import hare_text
from halali.svg import hare as hare_svg


class HareEnv(OneSeatEnv):
    num_actions = E.NUM_ACTIONS
    observation_size = E.SIZE

    def __init__(self, players: int = 2, opponent: int | str = "random", seat: int | None = 0,
                 render_mode: str | None = None, movetime: float = 0.1, **options: Any) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"the hare hunt is for 2 to 6 players, not {players}")
        self.rules = hare_rules(options)
        self.opponent = opponent
        self.movetime = movetime
        make_bot(opponent)  # an unknown level is refused now, not at the first move
        super().__init__(players, seat, render_mode)
        self.state = HareState.new(players, self.rules, random.Random(0))
        self._bots: list[HareBot] = []

    def _start(self, rng: random.Random, bot_seed: int) -> None:
        self.state = HareState.new(self.players, self.rules, rng)
        self._bots = [make_bot(self.opponent, bot_seed + p) for p in range(self.players)]
        self._roll()

    def _roll(self) -> None:
        st = self.state
        while st.phase in (PH_ROLL, PH_AIM):
            st.push(ROLL_ACTION)

    def _legal_ids(self) -> list[int]:
        return E.legal_ids(self.state)

    def _play(self, i: int) -> None:
        self.state.push(E.engine_action(self.state, i))
        self._roll()

    def _bot_move(self) -> None:
        seat = self.state.to_move
        self.state.play(self._bots[seat].choose(self.state.view(seat), self.movetime))
        self._roll()

    def _done(self) -> bool:
        return self.state.is_over() or self.state.out[self.seat] >= 0

    def _reward(self) -> float:
        if self.state.is_over():
            return super()._reward()
        return -1.0 / (self.players - 1)  # out while others play on: a loser, whoever wins

    def _to_move(self) -> int:
        return self.state.to_move

    def _over(self) -> bool:
        return self.state.is_over()

    def _result(self) -> list[float]:
        return self.state.result()

    def _observation(self, seat: int) -> np.ndarray:
        return E.observation(self.state, seat)

    def _text(self) -> str:
        return hare_text(self.state)

    def _svg(self) -> str:
        return hare_svg(self.state, lastaction=self.state.history[-1] if self.state.history else None)
