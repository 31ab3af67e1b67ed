"""What every library's view of the two games shares: action numbers, masks and observation tensors.

The OpenSpiel games and the PettingZoo and Gymnasium environments encode with these functions, so the
same action number means the same action and the same tensor the same position everywhere. They
depend on numpy and the engine only; docs/research.md lays the numbers and planes out.
"""

import numpy as np


def mask_of(ids: list[int], size: int) -> np.ndarray:
    """A fresh int8 mask of ``size`` with a 1 at each id: built in a bytearray, which for the few ids
    of a turn is several times faster than indexing a numpy array with a list."""
    b = bytearray(size)
    for i in ids:
        b[i] = 1
    return np.frombuffer(b, np.int8)


def zero_sum(result: list[float]) -> list[float]:
    """The engine's result of a finished game (1 a lone win, a share for a shared win, 0 a loss) as
    zero-sum returns: each of the k winners among n players gets ``n / (n - 1) * (1 / k - 1 / n)``,
    every loser ``-1 / (n - 1)``.

    So a lone winner gets +1 and the losers share -1, a two-player draw is 0 for both, and the returns
    always add up to 0: what OpenSpiel's zero-sum algorithms and self-play expect. Who won is the
    engine's word; only the scale is chosen here.
    """
    n = len(result)
    winners = [p for p, r in enumerate(result) if r > 0]
    if not winners:
        return [0.0] * n
    k = len(winners)
    win = n / (n - 1) * (1 / k - 1 / n)
    lose = -1 / (n - 1)
    return [win if r > 0 else lose for r in result]
