"""The hare hunt as a PettingZoo AEC environment, ``halali/hare-v0``.

>>> from halali.interop.pettingzoo import hare
>>> env = hare.env(players=3)
>>> env.reset(seed=1)

Agents ``player_0``..``player_{n-1}`` are the seats. The observation is a dict: the 2529-long vector
of ``halali.interop.encoding.hare`` (what that seat may know: its own club, the clubs shown; the same
as OpenSpiel's observation tensor) and the 472-long ``action_mask``. The environment deals the clubs
and rolls the dice from its own random source (the engine's dice secret, drawn when it resets), so a
roll is never an agent's action: it happens between the decisions. A seat that is out is not asked
again; every seat gets its zero-sum reward when the hunt ends.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from pettingzoo.utils import wrappers

from halali.games.hare.actions import ROLL_ACTION
from halali.games.hare.phases import PH_AIM, PH_ROLL
from halali.games.hare.state import HareState
from halali.interop.encoding import hare as E
from halali.interop.options import hare_rules
from halali.interop.pettingzoo.base import HalaliAEC
from halali.interop.render.text import hare_text
from halali.svg import hare as hare_svg


class raw_env(HalaliAEC):
    """The hare hunt for ``players`` seats, unwrapped; ``options`` are the rule options (``bush``,
    ``overshoot``) as keywords."""

    metadata: ClassVar[dict[str, Any]] = {**HalaliAEC.metadata, "name": "halali_hare_v0"}
    num_actions = E.NUM_ACTIONS
    observation_shape = (E.SIZE,)

    def __init__(self, players: int = 2, render_mode: str | None = None, **options: Any) -> None:
        if not 2 <= players <= 6:
            raise ValueError(f"the hare hunt is for 2 to 6 players, not {players}")
        self.rules = hare_rules(options)
        self.players = players
        super().__init__(players, render_mode)
        self.state = HareState.new(players, self.rules, random.Random(0))

    def _start(self, rng: random.Random) -> None:
        self.state = HareState.new(self.players, self.rules, rng)
        self._roll()

    def _roll(self) -> None:
        """Roll whenever the dice are due: the engine rolls them from its secret."""
        st = self.state
        while st.phase in (PH_ROLL, PH_AIM):
            st.push(ROLL_ACTION)

    def _legal_ids(self) -> list[int]:
        return E.legal_ids(self.state)

    def _play(self, i: int) -> None:
        self.state.push(E.engine_action(self.state, i))
        self._roll()

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


def env(players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
    """The hare hunt with PettingZoo's usual wrappers (illegal actions end the game, actions out of
    range are refused, the AEC order is enforced)."""
    e: Any = raw_env(players=players, render_mode=render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
