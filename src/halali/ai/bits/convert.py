"""Between the engine's ``Position`` and a bitboard state (the int32 counters and the bitboards).

A state is built from a player's view as well as from a position that knows the deal: an unknown
face-down tile stays ``UNKNOWN`` on the mailbox board and counts in ``POOL``, the kinds not yet
accounted for, which is exactly the distribution ``Position.hidden_distribution`` gives.
"""

from __future__ import annotations

import numpy as np

from halali.ai.bits.step import rebuild
from halali.ai.bits.tables import (
    BB_SIZE,
    CAPT,
    EXITED,
    FINAL,
    LM,
    LOCK,
    LOCK_ON_MOVE,
    NHID,
    NPOOL,
    NR_NEUTRALS,
    NTILES,
    OWNN,
    POOL,
    SCORE,
    STALL,
    STALL_LIMIT,
    STATE_SIZE,
    TURN,
    UNDO_SIZE,
)
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import UNKNOWN


def from_position(pos: Position) -> tuple[np.ndarray, np.ndarray]:
    """The state of a position: (bitboards and key as uint64, mailbox and counters as int32)."""
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    s[:49] = pos.board
    s[TURN] = pos.turn
    s[LM], s[LM + 1] = pos.last_move
    s[LOCK] = pos.lock
    s[FINAL] = pos.final
    s[STALL] = pos.stall
    s[SCORE], s[SCORE + 1] = pos.score
    s[NTILES], s[NTILES + 1] = pos.ntiles
    s[OWNN], s[OWNN + 1] = pos.own
    s[NHID] = len(pos.hidden)
    left = pos.remaining_kinds()
    unknown = any(pos.board[sq] == UNKNOWN for sq in pos.hidden)
    for k in range(7):
        s[POOL + k] = max(left[k], 0) if unknown else 0
    s[NPOOL] = int(s[POOL:POOL + 7].sum())
    for p in (0, 1):
        s[CAPT + 7 * p:CAPT + 7 * p + 7] = pos.captured[p]
        s[EXITED + 7 * p:EXITED + 7 * p + 7] = pos.exited[p]
    set_rules(s, pos.rules)
    bb = np.zeros(BB_SIZE, dtype=np.uint64)
    rebuild(bb, s)
    return bb, s


def set_rules(s: np.ndarray, rules: Rules) -> None:
    s[STALL_LIMIT] = rules.stall_limit
    s[LOCK_ON_MOVE] = 1 if rules.lock_on_move else 0
    s[NR_NEUTRALS] = 1 if rules.no_return_neutrals else 0


def to_position(s: np.ndarray, rules: Rules) -> Position:
    """The engine position of a state (the mailbox and counters say everything)."""
    pos = Position(rules)
    pos.board = [int(v) for v in s[:49]]
    pos.turn = int(s[TURN])
    pos.last_move = [int(s[LM]), int(s[LM + 1])]
    pos.lock = int(s[LOCK])
    pos.final = int(s[FINAL])
    pos.stall = int(s[STALL])
    for p in (0, 1):
        pos.captured[p] = [int(v) for v in s[CAPT + 7 * p:CAPT + 7 * p + 7]]
        pos.exited[p] = [int(v) for v in s[EXITED + 7 * p:EXITED + 7 * p + 7]]
    pos._recount()
    return pos


def new_rng(seed: int) -> np.ndarray:
    """The state of the kernel's xorshift generator (never zero)."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & 0xFFFFFFFFFFFFFFFF
    return np.array([x or 1], dtype=np.uint64)


def new_undo(plies: int) -> np.ndarray:
    """Room for ``plies`` undo records, one row each."""
    return np.zeros((plies, UNDO_SIZE), dtype=np.int64)
