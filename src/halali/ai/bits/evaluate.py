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
    KIND_T,
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
def _lines(b: np.ndarray) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """What the hunters' rifles, the foxes, the bears and the lumberjacks reach."""
    empty = b[B_EMPTY]
    hc = reach(b[4], empty, 0) | reach(b[5], empty, 1) | reach(b[6], empty, 2) | reach(b[7], empty, 3)
    foxes = b[2]
    fc = reach(foxes, empty, 0) | reach(foxes, empty, 1) | reach(foxes, empty, 2) | reach(foxes, empty, 3)
    return hc, fc, _around(b[1]), _around(b[3])


@njit(cache=True, error_model="numpy", inline="always")
def _value(b: np.ndarray, s: np.ndarray, w: np.ndarray, hc: np.uint64, fc: np.uint64, bc: np.uint64,
           lc: np.uint64, add: np.uint64, c: int, me: int, nh: int, npool: int, dec: int, stall: int) -> float:
    """The evaluation of ``b`` and ``s`` with, when ``add`` is a square's bit, tile ``c`` turned up
    there: ``me`` to move, ``nh`` tiles face down, ``npool`` unknown with one fewer of kind ``dec``,
    the stall count ``stall`` (and the lines ``hc`` .. ``lc`` of that state). So the outcomes of a
    reveal are valued without being played; every sum is the one ``_evaluate`` makes, in its order."""
    b1 = b[1] | add if c == 1 else b[1]
    b2 = b[2] | add if c == 2 else b[2]
    b3 = b[3] | add if c == 3 else b[3]
    b4 = b[4] | add if c == 4 else b[4]
    b5 = b[5] | add if c == 5 else b[5]
    b6 = b[6] | add if c == 6 else b[6]
    b7 = b[7] | add if c == 7 else b[7]
    b8 = b[8] | add if c == 8 else b[8]
    b9 = b[9] | add if c == 9 else b[9]
    b10 = b[10] | add if c == 10 else b[10]
    hidden = b[B_HIDDEN] & ~add
    e = float(s[SCORE] - s[SCORE + 1])  # blue minus brown until the end
    final = s[FINAL]
    n_lj = popcount(b3)
    prep = 0.0
    if final < 0 and 0 < nh <= PREP_HIDDEN:
        prep = w[W_PREP] * (1.0 - nh / (PREP_HIDDEN + 1.0))
    top = 0.0
    total = 0.0
    if me == 0:  # brown's captures threaten the player to move
        top, total = _threats(b1 & hc, bc, 10.0, 5.0, top, total)
        top, total = _threats(b2 & hc, bc, 5.0, 5.0, top, total)
        top, total = _threats(b8 & hc, bc, 2.0, 5.0, top, total)
        top, total = _threats(b9 & hc, bc, 3.0, 5.0, top, total)
        top, total = _threats(b10 & lc, bc, 2.0, 5.0, top, total)
    else:
        humans = b3 | b4 | b5 | b6 | b7
        top, total = _threats(humans & bc, hc, 5.0, 10.0, top, total)
        top, total = _threats(b8 & fc, hc, 2.0, 5.0, top, total)
        top, total = _threats(b9 & fc, hc, 3.0, 5.0, top, total)
    fire = popcount(hidden & hc)
    hunt = float(2 * (popcount(b8 & fc) - popcount(b8 & hc)) + 3 * (popcount(b9 & fc) - popcount(b9 & hc)))
    trees = popcount(b10)
    blue = b1 | b2
    brown = b3 | b4 | b5 | b6 | b7
    e_pos = 0.0
    if final > 0 or prep > 0.0:  # (never with a tile added: the search values those outcomes by playing them)
        clear_exit = _clear_exit_squares(s)
        p0, n0 = _packed_tiles(s, blue, b1, clear_exit)
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
        nb = popcount(b1)
        e_pos += (1.0 - prep) * (_top_share(nb, popcount(blue) - nb, w[W_KEEP], w[W_EXTRA])
                                 - _top_share(0, min(popcount(brown), 10), w[W_KEEP], w[W_EXTRA])) + prep * race
        # Face-down tiles at the average of what they may be.
        if nh > 0 and npool > 0:
            avg = 0.0
            for k in range(7):
                n = s[POOL + k] - (1 if k == dec else 0)
                if n > 0:
                    kv = float(_KIND_VALUE[k])
                    if k <= 1:
                        avg += n * kv * w[W_KEEP]
                    elif k <= 3:
                        avg -= n * kv * w[W_KEEP]
                    elif k == 6:
                        avg -= n * kv * w[W_TREE] * 0.5
            e_pos += avg * nh / npool
        # Trees for brown's lumberjacks.
        if n_lj > 0:
            e_pos -= trees * 2.0 * w[W_TREE]
        elif s[POOL + 2] - (1 if dec == 2 else 0) > 0:
            e_pos -= trees * 2.0 * w[W_TREE] * 0.5
        e_pos -= fire * w[W_FIRE]
        e_pos += hunt * w[W_HUNT]
        # Who reveals the last tile gives the first final turn away.
        if 0 < nh <= 6:
            lim = s[STALL_LIMIT]
            if lim > 0:
                forced_is_me = (lim - stall) % 2 == 0
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


@njit(cache=True, error_model="numpy", inline="always")
def _evaluate(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    hc, fc, bc, lc = _lines(b)
    return _value(b, s, w, hc, fc, bc, lc, U0, 0, s[TURN], s[NHID], s[NPOOL], -1, s[STALL])


@njit(cache=True, error_model="numpy", inline="always")
def revealed_by_value(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> bool:
    """Whether ``evaluate_revealed`` may value this state's reveals: at least two tiles face down and
    the exit race not counting after the reveal (the state after such a reveal is not over, and
    its value reads nothing of the revealed square but its bit)."""
    nh = s[NHID] - 1
    return nh > 0 and s[FINAL] < 0 and not (w[W_PREP] != 0.0 and nh <= PREP_HIDDEN)


@njit(cache=True, error_model="numpy", inline="always")
def evaluate_revealed(b: np.ndarray, s: np.ndarray, w: np.ndarray, sq: int, c: int, hc: np.uint64, fc: np.uint64,
                      bc: np.uint64, lc: np.uint64) -> float:
    """``evaluate`` of the state after revealing tile ``c`` (from the unknown pool) on ``sq``, for the
    player then to move, without playing the reveal: the lines ``hc`` .. ``lc`` of this state
    (``_lines``) plus what the new tile reaches. Only where ``revealed_by_value`` says so."""
    add = BIT[sq]
    empty = b[B_EMPTY]
    if 4 <= c <= 7:
        hc |= reach(add, empty, c - 4)
    elif c == 2:
        fc |= reach(add, empty, 0) | reach(add, empty, 1) | reach(add, empty, 2) | reach(add, empty, 3)
    elif c == 1:
        bc |= _around(add)
    elif c == 3:
        lc |= _around(add)
    return _value(b, s, w, hc, fc, bc, lc, add, c, 1 - s[TURN], s[NHID] - 1, s[NPOOL] - 1, KIND_T[c], 0)


@njit(cache=True, error_model="numpy")
def evaluate(bb: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    """The expected final score difference for the player to move (``halali.ai.evaluate.evaluate``)."""
    return _evaluate(ptr(bb), ptr(s), w)


@njit(cache=True, error_model="numpy")
def evaluate_p(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> float:
    """``evaluate`` on pointers, for the search (see ``step.make_p``)."""
    return _evaluate(b, s, w)
