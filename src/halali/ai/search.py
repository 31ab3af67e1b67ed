"""Expectimax over the reveal distribution, compiled: the search the levels 3 to 6 are built on.

A player's turn is a max node (negamax form: every value is from the point of view of the player
to move). Revealing an unknown tile is a chance node whose outcomes are the tile codes still
possible, weighted as ``Position.hidden_distribution`` weights them (the kernel's ``POOL``). With
the ``PRUNE`` flag the max nodes use alpha-beta and the chance nodes Star1 (Ballard): knowing that
every value lies in ``[-BOUND, BOUND]``, a chance node stops as soon as the outcomes seen so far
prove its value falls outside the window. With ``STAR2`` each outcome is first probed with the
child's best-ordered action alone; if the probes together cannot reach alpha, the reveal is cut
before the full search. The probe is an estimate, not a proven bound, so this is forward pruning
(measured: by far the largest single gain, docs/ai.md).
With ``QSEARCH`` the horizon is extended by captures (and exits in the final phase) so that the
evaluation never stands in the middle of an exchange.

Three more flags make the strongest level: ``HISTORY`` orders quiet actions and reveals by how
often they caused a cutoff elsewhere in the tree; ``MERGE`` searches one *quiet* reveal (a
face-down tile whose neighbours are all face down, see :func:`quiet_reveals`) for all of them;
``TT`` keeps a transposition table (Zobrist keys over board, counters, scores and the unknown
pool) with the bound each value is, and tries its best action first.

The clock is read every 512 nodes (through ``objmode``); past the deadline, or past the node
limit, the search unwinds at once and the caller keeps the last complete iteration.

The flags, the context's slots and clock, the order of actions and the key are in
``halali.ai.search_parts``, which the bitboard search shares.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from halali.ai.evaluate import BOUND, evaluate, terminal_value
from halali.ai.kernel import (
    FINAL,
    KIND_CODE,
    MAX_ACTIONS,
    NPOOL,
    OSHIFT,
    POOL,
    STATE_SIZE,
    T_CAPTURE,
    T_EXIT,
    T_REVEAL,
    TURN,
    UNK,
    apply,
    gen_actions,
    is_over,
)
from halali.ai.search_parts import (
    C_ABORT,
    C_DEADLINE,
    C_NODE_LIMIT,
    C_NODES,
    C_STAR2_MARGIN,
    CTX_SIZE,
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
    TT_SIZE,
    TT_UPPER,
    history_bonus,
    merge_quiet,
    order_key,
    sort_by_key,
    tick,
    zobrist,
)
from halali.games.forest.actions import TYPE_SHIFT

# What the levels and the tests use: the search, and the flags and slots it is called with.
__all__ = ["C_ABORT", "C_NODES", "HISTORY", "MERGE", "PRUNE", "QSEARCH", "STAR2", "TT", "Workspace", "new_ctx",
           "order_key", "rec", "search_root"]


@njit(cache=True, error_model="numpy")
def _probe(s: np.ndarray, depth: int, ply: int, st: np.ndarray, acts: np.ndarray, keys: np.ndarray,
           ctx: np.ndarray, w: np.ndarray, rng: np.ndarray) -> float:
    """An estimate of the value of ``s`` from below: its first ordered action (not a reveal), evaluated."""
    if is_over(s):
        return terminal_value(s)
    if depth <= 0:
        if tick(ctx, ply):
            return 0.0
        return evaluate(s, w)
    buf = acts[ply]
    n = gen_actions(s, buf)
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
        return evaluate(s, w)  # only reveals: the static value stands in
    child = st[ply + 1]
    child[:] = s
    apply(child, buf[best_i], rng)
    if tick(ctx, ply):
        return 0.0
    return -evaluate(child, w)


M_NODE = 0
M_ACTION = 1
M_QUIET = 2


# One explicit signature: every recursive call then uses the same compiled function (otherwise
# numba specialises on literal arguments, and a cached recursive function must have one version).
_REC_SIG = numba.float64(
    numba.int64, numba.int32[::1], numba.int64, numba.int64, numba.float64, numba.float64, numba.int64,
    numba.int32[:, ::1], numba.int32[:, ::1], numba.float64[:, ::1], numba.float64[::1], numba.float64[::1],
    numba.int64, numba.uint64[::1], numba.float64[:, ::1], numba.int64[::1], numba.float64[:, ::1],
)


@njit(_REC_SIG, cache=True, nogil=True, error_model="numpy")
def rec(mode: int, s: np.ndarray, a: int, depth: int, alpha: float, beta: float, ply: int, st: np.ndarray,
        acts: np.ndarray, keys: np.ndarray, ctx: np.ndarray, w: np.ndarray, flags: int, rng: np.ndarray,
        hist: np.ndarray, ttk: np.ndarray, ttv: np.ndarray) -> float:
    """The one recursive function of the search (numba caches self-recursion only when Python
    calls the recursive function itself, so node, chance node and quiescence share it).

    ``M_NODE``: the value of ``s`` searched ``depth`` plies (a reveal is one ply).
    ``M_ACTION``: the value of playing ``a`` in ``s`` (a chance node for an unknown reveal).
    ``M_QUIET``: quiescence, captures (and exits in the final phase) only, ``depth`` plies at most.
    """
    prune = (flags & PRUNE) != 0
    # Call arguments must not be literal constants (numba would compile a version per literal,
    # which breaks its cache for recursive functions), hence these run-time copies.
    zero = ply - ply
    m_node = zero + M_NODE
    m_action = zero + M_ACTION
    m_quiet = zero + M_QUIET
    if mode == M_ACTION:
        child = st[ply + 1]
        if not prune:
            alpha = -BOUND
            beta = BOUND
        if ((a >> TYPE_SHIFT) & 7) != T_REVEAL or s[a & 63] != UNK:
            child[:] = s
            apply(child, a, rng)
            return -rec(m_node, child, zero, depth - 1, -beta, -alpha, ply + 1, st, acts, keys, ctx, w, flags, rng,
                        hist, ttk, ttv)
        sq = a & 63
        total = float(s[NPOOL])
        if flags & STAR2 and prune:
            # Probe: each outcome's child answered by its first ordered action alone bounds what
            # the opponent can do; if even that sum stays at or below alpha, stop here.
            ub = 0.0
            for k in range(7):
                cnt = s[POOL + k]
                if cnt == 0:
                    continue
                nsub = 4 if k == 3 else 1
                for h in range(nsub):
                    child[:] = s
                    apply(child, sq | (KIND_CODE[k] + h) << OSHIFT, rng)
                    ub -= cnt / total / nsub * _probe(child, depth - 1, ply + 1, st, acts, keys, ctx, w, rng)
            if ctx[C_ABORT] != 0.0:
                return 0.0
            if ub <= alpha:
                return ub
        acc = 0.0
        rem = 1.0
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
                child[:] = s
                apply(child, sq | (KIND_CODE[k] + h) << OSHIFT, rng)
                if prune:
                    lo = (alpha - acc - BOUND * rem) / p
                    hi = (beta - acc + BOUND * rem) / p
                    if lo >= BOUND:  # even the best outcome cannot lift the node above alpha
                        return acc + p * BOUND + BOUND * rem
                    if hi <= -BOUND:
                        return acc - p * BOUND - BOUND * rem
                    a2 = lo if lo > -BOUND else -BOUND
                    b2 = hi if hi < BOUND else BOUND
                    v = -rec(m_node, child, zero, depth - 1, -b2, -a2, ply + 1, st, acts, keys, ctx, w, flags, rng,
                             hist, ttk, ttv)
                    if ctx[C_ABORT] != 0.0:
                        return 0.0
                    acc += p * v
                    if v >= hi:
                        return acc - BOUND * rem
                    if v <= lo:
                        return acc + BOUND * rem
                else:
                    v = -rec(m_node, child, zero, depth - 1, -BOUND, BOUND, ply + 1, st, acts, keys, ctx, w, flags,
                             rng, hist, ttk, ttv)
                    if ctx[C_ABORT] != 0.0:
                        return 0.0
                    acc += p * v
        return acc
    if mode == M_NODE:
        if is_over(s):
            ctx[C_NODES] += 1.0
            return terminal_value(s)
        if depth <= 0 or ply >= MAX_PLY - 1:
            if flags & QSEARCH:
                return rec(m_quiet, s, zero, zero + QDEPTH, alpha, beta, ply, st, acts, keys, ctx, w, flags, rng,
                           hist, ttk, ttv)
            if tick(ctx, ply):
                return 0.0
            return evaluate(s, w)
        if tick(ctx, ply):
            return 0.0
        use_tt = (flags & TT) != 0 and prune
        alpha0 = alpha
        h = 0
        slot = 0
        tt_move = -1
        if use_tt:
            h = zobrist(s)
            slot = h & (ttk.shape[0] - 1)
            if ttk[slot] == h:
                tt_move = int(ttv[slot, 3])
                if ttv[slot, 1] >= depth:
                    v = ttv[slot, 0]
                    f = ttv[slot, 2]
                    if f == TT_EXACT or (f == TT_LOWER and v >= beta) or (f == TT_UPPER and v <= alpha):
                        return v
        buf = acts[ply]
        n = gen_actions(s, buf)
        if flags & MERGE:
            n = merge_quiet(s, buf, n)
        turn = s[TURN]
        use_hist = (flags & HISTORY) != 0
        for i in range(n):
            keys[ply, i] = order_key(s, buf[i])
            if use_hist:
                keys[ply, i] += history_bonus(hist[turn, buf[i] & HIST_MASK])
            if buf[i] == tt_move:
                keys[ply, i] += 10000.0
        sort_by_key(buf, keys[ply], n)
        best = -BOUND - 1.0
        best_a = -1
        for i in range(n):
            v = rec(m_action, s, zero + buf[i], depth, alpha, beta, ply, st, acts, keys, ctx, w, flags, rng, hist,
                    ttk, ttv)
            if ctx[C_ABORT] != 0.0:
                return 0.0
            if v > best:
                best = v
                best_a = buf[i]
                if v > alpha:
                    alpha = v
                    if prune and alpha >= beta:
                        if use_hist and ((buf[i] >> TYPE_SHIFT) & 7) != T_CAPTURE:
                            hist[turn, buf[i] & HIST_MASK] += depth * depth
                        break
        if use_tt and (ttk[slot] != h or ttv[slot, 1] <= depth):
            ttk[slot] = h
            ttv[slot, 0] = best
            ttv[slot, 1] = depth
            ttv[slot, 2] = TT_LOWER if best >= beta else (TT_UPPER if best <= alpha0 else TT_EXACT)
            ttv[slot, 3] = best_a
        return best
    # M_QUIET
    if tick(ctx, ply):
        return 0.0
    if is_over(s):
        return terminal_value(s)
    stand = evaluate(s, w)
    if depth <= 0 or stand >= beta or ply >= MAX_PLY - 1:
        return stand
    if stand > alpha:
        alpha = stand
    best = stand
    buf = acts[ply]
    n = gen_actions(s, buf)
    final = s[FINAL] > 0
    m = 0
    for i in range(n):
        b = buf[i]
        kind = (b >> TYPE_SHIFT) & 7
        if kind == T_CAPTURE or (final and kind == T_EXIT):
            buf[m] = b
            keys[ply, m] = order_key(s, b)
            m += 1
    sort_by_key(buf, keys[ply], m)
    child = st[ply + 1]
    for i in range(m):
        child[:] = s
        apply(child, buf[i], rng)
        v = -rec(m_quiet, child, zero, depth - 1, -beta, -alpha, ply + 1, st, acts, keys, ctx, w, flags, rng, hist,
                 ttk, ttv)
        if ctx[C_ABORT] != 0.0:
            return 0.0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


class Workspace:
    """Per-search buffers: a state, an action list and sort keys for every ply."""

    def __init__(self) -> None:
        self.st = np.empty((MAX_PLY + 1, STATE_SIZE), dtype=np.int32)
        self.acts = np.empty((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int32)
        self.keys = np.empty((MAX_PLY + 1, MAX_ACTIONS), dtype=np.float64)
        self.rng = np.ones(1, dtype=np.uint64)
        self.hist = np.zeros((2, HIST_MASK + 1), dtype=np.float64)  # history heuristic, per player
        self.ttk = np.zeros(1, dtype=np.int64)  # transposition table: keys, and value/depth/bound/action
        self.ttv = np.zeros((1, 4), dtype=np.float64)

    def with_table(self, size: int = TT_SIZE) -> Workspace:
        self.ttk = np.zeros(size, dtype=np.int64)
        self.ttv = np.zeros((size, 4), dtype=np.float64)
        return self


def search_root(s: np.ndarray, root: list[int], depth: int, exact: bool, ctx: np.ndarray, w: np.ndarray,
                flags: int, ws: Workspace) -> tuple[list[float | None], int]:
    """Search the root actions in the given order: their values (exact, or an upper bound when an
    action fails low; None when the clock stopped it) and the index of the best (-1 if none)."""
    ws.st[0, :] = s
    alpha = -BOUND - 1.0
    best = -1
    best_value = 0.0
    values: list[float | None] = [None] * len(root)
    for i, a in enumerate(root):
        lo = -BOUND if exact or (flags & PRUNE) == 0 else alpha
        v = rec(M_ACTION, ws.st[0], a, depth, lo, BOUND, 0, ws.st, ws.acts, ws.keys, ctx, w, flags, ws.rng,
                ws.hist, ws.ttk, ws.ttv)
        if ctx[C_ABORT] != 0.0:
            break
        values[i] = v
        if best < 0 or v > best_value:
            best, best_value = i, v
            alpha = max(alpha, v)
    return values, best


def new_ctx(deadline: float = 0.0, node_limit: int = 0, star2_margin: float = 0.0) -> np.ndarray:
    ctx = np.zeros(CTX_SIZE, dtype=np.float64)
    ctx[C_DEADLINE] = deadline
    ctx[C_NODE_LIMIT] = float(node_limit)
    ctx[C_STAR2_MARGIN] = star2_margin
    return ctx


