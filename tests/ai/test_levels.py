"""The weights each level evaluates with (docs/ai.md, "Weights by duels")."""

from __future__ import annotations

import numpy as np

from halali.ai.bits import weights as E
from halali.ai.levels import STYLES


def test_level_6_counts_no_standing_trees_and_the_rest_keep_the_hand_set_weights() -> None:
    assert STYLES[6].weights[E.W_TREE] == 0.0 < E.WEIGHTS[E.W_TREE]
    assert (np.delete(STYLES[6].weights, E.W_TREE) == np.delete(E.WEIGHTS, E.W_TREE)).all()
    # The ladder below level 6 was measured with the hand-set weights.
    assert all((STYLES[level].weights == E.WEIGHTS).all() for level in (3, 4, 5))
