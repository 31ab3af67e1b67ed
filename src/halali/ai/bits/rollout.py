"""Random playouts on bitboards: a uniform legal action without writing the legal list.

A playout needs one action a turn, drawn uniformly. Instead of listing every action, each tile
the player may move gets its targets as one word (squares it may move to or capture on, and its
exits as bits ``EXIT_BIT + direction``); the number of actions is then a sum of popcounts plus the
face-down squares, and the drawn number is found by walking the words and selecting its bit. Early
in a game most actions are reveals, so this skips writing some forty of them every turn.
``selectable`` lists what the draw can reach, which the differential test compares with the
legal actions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.gen import forced_reveal, is_over, prey_masks, slide
from halali.ai.bits.step import play, rand_below
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    BEAR,
    BIT,
    CAPTURE_BITS,
    EXIT_BIT,
    EXIT_BITS,
    EXIT_DIRS,
    FINAL,
    FOX,
    FULL,
    LM,
    LOCK,
    LUMBERJACK,
    MOVE_BITS,
    NBM,
    PASS_A,
    RAYM,
    SCORE,
    TURN,
    lowest,
    popcount,
)

U0 = np.uint64(0)
U1 = np.uint64(1)
M32 = np.uint64(0xFFFFFFFF)
M16 = np.uint64(0xFFFF)
M8 = np.uint64(0xFF)


@njit(cache=True, error_model="numpy")
def select(x: np.uint64, r: int) -> int:
    """The index of the ``r``-th lowest set bit of ``x`` (``r`` below its popcount)."""
    base = 0
    lo = popcount(x & M32)
    if r >= lo:
        r -= lo
        x >>= np.uint64(32)
        base = 32
    lo = popcount(x & M16)
    if r >= lo:
        r -= lo
        x >>= np.uint64(16)
        base += 16
    lo = popcount(x & M8)
    if r >= lo:
        r -= lo
        x >>= np.uint64(8)
        base += 8
    for _ in range(r):
        x &= x - U1
    return base + lowest(x)


@njit(cache=True, error_model="numpy")
def _exits(occ: np.uint64, sq: int, dirs: int) -> np.uint64:
    e = U0
    for d in range(4):
        if (dirs >> d) & 1 and (occ & RAYM[d, sq]) == U0:
            e |= BIT[EXIT_BIT + d]
    return e


@njit(cache=True, error_model="numpy")
def count_actions(bb: np.ndarray, s: np.ndarray, tg: np.ndarray, src: np.ndarray) -> tuple[int, int]:
    """Fill ``tg``/``src`` with the movable tiles' target words and squares.

    Returns (how many words, how many legal actions in all, reveals included); 0 actions when the
    game is over or when the only one is a pass.
    """
    if is_over(s):
        return 0, 0
    nh = popcount(bb[B_HIDDEN])
    if forced_reveal(s):
        return 0, nh
    p = s[TURN]
    empty = bb[B_EMPTY]
    occ = ~empty & FULL
    free = FULL
    if s[LOCK] >= 0:
        free &= ~BIT[s[LOCK]]
    forbid = s[LM + p]
    ff = -1
    back = U0
    if forbid >= 0:
        ff = forbid & 63
        back = BIT[forbid >> 6]
    fin = s[FINAL] > 0
    pb, pf, pl, ph = prey_masks(bb)
    n = 0
    total = nh
    for kind in range(6):  # ducks and pheasants; then bears, foxes or lumberjacks, hunters N E S W
        if kind == 0:
            x = (bb[8] | bb[9]) & free
        elif p == 0:
            if kind > 2:
                break
            x = bb[BEAR if kind == 1 else FOX] & free
        else:
            x = bb[LUMBERJACK if kind == 1 else kind + 2] & free
        while x:
            sq = lowest(x)
            x &= x - U1
            if kind == 0:
                t = slide(occ, sq) & empty
            elif kind == 1:
                t = NBM[sq] & (empty | (pb if p == 0 else pl))
                if fin:
                    t |= _exits(occ, sq, EXIT_DIRS[1, sq])
            else:
                prey = pf if p == 0 else ph & RAYM[kind - 2, sq]
                t = slide(occ, sq) & (empty | prey)
                if fin:
                    t |= _exits(occ, sq, EXIT_DIRS[0, sq])
            if sq == ff:
                t &= ~back
            if t:
                tg[n] = t
                src[n] = sq
                n += 1
                total += popcount(t)
    return n, total


@njit(cache=True, error_model="numpy")
def action_at(bb: np.ndarray, s: np.ndarray, tg: np.ndarray, src: np.ndarray, r: int) -> int:
    """The ``r``-th action of the numbering ``count_actions`` set up (reveals first)."""
    hid = bb[B_HIDDEN]
    nh = popcount(hid)
    if r < nh:
        return select(hid, r)
    r -= nh
    i = 0
    while True:
        c = popcount(tg[i])
        if r < c:
            break
        r -= c
        i += 1
    t = select(tg[i], r)
    sq = src[i]
    if t >= EXIT_BIT:
        return EXIT_BITS | sq << 6 | (t - EXIT_BIT)
    return (MOVE_BITS if s[t] == 0 else CAPTURE_BITS) | sq << 6 | t


@njit(cache=True, error_model="numpy")
def random_action(bb: np.ndarray, s: np.ndarray, rng: np.ndarray, tg: np.ndarray, src: np.ndarray) -> int:
    """A uniformly drawn legal action (reveals without outcome); -1 when the game is over."""
    if is_over(s):
        return -1
    _, total = count_actions(bb, s, tg, src)
    if total == 0:
        return PASS_A
    return action_at(bb, s, tg, src, rand_below(rng, total))


@njit(cache=True, error_model="numpy")
def selectable(bb: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """Every action ``random_action`` can draw, each once, into ``out``; return how many."""
    tg = np.empty(64, dtype=np.uint64)
    src = np.empty(64, dtype=np.int64)
    if is_over(s):
        return 0
    _, total = count_actions(bb, s, tg, src)
    if total == 0:
        out[0] = PASS_A
        return 1
    for r in range(total):
        out[r] = action_at(bb, s, tg, src, r)
    return total


@njit(cache=True, error_model="numpy")
def playout(bb: np.ndarray, s: np.ndarray, rng: np.ndarray, tg: np.ndarray, src: np.ndarray) -> int:
    """Play uniformly random actions to the end, in place; return how many were played."""
    n = 0
    while True:
        a = random_action(bb, s, rng, tg, src)
        if a < 0:
            return n
        play(bb, s, a, rng)
        n += 1


@njit(cache=True, error_model="numpy")
def playouts(bb0: np.ndarray, s0: np.ndarray, games: int, rng: np.ndarray) -> tuple[int, int]:
    """``games`` random playouts from a state: (actions played, sum of blue-minus-brown scores)."""
    tg = np.empty(64, dtype=np.uint64)
    src = np.empty(64, dtype=np.int64)
    bb = bb0.copy()
    s = s0.copy()
    total = 0
    diff = 0
    for _ in range(games):
        bb[:] = bb0
        s[:] = s0
        total += playout(bb, s, rng, tg, src)
        diff += s[SCORE] - s[SCORE + 1]
    return total, diff

