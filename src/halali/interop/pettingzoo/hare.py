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

from typing import Any, ClassVar

from pettingzoo.utils import wrappers

from halali.games.hare.state import HareState
from halali.interop.games import HareSteps
from halali.interop.pettingzoo.base import HalaliAEC


class raw_env(HalaliAEC):
    """The hare hunt for ``players`` seats, unwrapped; ``options`` are the rule options (``bush``,
    ``overshoot``) as keywords."""

    metadata: ClassVar[dict[str, Any]] = {**HalaliAEC.metadata, "name": "halali_hare_v0"}
    game: HareSteps

    def __init__(self, players: int = 2, render_mode: str | None = None, **options: Any) -> None:
        super().__init__(HareSteps(players, options), render_mode)
        self.players = players

    @property
    def state(self) -> HareState:
        return self.game.state


def env(players: int = 2, render_mode: str | None = None, **options: Any) -> Any:
    """The hare hunt with PettingZoo's usual wrappers (illegal actions end the game, actions out of
    range are refused, the AEC order is enforced)."""
    e: Any = raw_env(players=players, render_mode=render_mode, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
