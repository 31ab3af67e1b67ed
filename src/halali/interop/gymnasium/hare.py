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

from typing import Any

from halali.games.hare.state import HareState
from halali.interop.games import HareSteps
from halali.interop.gymnasium.base import OneSeatEnv


class HareEnv(OneSeatEnv):
    game: HareSteps

    def __init__(self, players: int = 2, opponent: int | str = "random", seat: int | None = 0,
                 render_mode: str | None = None, movetime: float = 0.1, **options: Any) -> None:
        super().__init__(HareSteps(players, options), seat, render_mode, opponent, movetime)

    @property
    def state(self) -> HareState:
        return self.game.state
