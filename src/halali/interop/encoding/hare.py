"""The hare hunt as numbers: action ids, the legal-action mask and the observation tensors.

Action ids (472), each a decision of the player to move; rolls are chance events, never a player's id:

* 0..90 put the bush on cell ``c`` (cells in board order, ``halali.games.hare.board``),
* 91..106 ``NxP``: ``91 + 4 * (N - 1) + (P - 1)`` (N hunters, P points each, both 1..4),
* 107..379 a point spent on the hunter on cell ``c``: ``107 + 3 * c + k``, ``k`` 0 a step forward, 1 a
  turn of 60 degrees to the left (counterclockwise), 2 to the right,
* 380 ``end``: no more movement this turn,
* 381..471 remove the hunter on cell ``c`` (a choice after a shot): ``381 + c``.

Chance outcomes (at most 15): the side of the outer ring a club starts on (0..5), the club card a seat
draws (0..5, R Y G B W K), the seat that begins (0..n-1), a roll of both dice (the index of its faces in
``ROLL_OUTCOMES``, 0..14).

The board is embedded in an 11x11 grid (axial coordinates: row = r + 5, column = q + 5; 91 of the 121
squares are cells, plane 0 marks them). The observation is a stack of binary planes over that grid
and a vector of global features; the information-state tensor adds a digest of the public history
(docs/research.md). What a seat may not know, the other seats' club cards, is never in either.
"""

from __future__ import annotations

import numpy as np

from halali.games.hare.actions import ASSIGN, BUSH, END, END_ACTION, REMOVE, ROLL, STEP, TURN, Action, action_str
from halali.games.hare.board import COORDS, NCELLS, NEIGHBOUR, RADIUS, turn_left, turn_right
from halali.games.hare.clubs import NCLUBS, PER_CLUB, UNKNOWN
from halali.games.hare.phases import PH_OVER, PHASES
from halali.games.hare.rules import SAFEGUARD_ROUNDS
from halali.games.hare.state import HareState
from halali.interop.encoding import mask_of

BUSH_BASE = 0
ASSIGN_BASE = NCELLS
POINT_BASE = ASSIGN_BASE + 16
END_ID = POINT_BASE + 3 * NCELLS
REMOVE_BASE = END_ID + 1
NUM_ACTIONS = REMOVE_BASE + NCELLS
NUM_OUTCOMES = 15
MAX_SEATS = 6

SIDE = 2 * RADIUS + 1
FLAT = tuple((r + RADIUS) * SIDE + q + RADIUS for q, r in COORDS)
"""Each cell's square in the flattened 11x11 grid."""


def action_id(st: HareState, a: Action) -> int:
    """The id of an engine action in ``st`` (a turn's id depends on the hunter's facing)."""
    kind, x, y = a
    if kind == STEP:
        return POINT_BASE + 3 * x
    if kind == TURN:
        face = st.hface[st.occ[x]]
        return POINT_BASE + 3 * x + (1 if y == turn_left(face) else 2)
    if kind == ASSIGN:
        return ASSIGN_BASE + 4 * (x - 1) + y - 1
    if kind == REMOVE:
        return REMOVE_BASE + x
    if kind == END:
        return END_ID
    if kind == BUSH:
        return BUSH_BASE + x
    raise ValueError(f"{action_str(a)} is a chance event, not a player's action")


def legal_ids(st: HareState) -> list[int]:
    """The ids of the legal decisions, ascending; [] at a roll (a chance event) and at the end."""
    return sorted([action_id(st, a) for a in st.legal_actions() if a[0] != ROLL])


def engine_action(st: HareState, i: int) -> Action:
    """The engine action an id names in ``st``; ``ValueError`` outside 0..NUM_ACTIONS-1, or for a point
    spent on an empty cell."""
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"{i} is not a hare action id (0..{NUM_ACTIONS - 1})")
    if i < ASSIGN_BASE:
        return (BUSH, i, 0)
    if i < POINT_BASE:
        j = i - ASSIGN_BASE
        return (ASSIGN, j // 4 + 1, j % 4 + 1)
    if i < END_ID:
        c, k = divmod(i - POINT_BASE, 3)
        h = st.occ[c]
        if h < 0:
            raise ValueError(f"action {i}: no hunter on {c}")
        face = st.hface[h]
        if k == 0:
            return (STEP, c, NEIGHBOUR[c][face])
        return (TURN, c, turn_left(face) if k == 1 else turn_right(face))
    if i == END_ID:
        return END_ACTION
    return (REMOVE, i - REMOVE_BASE, 0)


def id_to_string(st: HareState, i: int) -> str:
    """An id in hare notation as it reads in ``st`` (``c2-d3``, ``c2>NE``, ``2x3``, ``xc2``, ...)."""
    try:
        return action_str(engine_action(st, i))
    except ValueError:
        return f"invalid({i})"


def mask(ids: list[int]) -> np.ndarray:
    """The legal-action mask of a list of ids: int8, NUM_ACTIONS long."""
    return mask_of(ids, NUM_ACTIONS)


# ---- the observation ------------------------------------------------------------------------------
BOARD_PLANES = 20
"""0 the square is a cell; 1 the bush; 2..7 a hunter of club R, Y, G, B, W, K; 8..13 a hunter facing E,
NE, NW, W, SW, SE; 14 a hunter of the observer's own club; 15 a hunter of a club the observer knows
another seat to hold; 16 the hunter moving now; 17 hunters that have finished moving this turn; 18
hunters aiming at the hare; 19 hunters the player to move may remove (a shot's choice)."""
PHASE_NAMES = ("setup", *PHASES)
GLOBALS = 109
"""0..7 the phase (setup, bush, roll, assign, move, aim, shoot, over); 8..12 and 13..17 the two dice of
the movement roll while the player chooses (faces 0..4, one-hot each); 18..22 and 23..27 the hunters
and the points of the movement chosen; 28..32 how many more hunters may start; 33..37 the points the
moving hunter has left; 38..42 and 43..47 the two dice of the shot being resolved; 48..53 the seat to
move; 54..59 the observer's seat; 60..65 the seats in the game; 66..71 the seats that are out; 72..107
seat x club: the observer knows that seat holds that club (row-major, 6 x 6); 108 quiet turns / the
safeguard's limit."""
DIGEST = 2 * MAX_SEATS * NCLUBS
"""The information-state tensor's digest of the public history, seat x club (row-major): 0..35 points a
seat spent on that club's hunters, 36..71 hunters of that club a seat chose to remove, each count n as
n / (n + 10)."""
BOARD_SHAPE = (BOARD_PLANES, SIDE, SIDE)
BOARD_SIZE = BOARD_PLANES * SIDE * SIDE
SIZE = BOARD_SIZE + GLOBALS
"""An observation is one flat float32 vector: the board planes (plane-major, then row, then column)
followed by the global features; the information-state tensor appends the DIGEST."""

_CELLS = np.zeros(SIDE * SIDE, np.float32)
_CELLS[list(FLAT)] = 1.0
_PHASE_INDEX = {name: i for i, name in enumerate(PHASE_NAMES)}


def known_clubs(st: HareState, observer: int) -> list[int]:
    """Per seat, its club if ``observer`` may know it (``UNKNOWN`` otherwise): the engine's rule."""
    return [c if st.knows_club(observer, p) else UNKNOWN for p, c in enumerate(st.clubs)]


def encode(st: HareState | None, observer: int, known: list[int], board: np.ndarray, globs: np.ndarray) -> None:
    """Fill ``board`` (BOARD_PLANES x 121) and ``globs`` (GLOBALS) with ``st`` as seat ``observer`` sees
    it, ``known`` being per seat the club the observer may know (``UNKNOWN`` otherwise; ``known_clubs``
    gives a seat's own view). ``st`` is None while the setup's chance events are still being drawn:
    then only the seats and the clubs known so far are shown."""
    nplayers = len(known)
    board[:] = 0.0
    globs[:] = 0.0
    board[0] = _CELLS
    globs[54 + observer] = 1.0
    globs[60:60 + nplayers] = 1.0
    for p, c in enumerate(known):
        if c != UNKNOWN:
            globs[72 + NCLUBS * p + c] = 1.0
    if st is None:
        globs[0] = 1.0
        return
    own = known[observer]
    others = {c for p, c in enumerate(known) if p != observer and c != UNKNOWN}
    cells, faces = st.hcell, st.hface
    if st.bush >= 0:
        board[1, FLAT[st.bush]] = 1.0
    for h in range(len(cells)):
        c = cells[h]
        if c < 0:
            continue
        f = FLAT[c]
        club = h // PER_CLUB
        board[2 + club, f] = 1.0
        board[8 + faces[h], f] = 1.0
        if club == own:
            board[14, f] = 1.0
        elif club in others:
            board[15, f] = 1.0
    if st.cur >= 0:
        board[16, FLAT[cells[st.cur]]] = 1.0
    for h in st.done:
        board[17, FLAT[cells[h]]] = 1.0
    for h in st.aiming():
        board[18, FLAT[cells[h]]] = 1.0
    for h in st.removable():
        board[19, FLAT[cells[h]]] = 1.0
    globs[_PHASE_INDEX[st.phase]] = 1.0
    if st.dice is not None:
        globs[8 + st.dice[0]] = 1.0
        globs[13 + st.dice[1]] = 1.0
    if st.assign is not None:
        globs[18 + st.assign[0]] = 1.0
        globs[23 + st.assign[1]] = 1.0
        globs[28 + st.left] = 1.0
        globs[33 + (st.cur_points if st.cur >= 0 else 0)] = 1.0
    if st.shot is not None:
        globs[38 + st.shot[0]] = 1.0
        globs[43 + st.shot[1]] = 1.0
    if st.phase != PH_OVER:
        globs[48 + st.to_move] = 1.0
    for p in range(nplayers):
        if st.out[p] >= 0:
            globs[66 + p] = 1.0
    ins = len(st.players_in())
    if ins:
        globs[108] = min(st.quiet / (SAFEGUARD_ROUNDS * ins), 1.0)


def digest(counts: list[int], out: np.ndarray) -> None:
    """Fill ``out`` (DIGEST) from the raw counts an OpenSpiel state keeps (see DIGEST)."""
    a = np.asarray(counts, np.float32)
    out[:] = a / (a + 10.0)


def split(obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The board planes (20, 11, 11) and the global features of an observation vector (the digest,
    if it is an information-state tensor, follows them)."""
    return obs[:BOARD_SIZE].reshape(BOARD_SHAPE), obs[BOARD_SIZE:BOARD_SIZE + GLOBALS]


def observation(st: HareState, observer: int) -> np.ndarray:
    """A fresh observation vector (SIZE, float32) of seat ``observer``'s own view: the board planes,
    then the global features (PettingZoo's and Gymnasium's observation, OpenSpiel's tensor)."""
    out = np.empty(SIZE, np.float32)
    encode(st, observer, known_clubs(st, observer), out[:BOARD_SIZE].reshape(BOARD_PLANES, SIDE * SIDE),
           out[BOARD_SIZE:])
    return out


__all__ = [
    "BOARD_PLANES",
    "BOARD_SHAPE",
    "BOARD_SIZE",
    "DIGEST",
    "END_ID",
    "FLAT",
    "GLOBALS",
    "NUM_ACTIONS",
    "NUM_OUTCOMES",
    "SIZE",
    "action_id",
    "digest",
    "encode",
    "engine_action",
    "id_to_string",
    "known_clubs",
    "legal_ids",
    "mask",
    "observation",
    "split",
]
