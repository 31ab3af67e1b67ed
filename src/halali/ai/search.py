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
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit

from halali.ai.evaluate import BOUND, NB_MASK, evaluate, terminal_value
from halali.ai.kernel import (
    FINAL,
    HID,
    KIND_CODE,
    LM,
    LOCK,
    MAX_ACTIONS,
    NPOOL,
    OSHIFT,
    OWN_T,
    POOL,
    SCORE,
    STALL,
    STATE_SIZE,
    T_CAPTURE,
    T_EXIT,
    T_MOVE,
    T_REVEAL,
    TURN,
    UNK,
    VALUE_T,
    apply,
    gen_actions,
    is_over,
)
from halali.games.forest.actions import TYPE_SHIFT

PRUNE = 1
QSEARCH = 2
STAR2 = 4
HISTORY = 8
MERGE = 16
TT = 32
TT_SIZE = 1 << 19
TT_EXACT, TT_LOWER, TT_UPPER = 0.0, 1.0, 2.0
MAX_PLY = 64
QDEPTH = 6

# ctx slots (float64)
C_NODES = 0
C_ABORT = 1
C_DEADLINE = 2
C_NODE_LIMIT = 3
C_SELDEPTH = 4
CTX_SIZE = 5

@njit(cache=True, error_model="numpy")
def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, error_model="numpy")
def _tick(ctx: np.ndarray, ply: int) -> bool:
    """Count a node; True when the search must stop."""
    ctx[C_NODES] += 1.0
    if ply > ctx[C_SELDEPTH]:
        ctx[C_SELDEPTH] = ply
    if ctx[C_ABORT] != 0.0:
        return True
    n = ctx[C_NODES]
    if ctx[C_NODE_LIMIT] > 0.0 and n >= ctx[C_NODE_LIMIT]:
        ctx[C_ABORT] = 1.0
        return True
    if ctx[C_DEADLINE] > 0.0 and int(n) % 512 == 0 and _now() >= ctx[C_DEADLINE]:
        ctx[C_ABORT] = 1.0
        return True
    return False


@njit(cache=True, error_model="numpy")
def order_key(s: np.ndarray, a: int) -> float:
    """Captures first (most valuable victim, cheapest attacker), then exits, own moves, the rest."""
    kind = (a >> TYPE_SHIFT) & 7
    if kind == T_CAPTURE:
        return 1000.0 + 10.0 * VALUE_T[s[a & 63]] - VALUE_T[s[(a >> 6) & 63]]
    if kind == T_EXIT:
        return 900.0 + VALUE_T[s[(a >> 6) & 63]]
    if kind == T_MOVE:
        return 100.0 if OWN_T[s[TURN], s[(a >> 6) & 63]] else 50.0
    if kind == T_REVEAL:
        return 10.0
    return 0.0


@njit(cache=True, error_model="numpy")
def quiet_reveals(s: np.ndarray) -> int:
    """Face-down squares whose every neighbour is face down too (a 49-bit mask).

    Whatever such a tile turns out to be, next turn it can neither move, nor capture, nor be
    captured (every line to it is blocked by a face-down tile), and the evaluation scores it the
    same on any of these squares: revealing one of them is, as far as the search can see, the same
    as revealing any other. ``MERGE`` searches one of them and lets it stand for all.
    """
    hidden = 0
    for sq in range(49):
        if s[sq] >= HID:
            hidden |= 1 << sq
    quiet = 0
    for sq in range(49):
        if (hidden >> sq) & 1 and (NB_MASK[sq] & ~hidden) == 0:
            quiet |= 1 << sq
    return quiet


@njit(cache=True, error_model="numpy")
def _merge_quiet(s: np.ndarray, buf: np.ndarray, n: int) -> int:
    """Keep only the first quiet reveal of the action list; return the new length."""
    quiet = quiet_reveals(s)
    if quiet == 0:
        return n
    m = 0
    kept = False
    for i in range(n):
        a = buf[i]
        if ((a >> TYPE_SHIFT) & 7) == T_REVEAL and (quiet >> (a & 63)) & 1:
            if kept:
                continue
            kept = True
        buf[m] = a
        m += 1
    return m


_Z = np.random.default_rng(20240611).integers(1, 2**63 - 1, size=49 * 33 + 2 + 2 * 4097 + 50 + 12 + 64 + 2 * 200
                                               + 7 * 16, dtype=np.int64)
Z_TURN = 49 * 33
Z_LM = Z_TURN + 2
Z_LOCK = Z_LM + 2 * 4097
Z_FINAL = Z_LOCK + 50
Z_STALL = Z_FINAL + 12
Z_SCORE = Z_STALL + 64
Z_POOL = Z_SCORE + 2 * 200


@njit(cache=True, error_model="numpy")
def zobrist(s: np.ndarray) -> int:
    """A 64-bit key of everything that decides a position's future (and its evaluation)."""
    h = 0
    for sq in range(49):
        c = s[sq]
        if c != 0:
            h ^= _Z[sq * 33 + c]
    h ^= _Z[Z_TURN + s[TURN]]
    h ^= _Z[Z_LM + s[LM] + 1] ^ _Z[Z_LM + 4097 + s[LM + 1] + 1]
    h ^= _Z[Z_LOCK + s[LOCK] + 1] ^ _Z[Z_FINAL + s[FINAL] + 1] ^ _Z[Z_STALL + min(s[STALL], 63)]
    h ^= _Z[Z_SCORE + s[SCORE]] ^ _Z[Z_SCORE + 200 + s[SCORE + 1]]
    for k in range(7):
        h ^= _Z[Z_POOL + 16 * k + min(s[POOL + k], 15)]
    return h


HIST_MASK = (1 << 15) - 1  # an action without its reveal outcome


@njit(cache=True, error_model="numpy")
def _history_bonus(h: float) -> float:
    """Up to 40 for actions that often cut off elsewhere (never lifts a quiet action to a capture)."""
    return 40.0 * h / (h + 50.0)


@njit(cache=True, error_model="numpy")
def _sort(acts: np.ndarray, keys: np.ndarray, n: int) -> None:
    for i in range(1, n):
        a = acts[i]
        k = keys[i]
        j = i - 1
        while j >= 0 and keys[j] < k:
            acts[j + 1] = acts[j]
            keys[j + 1] = keys[j]
            j -= 1
        acts[j + 1] = a
        keys[j + 1] = k


@njit(cache=True, error_model="numpy")
def _probe(s: np.ndarray, depth: int, ply: int, st: np.ndarray, acts: np.ndarray, keys: np.ndarray,
           ctx: np.ndarray, w: np.ndarray, rng: np.ndarray) -> float:
    """An estimate of the value of ``s`` from below: its first ordered action (not a reveal), evaluated."""
    if is_over(s):
        return terminal_value(s)
    if depth <= 0:
        if _tick(ctx, ply):
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
        if _tick(ctx, ply):
            return 0.0
        return evaluate(s, w)  # only reveals: the static value stands in
    child = st[ply + 1]
    child[:] = s
    apply(child, buf[best_i], rng)
    if _tick(ctx, ply):
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
            if _tick(ctx, ply):
                return 0.0
            return evaluate(s, w)
        if _tick(ctx, ply):
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
            n = _merge_quiet(s, buf, n)
        turn = s[TURN]
        use_hist = (flags & HISTORY) != 0
        for i in range(n):
            keys[ply, i] = order_key(s, buf[i])
            if use_hist:
                keys[ply, i] += _history_bonus(hist[turn, buf[i] & HIST_MASK])
            if buf[i] == tt_move:
                keys[ply, i] += 10000.0
        _sort(buf, keys[ply], n)
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
    if _tick(ctx, ply):
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
    _sort(buf, keys[ply], m)
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


def new_ctx(deadline: float = 0.0, node_limit: int = 0) -> np.ndarray:
    ctx = np.zeros(CTX_SIZE, dtype=np.float64)
    ctx[C_DEADLINE] = deadline
    ctx[C_NODE_LIMIT] = float(node_limit)
    return ctx


