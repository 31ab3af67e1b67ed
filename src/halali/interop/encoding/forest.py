"""The forest game as numbers: action ids, the legal-action mask and the observation tensor.

Actions are laid out AlphaZero-style, as planes over the 49 squares, so that a convolutional policy
head can emit them directly: ``id = plane * 49 + square`` (square ``rank * 7 + file``, a1 = 0), where

* plane 0 reveals the tile on ``square`` (so the first 49 ids are the squares themselves),
* planes 1..24 move or capture from ``square``: direction ``d`` (N, E, S, W) and distance ``k`` (1..6)
  give plane ``1 + 6 * d + k - 1``; a move and a capture never compete for one id (the target is empty
  or it is not),
* planes 25..28 lead the tile on ``square`` out through exit N, E, S, W,
* and the last id, ``29 * 49 = 1421``, passes.

1422 ids in all; most of them can never be legal (a distance beyond the edge, an exit off the middle
lines), as in OpenSpiel's chess. A reveal's chance outcome is the tile turned up, numbered by tile
code minus one (bear, fox, lumberjack, hunter N, E, S, W, duck, pheasant, tree: 0..9).

The observation is a stack of 7x7 binary planes, row = rank - 1 and column = file (the squares'
numbering, as the action planes), then a vector of global features in [0, 1], all in one flat vector
(docs/research.md has both tables). It shows a face-down tile as face down whatever the position knows
of it, so a position with the deal and its public view encode the same.
"""

from __future__ import annotations

import numpy as np

from halali.games.forest.actions import CAPTURE, EXIT, MOVE, PASS_ACTION, TYPE_SHIFT, Action, action_str
from halali.games.forest.position import Position
from halali.games.forest.pushpop import FINAL_TURNS
from halali.games.forest.tiles import (
    EXIT_PATHS,
    HIDDEN,
    KIND_COUNT,
    LETTER,
    RAYS,
    SQUARE_NAMES,
)
from halali.interop.encoding import mask_of

NSQ = 49
REVEAL_PLANE = 0
MOVE_PLANE = 1  # + 6 * direction + distance - 1
EXIT_PLANE = 25  # + direction
PASS_ID = 29 * NSQ
NUM_ACTIONS = PASS_ID + 1
NUM_OUTCOMES = 10
OUTCOME_CODES = tuple(range(1, 11))
"""Chance outcomes of a reveal: tile codes 1..10 as 0..9."""

_MOVE = MOVE << TYPE_SHIFT
_CAPTURE_OFFSET = (CAPTURE - MOVE) << TYPE_SHIFT
_EXIT = EXIT << TYPE_SHIFT


def _tables() -> tuple[dict[Action, int], list[int], list[int]]:
    encode: dict[Action, int] = {}
    base = [-1] * NUM_ACTIONS  # the engine action of an id (a move's MOVE form)
    target = [-1] * NUM_ACTIONS  # a move id's target square: a tile there makes it a capture
    for sq in range(NSQ):
        encode[sq] = sq
        base[sq] = sq
        for d in range(4):
            for k, t in enumerate(RAYS[sq][d], 1):
                i = (MOVE_PLANE + 6 * d + k - 1) * NSQ + sq
                a = _MOVE | sq << 6 | t
                encode[a] = i
                encode[a + _CAPTURE_OFFSET] = i
                base[i] = a
                target[i] = t
        for d, _path in EXIT_PATHS[sq]:
            i = (EXIT_PLANE + d) * NSQ + sq
            encode[_EXIT | sq << 6 | d] = i
            base[i] = _EXIT | sq << 6 | d
    encode[PASS_ACTION] = PASS_ID
    base[PASS_ID] = PASS_ACTION
    return encode, base, target


ENCODE, _BASE, _TARGET = _tables()
"""ENCODE: engine action (without a reveal's outcome) -> id."""


def action_id(action: Action) -> int:
    """The id of an engine action (a reveal's outcome, if written, is not part of it)."""
    return ENCODE[action & ((1 << 15) - 1)]


def legal_ids(pos: Position) -> list[int]:
    """The ids of the legal actions, ascending (OpenSpiel's order)."""
    enc = ENCODE
    return sorted([enc[a] for a in pos.legal_actions()])


def engine_action(pos: Position, i: int) -> Action:
    """The engine action an id names in ``pos`` (a reveal without its outcome); ``ValueError`` for an
    id no position could play."""
    if not 0 <= i < NUM_ACTIONS or _BASE[i] < 0:
        raise ValueError(f"{i} is not a forest action id (0..{NUM_ACTIONS - 1}, a square's geometry)")
    t = _TARGET[i]
    a = _BASE[i]
    return a + _CAPTURE_OFFSET if t >= 0 and pos.board[t] else a


def id_to_string(pos: Position, i: int) -> str:
    """An id in forest notation as it reads in ``pos`` (``c3-c5``, ``c3xc5``, ``?c3``, ``d2-S``, ``pass``)."""
    if not 0 <= i < NUM_ACTIONS or _BASE[i] < 0:
        return f"invalid({i})"
    return action_str(engine_action(pos, i))


def outcome_string(square: int, outcome: int) -> str:
    """A reveal's chance outcome in notation: ``?c3=N``."""
    return f"?{SQUARE_NAMES[square]}={LETTER[OUTCOME_CODES[outcome]]}"


# ---- the observation ------------------------------------------------------------------------------
BOARD_PLANES = 17
"""0..9 face-up bear, fox, lumberjack, hunter N/E/S/W, duck, pheasant, tree; 10 face down; 11 the duck
or pheasant the player to move may not move (green lock); 12, 13 the square blue's last own move came
from and went to (the no-return rule: that tile may not go back there next turn); 14, 15 the same for
brown; 16 the square of a reveal waiting for its chance outcome (OpenSpiel only)."""
GLOBALS = 32
"""0, 1 blue / brown to move; 2, 3 the observer is blue / brown; 4 the final phase has begun; 5 final
turns left / 10; 6 turns without reveal, capture or exit / stall limit (0 when off); 7 a reveal is due
(the stall limit is reached); 8..14 blue's pile by kind (bear, fox, lumberjack, hunter, duck, pheasant,
tree) / the kind's count; 15..21 brown's; 22..28 face-down tiles left by kind / the kind's count; 29, 30
blue's / brown's score / 168; 31 the game is over."""
BOARD_SHAPE = (BOARD_PLANES, 7, 7)
BOARD_SIZE = BOARD_PLANES * NSQ
SIZE = BOARD_SIZE + GLOBALS
"""The observation is one flat float32 vector of SIZE: the board planes (plane-major, then rank, then
file: ``plane * 49 + square``) followed by the global features. OpenSpiel, PettingZoo and Gymnasium give
the same vector; ``split`` gives its two parts their shapes."""
OBSERVER = BOARD_SIZE + 2  # + observer: the feature saying who observes

# Board value -> its column of planes (every board value, 0..UNKNOWN), for np.take along the squares.
_NVALUES = HIDDEN * 2 + 1
_COLUMNS = np.zeros((BOARD_PLANES, _NVALUES), np.float32)
for _code in range(1, 11):
    _COLUMNS[_code - 1, _code] = 1.0
for _code in range(HIDDEN, _NVALUES):
    _COLUMNS[10, _code] = 1.0  # face down, with its face known (a deal) or not (a view)
_TILE_PLANE = tuple(int(np.argmax(_COLUMNS[:, v])) if _COLUMNS[:, v].any() else -1 for v in range(_NVALUES))
_KIND_OF_CODE = (-1, 0, 1, 2, 3, 3, 3, 3, 4, 5, 6)
_INV = tuple(1.0 / n for n in KIND_COUNT)
_SCORE_SCALE = 1.0 / 168.0
_FINAL_SCALE = 1.0 / FINAL_TURNS
_SPECIAL = slice(11 * NSQ, BOARD_SIZE)


def split(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The board planes (17, 7, 7: plane, rank - 1, file) and the global features of an observation."""
    return obs[:BOARD_SIZE].reshape(BOARD_SHAPE), obs[BOARD_SIZE:]


def _special(pos: Position, out: np.ndarray, pending: int) -> None:
    lock = pos.lock
    if lock >= 0:
        out[11 * NSQ + lock] = 1.0
    lm = pos.last_move[0]
    if lm >= 0:
        out[12 * NSQ + (lm >> 6)] = 1.0
        out[13 * NSQ + (lm & 63)] = 1.0
    lm = pos.last_move[1]
    if lm >= 0:
        out[14 * NSQ + (lm >> 6)] = 1.0
        out[15 * NSQ + (lm & 63)] = 1.0
    if pending >= 0:
        out[16 * NSQ + pending] = 1.0


def _globals(pos: Position, observer: int, left: list[int] | tuple[int, ...]) -> list[float]:
    """The global features; ``left`` the face-down tiles by kind."""
    over = pos.is_over()
    g = [0.0] * GLOBALS
    if not over:
        g[pos.turn] = 1.0
    if observer >= 0:
        g[2 + observer] = 1.0
    final = pos.final
    if final >= 0:
        g[4] = 1.0
        g[5] = final * _FINAL_SCALE
    limit = pos.rules.stall_limit
    if limit and final < 0:
        stall = pos.stall
        g[6] = stall / limit if stall < limit else 1.0
        g[7] = 1.0 if stall >= limit and pos.hidden else 0.0
    c0, e0 = pos.captured[0], pos.exited[0]
    c1, e1 = pos.captured[1], pos.exited[1]
    inv = _INV
    for k in range(7):
        g[8 + k] = (c0[k] + e0[k]) * inv[k]
        g[15 + k] = (c1[k] + e1[k]) * inv[k]
        g[22 + k] = left[k] * inv[k]
    g[29] = pos.score[0] * _SCORE_SCALE
    g[30] = pos.score[1] * _SCORE_SCALE
    if over:
        g[31] = 1.0
    return g


def face_down_left(pos: Position) -> list[int]:
    """Face-down tiles by kind, as anyone sees it: each kind's count less the tiles of it face up and
    in the piles (the same number whether or not the position knows the deal)."""
    left = list(KIND_COUNT)
    for v in pos.board:
        if 0 < v < HIDDEN:
            left[_KIND_OF_CODE[v]] -= 1
    for p in (0, 1):
        for k in range(7):
            left[k] -= pos.captured[p][k] + pos.exited[p][k]
    return left


def encode(pos: Position, observer: int, out: np.ndarray, pending: int = -1) -> None:
    """Fill ``out`` (SIZE) with ``pos`` as ``observer`` (0 blue, 1 brown) sees it; ``pending`` is the
    square of a reveal awaiting its chance outcome. Both players see the same board: the face-down
    tiles are unknown to everyone alike, whatever the position knows of them."""
    codes = np.frombuffer(bytes(pos.board), np.uint8)
    np.take(_COLUMNS, codes, axis=1, out=out[:BOARD_SIZE].reshape(BOARD_PLANES, NSQ))
    _special(pos, out, pending)
    out[BOARD_SIZE:] = _globals(pos, observer, face_down_left(pos))


def observation(pos: Position, observer: int, pending: int = -1) -> np.ndarray:
    """A fresh observation vector (SIZE, float32)."""
    out = np.empty(SIZE, np.float32)
    encode(pos, observer, out, pending)
    return out


class Tracker:
    """The observation of one game kept up to date action by action, for an environment's steps.

    A step changes at most two squares, the lock and last-move planes and the global features, so
    ``push`` rewrites only those (``encode`` would redo the whole board); ``observation`` copies the
    result for one observer. Tests hold it to ``encode`` step by step.
    """

    __slots__ = ("base", "left")

    def __init__(self, pos: Position) -> None:
        self.base = np.empty(SIZE, np.float32)
        self.reset(pos)

    def reset(self, pos: Position) -> None:
        encode(pos, -1, self.base)
        self.left = face_down_left(pos)

    def push(self, pos: Position, action: Action) -> None:
        """Bring the observation up to date with ``pos``, in which ``action`` was just played."""
        base = self.base
        kind = action >> TYPE_SHIFT & 7
        g = BOARD_SIZE
        if kind == 0:  # a reveal: the tile turns face up, one fewer of its kind is face down
            sq = action & 63
            code = pos.board[sq]
            base[10 * NSQ + sq] = 0.0
            base[_TILE_PLANE[code] * NSQ + sq] = 1.0
            k = _KIND_OF_CODE[code]
            left = self.left[k] - 1
            self.left[k] = left
            base[g + 22 + k] = left * _INV[k]
        elif kind != 4:  # a move, a capture or an exit: the source is empty now
            f = action >> 6 & 63
            base[f:10 * NSQ:NSQ] = 0.0
            if kind != 3:
                t = action & 63
                base[t:10 * NSQ:NSQ] = 0.0
                base[_TILE_PLANE[pos.board[t]] * NSQ + t] = 1.0
            if kind != 1:  # a capture or an exit: the mover's pile and score grow
                p = pos.turn ^ 1
                c, e = pos.captured[p], pos.exited[p]
                at = g + 8 + 7 * p
                for k in range(7):
                    base[at + k] = (c[k] + e[k]) * _INV[k]
                base[g + 29 + p] = pos.score[p] * _SCORE_SCALE
        base[_SPECIAL] = 0.0
        _special(pos, base, -1)
        over = pos.is_over()
        turn = pos.turn
        base[g] = 0.0 if over or turn else 1.0
        base[g + 1] = 1.0 if turn and not over else 0.0
        final = pos.final
        if final >= 0:
            base[g + 4] = 1.0
            base[g + 5] = final * _FINAL_SCALE
            base[g + 6] = base[g + 7] = 0.0
        else:
            limit = pos.rules.stall_limit
            if limit:
                stall = pos.stall
                base[g + 6] = stall / limit if stall < limit else 1.0
                base[g + 7] = 1.0 if stall >= limit and pos.hidden else 0.0
        if over:
            base[g + 31] = 1.0

    def observation(self, observer: int) -> np.ndarray:
        out = self.base.copy()
        out[OBSERVER + observer] = 1.0
        return out


def mask(ids: list[int]) -> np.ndarray:
    """The legal-action mask of a list of ids: int8, NUM_ACTIONS long."""
    return mask_of(ids, NUM_ACTIONS)


__all__ = [
    "BOARD_PLANES", "BOARD_SHAPE", "BOARD_SIZE", "ENCODE", "GLOBALS", "NUM_ACTIONS", "NUM_OUTCOMES",
    "PASS_ID", "SIZE", "Tracker", "action_id", "encode", "engine_action", "face_down_left", "id_to_string",
    "legal_ids", "mask", "observation", "outcome_string", "split",
]
