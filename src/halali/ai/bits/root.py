"""The Python side of the search: its buffers, the root loop, and the root list.

``search.rec`` is the compiled tree; this is what ``halali.ai.search_bots`` calls.
"""

from __future__ import annotations

import numpy as np

from halali.ai.bits.gen import gen_actions
from halali.ai.bits.search import action_value, compile_tree
from halali.ai.bits.search_parts import C_ABORT, HIST_MASK, MAX_PLY, PRUNE, TT_SIZE
from halali.ai.bits.tables import (
    BB_SIZE,
    MAX_ACTIONS,
    STATE_SIZE,
    T_EXIT,
    T_PASS,
    T_REVEAL,
    UNDO_SIZE,
)
from halali.ai.bits.weights import BOUND
from halali.games.forest.actions import TYPE_SHIFT


class Workspace:
    """Per-search buffers: the state, an undo record, an action list and sort keys for every ply."""

    def __init__(self) -> None:
        self.bb = np.zeros(BB_SIZE, dtype=np.uint64)
        self.s = np.zeros(STATE_SIZE, dtype=np.int32)
        self.undo = np.zeros((MAX_PLY + 1, UNDO_SIZE), dtype=np.int64)
        self.acts = np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.int32)
        self.keys = np.zeros((MAX_PLY + 1, MAX_ACTIONS), dtype=np.float64)
        self.rng = np.ones(1, dtype=np.uint64)
        self.hist = np.zeros((2, HIST_MASK + 1), dtype=np.float64)  # history heuristic, per player
        self.ttk = np.zeros(1, dtype=np.int64)  # transposition table: keys, and value/depth/bound/action
        self.ttv = np.zeros((1, 4), dtype=np.float64)

    def with_table(self, size: int = TT_SIZE) -> Workspace:
        self.ttk = np.zeros(size, dtype=np.int64)
        self.ttv = np.zeros((size, 4), dtype=np.float64)
        return self


def search_root(bb: np.ndarray, s: np.ndarray, root: list[int], depth: int, exact: bool, ctx: np.ndarray,
                w: np.ndarray, flags: int, ws: Workspace) -> tuple[list[float | None], int]:
    """Search the root actions in the given order: their values (exact, or an upper bound when an
    action fails low; None when the clock stopped it) and the index of the best (-1 if none)."""
    compile_tree()
    ws.bb[:] = bb
    ws.s[:] = s
    alpha = -BOUND - 1.0
    best = -1
    best_value = 0.0
    values: list[float | None] = [None] * len(root)
    for i, a in enumerate(root):
        lo = -BOUND if exact or (flags & PRUNE) == 0 else alpha
        v = action_value(ws.bb, ws.s, a, depth, lo, BOUND, ws.undo, ws.acts, ws.keys, ctx, w, flags, ws.rng,
                         ws.hist, ws.ttk, ws.ttv)
        if ctx[C_ABORT] != 0.0:
            break
        values[i] = v
        if best < 0 or v > best_value:
            best, best_value = i, v
            alpha = max(alpha, v)
    return values, best


def _root_position(a: int) -> tuple[int, int]:
    """Where the root list has an action: by source square, then (moves and captures) by direction
    (N E S W) and distance, the exits last; a reveal alone on its square, the pass at the end."""
    kind = a >> TYPE_SHIFT & 7
    if kind == T_REVEAL:
        return a & 63, 0
    if kind == T_PASS:
        return 64, 0
    f = a >> 6 & 63
    if kind == T_EXIT:
        return f, 40 + (a & 3)
    t = a & 63
    if t % 7 == f % 7:
        return f, (0 if t > f else 16) + abs(t - f) // 7
    return f, (8 if t > f else 24) + abs(t - f)


def legal_root(bb: np.ndarray, s: np.ndarray) -> list[int]:
    """The legal actions in a fixed order, whatever order the generator lists them in: the root list
    the bots shuffle with their seed and sort, so that a seed makes the same choice as it did when the
    levels were measured (docs/ai.md), and will after any change to the generator."""
    out = np.empty(MAX_ACTIONS, dtype=np.int32)
    n = gen_actions(bb, s, out)
    return sorted((int(a) for a in out[:n]), key=_root_position)
