"""The kernel's random numbers: xorshift64 (the state is one uint64, never zero) and the draw of an
unknown tile from the pool, as a playout or ``make`` without an outcome needs it."""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.tables import KIND_CODE, NPOOL, POOL


@njit(cache=True, error_model="numpy", inline="always")
def rand_u64(rng: np.ndarray) -> np.uint64:
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@njit(cache=True, error_model="numpy", inline="always")
def rand_below(rng: np.ndarray, n: int) -> int:
    """Uniform in [0, n) for n < 2**32 (the high half times n: no division)."""
    return int(np.int64(((rand_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32)))


@njit(cache=True, error_model="numpy", inline="always")
def draw_unknown(s: np.ndarray, rng: np.ndarray) -> int:
    """A tile code drawn from the unknown pool (hunters with a uniform rifle)."""
    r = rand_below(rng, s[NPOOL])
    k = 0
    while r >= s[POOL + k]:
        r -= s[POOL + k]
        k += 1
    c = KIND_CODE[k]
    if k == 3:
        c += rand_below(rng, 4)
    return c
