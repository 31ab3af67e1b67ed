"""Legal actions on bitboards: all of them for the search, the captures alone for quiescence.

A sliding tile's reach is two table look-ups (its rank's and its file's occupancy, seven bits each;
the file's bits are gathered by one multiplication), a stepping tile's is its neighbour mask; what
it may capture is that reach and the bitboards of its prey, cut to the rifle's direction for a
hunter. Captures come first in the list, then exits, moves and reveals. Within each class the
order is by source square, then direction N E S W, then distance, so that the search, which sorts
these lists by its keys, breaks ties the same way whatever the position's history.

The functions with a leading underscore take the state as raw pointers (``tables.ptr``) and are
inlined into their callers; the public ones take the arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BIT,
    CAPTURE_BITS,
    CAPTURE_RAY,
    EXIT_BITS,
    EXIT_DIRS,
    EXITS_AT,
    FILE_A,
    FILE_LINE,
    FILE_MAGIC,
    FILE_SHIFT,
    FINAL,
    FULL,
    LINE_REACH,
    LM,
    LOCK,
    MOVE_BITS,
    MOVES_AT,
    NBM,
    NHID,
    OWNN,
    PASS_A,
    RANK_LINE,
    RANK_SHIFT,
    RAY,
    SPREAD,
    STALL,
    STALL_LIMIT,
    STEP1_T,
    TURN,
    highest,
    lowest,
    ptr,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL = ~U0
M7 = np.uint64(127)
S42 = np.uint64(42)


@njit(cache=True, error_model="numpy", inline="always")
def is_over(s: np.ndarray) -> bool:
    return s[FINAL] == 0 or (s[NHID] == 0 and (s[OWNN] == 0 or s[OWNN + 1] == 0))


@njit(cache=True, error_model="numpy", inline="always")
def forced_reveal(s: np.ndarray) -> bool:
    """The stall rule applies: the player to move may only reveal."""
    lim = s[STALL_LIMIT]
    return s[NHID] > 0 and lim > 0 and s[STALL] >= lim


@njit(cache=True, error_model="numpy", inline="always")
def slide(occ: np.uint64, sq: int) -> np.uint64:
    """The squares a sliding tile on ``sq`` reaches, the first occupied one each way included."""
    rs = RANK_SHIFT[sq]
    fs = FILE_SHIFT[sq]
    rank = np.uint64(LINE_REACH[RANK_LINE[sq] + int((occ >> rs) & M7)]) << rs
    fo = int(((((occ >> fs) & FILE_A) * FILE_MAGIC) >> S42) & M7)
    return rank | (SPREAD[LINE_REACH[FILE_LINE[sq] + fo]] << fs)


@njit(cache=True, error_model="numpy", inline="always")
def movers(b: np.ndarray, s: np.ndarray, p: int) -> np.uint64:
    """The tiles the player to move may move: his own and the ducks and pheasants, but the locked one."""
    if p == 0:
        m = b[1] | b[2]
    else:
        m = b[3] | b[4] | b[5] | b[6] | b[7]
    m |= b[8] | b[9]
    lock = s[LOCK]
    if lock >= 0:
        m &= ~BIT[lock]
    return m


@njit(cache=True, error_model="numpy", inline="always")
def no_return(s: np.ndarray, p: int) -> tuple[int, np.uint64]:
    """(the square whose tile may not go back, the square it may not go back to), or (-1, nothing)."""
    forbid = s[LM + p]
    if forbid >= 0:
        return forbid & 63, BIT[forbid >> 6]
    return -1, U0


@njit(cache=True, error_model="numpy", inline="always")
def _emit_line(out: np.ndarray, n: int, x: np.uint64, base: int, up: bool) -> int:
    """Append moves to the squares of ``x`` (one ray), nearest first."""
    if up:
        while x:
            out[n] = base | lowest(x)
            n += 1
            x &= x - U1
    else:
        while x:
            t = highest(x)
            out[n] = base | t
            n += 1
            x ^= BIT[t]
    return n


@njit(cache=True, error_model="numpy", inline="always")
def _gen(b: np.ndarray, s: np.ndarray, out: np.ndarray, quiet: bool) -> int:
    """Captures, then exits, then (if ``quiet``) moves, into ``out[0:]``; return how many."""
    p = s[TURN]
    empty = b[B_EMPTY]
    occ = ~empty & FULL
    m = movers(b, s, p)
    birds = b[8] | b[9]
    if p == 0:
        p_step = b[3] | b[4] | b[5] | b[6] | b[7]  # a bear's prey
        p_slide = birds  # a fox's
    else:
        p_step = b[10]  # a lumberjack's
        p_slide = b[1] | b[2] | birds  # a hunter's, in its rifle's direction
    ff, back = no_return(s, p)
    final_on = s[FINAL] > 0
    nc = 0
    ne = EXITS_AT
    nm = MOVES_AT
    while m:
        sq = lowest(m)
        m &= m - U1
        c = s[sq]
        k = 49 * c + sq
        if STEP1_T[c]:
            att = NBM[sq]
            prey = p_step
        else:
            att = slide(occ, sq)
            prey = p_slide if c != 8 and c != 9 else U0
        keep = ~back if sq == ff else ALL
        base = sq << 6
        cap = att & prey & CAPTURE_RAY[k] & keep
        if cap:
            for d in range(4):
                x = cap & RAY[49 * d + sq]
                if x:
                    out[nc] = CAPTURE_BITS | base | lowest(x)
                    nc += 1
        if final_on:
            dirs = EXIT_DIRS[k]
            for d in range(4):
                if (dirs >> d) & 1 and (occ & RAY[49 * d + sq]) == U0:
                    out[ne] = EXIT_BITS | base | d
                    ne += 1
        if quiet:
            mv = att & empty & keep
            if mv:
                mb = MOVE_BITS | base
                nm = _emit_line(out, nm, mv & RAY[sq], mb, True)
                nm = _emit_line(out, nm, mv & RAY[49 + sq], mb, True)
                nm = _emit_line(out, nm, mv & RAY[98 + sq], mb, False)
                nm = _emit_line(out, nm, mv & RAY[147 + sq], mb, False)
    n = nc
    for i in range(EXITS_AT, ne):
        out[n] = out[i]
        n += 1
    for i in range(MOVES_AT, nm):
        out[n] = out[i]
        n += 1
    return n


@njit(cache=True, error_model="numpy", inline="always")
def _gen_actions(b: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    if is_over(s):
        return 0
    n = 0
    if not forced_reveal(s):
        n = _gen(b, s, out, True)
    x = b[B_HIDDEN]
    while x:
        out[n] = lowest(x)
        n += 1
        x &= x - U1
    if n == 0:
        out[0] = PASS_A
        n = 1
    return n


@njit(cache=True, error_model="numpy", inline="always")
def _gen_captures(b: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    if is_over(s) or forced_reveal(s):
        return 0
    return _gen(b, s, out, False)


# Pointer versions for the search (see ``step.make_p``).
@njit(cache=True, error_model="numpy")
def gen_actions_p(b: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    return _gen_actions(b, s, out)


@njit(cache=True, error_model="numpy")
def gen_captures_p(b: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    return _gen_captures(b, s, out)


@njit(cache=True, error_model="numpy")
def gen_actions(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out`` (reveals without outcome); return how many.

    Captures first, then exits, moves and reveals; a pass when there is nothing else. A call of the
    search's own version: one compiled copy of the generator, not two (docs/ai.md, the first start).
    """
    return gen_actions_p(ptr(bb), ptr(s), ptr(out))


@njit(cache=True, error_model="numpy")
def gen_captures(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """The legal captures, then the legal exits (the actions quiescence searches); no pass."""
    return gen_captures_p(ptr(bb), ptr(s), ptr(out))
