"""What a searching level is (:class:`Style`) and what a search gives back (:class:`Thought`).

Plain data, apart from the search itself (``halali.ai.search_bots``): the levels' table, the luck
analysis and the server name them without importing the compiled search and numba.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from halali.ai.bits.weights import HAND_SET
from halali.games.forest.actions import Action

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Style:
    """How a level searches."""

    name: str
    flags: int
    weights: Sequence[float] | np.ndarray = HAND_SET  # a tuple here, an array from the duels; the search takes an array
    max_depth: int = 60
    time_share: float = 1.0  # of the movetime this level lets itself use
    patience: float = 1.0  # start another iteration if it may need up to this many times the time left
    # Points by which the Star2 probes of a reveal must fall below alpha, above the horizon, before
    # the reveal is cut (the bitboard search only). 0 for every level; a knob for the duels.
    star2_margin: float = 0.0


@dataclass
class Thought:
    """The outcome of a search: the action, its value, and how it was found."""

    action: Action
    score: float
    depth: int
    nodes: int
    seconds: float
    values: list[tuple[Action, float]]  # root actions of the last complete iteration, best first
    seldepth: int = 0

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0
