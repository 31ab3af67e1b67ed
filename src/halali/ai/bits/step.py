"""Playing an action on a bitboard state in place, and taking it back, with no copy.

``make`` writes an undo record (what the state after the action no longer holds: the counters
before it, the tile it turned up, captured or took out, the key) and keeps the Zobrist key up to
date by XOR-ing out what changed and in what replaced it; ``unmake`` restores every field from the
record. A search then walks one state down and up the tree instead of copying one per node.
``play`` is ``make`` without key and record, for random playouts, which never go back.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.rng import draw_unknown
from halali.ai.bits.tables import (
    B_EMPTY,
    B_HIDDEN,
    B_KEY,
    BIT,
    CAPT,
    EXITED,
    FINAL,
    FINAL_TURNS,
    HID,
    KIND_T,
    LM,
    LOCK,
    LOCK_ON_MOVE,
    NEUTRAL_T,
    NHID,
    NPOOL,
    NR_NEUTRALS,
    NTILES,
    OSHIFT,
    OWN_T,
    OWNER_T,
    OWNN,
    POOL,
    SCORE,
    STALL,
    T_CAPTURE,
    T_EXIT,
    T_MOVE,
    T_REVEAL,
    TURN,
    U_ACTION,
    U_EXTRA,
    U_FINAL,
    U_KEY,
    U_LM,
    U_LOCK,
    U_STALL,
    UNK,
    VALUE_T,
    Z_FINAL,
    Z_FLIP,
    Z_LM,
    Z_LOCK,
    Z_POOL,
    Z_SCORE,
    Z_STALL,
    Z_TURN,
    ZT,
    ptr,
)
from halali.games.forest.actions import TYPE_SHIFT


# ---- the key from scratch -------------------------------------------------------------------------
@njit(cache=True, error_model="numpy")
def key_of(s: np.ndarray) -> np.uint64:
    """The Zobrist key of a state computed from all its fields (``make`` keeps it incrementally): a
    64-bit key of everything that decides the position's future, and its evaluation."""
    h = ZT[Z_TURN + s[TURN]]
    for sq in range(49):
        c = s[sq]
        if c != 0:
            h ^= ZT[sq * 33 + c]
    h ^= ZT[Z_LM + s[LM] + 1] ^ ZT[Z_LM + 4097 + s[LM + 1] + 1]
    h ^= ZT[Z_LOCK + s[LOCK] + 1] ^ ZT[Z_FINAL + s[FINAL] + 1] ^ ZT[Z_STALL + min(s[STALL], 63)]
    h ^= ZT[Z_SCORE + s[SCORE]] ^ ZT[Z_SCORE + 200 + s[SCORE + 1]]
    for k in range(7):
        h ^= ZT[Z_POOL + 16 * k + min(s[POOL + k], 15)]
    return h


@njit(cache=True, error_model="numpy")
def rebuild(bb: np.ndarray, s: np.ndarray) -> None:
    """Derive the bitboards and the key from the mailbox board and the counters."""
    bb[:] = 0
    for sq in range(49):
        c = s[sq]
        if c == 0:
            bb[B_EMPTY] |= BIT[sq]
        elif c >= HID:
            bb[B_HIDDEN] |= BIT[sq]
        else:
            bb[c] |= BIT[sq]
    bb[B_KEY] = key_of(s)


# ---- make, play, unmake -------------------------------------------------------------------------
@njit(cache=True, error_model="numpy", inline="always")
def _step(bb: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, keyed: bool) -> tuple[int, int]:
    """Play ``a``; return it as played (an unknown reveal with its outcome) and the undo's extra."""
    kind = (a >> TYPE_SHIFT) & 7
    p = s[TURN]
    final = s[FINAL]
    lm0 = s[LM + p]
    lock0 = s[LOCK]
    stall0 = s[STALL]
    k = bb[B_KEY]
    extra = 0
    if kind == T_REVEAL:
        sq = a & 63
        orig = s[sq]
        if orig == UNK:
            c = (a >> OSHIFT) & 31
            if c == 0:
                c = draw_unknown(s, rng)
                a |= c << OSHIFT
            kk = KIND_T[c]
            n = s[POOL + kk]
            if keyed:
                k ^= ZT[Z_POOL + 16 * kk + min(n, 15)] ^ ZT[Z_POOL + 16 * kk + min(n - 1, 15)]
            s[POOL + kk] = n - 1
            s[NPOOL] -= 1
        else:
            c = orig - HID
        extra = orig
        b = BIT[sq]
        s[sq] = c
        bb[B_HIDDEN] ^= b
        bb[c] |= b
        s[NHID] -= 1
        owner = OWNER_T[c]
        if owner < 2:
            s[OWNN + owner] += 1
        s[STALL] = 0
        s[LM + p] = -1
        s[LOCK] = sq if NEUTRAL_T[c] else -1
        if s[NHID] == 0:
            s[FINAL] = FINAL_TURNS
        if keyed:
            k ^= ZT[sq * 33 + orig] ^ ZT[sq * 33 + c]
    elif kind == T_MOVE:
        f = (a >> 6) & 63
        t = a & 63
        c = s[f]
        s[f] = 0
        s[t] = c
        ft = BIT[f] | BIT[t]
        bb[c] ^= ft
        bb[B_EMPTY] ^= ft
        s[STALL] = stall0 + 1
        neutral = NEUTRAL_T[c]
        if OWN_T[p, c] or (neutral and s[NR_NEUTRALS] != 0):
            s[LM + p] = f << 6 | t
        else:
            s[LM + p] = -1
        s[LOCK] = t if (neutral and s[LOCK_ON_MOVE] != 0) else -1
        if final > 0:
            s[FINAL] = final - 1
        if keyed:
            k ^= ZT[f * 33 + c] ^ ZT[t * 33 + c]
    elif kind == T_CAPTURE:
        f = (a >> 6) & 63
        t = a & 63
        c = s[f]
        x = s[t]
        extra = x
        s[f] = 0
        s[t] = c
        bt = BIT[t]
        bb[c] ^= BIT[f] | bt
        bb[x] ^= bt
        bb[B_EMPTY] |= BIT[f]
        s[CAPT + 7 * p + KIND_T[x]] += 1
        sc = s[SCORE + p]
        s[SCORE + p] = sc + VALUE_T[x]
        s[NTILES + p] += 1
        owner = OWNER_T[x]
        if owner < 2:
            s[OWNN + owner] -= 1
        s[STALL] = 0
        s[LM + p] = f << 6 | t
        s[LOCK] = -1
        if final > 0:
            s[FINAL] = final - 1
        if keyed:
            k ^= ZT[f * 33 + c] ^ ZT[t * 33 + c] ^ ZT[t * 33 + x]
            k ^= ZT[Z_SCORE + 200 * p + sc] ^ ZT[Z_SCORE + 200 * p + sc + VALUE_T[x]]
    elif kind == T_EXIT:
        f = (a >> 6) & 63
        c = s[f]
        extra = c
        s[f] = 0
        bb[c] ^= BIT[f]
        bb[B_EMPTY] |= BIT[f]
        s[EXITED + 7 * p + KIND_T[c]] += 1
        sc = s[SCORE + p]
        s[SCORE + p] = sc + VALUE_T[c]
        s[NTILES + p] += 1
        s[OWNN + p] -= 1
        s[STALL] = 0
        s[LM + p] = -1
        s[LOCK] = -1
        if final > 0:
            s[FINAL] = final - 1
        if keyed:
            k ^= ZT[f * 33 + c]
            k ^= ZT[Z_SCORE + 200 * p + sc] ^ ZT[Z_SCORE + 200 * p + sc + VALUE_T[c]]
    else:
        s[STALL] = stall0 + 1
        s[LM + p] = -1
        s[LOCK] = -1
        if final > 0:
            s[FINAL] = final - 1
    s[TURN] = p ^ 1
    if keyed:
        k ^= Z_FLIP
        zl = Z_LM + 4097 * p + 1
        k ^= ZT[zl + lm0] ^ ZT[zl + s[LM + p]]
        k ^= ZT[Z_LOCK + 1 + lock0] ^ ZT[Z_LOCK + 1 + s[LOCK]]
        k ^= ZT[Z_FINAL + 1 + final] ^ ZT[Z_FINAL + 1 + s[FINAL]]
        k ^= ZT[Z_STALL + min(stall0, 63)] ^ ZT[Z_STALL + min(s[STALL], 63)]
        bb[B_KEY] = k
    return a, extra


@njit(cache=True, error_model="numpy", inline="always")
def _make(b: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, u: np.ndarray) -> int:
    p = s[TURN]
    u[U_LM] = s[LM + p]
    u[U_LOCK] = s[LOCK]
    u[U_FINAL] = s[FINAL]
    u[U_STALL] = s[STALL]
    u[U_KEY] = np.int64(b[B_KEY])
    played, extra = _step(b, s, a, rng, True)
    u[U_ACTION] = played
    u[U_EXTRA] = extra
    return played


@njit(cache=True, error_model="numpy", inline="always")
def _unmake(bb: np.ndarray, s: np.ndarray, u: np.ndarray) -> None:
    a = u[U_ACTION]
    kind = (a >> TYPE_SHIFT) & 7
    p = s[TURN] ^ 1
    s[TURN] = p
    s[LM + p] = u[U_LM]
    s[LOCK] = u[U_LOCK]
    s[FINAL] = u[U_FINAL]
    s[STALL] = u[U_STALL]
    bb[B_KEY] = np.uint64(u[U_KEY])
    extra = u[U_EXTRA]
    if kind == T_REVEAL:
        sq = a & 63
        c = s[sq]
        b = BIT[sq]
        s[sq] = extra
        bb[c] ^= b
        bb[B_HIDDEN] |= b
        s[NHID] += 1
        owner = OWNER_T[c]
        if owner < 2:
            s[OWNN + owner] -= 1
        if extra == UNK:
            s[POOL + KIND_T[c]] += 1
            s[NPOOL] += 1
    elif kind == T_MOVE:
        f = (a >> 6) & 63
        t = a & 63
        c = s[t]
        s[f] = c
        s[t] = 0
        ft = BIT[f] | BIT[t]
        bb[c] ^= ft
        bb[B_EMPTY] ^= ft
    elif kind == T_CAPTURE:
        f = (a >> 6) & 63
        t = a & 63
        c = s[t]
        s[f] = c
        s[t] = extra
        bt = BIT[t]
        bb[c] ^= BIT[f] | bt
        bb[extra] |= bt
        bb[B_EMPTY] ^= BIT[f]
        s[CAPT + 7 * p + KIND_T[extra]] -= 1
        s[SCORE + p] -= VALUE_T[extra]
        s[NTILES + p] -= 1
        owner = OWNER_T[extra]
        if owner < 2:
            s[OWNN + owner] += 1
    elif kind == T_EXIT:
        f = (a >> 6) & 63
        s[f] = extra
        bb[extra] |= BIT[f]
        bb[B_EMPTY] ^= BIT[f]
        s[EXITED + 7 * p + KIND_T[extra]] -= 1
        s[SCORE + p] -= VALUE_T[extra]
        s[NTILES + p] -= 1
        s[OWNN + p] += 1


@njit(cache=True, error_model="numpy")
def make(bb: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, u: np.ndarray) -> int:
    """Play a legal action in place, keeping the key, and fill the undo record ``u``.

    An unknown reveal without outcome draws one from the pool; the action as played is returned
    (and kept in the record).
    """
    return _make(ptr(bb), ptr(s), a, ptr(rng), ptr(u))


@njit(cache=True, error_model="numpy")
def unmake(bb: np.ndarray, s: np.ndarray, u: np.ndarray) -> None:
    """Take back the action ``make`` recorded in ``u``: every field as it was."""
    _unmake(ptr(bb), ptr(s), ptr(u))


@njit(cache=True, error_model="numpy")
def play(bb: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray) -> None:
    """Play a legal action in place, for good: no undo record, and the key is left behind."""
    _step(ptr(bb), ptr(s), a, ptr(rng), False)


# Pointer versions, called (not inlined) by the search: a call with pointers costs no reference
# counting, and inlining these at every call site of the recursive search made it slow to compile.
@njit(cache=True, error_model="numpy")
def make_p(b: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, u: np.ndarray) -> int:
    return _make(b, s, a, rng, u)


@njit(cache=True, error_model="numpy")
def unmake_p(b: np.ndarray, s: np.ndarray, u: np.ndarray) -> None:
    _unmake(b, s, u)
