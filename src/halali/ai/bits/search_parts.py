"""The parts of the search that are not its recursion (``bits.search``): the flags that make the
levels (from ``bits.flags``), the slots of the context array and its clock, and the order in which
actions are searched.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit

from halali.ai.bits import jitcache  # noqa: F401  (must run before anything below is compiled)
from halali.ai.bits.flags import FRONTIER as FRONTIER
from halali.ai.bits.flags import HISTORY as HISTORY
from halali.ai.bits.flags import MERGE as MERGE
from halali.ai.bits.flags import PRUNE as PRUNE
from halali.ai.bits.flags import QSEARCH as QSEARCH
from halali.ai.bits.flags import STAR2 as STAR2
from halali.ai.bits.flags import TT as TT
from halali.ai.bits.rollout import step
from halali.ai.bits.tables import B_HIDDEN, FULL, OWN_T, T_CAPTURE, T_EXIT, T_MOVE, T_REVEAL, TURN, VALUE_T, ptr
from halali.games.forest.actions import TYPE_SHIFT

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
C_STAR2_MARGIN = 5  # points by which a Star2 probe sum must miss alpha to cut (above the horizon)
CTX_SIZE = 6


def new_ctx(deadline: float = 0.0, node_limit: int = 0, star2_margin: float = 0.0) -> np.ndarray:
    """A search's context: its node count and its limits (a ``perf_counter`` deadline, 0 for none)."""
    ctx = np.zeros(CTX_SIZE, dtype=np.float64)
    ctx[C_DEADLINE] = deadline
    ctx[C_NODE_LIMIT] = float(node_limit)
    ctx[C_STAR2_MARGIN] = star2_margin
    return ctx


@njit(cache=True, error_model="numpy")
def _now() -> float:
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


@njit(cache=True, error_model="numpy")
def tick(ctx: np.ndarray, ply: int) -> bool:
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


@njit(cache=True, error_model="numpy", inline="always")
def _quiet(b: np.ndarray) -> np.uint64:
    """Face-down squares whose every neighbour is face down (see ``quiet_reveals``)."""
    hidden = b[B_HIDDEN]
    open_ = FULL & ~hidden
    near = step(open_, 0) | step(open_, 1) | step(open_, 2) | step(open_, 3)
    return hidden & ~near


@njit(cache=True, error_model="numpy")
def quiet_reveals(bb: np.ndarray) -> np.uint64:
    """Face-down squares whose every neighbour is face down too (a 49-bit mask).

    Whatever such a tile turns out to be, next turn it can neither move, nor capture, nor be
    captured (every line to it is blocked by a face-down tile): revealing one of them is, as far as
    a shallow search can see, much the same as revealing any other. ``MERGE`` searches one of them
    and lets it stand for all.
    """
    return _quiet(ptr(bb))


@njit(cache=True, error_model="numpy", inline="always")
def merge_quiet(b: np.ndarray, buf: np.ndarray, n: int) -> int:
    """Keep only the first quiet reveal of the action list; return the new length."""
    quiet = _quiet(b)
    if quiet == 0:
        return n
    m = 0
    kept = False
    for i in range(n):
        a = buf[i]
        if ((a >> TYPE_SHIFT) & 7) == T_REVEAL and (quiet >> np.uint64(a & 63)) & np.uint64(1):
            if kept:
                continue
            kept = True
        buf[m] = a
        m += 1
    return m


HIST_MASK = (1 << 15) - 1  # an action without its reveal outcome


@njit(cache=True, error_model="numpy")
def history_bonus(h: float) -> float:
    """Up to 40 for actions that often cut off elsewhere (never lifts a quiet action to a capture)."""
    return 40.0 * h / (h + 50.0)


@njit(cache=True, error_model="numpy")
def sort_by_key(acts: np.ndarray, keys: np.ndarray, n: int) -> None:
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
