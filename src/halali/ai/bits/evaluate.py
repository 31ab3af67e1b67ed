"""``halali.ai.evaluate`` on bitboards: the same number, to the last bit, without scanning the board.

The lines each side controls (hunters' rifle lines, the squares next to bears and lumberjacks, the
foxes' lines) are occluded fills of all those tiles at once; the threatened tiles, the prey in the
lines of fire and the face-down tiles a hunter aims at are popcounts of those masks against the
tile bitboards. Every sum the array version adds up tile by tile is of whole numbers, so it comes
out exactly equal in any order; the shares of the own tiles, which are not, are added in the order
the array version sorts them into (the values descending, the board order among equals), and the
exit race of the final phase takes the tiles in board order as it does. Nothing is allocated.
``tests/ai/test_bits_evaluate.py`` compares the two evaluations position by position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.rollout import reach, step
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BIT,
    FINAL,
    NHID,
    NPOOL,
    POOL,
    SCORE,
    STALL,
    STALL_LIMIT,
    TURN,
    lowest,
    popcount,
    ptr,
)
from halali.ai.evaluate import (
    _KIND_VALUE,
    BOUND,
    PREP_HIDDEN,
    W_EXIT1,
    W_EXIT2,
    W_EXIT3,
    W_EXTRA,
    W_FIRE,
    W_HUNT,
    W_KEEP,
    W_PARITY,
    W_PREP,
    W_THREAT_MAX,
    W_THREAT_REST,
    W_TREE,
    _clear_exit_squares,
    _exit_turns,
)

U0 = np.uint64(0)
U1 = np.uint64(1)


@njit(cache=True, error_model="numpy", inline="always")
def _around(x: np.uint64) -> np.uint64:
    return step(x, 0) | step(x, 1) | step(x, 2) | step(x, 3)


@njit(cache=True, error_model="numpy", inline="always")
def _threats(x: np.uint64, cover: np.uint64, v: float, back: float, top: float, total: float) -> tuple[float, float]:
    """Add the tiles of ``x`` (worth ``v``, ``v - back`` where ``cover`` takes back) to the largest
    threatened loss and to the sum of them (losses of nothing or less do not count)."""
    n_free = popcount(x & ~cover)
    n_cov = popcount(x & cover)
    if n_free > 0:
        total += n_free * v
        top = max(top, v)
    if n_cov > 0 and v - back > 0.0:
        total += n_cov * (v - back)
        top = max(top, v - back)
    return top, total


@njit(cache=True, error_model="numpy", inline="always")
def _top_share(n10: int, n5: int, keep: float, extra: float) -> float:
    """``keep`` of the five most valuable of ``n10`` tiles worth 10 and ``n5`` worth 5, ``extra`` of
    the rest, added in the order of ``evaluate._top_share``."""
    total = 0.0
    for i in range(n10 + n5):
        total += (10.0 if i < n10 else 5.0) * (keep if i < 5 else extra)
    return total


@njit(cache=True, error_model="numpy", inline="always")
def _packed_tiles(s: np.ndarray, own: np.uint64, tens: np.uint64, clear_exit: int) -> tuple[int, int]:
    """The own tiles in board order as 4 bits each (worth 10?, the turns to leave): (packed, count)."""
    packed = 0
    n = 0
    x = own
    while x and n < 10:
        sq = lowest(x)
        x &= x - U1
        t = _exit_turns(s, sq, s[sq], clear_exit)
        packed |= ((1 if tens & BIT[sq] else 0) | t << 1) << (4 * n)
        n += 1
    return packed, n


@njit(cache=True, error_model="numpy", inline="always")
def _exit_potential(packed: int, n: int, left: int, w: np.ndarray) -> float:
    """``evaluate._exit_potential`` on packed tiles: the same greedy choice, the same sum."""
    total = 0.0
    used = 0
    for _ in range(n):
        bi = -1
        bk = 0.0
        for i in range(n):
            t = (packed >> (4 * i + 1)) & 7
            key = (10.0 if (packed >> (4 * i)) & 1 else 5.0) * 4 - t
            if not (used >> i) & 1 and t <= left and (bi < 0 or key > bk):
                bi = i
                bk = key
        if bi < 0:
            break
        used |= 1 << bi
        t = (packed >> (4 * bi + 1)) & 7
        left -= t
        total += (10.0 if (packed >> (4 * bi)) & 1 else 5.0) * (w[W_EXIT1] if t == 1 else (w[W_EXIT2] if t == 2
                                                                                           else w[W_EXIT3]))
    return total


@njit(cache=True, error_model="numpy", inline="always")
def _evaluate(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    me = s[TURN]
    e = float(s[SCORE] - s[SCORE + 1])  # blue minus brown until the end
    final = s[FINAL]
    nh = s[NHID]
    empty = b[B_EMPTY]
    hc = reach(b[4], empty, 0) | reach(b[5], empty, 1) | reach(b[6], empty, 2) | reach(b[7], empty, 3)
    foxes = b[2]
    fc = reach(foxes, empty, 0) | reach(foxes, empty, 1) | reach(foxes, empty, 2) | reach(foxes, empty, 3)
    bc = _around(b[1])
    lc = _around(b[3])
    n_lj = popcount(b[3])
    prep = 0.0
    if final < 0 and 0 < nh <= PREP_HIDDEN:
        prep = w[W_PREP] * (1.0 - nh / (PREP_HIDDEN + 1.0))
    top = 0.0
    total = 0.0
    if me == 0:  # brown's captures threaten the player to move
        top, total = _threats(b[1] & hc, bc, 10.0, 5.0, top, total)
        top, total = _threats(b[2] & hc, bc, 5.0, 5.0, top, total)
        top, total = _threats(b[8] & hc, bc, 2.0, 5.0, top, total)
        top, total = _threats(b[9] & hc, bc, 3.0, 5.0, top, total)
        top, total = _threats(b[10] & lc, bc, 2.0, 5.0, top, total)
    else:
        humans = b[3] | b[4] | b[5] | b[6] | b[7]
        top, total = _threats(humans & bc, hc, 5.0, 10.0, top, total)
        top, total = _threats(b[8] & fc, hc, 2.0, 5.0, top, total)
        top, total = _threats(b[9] & fc, hc, 3.0, 5.0, top, total)
    fire = popcount(b[B_HIDDEN] & hc)
    hunt = float(2 * (popcount(b[8] & fc) - popcount(b[8] & hc)) + 3 * (popcount(b[9] & fc) - popcount(b[9] & hc)))
    trees = popcount(b[10])
    blue = b[1] | b[2]
    brown = b[3] | b[4] | b[5] | b[6] | b[7]
    e_pos = 0.0
    if final > 0 or prep > 0.0:
        clear_exit = _clear_exit_squares(s)
        p0, n0 = _packed_tiles(s, blue, b[1], clear_exit)
        p1, n1 = _packed_tiles(s, brown, U0, clear_exit)
    else:
        p0 = n0 = p1 = n1 = 0
    if final > 0:
        mine = (final + 1) // 2
        theirs = final // 2
        left0 = mine if me == 0 else theirs
        left1 = theirs if me == 0 else mine
        e_pos += _exit_potential(p0, n0, left0, w)
        e_pos -= _exit_potential(p1, n1, left1, w)
    else:
        if prep > 0.0:  # the exit race with five turns each, blended in as the final phase nears
            race = _exit_potential(p0, n0, 5, w) - _exit_potential(p1, n1, 5, w)
        else:
            race = 0.0
        nb = popcount(b[1])
        e_pos += (1.0 - prep) * (_top_share(nb, popcount(blue) - nb, w[W_KEEP], w[W_EXTRA])
                                 - _top_share(0, min(popcount(brown), 10), w[W_KEEP], w[W_EXTRA])) + prep * race
        # Face-down tiles at the average of what they may be.
        if nh > 0 and s[NPOOL] > 0:
            avg = 0.0
            for k in range(7):
                n = s[POOL + k]
                if n > 0:
                    kv = float(_KIND_VALUE[k])
                    if k <= 1:
                        avg += n * kv * w[W_KEEP]
                    elif k <= 3:
                        avg -= n * kv * w[W_KEEP]
                    elif k == 6:
                        avg -= n * kv * w[W_TREE] * 0.5
            e_pos += avg * nh / s[NPOOL]
        # Trees for brown's lumberjacks.
        if n_lj > 0:
            e_pos -= trees * 2.0 * w[W_TREE]
        elif s[POOL + 2] > 0:
            e_pos -= trees * 2.0 * w[W_TREE] * 0.5
        e_pos -= fire * w[W_FIRE]
        e_pos += hunt * w[W_HUNT]
        # Who reveals the last tile gives the first final turn away.
        if 0 < nh <= 6:
            lim = s[STALL_LIMIT]
            if lim > 0:
                forced_is_me = (lim - s[STALL]) % 2 == 0
                last_is_me = forced_is_me if (lim % 2 == 0 or nh % 2 == 1) else not forced_is_me
            else:
                last_is_me = nh % 2 == 1
            sign = -1.0 if last_is_me else 1.0
            e_pos += (sign if me == 0 else -sign) * w[W_PARITY]
    e += e_pos
    val = e if me == 0 else -e
    val -= top * w[W_THREAT_MAX] + (total - top) * w[W_THREAT_REST]
    if val > BOUND:
        return BOUND
    if val < -BOUND:
        return -BOUND
    return val


@njit(cache=True, error_model="numpy")
def evaluate(bb: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    """The expected final score difference for the player to move (``halali.ai.evaluate.evaluate``)."""
    return _evaluate(ptr(bb), ptr(s), w)


@njit(cache=True, error_model="numpy")
def evaluate_p(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    """``evaluate`` on pointers, for the search (see ``step.make_p``)."""
    return _evaluate(b, s, w)
