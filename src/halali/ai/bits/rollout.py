"""Random playouts on bitboards: a uniform legal action without listing the legal actions.

A playout needs one action a turn, drawn uniformly. The legal actions are counted as sets of
target squares, one set per kind of action and direction, computed for all tiles at once by
occluded fills (Kogge-Stone: three shifts reach the whole line): the moves of all sliding tiles
northwards are the squares their fill reaches, and since a square is reached from one direction
by the nearest tile only, each square of such a set is one action, from a source found again by
one bit scan. With the captures of foxes or of the hunters in their rifle's direction, and the
steps of bears or lumberjacks, that is twelve words and a popcount each, whatever the number of
tiles; only the exits of the final phase are listed one by one. ``selectable`` lists what the
draw can reach, which the differential test compares with the legal actions. The loop runs on
raw pointers (``tables.ptr``): no reference counting in it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.gen import forced_reveal, is_over, movers, no_return
from halali.ai.bits.rng import rand_below
from halali.ai.bits.step import _step
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BB_SIZE,
    CAPTURE_BITS,
    EXIT_BITS,
    EXIT_DIRS,
    EXIT_LINES,
    FINAL,
    FULL,
    MOVE_BITS,
    NOT_A,
    NOT_G,
    PASS_A,
    RAY,
    SCORE,
    SELECT8,
    STATE_SIZE,
    TURN,
    highest,
    lowest,
    popcount,
    ptr,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
M32 = np.uint64(0xFFFFFFFF)
M16 = np.uint64(0xFFFF)
M8 = np.uint64(0xFF)
S1 = np.uint64(1)
S7 = np.uint64(7)
STEP = (7, 1, -7, -1)  # the square one step away in direction N E S W
# The work area of a playout (uint64): twelve target sets (slides, captures, steps; N E S W each),
# then the number of exits and the exits themselves as actions.
W_EXITS = 12
WORK_SIZE = 80


@njit(cache=True, error_model="numpy", inline="always")
def select(x: np.uint64, r: int) -> int:
    """The index of the ``r``-th lowest set bit of ``x`` (``r`` below its popcount)."""
    base = 0
    lo = popcount(x & M32)
    if r >= lo:
        r -= lo
        base = 32
    lo = popcount((x >> np.uint64(base)) & M16)
    if r >= lo:
        r -= lo
        base += 16
    lo = popcount((x >> np.uint64(base)) & M8)
    if r >= lo:
        r -= lo
        base += 8
    return base + int(SELECT8[8 * int((x >> np.uint64(base)) & M8) + r])


@njit(cache=True, error_model="numpy", inline="always")
def _fill_up(g: np.uint64, p: np.uint64, k: np.uint64) -> np.uint64:
    """``g`` and every square reached from it through ``p`` by steps of ``k`` bits upwards."""
    g |= p & (g << k)
    p &= p << k
    g |= p & (g << (k + k))
    p &= p << (k + k)
    return g | (p & (g << (k << S1 << S1)))


@njit(cache=True, error_model="numpy", inline="always")
def _fill_down(g: np.uint64, p: np.uint64, k: np.uint64) -> np.uint64:
    g |= p & (g >> k)
    p &= p >> k
    g |= p & (g >> (k + k))
    p &= p >> (k + k)
    return g | (p & (g >> (k << S1 << S1)))


@njit(cache=True, error_model="numpy", inline="always")
def reach(src: np.uint64, empty: np.uint64, d: int) -> np.uint64:
    """What sliding tiles on ``src`` reach in direction ``d``: empty squares and the first tile."""
    if d == 0:
        return (_fill_up(src, empty, S7) << S7) & FULL
    if d == 1:
        return (_fill_up(src, empty & NOT_A, S1) << S1) & NOT_A
    if d == 2:
        return _fill_down(src, empty, S7) >> S7
    return (_fill_down(src, empty & NOT_G, S1) >> S1) & NOT_G


@njit(cache=True, error_model="numpy", inline="always")
def step(src: np.uint64, d: int) -> np.uint64:
    """The squares one step from ``src`` in direction ``d``."""
    if d == 0:
        return (src << S7) & FULL
    if d == 1:
        return (src << S1) & NOT_A
    if d == 2:
        return src >> S7
    return (src >> S1) & NOT_G


@njit(cache=True, error_model="numpy", inline="always")
def source(t: int, d: int, occ: np.uint64) -> int:
    """The nearest tile behind square ``t`` when looking back against direction ``d``."""
    back = (d + 2) & 3
    x = RAY[49 * back + t] & occ
    return lowest(x) if back < 2 else highest(x)


@njit(cache=True, error_model="numpy", inline="always")
def _count(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> int:
    """Fill the work area with the target sets; return how many legal actions there are in all,
    reveals included (0 when the game is over or when the only one is a pass)."""
    if is_over(s):
        return 0
    nh = popcount(b[B_HIDDEN])
    w[W_EXITS] = 0
    if forced_reveal(s):
        for i in range(W_EXITS):
            w[i] = U0
        return nh
    p = s[TURN]
    empty = b[B_EMPTY]
    occ = ~empty & FULL
    free = movers(b, s, p)
    birds = b[8] | b[9]
    if p == 0:
        catch = free & b[2]  # foxes take ducks and pheasants, in any direction
        prey = birds
        steppers = free & b[1]  # bears take humans
        s_prey = b[3] | b[4] | b[5] | b[6] | b[7]
    else:
        prey = b[1] | b[2] | birds  # hunters take animals, in the rifle's direction
        steppers = free & b[3]  # lumberjacks take trees
        s_prey = b[10]
    sliders = free & ~steppers
    s_prey |= empty
    total = nh
    for d in range(4):
        mv = reach(sliders, empty, d) & empty
        cp = reach(catch if p == 0 else free & b[4 + d], empty, d) & prey
        st = step(steppers, d) & s_prey
        w[d] = mv
        w[4 + d] = cp
        w[8 + d] = st
        total += popcount(mv) + popcount(cp) + popcount(st)
    ff, back = no_return(s, p)
    if ff >= 0:
        ft = lowest(back)
        d = (0 if ft > ff else 2) if (ft - ff) % 7 == 0 else (1 if ft > ff else 3)
        if source(ft, d, occ) == ff:
            for i in range(d, W_EXITS, 4):
                total -= popcount(w[i] & back)
                w[i] &= ~back
    if s[FINAL] > 0:
        x = free & EXIT_LINES & (b[1] | b[2] if p == 0 else b[3] | b[4] | b[5] | b[6] | b[7])
        n = 0
        while x:
            sq = lowest(x)
            x &= x - U1
            dirs = EXIT_DIRS[49 * s[sq] + sq]
            for d in range(4):
                if (dirs >> d) & 1 and (occ & RAY[49 * d + sq]) == U0:
                    n += 1
                    w[W_EXITS + n] = EXIT_BITS | sq << 6 | d
        w[W_EXITS] = n
        total += n
    return total


@njit(cache=True, error_model="numpy", inline="always")
def _action_at(b: np.ndarray, s: np.ndarray, w: np.ndarray, r: int) -> int:
    """The ``r``-th action of the numbering ``_count`` set up: reveals, the sets, the exits."""
    hid = b[B_HIDDEN]
    nh = popcount(hid)
    if r < nh:
        return select(hid, r)
    r -= nh
    for i in range(W_EXITS):
        c = popcount(w[i])
        if r < c:
            t = select(w[i], r)
            d = i & 3
            if i < 8:
                f = source(t, d, ~b[B_EMPTY] & FULL)
                return (MOVE_BITS if i < 4 else CAPTURE_BITS) | f << 6 | t
            return (MOVE_BITS if s[t] == 0 else CAPTURE_BITS) | (t - STEP[d]) << 6 | t
        r -= c
    return int(np.int64(w[W_EXITS + 1 + r]))


@njit(cache=True, error_model="numpy", inline="always")
def _random_action(b: np.ndarray, s: np.ndarray, rng: np.ndarray, w: np.ndarray) -> int:
    if is_over(s):
        return -1
    total = _count(b, s, w)
    if total == 0:
        return PASS_A
    return _action_at(b, s, w, rand_below(rng, total))


@njit(cache=True, error_model="numpy", inline="always")
def _playout(b: np.ndarray, s: np.ndarray, rng: np.ndarray, w: np.ndarray) -> int:
    n = 0
    while True:
        a = _random_action(b, s, rng, w)
        if a < 0:
            return n
        _step(b, s, a, rng, False)
        n += 1


@njit(cache=True, error_model="numpy")
def random_action(bb: np.ndarray, s: np.ndarray, rng: np.ndarray, work: np.ndarray) -> int:
    """A uniformly drawn legal action (reveals without outcome); -1 when the game is over."""
    return _random_action(ptr(bb), ptr(s), ptr(rng), ptr(work))


@njit(cache=True, error_model="numpy")
def playout(bb: np.ndarray, s: np.ndarray, rng: np.ndarray, work: np.ndarray) -> int:
    """Play uniformly random actions to the end, in place; return how many were played."""
    return playout_p(ptr(bb), ptr(s), ptr(rng), ptr(work))


@njit(cache=True, error_model="numpy")
def playout_p(b: np.ndarray, s: np.ndarray, rng: np.ndarray, w: np.ndarray) -> int:
    """``playout`` on pointers, called (not inlined) by ``playout`` and ``playouts``: the rules are
    compiled into one playout, not into each (one call per game costs nothing measurable)."""
    return _playout(b, s, rng, w)


@njit(cache=True, error_model="numpy")
def playouts(bb0: np.ndarray, s0: np.ndarray, games: int, rng: np.ndarray) -> tuple[int, int]:
    """``games`` random playouts from a state: (actions played, sum of blue-minus-brown scores)."""
    work = np.zeros(WORK_SIZE, dtype=np.uint64)
    bb = np.empty(BB_SIZE, dtype=np.uint64)
    s = np.empty(STATE_SIZE, dtype=np.int32)
    b, sp, rp, wp = ptr(bb), ptr(s), ptr(rng), ptr(work)
    total = 0
    diff = 0
    for _ in range(games):
        for i in range(BB_SIZE):
            b[i] = bb0[i]
        for i in range(STATE_SIZE):
            sp[i] = s0[i]
        total += playout_p(b, sp, rp, wp)
        diff += sp[SCORE] - sp[SCORE + 1]
    return total, diff


@njit(cache=True, error_model="numpy")
def selectable(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Every action ``random_action`` can draw, each once, into ``out``; return how many."""
    work = np.zeros(WORK_SIZE, dtype=np.uint64)
    b, sp, wp = ptr(bb), ptr(s), ptr(work)
    if is_over(sp):
        return 0
    total = _count(b, sp, wp)
    if total == 0:
        out[0] = PASS_A
        return 1
    for r in range(total):
        out[r] = _action_at(b, sp, wp, r)
    return total
