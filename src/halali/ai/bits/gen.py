"""Legal actions on bitboards: all of them for the search, the captures alone for quiescence.

A sliding tile's reach is two table look-ups (its rank's and its file's occupancy, seven bits each;
the file's bits are gathered by one multiplication), a stepping tile's is its neighbour mask; what
it may capture is that reach and the bitboards of its prey, cut to the rifle's direction for a
hunter. Captures come first in the list, then exits, moves and reveals. Within each class the
order is the array kernel's (source square, then direction N E S W, then distance), so that a
search sorting these lists by the same keys breaks ties the same way as the search on that kernel.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BEAR,
    BIT,
    CAPTURE_BITS,
    EXIT_BITS,
    EXIT_DIRS,
    EXITS_AT,
    FILE_A,
    FILE_MAGIC,
    FILE_OF,
    FINAL,
    FOX,
    FULL,
    LINE_ATT,
    LM,
    LOCK,
    MOVE_BITS,
    MOVES_AT,
    NBM,
    NHID,
    OWNN,
    PASS_A,
    RANK_OF,
    RAYM,
    SPREAD,
    STALL,
    STALL_LIMIT,
    STEP1_T,
    TURN,
    highest,
    lowest,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
ALL = ~U0


@njit(cache=True, error_model="numpy")
def is_over(s: np.ndarray) -> bool:
    return s[FINAL] == 0 or (s[NHID] == 0 and (s[OWNN] == 0 or s[OWNN + 1] == 0))


@njit(cache=True, error_model="numpy")
def forced_reveal(s: np.ndarray) -> bool:
    """The stall rule applies: the player to move may only reveal."""
    lim = s[STALL_LIMIT]
    return s[NHID] > 0 and lim > 0 and s[STALL] >= lim


@njit(cache=True, error_model="numpy")
def slide(occ: np.uint64, sq: int) -> np.uint64:
    """The squares a sliding tile on ``sq`` reaches, the first occupied one each way included."""
    r = RANK_OF[sq]
    f = FILE_OF[sq]
    rs = np.uint64(7 * r)
    rank = LINE_ATT[f, (occ >> rs) & np.uint64(127)] << rs
    idx = ((((occ >> np.uint64(f)) & FILE_A) * FILE_MAGIC) >> np.uint64(42)) & np.uint64(127)
    return rank | (SPREAD[LINE_ATT[r, idx]] << np.uint64(f))


@njit(cache=True, error_model="numpy")
def prey_masks(bb: np.ndarray) -> tuple[np.uint64, np.uint64, np.uint64, np.uint64]:
    """What a bear, a fox, a lumberjack and a hunter (in its rifle's direction) may capture."""
    humans = bb[3] | bb[4] | bb[5] | bb[6] | bb[7]
    birds = bb[8] | bb[9]
    return humans, birds, bb[10], bb[1] | bb[2] | birds


@njit(cache=True, error_model="numpy")
def movers(bb: np.ndarray, s: np.ndarray, p: int) -> tuple[np.uint64, np.uint64]:
    """(tiles the player to move may move, his own face-up tiles)."""
    if p == 0:
        own = bb[1] | bb[2]
    else:
        own = bb[3] | bb[4] | bb[5] | bb[6] | bb[7]
    m = own | bb[8] | bb[9]
    lock = s[LOCK]
    if lock >= 0:
        m &= ~BIT[lock]
    return m, own


@njit(cache=True, error_model="numpy")
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


@njit(cache=True, error_model="numpy")
def _gen(bb: np.ndarray, s: np.ndarray, out: np.ndarray, quiet: bool) -> int:
    """Captures, then exits, then (if ``quiet``) moves, into ``out[0:]``; return how many."""
    p = s[TURN]
    empty = bb[B_EMPTY]
    occ = ~empty & FULL
    m, own = movers(bb, s, p)
    pb, pf, pl, ph = prey_masks(bb)
    forbid = s[LM + p]
    ff = -1
    back = U0
    if forbid >= 0:
        ff = forbid & 63
        back = BIT[forbid >> 6]
    final_on = s[FINAL] > 0
    nc = 0
    ne = EXITS_AT
    nm = MOVES_AT
    while m:
        sq = lowest(m)
        m &= m - U1
        c = s[sq]
        step = STEP1_T[c]
        if step:
            att = NBM[sq]
            prey = pb if c == BEAR else pl
        else:
            att = slide(occ, sq)
            if c >= 4 and c <= 7:
                prey = ph & RAYM[c - 4, sq]
            elif c == FOX:
                prey = pf
            else:
                prey = U0
        keep = ~back if sq == ff else ALL
        base = sq << 6
        cap = att & prey & keep
        if cap:
            for d in range(4):
                x = cap & RAYM[d, sq]
                if x:
                    out[nc] = CAPTURE_BITS | base | lowest(x)
                    nc += 1
        if final_on and (own & BIT[sq]):
            dirs = EXIT_DIRS[1 if step else 0, sq]
            for d in range(4):
                if (dirs >> d) & 1 and (occ & RAYM[d, sq]) == U0:
                    out[ne] = EXIT_BITS | base | d
                    ne += 1
        if quiet:
            mv = att & empty & keep
            if mv:
                mb = MOVE_BITS | base
                nm = _emit_line(out, nm, mv & RAYM[0, sq], mb, True)
                nm = _emit_line(out, nm, mv & RAYM[1, sq], mb, True)
                nm = _emit_line(out, nm, mv & RAYM[2, sq], mb, False)
                nm = _emit_line(out, nm, mv & RAYM[3, sq], mb, False)
    n = nc
    for i in range(EXITS_AT, ne):
        out[n] = out[i]
        n += 1
    for i in range(MOVES_AT, nm):
        out[n] = out[i]
        n += 1
    return n


@njit(cache=True, error_model="numpy")
def gen_actions(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out`` (reveals without outcome); return how many.

    Captures first, then exits, moves and reveals; a pass when there is nothing else.
    """
    if is_over(s):
        return 0
    n = 0
    if not forced_reveal(s):
        n = _gen(bb, s, out, True)
    x = bb[B_HIDDEN]
    while x:
        out[n] = lowest(x)
        n += 1
        x &= x - U1
    if n == 0:
        out[0] = PASS_A
        n = 1
    return n


@njit(cache=True, error_model="numpy")
def gen_captures(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """The legal captures, then the legal exits (the actions quiescence searches); no pass."""
    if is_over(s) or forced_reveal(s):
        return 0
    return _gen(bb, s, out, False)

