"""The kernel against itself, in compiled code, on whole random games: what it keeps incrementally
against what it computes from scratch.

The rules are held to the pure engine by ``tests/ai/test_bits_differential.py`` at the engine's
speed; this checks, at compiled speed and so on hundreds of thousands of positions, everything the
kernel keeps in two forms: the bitboards and the key against those built from the mailbox board
(``rebuild``), the captures-only list and the playout's draw against the full list, ``unmake``
against the state before, ``play`` against ``make``. Nothing but that test uses this module.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.gen import gen_actions, gen_captures, is_over
from halali.ai.bits.rng import draw_unknown, rand_below
from halali.ai.bits.rollout import selectable
from halali.ai.bits.step import make, play, rebuild, unmake
from halali.ai.bits.tables import (
    B_KEY,
    BB_SIZE,
    FINAL,
    LM,
    LOCK,
    MAX_ACTIONS,
    NHID,
    OSHIFT,
    STALL,
    STALL_LIMIT,
    T_CAPTURE,
    T_EXIT,
    T_MOVE,
    T_REVEAL,
    TURN,
    UNDO_SIZE,
    UNK,
)
from halali.games.forest.actions import TYPE_SHIFT

# What went wrong (FAIL[0]); FAIL[1] is the position's number in the game, FAIL[2] the action.
F_BOARDS, F_KEY, F_ORDER, F_CAPTURES, F_SELECT, F_OVER = 2, 3, 5, 6, 7, 8
F_CHILD_BOARDS, F_CHILD_KEY, F_UNMAKE, F_PLAY, F_UNWIND = 10, 11, 12, 13, 14
# Counters (STATS[i]) of what the positions exercised.
S_POSITIONS, S_CHILDREN, S_FINAL, S_LOCK, S_FORCED, S_NO_RETURN, S_EXITS, S_PASS = 0, 1, 2, 3, 4, 5, 6, 7
S_WIPED, S_UNKNOWN, S_CAPTURES, S_UNWOUND = 8, 9, 10, 11
N_STATS = 12
MAX_GAME = 4096


@njit(cache=True, error_model="numpy")
def _boards_ok(bb: np.ndarray, s: np.ndarray, scratch: np.ndarray) -> int:
    """0, or F_BOARDS / F_KEY when the bitboards or the key differ from those built from scratch."""
    rebuild(scratch, s)
    for i in range(BB_SIZE):
        if i != B_KEY and scratch[i] != bb[i]:
            return F_BOARDS
    if scratch[B_KEY] != bb[B_KEY]:
        return F_KEY
    return 0


@njit(cache=True, error_model="numpy")
def _same(x: np.ndarray, y: np.ndarray) -> bool:
    for i in range(x.shape[0]):  # noqa: SIM110  (numba compiles no generator into all())
        if x[i] != y[i]:
            return False
    return True


@njit(cache=True, error_model="numpy")
def _class(a: int) -> int:
    """Captures 0, exits 1, moves 2, reveals 3, pass 4: the order gen_actions lists them in."""
    kind = (a >> TYPE_SHIFT) & 7
    if kind == T_CAPTURE:
        return 0
    if kind == T_EXIT:
        return 1
    if kind == T_MOVE:
        return 2
    if kind == T_REVEAL:
        return 3
    return 4


@njit(cache=True, error_model="numpy")
def _lists_ok(bb: np.ndarray, s: np.ndarray, acts: np.ndarray, n: int) -> int:
    """0, or what is wrong with the list ``acts`` (``gen_actions``'): the classes out of order (captures
    first, then exits, moves, reveals, the pass), the captures-only list not its head, or the random
    playout's draw reaching other actions."""
    for i in range(1, n):
        if _class(acts[i]) < _class(acts[i - 1]):
            return F_ORDER
    tac = np.empty(MAX_ACTIONS, dtype=np.int32)
    k = gen_captures(bb, s, tac)
    for i in range(k):
        if tac[i] != acts[i] or _class(tac[i]) > 1:
            return F_CAPTURES
    if k < n and _class(acts[k]) < 2:
        return F_CAPTURES
    sel = np.empty(MAX_ACTIONS, dtype=np.int32)
    q = selectable(bb, s, sel)
    if q != n or not _same(np.sort(sel[:q]), np.sort(acts[:n])):
        return F_SELECT
    return 0


@njit(cache=True, error_model="numpy")
def _outcome(s: np.ndarray, a: int, rng: np.ndarray) -> int:
    """An unknown reveal with an outcome drawn from the pool, so that make and play turn up the same."""
    if ((a >> TYPE_SHIFT) & 7) == T_REVEAL and s[a & 63] == UNK:
        return a | draw_unknown(s, rng) << OSHIFT
    return a


@njit(cache=True, error_model="numpy")
def _child_ok(bb: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, scratch: np.ndarray) -> int:
    """Make ``a``, compare the boards and key with those from scratch, unmake, play; 0 or what failed."""
    bb0 = bb.copy()
    s0 = s.copy()
    u = np.empty(UNDO_SIZE, dtype=np.int64)
    make(bb, s, a, rng, u)
    made = s.copy()
    err = _boards_ok(bb, s, scratch)
    if err != 0:
        return F_CHILD_BOARDS if err == F_BOARDS else F_CHILD_KEY
    bb1 = bb.copy()
    unmake(bb, s, u)
    if not _same(s, s0) or not _same(bb, bb0):
        return F_UNMAKE
    play(bb, s, a, rng)
    ok = _same(s, made)
    for i in range(BB_SIZE):
        ok = ok and (i == B_KEY or bb[i] == bb1[i])
    bb[:] = bb0
    s[:] = s0
    return 0 if ok else F_PLAY


@njit(cache=True, error_model="numpy")
def walk(bb: np.ndarray, s: np.ndarray, rng: np.ndarray, every: int, greedy: bool, stats: np.ndarray,
         fail: np.ndarray) -> bool:
    """Play one random game from (bb, s), checking everything at every position.

    Every ``every``-th position has all its actions made, compared and unmade; the others the one
    played. ``greedy`` prefers captures (games where a side is wiped out). At the end the game is
    unmade back to its start, position by position. False on the first difference, which ``fail``
    then describes (the state is left at that position).
    """
    scratch = np.empty(BB_SIZE, dtype=np.uint64)
    acts = np.empty(MAX_ACTIONS, dtype=np.int32)
    undo = np.empty((MAX_GAME, UNDO_SIZE), dtype=np.int64)
    hist_s = np.empty((MAX_GAME, s.shape[0]), dtype=np.int32)
    hist_b = np.empty((MAX_GAME, BB_SIZE), dtype=np.uint64)
    ply = 0
    while True:
        fail[1] = ply
        fail[2] = -1
        err = _boards_ok(bb, s, scratch)
        n = gen_actions(bb, s, acts)
        if err == 0:
            err = _lists_ok(bb, s, acts, n)
        if err == 0 and is_over(s) != (n == 0):
            err = F_OVER
        if err != 0:
            fail[0] = err
            return False
        stats[S_POSITIONS] += 1
        stats[S_FINAL] += s[FINAL] >= 0
        stats[S_LOCK] += s[LOCK] >= 0
        stats[S_NO_RETURN] += s[LM + s[TURN]] >= 0
        stats[S_FORCED] += s[NHID] > 0 and 0 < s[STALL_LIMIT] <= s[STALL]
        ncap = 0
        for i in range(n):
            c = _class(acts[i])
            ncap += c == 0
            stats[S_EXITS] += c == 1
            stats[S_PASS] += c == 4
            stats[S_UNKNOWN] += c == 3 and s[acts[i] & 63] == UNK
        stats[S_CAPTURES] += ncap
        if n == 0:
            stats[S_WIPED] += s[FINAL] != 0
            break
        if ply % every == 0:
            for i in range(n):
                fail[2] = acts[i]
                err = _child_ok(bb, s, _outcome(s, acts[i], rng), rng, scratch)
                if err != 0:
                    fail[0] = err
                    return False
                stats[S_CHILDREN] += 1
        a = acts[rand_below(rng, n)]
        if greedy and ncap > 0:  # the k-th capture of the list
            k = rand_below(rng, ncap)
            for i in range(n):
                if _class(acts[i]) == 0:
                    if k == 0:
                        a = acts[i]
                        break
                    k -= 1
        a = _outcome(s, a, rng)
        fail[2] = a
        err = _child_ok(bb, s, a, rng, scratch)
        if err != 0:
            fail[0] = err
            return False
        stats[S_CHILDREN] += 1
        if ply >= MAX_GAME:
            break
        hist_s[ply] = s
        hist_b[ply] = bb
        make(bb, s, a, rng, undo[ply])
        ply += 1
    while ply > 0:
        ply -= 1
        unmake(bb, s, undo[ply])
        if not _same(s, hist_s[ply]) or not _same(bb, hist_b[ply]):
            fail[0] = F_UNWIND
            fail[1] = ply
            return False
        stats[S_UNWOUND] += 1
    return True
