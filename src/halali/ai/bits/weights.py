"""The evaluation's weights: which term each one scales, the sets the levels use, and their names.

They go to the search as an array, so that the levels can evaluate with different weights without
compiling twice; ``bits.evaluate`` says what each term counts. The sets are written here as plain
tuples and made arrays only when asked for (``WEIGHTS``, ``STRONGEST``, ``MATERIAL_ONLY``): the levels'
table names them, and a process that never searches (a server, a `halali` command, a bot worker
before its first searching move) then does not import numpy (0.2 s of CPU at each start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

W_KEEP = 0  # share of an own tile's value before the final phase (the five most valuable)
W_EXTRA = 1  # share for own tiles beyond the five best (at most five turns to exit them)
W_TREE = 2  # share of a face-up tree's value for brown while a lumberjack may cut it
W_THREAT_MAX = 3  # share of the largest threatened loss of the player to move (he may rescue it)
W_THREAT_REST = 4  # share of the other threatened losses
W_EXIT1 = 5  # final phase: share of a tile one turn from leaving
W_EXIT2 = 6  # ... two turns
W_EXIT3 = 7  # ... three or more turns, if the turns left allow
W_FIRE = 8  # face-down tile first in an enemy hunter's line (a reveal there feeds the hunter)
W_PARITY = 9  # points for not being the one to reveal the last tile
W_HUNT = 10  # potential prey in own lines of fire, per point of prey value
W_PREP = 11  # before the final phase, with few tiles face down: weight of the exit race to come
N_WEIGHTS = 12
# Their names, as `halali train` writes them and the tuning duels take them (index = the W_ constant).
WEIGHT_NAMES = ("keep", "extra", "tree", "tmax", "trest", "exit1", "exit2", "exit3", "fire", "parity", "hunt",
                "prep")
PREP_HIDDEN = 8  # the exit race starts to count when this many tiles or fewer are face down

HAND_SET: tuple[float, ...] = (0.45, 0.15, 0.5, 0.3, 0.9, 0.95, 0.75, 0.45, 0.4, 1.0, 0.05, 0.0)
# Level 6's weights: the hand-set ones with nothing for the trees a lumberjack may still cut, chosen
# by duels against the hand-set weights (docs/ai.md, "Weights by duels"). The levels below keep the
# hand-set weights that their ladder was measured with.
STRONGEST_SET: tuple[float, ...] = tuple(0.0 if i == W_TREE else w for i, w in enumerate(HAND_SET))
_SETS = {"WEIGHTS": HAND_SET, "STRONGEST": STRONGEST_SET, "MATERIAL_ONLY": (0.0,) * N_WEIGHTS}

# Every value of the evaluation and of the search lies in [-BOUND, BOUND] (the search's Star1 relies on it).
BOUND = 250.0


def __getattr__(name: str) -> np.ndarray:
    """``WEIGHTS``, ``STRONGEST`` and ``MATERIAL_ONLY`` as float64 arrays, each a new copy (numpy
    imported at the first)."""
    if name in _SETS:
        import numpy as np

        return np.array(_SETS[name], dtype=np.float64)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
