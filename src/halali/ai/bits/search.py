"""Expectimax over the reveal distribution, compiled: the search the levels 3 to 6 are built on.

A player's turn is a max node (negamax form: every value is from the point of view of the player
to move). Revealing an unknown tile is a chance node whose outcomes are the tile codes still
possible, weighted as ``Position.hidden_distribution`` weights them (the state's ``POOL``). With
the ``PRUNE`` flag the max nodes use alpha-beta and the chance nodes Star1 (Ballard): knowing that
every value lies in ``[-BOUND, BOUND]``, a chance node stops as soon as the outcomes seen so far
prove its value falls outside the window. With ``STAR2`` each outcome is first probed with the
child's best-ordered action alone; if the probes together cannot reach alpha, the reveal is cut
before the full search. The probe is an estimate, not a proven bound, so this is forward pruning
(measured: by far the largest single gain, docs/ai.md). With ``QSEARCH`` the horizon is extended by
captures (and exits in the final phase) so that the evaluation never stands in the middle of an
exchange. ``HISTORY`` orders quiet actions and reveals by how often they caused a cutoff elsewhere
in the tree; ``MERGE`` searches one *quiet* reveal (a face-down tile whose neighbours are all face
down, see :func:`quiet_reveals`) for all of them; ``TT`` keeps a transposition table with the bound
each value is, and tries its best action first; ``FRONTIER`` lets a reveal's outcomes at the
horizon keep their probe's value. The flags, the context's slots and clock and the order of
actions are ``bits.search_parts``; past the deadline or the node limit the search unwinds at once
and the caller keeps the last complete iteration.

Underneath, one state is walked down and up the tree with ``make``/``unmake`` and an undo record
per ply instead of a copy per child; the legal actions come from bitboards, captures first; the key
is kept incrementally; the quiet reveals are found by four shifts; and raw pointers are passed
everywhere, so that no call in the tree touches a reference count. ``tests/ai/test_ai_search.py``
holds the values to a plain expectimax written on the engine's ``Position``.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.evaluate import _lines, evaluate_p, evaluate_revealed_p, revealed_by_value, terminal_value
from halali.ai.bits.gen import gen_actions_p, gen_captures_p, is_over
from halali.ai.bits.search_parts import (
    C_ABORT,
    C_NODES,
    C_STAR2_MARGIN,
    FRONTIER,
    HIST_MASK,
    HISTORY,
    MAX_PLY,
    MERGE,
    PRUNE,
    QDEPTH,
    QSEARCH,
    STAR2,
    TT,
    TT_EXACT,
    TT_LOWER,
    TT_UPPER,
    history_bonus,
    merge_quiet,
    order_key,
    sort_by_key,
    tick,
)
from halali.ai.bits.step import make_p, unmake_p
from halali.ai.bits.tables import (
    B_KEY,
    KIND_CODE,
    MAX_ACTIONS,
    NPOOL,
    OSHIFT,
    POOL,
    T_CAPTURE,
    T_REVEAL,
    TURN,
    UNDO_SIZE,
    UNK,
    at,
    ptr,
)
from halali.ai.bits.weights import BOUND
from halali.games.forest.actions import TYPE_SHIFT

U0 = np.uint64(0)
M_NODE = 0
M_ACTION = 1
M_QUIET = 2


@njit(cache=True, error_model="numpy")
def _probe(b: np.ndarray, s: np.ndarray, depth: int, ply: int, undo: np.ndarray, acts: np.ndarray,
           ctx: np.ndarray, w: np.ndarray, rng: np.ndarray) -> float:
    """An estimate of the value of the state from below: its first ordered action (not a reveal), evaluated."""
    if is_over(s):
        return terminal_value(s)
    if depth <= 0:
        if tick(ctx, ply):
            return 0.0
        return evaluate_p(b, s, w)
    buf = at(acts, ply * MAX_ACTIONS)
    n = gen_actions_p(b, s, buf)
    best_i = -1
    best_k = -1.0
    for i in range(n):
        a = buf[i]
        if ((a >> TYPE_SHIFT) & 7) == T_REVEAL:
            continue
        k = order_key(s, a)
        if k > best_k:
            best_k = k
            best_i = i
    if best_i < 0:
        if tick(ctx, ply):
            return 0.0
        return evaluate_p(b, s, w)  # only reveals: the static value stands in
    u = at(undo, ply * UNDO_SIZE)
    make_p(b, s, np.int64(buf[best_i]), rng, u)  # type: ignore[arg-type]  # int64 as elsewhere: one make_p
    v = 0.0 if tick(ctx, ply) else -evaluate_p(b, s, w)
    unmake_p(b, s, u)
    return v


# One explicit signature: every recursive call then uses the same compiled function (otherwise numba
# specialises on literal arguments, and a cached recursive function must have one version); it is
# compiled by ``compile_tree`` when first needed, not at import, so importing the search is quick. The
# state, the buffers and the tables are raw pointers (``tables.ptr``): a recursive call then passes
# machine words, where arrays would have their reference counts raised and lowered at every call.
_U8P = numba.types.CPointer(numba.uint64)  # type: ignore[no-untyped-call]
_I4P = numba.types.CPointer(numba.int32)  # type: ignore[no-untyped-call]
_I8P = numba.types.CPointer(numba.int64)  # type: ignore[no-untyped-call]
_F8P = numba.types.CPointer(numba.float64)  # type: ignore[no-untyped-call]
_REC_SIG = numba.float64(
    numba.int64, _U8P, _I4P, numba.int64, numba.int64, numba.float64, numba.float64, numba.int64, _I8P, _I4P,
    _F8P, _F8P, _F8P, numba.int64, _U8P, _F8P, _I8P, _F8P, numba.int64,
)


@njit(cache=True, nogil=True, error_model="numpy")
def rec(mode: int, b: np.ndarray, s: np.ndarray, a: int, depth: int, alpha: float, beta: float, ply: int,
        undo: np.ndarray, acts: np.ndarray, keys: np.ndarray, ctx: np.ndarray, w: np.ndarray, flags: int,
        rng: np.ndarray, hist: np.ndarray, ttk: np.ndarray, ttv: np.ndarray, tt_mask: int) -> float:
    """The one recursive function of the search, on one state that every call leaves as it found it
    (numba caches self-recursion only when Python calls the recursive function itself, so node,
    chance node and quiescence share it).

    ``M_NODE``: the value of the state searched ``depth`` plies (a reveal is one ply).
    ``M_ACTION``: the value of playing ``a`` (a chance node for an unknown reveal).
    ``M_QUIET``: quiescence, captures (and exits in the final phase) only, ``depth`` plies at most.
    ``hist`` is the history table row by row (player, action), ``ttv`` the table's rows of four, and
    ``tt_mask`` its size less one.
    """
    prune = (flags & PRUNE) != 0
    zero = ply - ply  # no literal arguments in the recursive calls (see _REC_SIG)
    m_node = zero + M_NODE
    m_quiet = zero + M_QUIET
    if mode == M_ACTION:
        u = at(undo, ply * UNDO_SIZE)
        if not prune:
            alpha = -BOUND
            beta = BOUND
        if ((a >> TYPE_SHIFT) & 7) != T_REVEAL or s[a & 63] != UNK:
            make_p(b, s, a, rng, u)
            v = -rec(m_node, b, s, zero, depth - 1, -beta, -alpha, ply + 1, undo, acts, keys, ctx, w, flags, rng,
                     hist, ttk, ttv, tt_mask)
            unmake_p(b, s, u)
            return v
        sq = a & 63
        total = float(s[NPOOL])
        # At the horizon (the outcomes searched by quiescence) a probe is the outcome's static value,
        # and quiescence gives exactly that when the side to move has no capture: with FRONTIER such
        # outcomes keep their probe's value instead of being evaluated again. The values are kept in
        # this ply's sort keys, which the node above is done with once it has sorted its actions.
        star2 = (flags & STAR2) != 0 and prune
        frontier = star2 and (flags & FRONTIER) != 0 and (flags & QSEARCH) != 0 and depth <= 1
        probed = at(keys, ply * MAX_ACTIONS)
        if star2:
            ub = 0.0
            j = 0
            # At the horizon a probe is the static value of the outcome: valued from this state's
            # lines and the new tile's, without playing the reveal (``evaluate_revealed``).
            by_value = depth <= 1 and revealed_by_value(b, s, w)
            hc = fc = bc = lc = U0
            if by_value:
                hc, fc, bc, lc = _lines(b)
            for k in range(7):
                cnt = s[POOL + k]
                if cnt == 0:
                    continue
                nsub = 4 if k == 3 else 1
                for h in range(nsub):
                    if by_value:
                        e = 0.0 if tick(ctx, ply + 1) else evaluate_revealed_p(b, s, w, sq, KIND_CODE[k] + h,
                                                                               hc, fc, bc, lc)
                    else:
                        make_p(b, s, sq | (KIND_CODE[k] + h) << OSHIFT, rng, u)
                        e = _probe(b, s, depth - 1, ply + 1, undo, acts, ctx, w, rng)
                        unmake_p(b, s, u)
                    probed[j] = e
                    j += 1
                    ub -= cnt / total / nsub * e
            if ctx[C_ABORT] != 0.0:
                return 0.0
            # Above the horizon the probes are estimates: a margin makes their cut more cautious.
            if ub + (0.0 if depth <= 1 else ctx[C_STAR2_MARGIN]) <= alpha:
                return ub
        acc = 0.0
        rem = 1.0
        lo = hi = 0.0
        j = 0
        # At the horizon the probes are exact upper bounds (the side to move after the reveal may
        # always stand pat): what the outcomes not yet searched can add is at most ``urem``, where
        # Star1 has to assume the largest value there is.
        urem = ub if frontier else BOUND
        for k in range(7):
            cnt = s[POOL + k]
            if cnt == 0:
                continue
            nsub = 4 if k == 3 else 1
            for h in range(nsub):
                p = cnt / total / nsub
                rem -= p
                if rem < 1e-12:
                    rem = 0.0
                if frontier:
                    urem += p * probed[j]
                    upper = -probed[j]
                else:
                    urem = BOUND * rem
                    upper = BOUND
                if prune:
                    lo = (alpha - acc - urem) / p
                    if frontier and lo >= upper:  # even its probe's bound leaves the node at alpha or below
                        return acc + p * upper + urem
                    hi = (beta - acc + BOUND * rem) / p
                    if lo >= BOUND:  # even the best outcome cannot lift the node above alpha
                        return acc + p * BOUND + BOUND * rem
                    if hi <= -BOUND:
                        return acc - p * BOUND - BOUND * rem
                    a2 = lo if lo > -BOUND else -BOUND
                    b2 = hi if hi < BOUND else BOUND
                else:
                    a2 = -BOUND
                    b2 = BOUND
                make_p(b, s, sq | (KIND_CODE[k] + h) << OSHIFT, rng, u)
                if frontier and (is_over(s) or gen_captures_p(b, s, at(acts, (ply + 1) * MAX_ACTIONS)) == 0):
                    v = -probed[j]
                else:
                    v = -rec(m_node, b, s, zero, depth - 1, -b2, -a2, ply + 1, undo, acts, keys, ctx, w, flags, rng,
                             hist, ttk, ttv, tt_mask)
                j += 1
                unmake_p(b, s, u)
                if ctx[C_ABORT] != 0.0:
                    return 0.0
                acc += p * v
                if prune:
                    if v >= hi:
                        return acc - BOUND * rem
                    if v <= lo:
                        return acc + urem
        return acc
    if mode == M_NODE:
        if is_over(s):
            ctx[C_NODES] += 1.0
            return terminal_value(s)
        if depth <= 0 or ply >= MAX_PLY - 1:
            if flags & QSEARCH:
                return rec(m_quiet, b, s, zero, zero + QDEPTH, alpha, beta, ply, undo, acts, keys, ctx, w, flags,
                           rng, hist, ttk, ttv, tt_mask)
            if tick(ctx, ply):
                return 0.0
            return evaluate_p(b, s, w)
        if tick(ctx, ply):
            return 0.0
        use_tt = (flags & TT) != 0 and prune
        alpha0 = alpha
        h = 0
        slot = 0
        tt_move = -1
        if use_tt:
            h = int(np.int64(b[B_KEY]))
            slot = h & tt_mask
            if ttk[slot] == h:
                tt_move = int(ttv[4 * slot + 3])
                if ttv[4 * slot + 1] >= depth:
                    v = ttv[4 * slot]
                    f = ttv[4 * slot + 2]
                    if f == TT_EXACT or (f == TT_LOWER and v >= beta) or (f == TT_UPPER and v <= alpha):
                        return v
        buf = at(acts, ply * MAX_ACTIONS)
        kp = at(keys, ply * MAX_ACTIONS)
        n = gen_actions_p(b, s, buf)
        if flags & MERGE:
            n = merge_quiet(b, buf, n)
        hrow = at(hist, s[TURN] * (HIST_MASK + 1))
        use_hist = (flags & HISTORY) != 0
        for i in range(n):
            kp[i] = order_key(s, buf[i])
            if use_hist:
                kp[i] += history_bonus(hrow[buf[i] & HIST_MASK])
            if buf[i] == tt_move:
                kp[i] += 10000.0
        sort_by_key(buf, kp, n)
        best = -BOUND - 1.0
        best_a = -1
        for i in range(n):
            ai = buf[i]
            v = rec(zero + M_ACTION, b, s, zero + ai, depth, alpha, beta, ply, undo, acts, keys, ctx, w, flags, rng,
                    hist, ttk, ttv, tt_mask)
            if ctx[C_ABORT] != 0.0:
                return 0.0
            if v > best:
                best = v
                best_a = ai
                if v > alpha:
                    alpha = v
                    if prune and alpha >= beta:
                        if use_hist and ((ai >> TYPE_SHIFT) & 7) != T_CAPTURE:
                            hrow[ai & HIST_MASK] += depth * depth
                        break
        if use_tt and (ttk[slot] != h or ttv[4 * slot + 1] <= depth):
            ttk[slot] = h
            ttv[4 * slot] = best
            ttv[4 * slot + 1] = depth
            ttv[4 * slot + 2] = TT_LOWER if best >= beta else (TT_UPPER if best <= alpha0 else TT_EXACT)
            ttv[4 * slot + 3] = best_a
        return best
    # M_QUIET
    if tick(ctx, ply):
        return 0.0
    if is_over(s):
        return terminal_value(s)
    stand = evaluate_p(b, s, w)
    if depth <= 0 or stand >= beta or ply >= MAX_PLY - 1:
        return stand
    if stand > alpha:
        alpha = stand
    best = stand
    buf = at(acts, ply * MAX_ACTIONS)
    kp = at(keys, ply * MAX_ACTIONS)
    m = gen_captures_p(b, s, buf)
    for i in range(m):
        kp[i] = order_key(s, buf[i])
    sort_by_key(buf, kp, m)
    u = at(undo, ply * UNDO_SIZE)
    for i in range(m):
        make_p(b, s, np.int64(buf[i]), rng, u)  # type: ignore[arg-type]
        v = -rec(m_quiet, b, s, zero, depth - 1, -beta, -alpha, ply + 1, undo, acts, keys, ctx, w, flags, rng, hist,
                 ttk, ttv, tt_mask)
        unmake_p(b, s, u)
        if ctx[C_ABORT] != 0.0:
            return 0.0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


def compile_tree() -> None:
    """Compile ``rec`` for its one signature (or load it from the cache), and allow no other: what
    an explicit signature in the decorator would do at import. Call before ``action_value``."""
    if not rec.signatures:
        rec.compile(_REC_SIG)
        rec.disable_compile()


@njit(cache=True, nogil=True, error_model="numpy")
def action_value(bb: np.ndarray, s: np.ndarray, a: int, depth: int, alpha: float, beta: float, undo: np.ndarray,
                 acts: np.ndarray, keys: np.ndarray, ctx: np.ndarray, w: np.ndarray, flags: int, rng: np.ndarray,
                 hist: np.ndarray, ttk: np.ndarray, ttv: np.ndarray) -> float:
    """The value of playing ``a`` from the state, searched ``depth`` plies: ``rec`` on the arrays."""
    return rec(M_ACTION, ptr(bb), ptr(s), a, depth, alpha, beta, 0, ptr(undo), ptr(acts), ptr(keys), ptr(ctx),
               ptr(w), flags, ptr(rng), ptr(hist), ptr(ttk), ptr(ttv), ttk.shape[0] - 1)
