"""Plain versions of what the compiled kernel computes, written on the engine's ``Position`` for
clarity and not for speed: the references the kernel's tests hold it to.

- :func:`evaluate`: the static evaluation, term by term as ``halali.ai.bits.evaluate`` describes it,
  tile by tile over the board (the kernel does it with bitboards);
- :func:`value` and :func:`action_value`: expectimax in negamax form, chance nodes from
  ``Position.reveal_outcomes`` (the engine's own distribution of a face-down tile), optionally with
  quiescence past the horizon; no pruning, no ordering, no table;
- :func:`quiet_reveals` and :func:`root_order`: the quiet reveals ``MERGE`` merges, and the fixed
  order of the bots' root list.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from halali.ai.bits.weights import (
    BOUND,
    PREP_HIDDEN,
    W_EXIT1,
    W_EXIT2,
    W_EXIT3,
    W_EXTRA,
    W_FIRE,
    W_HUNT,
    W_KEEP,
    W_PARITY,
    W_PREP,
    W_THREAT_MAX,
    W_THREAT_REST,
    W_TREE,
)
from halali.games.forest.actions import CAPTURE, EXIT, MOVE, PASS_ACTION, REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.tiles import (
    BEAR,
    EXIT_SQUARE,
    FOX,
    HIDDEN,
    HUNTER_N,
    HUNTER_W,
    IS_NEUTRAL_MOVER,
    LUMBERJACK,
    OWNER,
    RAYS,
    STEPS_ONE,
    TREE,
    UNKNOWN,
    VALUE,
)

KIND_VALUE = (10, 5, 5, 5, 2, 3, 2)  # bear, fox, lumberjack, hunter, duck, pheasant, tree
QDEPTH = 6  # captures searched past the horizon, at most


# ---- the evaluation ---------------------------------------------------------------------------
def _line(board: list[int], sq: int, d: int) -> set[int]:
    """The squares a slider on ``sq`` reaches in direction ``d``: the empty ones and the first tile."""
    out = set()
    for t in RAYS[sq][d]:
        out.add(t)
        if board[t] != 0:
            break
    return out


def _neighbours(sq: int) -> set[int]:
    return {RAYS[sq][d][0] for d in range(4) if RAYS[sq][d]}


def _clear_exit_squares(board: list[int]) -> set[int]:
    """Squares a slider leaves from in one turn: each exit square, and from an empty one inwards
    along its middle line up to the first tile."""
    out = set()
    for d in range(4):
        e = EXIT_SQUARE[d]
        out.add(e)
        if board[e] == 0:
            out |= _line(board, e, (d + 2) % 4)
    return out


def _exit_turns(board: list[int], sq: int, c: int, clear: set[int]) -> int:
    """Turns a tile needs to leave the board, 4 meaning not soon."""
    if STEPS_ONE[c]:
        best = 4
        for e in EXIT_SQUARE:
            dist = abs(e // 7 - sq // 7) + abs(e % 7 - sq % 7)
            if dist > 0 and board[e] != 0:
                dist += 1
            best = min(best, dist + 1)
        return best
    if sq in clear:
        return 1
    for d in range(4):
        for t in RAYS[sq][d]:
            if board[t] != 0:
                break
            if t in clear:
                return 2
    return 3


def _top_share(values: list[int], keep: float, extra: float) -> float:
    """``keep`` of the five most valuable tiles, ``extra`` of the rest."""
    total = 0.0
    for i, v in enumerate(sorted(values, reverse=True)):
        total += v * (keep if i < 5 else extra)
    return total


def _exit_potential(tiles: list[tuple[int, int]], left: int, w: np.ndarray) -> float:
    """Greedily the most valuable tiles (the quicker among equals) that leave in ``left`` turns."""
    total = 0.0
    used: set[int] = set()
    while True:
        fits = [i for i, (v, t) in enumerate(tiles) if i not in used and t <= left]
        if not fits:
            return total
        best = max(fits, key=lambda i: (tiles[i][0] * 4 - tiles[i][1], -i))
        used.add(best)
        v, t = tiles[best]
        left -= t
        total += v * (w[W_EXIT1] if t == 1 else w[W_EXIT2] if t == 2 else w[W_EXIT3])


def evaluate(pos: Position, w: np.ndarray) -> float:
    """The expected final score difference for the player to move (``halali.ai.bits.evaluate``)."""
    board, me, final, nh = pos.board, pos.turn, pos.final, len(pos.hidden)
    unknown = any(board[sq] == UNKNOWN for sq in pos.hidden)
    pool = [max(n, 0) if unknown else 0 for n in pos.remaining_kinds()]
    # What each side can capture where.
    hunters: set[int] = set()  # brown hunters' lines of fire
    bears: set[int] = set()  # next to a blue bear
    foxes: set[int] = set()  # the blue foxes' lines
    lumberjacks: set[int] = set()  # next to a brown lumberjack
    for sq, c in enumerate(board):
        if c == BEAR:
            bears |= _neighbours(sq)
        elif c == FOX:
            for d in range(4):
                foxes |= _line(board, sq, d)
        elif c == LUMBERJACK:
            lumberjacks |= _neighbours(sq)
        elif HUNTER_N <= c <= HUNTER_W:
            hunters |= _line(board, sq, c - HUNTER_N)
    n_lumberjacks = board.count(LUMBERJACK)
    prep = w[W_PREP] * (1.0 - nh / (PREP_HIDDEN + 1.0)) if final < 0 and 0 < nh <= PREP_HIDDEN else 0.0
    clear = _clear_exit_squares(board) if final > 0 or prep > 0.0 else set()
    own: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])  # (value, turns to leave)
    threat_max = threat_sum = 0.0
    fire = hunt = trees = 0
    for sq, c in enumerate(board):
        if c == 0:
            continue
        if c >= HIDDEN:
            fire += sq in hunters
            continue
        owner, v = OWNER[c], VALUE[c]
        neutral = IS_NEUTRAL_MOVER[c]
        by_brown = by_blue = 0.0  # what capturing this tile gains, less what the other side takes back
        if (owner == 0 or neutral) and sq in hunters:
            by_brown = v - (5.0 if sq in bears else 0.0)
        if owner == 1 and sq in bears:
            by_blue = v - (10.0 if sq in hunters else 0.0)
        elif neutral and sq in foxes:
            by_blue = v - (5.0 if sq in hunters else 0.0)
        elif c == TREE:
            trees += 1
            if sq in lumberjacks:
                by_brown = v - (5.0 if sq in bears else 0.0)
        loss = by_brown if me == 0 else by_blue
        if loss > 0.0:
            threat_sum += loss
            threat_max = max(threat_max, loss)
        if owner < 2 and len(own[owner]) < 10:
            own[owner].append((v, _exit_turns(board, sq, c, clear) if final > 0 or prep > 0.0 else 0))
        if neutral:
            hunt += (v if sq in foxes else 0) - (v if sq in hunters else 0)
    e = float(pos.score[0] - pos.score[1])  # blue minus brown
    e_pos = 0.0
    if final > 0:
        mine, theirs = (final + 1) // 2, final // 2
        e_pos += _exit_potential(own[0], mine if me == 0 else theirs, w)
        e_pos -= _exit_potential(own[1], theirs if me == 0 else mine, w)
    else:
        race = _exit_potential(own[0], 5, w) - _exit_potential(own[1], 5, w) if prep > 0.0 else 0.0
        e_pos += (1.0 - prep) * (_top_share([v for v, _ in own[0]], w[W_KEEP], w[W_EXTRA])
                                 - _top_share([v for v, _ in own[1]], w[W_KEEP], w[W_EXTRA])) + prep * race
        if nh > 0 and sum(pool) > 0:  # face-down tiles at the average of what they may be
            avg = 0.0
            for k, n in enumerate(pool):
                if n > 0:
                    if k <= 1:
                        avg += n * float(KIND_VALUE[k]) * w[W_KEEP]
                    elif k <= 3:
                        avg -= n * float(KIND_VALUE[k]) * w[W_KEEP]
                    elif k == 6:
                        avg -= n * float(KIND_VALUE[k]) * w[W_TREE] * 0.5
            e_pos += avg * nh / sum(pool)
        if n_lumberjacks > 0:
            e_pos -= trees * 2.0 * w[W_TREE]
        elif pool[2] > 0:
            e_pos -= trees * 2.0 * w[W_TREE] * 0.5
        e_pos -= fire * w[W_FIRE]
        e_pos += hunt * w[W_HUNT]
        if 0 < nh <= 6:  # who reveals the last tile gives the first final turn away
            limit = pos.rules.stall_limit
            if limit > 0:
                forced_is_me = (limit - pos.stall) % 2 == 0
                last_is_me = forced_is_me if (limit % 2 == 0 or nh % 2 == 1) else not forced_is_me
            else:
                last_is_me = nh % 2 == 1
            sign = -1.0 if last_is_me else 1.0
            e_pos += (sign if me == 0 else -sign) * w[W_PARITY]
    e += e_pos
    val = e if me == 0 else -e
    val -= threat_max * w[W_THREAT_MAX] + (threat_sum - threat_max) * w[W_THREAT_REST]
    return max(-BOUND, min(BOUND, val))


def terminal_value(pos: Position) -> float:
    """A finished game for the player to move: the score difference."""
    return float(pos.score[pos.turn] - pos.score[1 - pos.turn])


# ---- the search -------------------------------------------------------------------------------
Leaf = Callable[[Position], float]


def _kind(a: int) -> int:
    return a >> TYPE_SHIFT & 7


def quiescence(pos: Position, leaf: Leaf, depth: int = QDEPTH) -> float:
    """The static value, or better for the player to move a capture (or an exit in the final phase)
    searched the same way, at most ``depth`` deep."""
    if pos.is_over():
        return terminal_value(pos)
    best = leaf(pos)
    if depth == 0:
        return best
    for a in pos.legal_actions():
        if _kind(a) == CAPTURE or (_kind(a) == EXIT and pos.final > 0):
            pos.push(a)
            best = max(best, -quiescence(pos, leaf, depth - 1))
            pos.pop()
    return best


def value(pos: Position, depth: int, leaf: Leaf, quiet: bool = False) -> float:
    """Expectimax ``depth`` plies deep (a reveal is one), for the player to move."""
    if pos.is_over():
        return terminal_value(pos)
    if depth == 0:
        return quiescence(pos, leaf) if quiet else leaf(pos)
    return max(action_value(pos, a, depth, leaf, quiet) for a in pos.legal_actions())


def action_value(pos: Position, a: int, depth: int, leaf: Leaf, quiet: bool = False) -> float:
    """The value of playing ``a``: the mean over a reveal's outcomes, weighted as the engine weighs them."""
    if _kind(a) == REVEAL and pos.board[a & 63] == UNKNOWN:
        total = 0.0
        for outcome, p in pos.reveal_outcomes(a & 63):
            pos.push(outcome)
            total -= p * value(pos, depth - 1, leaf, quiet)
            pos.pop()
        return total
    pos.push(a)
    v = -value(pos, depth - 1, leaf, quiet)
    pos.pop()
    return v


# ---- the root list and the quiet reveals --------------------------------------------------------
def quiet_reveals(pos: Position) -> set[int]:
    """Face-down squares whose every neighbour is face down too."""
    return {sq for sq in pos.hidden if _neighbours(sq) <= pos.hidden}


def root_order(pos: Position) -> list[int]:
    """The legal actions square by square (a reveal, or the moves and captures direction by direction
    N E S W and near to far, then the exits N E S W), the pass last."""
    legal = set(pos.legal_actions())
    out = []
    for sq in range(49):
        out += [a for a in legal if _kind(a) == REVEAL and a & 63 == sq]
        for d in range(4):
            for t in RAYS[sq][d]:
                out += [a for a in legal if _kind(a) in (MOVE, CAPTURE) and a >> 6 & 63 == sq and a & 63 == t]
        out += sorted(a for a in legal if _kind(a) == EXIT and a >> 6 & 63 == sq)
    return out + [a for a in legal if a == PASS_ACTION]
