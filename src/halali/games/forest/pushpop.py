"""What an action changes in a forest position, and how ``pop`` takes it back.

Search and perft walk millions of positions by playing an action and taking it back, so a position
is changed in place: ``push`` updates the board and the bookkeeping (face-down and face-up squares,
own tiles on the board, piles, scores, tile counts) by what the action moved, never by scanning the
board, and returns the few values the action overwrote; ``pop`` puts them back. ``Position`` keeps
the stack of those records; this module sees a position as the :class:`PositionFields` it is built
on (``fields.py``), so it does not import ``position.py``.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.forest.actions import CAPTURE, EXIT, MOVE, OUTCOME_SHIFT, REVEAL, TYPE_SHIFT, Action, action_str
from halali.games.forest.fields import PositionFields
from halali.games.forest.tiles import (
    BLUE,
    BROWN,
    HIDDEN,
    IS_NEUTRAL_MOVER,
    KIND,
    KIND_VALUE,
    OWN,
    OWNER,
    UNKNOWN,
    VALUE,
)

FINAL_TURNS = 10
"""The turns left, for both players together, once the last face-down tile is revealed."""

Undo = tuple[Action, int, int, int, int, int, Action | None]
"""What ``pop`` needs to take an action back: the action, the tile it turned up, captured or took out
(0 for none), and the last move, lock, final turns, stall count and last action before it."""


def push(pos: PositionFields, a: Action) -> Undo:
    """Play ``a``, known to be legal, and return what ``pop`` needs to take it back."""
    kind = a >> TYPE_SHIFT & 7
    p = pos.turn
    b = pos.board
    final = pos.final
    undo_lm = pos.last_move[p]
    undo: Undo
    if kind == REVEAL:
        sq = a & 63
        orig = b[sq]
        if orig == UNKNOWN:
            c = a >> OUTCOME_SHIFT & 31
            if not c:
                raise IllegalAction(f"the outcome of {action_str(a)} is not known: write {action_str(a)}=X")
        else:
            c = orig - HIDDEN
        b[sq] = c
        pos.hidden.discard(sq)
        pos.up.add(sq)
        owner = OWNER[c]
        if owner < 2:
            pos.own[owner] += 1
        undo = (a, orig, undo_lm, pos.lock, final, pos.stall, pos.last_action)
        pos.stall = 0
        pos.last_move[p] = -1
        pos.lock = sq if IS_NEUTRAL_MOVER[c] else -1
        if not pos.hidden:
            pos.final = FINAL_TURNS
    elif kind == MOVE:
        f = a >> 6 & 63
        t = a & 63
        c = b[f]
        b[f] = 0
        b[t] = c
        up = pos.up
        up.discard(f)
        up.add(t)
        undo = (a, 0, undo_lm, pos.lock, final, pos.stall, pos.last_action)
        pos.stall += 1
        neutral = IS_NEUTRAL_MOVER[c]
        if OWN[p][c] or (neutral and pos.rules.no_return_neutrals):
            pos.last_move[p] = f << 6 | t
        else:
            pos.last_move[p] = -1
        pos.lock = t if neutral and pos.rules.green_lock == "revealed_or_moved" else -1
        if final > 0:
            pos.final = final - 1
    elif kind == CAPTURE:
        f = a >> 6 & 63
        t = a & 63
        c = b[f]
        x = b[t]
        b[f] = 0
        b[t] = c
        pos.up.discard(f)
        k = KIND[x]
        pos.captured[p][k] += 1
        pos.score[p] += VALUE[x]
        pos.ntiles[p] += 1
        owner = OWNER[x]
        if owner < 2:
            pos.own[owner] -= 1
        undo = (a, x, undo_lm, pos.lock, final, pos.stall, pos.last_action)
        pos.stall = 0
        pos.last_move[p] = f << 6 | t
        pos.lock = -1
        if final > 0:
            pos.final = final - 1
    elif kind == EXIT:
        f = a >> 6 & 63
        c = b[f]
        b[f] = 0
        pos.up.discard(f)
        pos.exited[p][KIND[c]] += 1
        pos.score[p] += VALUE[c]
        pos.ntiles[p] += 1
        pos.own[p] -= 1
        undo = (a, c, undo_lm, pos.lock, final, pos.stall, pos.last_action)
        pos.stall = 0
        pos.last_move[p] = -1
        pos.lock = -1
        if final > 0:
            pos.final = final - 1
    else:
        undo = (a, 0, undo_lm, pos.lock, final, pos.stall, pos.last_action)
        pos.stall += 1
        pos.last_move[p] = -1
        pos.lock = -1
        if final > 0:
            pos.final = final - 1
    pos.last_action = a
    pos.turn = p ^ 1
    return undo


def pop(pos: PositionFields, undo: Undo) -> Action:
    """Take back the action ``undo`` records, the last one pushed, and return it."""
    a, extra, lm, lock, final, stall, last_action = undo
    p = pos.turn ^ 1
    pos.turn = p
    pos.last_move[p] = lm
    pos.lock = lock
    pos.final = final
    pos.stall = stall
    pos.last_action = last_action
    b = pos.board
    kind = a >> TYPE_SHIFT & 7
    if kind == REVEAL:
        sq = a & 63
        owner = OWNER[b[sq]]
        if owner < 2:
            pos.own[owner] -= 1
        b[sq] = extra
        pos.up.discard(sq)
        pos.hidden.add(sq)
    elif kind == MOVE:
        f = a >> 6 & 63
        t = a & 63
        b[f] = b[t]
        b[t] = 0
        pos.up.discard(t)
        pos.up.add(f)
    elif kind == CAPTURE:
        f = a >> 6 & 63
        t = a & 63
        b[f] = b[t]
        b[t] = extra
        pos.up.add(f)
        pos.captured[p][KIND[extra]] -= 1
        pos.score[p] -= VALUE[extra]
        pos.ntiles[p] -= 1
        owner = OWNER[extra]
        if owner < 2:
            pos.own[owner] += 1
    elif kind == EXIT:
        f = a >> 6 & 63
        b[f] = extra
        pos.up.add(f)
        pos.exited[p][KIND[extra]] -= 1
        pos.score[p] -= VALUE[extra]
        pos.ntiles[p] -= 1
        pos.own[p] += 1
    return a


def recount(pos: PositionFields) -> None:
    """Derive the bookkeeping from the board and the piles (after parsing or editing)."""
    b = pos.board
    pos.hidden = {s for s in range(49) if b[s] >= HIDDEN}
    pos.up = {s for s in range(49) if 0 < b[s] < HIDDEN}
    pos.own = [0, 0]
    for s in pos.up:
        owner = OWNER[b[s]]
        if owner < 2:
            pos.own[owner] += 1
    for p in (BLUE, BROWN):
        pos.score[p] = sum(KIND_VALUE[k] * (pos.captured[p][k] + pos.exited[p][k]) for k in range(7))
        pos.ntiles[p] = sum(pos.captured[p]) + sum(pos.exited[p])
