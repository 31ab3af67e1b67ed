"""Random playouts on bitboards: a uniform legal action without writing the legal list.

A playout needs one action a turn, drawn uniformly. Instead of listing every action, each tile
the player may move gets its targets as one word (squares it may move to or capture on, and its
exits as bits ``EXIT_BIT + direction``); the number of actions is then a sum of popcounts plus the
face-down squares, and the drawn number is found by walking the words and selecting its bit.
``selectable`` lists what the draw can reach, which the differential test compares with the legal
actions. The loop runs on raw pointers (``tables.ptr``): no reference counting in it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.gen import forced_reveal, is_over, movers, no_return, slide
from halali.ai.bits.step import _step, rand_below
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BB_SIZE,
    BIT,
    CAPTURE_BITS,
    CAPTURE_RAY,
    EXIT_BIT,
    EXIT_BITS,
    EXIT_DIRS,
    FINAL,
    FULL,
    MOVE_BITS,
    NBM,
    PASS_A,
    RAY,
    SCORE,
    SELECT8,
    STATE_SIZE,
    STEP1_T,
    TURN,
    lowest,
    popcount,
    ptr,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
M32 = np.uint64(0xFFFFFFFF)
M16 = np.uint64(0xFFFF)
M8 = np.uint64(0xFF)
# The work area of a playout (uint64): target words, their source squares, and per tile code
# what it may end a move on (empty squares and its prey).
W_SOURCES = 64
W_REACH = 128
WORK_SIZE = 144


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
def _exits(occ: np.uint64, sq: int, dirs: int) -> np.uint64:
    e = U0
    for d in range(4):
        if (dirs >> d) & 1 and (occ & RAY[49 * d + sq]) == U0:
            e |= BIT[EXIT_BIT + d]
    return e


@njit(cache=True, error_model="numpy", inline="always")
def _count(b: np.ndarray, s: np.ndarray, w: np.ndarray) -> tuple[int, int]:
    """Fill the work area with the movable tiles' target words and squares.

    Returns (how many words, how many legal actions in all, reveals included); 0 actions when the
    game is over or when the only one is a pass.
    """
    if is_over(s):
        return 0, 0
    nh = popcount(b[B_HIDDEN])
    if forced_reveal(s):
        return 0, nh
    p = s[TURN]
    empty = b[B_EMPTY]
    occ = ~empty & FULL
    birds = b[8] | b[9]
    if p == 0:
        w[W_REACH + 1] = b[3] | b[4] | b[5] | b[6] | b[7] | empty  # bears take humans
        w[W_REACH + 2] = birds | empty  # foxes take ducks and pheasants
    else:
        w[W_REACH + 3] = b[10] | empty  # lumberjacks take trees
        prey = b[1] | b[2] | birds  # hunters take animals, in the rifle's direction
        for c in range(4, 8):
            w[W_REACH + c] = prey
    w[W_REACH + 8] = empty
    w[W_REACH + 9] = empty
    m = movers(b, s, p)
    ff, back = no_return(s, p)
    fin = s[FINAL] > 0
    n = 0
    total = nh
    while m:
        sq = lowest(m)
        m &= m - U1
        c = s[sq]
        k = 49 * c + sq
        if STEP1_T[c]:
            t = NBM[sq] & w[W_REACH + c]
        else:
            t = slide(occ, sq) & (empty | (w[W_REACH + c] & CAPTURE_RAY[k]))
        if fin:
            dirs = EXIT_DIRS[k]
            if dirs:
                t |= _exits(occ, sq, dirs)
        if sq == ff:
            t &= ~back
        w[n] = t
        w[W_SOURCES + n] = sq
        n += 1
        total += popcount(t)
    return n, total


@njit(cache=True, error_model="numpy", inline="always")
def _action_at(b: np.ndarray, s: np.ndarray, w: np.ndarray, r: int) -> int:
    """The ``r``-th action of the numbering ``_count`` set up (reveals first)."""
    hid = b[B_HIDDEN]
    nh = popcount(hid)
    if r < nh:
        return select(hid, r)
    r -= nh
    i = 0
    while True:
        c = popcount(w[i])
        if r < c:
            break
        r -= c
        i += 1
    t = select(w[i], r)
    sq = int(w[W_SOURCES + i])
    if t >= EXIT_BIT:
        return EXIT_BITS | sq << 6 | (t - EXIT_BIT)
    return (MOVE_BITS if s[t] == 0 else CAPTURE_BITS) | sq << 6 | t


@njit(cache=True, error_model="numpy", inline="always")
def _random_action(b: np.ndarray, s: np.ndarray, rng: np.ndarray, w: np.ndarray) -> int:
    if is_over(s):
        return -1
    _, total = _count(b, s, w)
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
    return _playout(ptr(bb), ptr(s), ptr(rng), ptr(work))


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
        total += _playout(b, sp, rp, wp)
        diff += sp[SCORE] - sp[SCORE + 1]
    return total, diff


@njit(cache=True, error_model="numpy")
def selectable(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Every action ``random_action`` can draw, each once, into ``out``; return how many."""
    work = np.zeros(WORK_SIZE, dtype=np.uint64)
    b, sp, wp = ptr(bb), ptr(s), ptr(work)
    if is_over(sp):
        return 0
    _, total = _count(b, sp, wp)
    if total == 0:
        out[0] = PASS_A
        return 1
    for r in range(total):
        out[r] = _action_at(b, sp, wp, r)
    return total
