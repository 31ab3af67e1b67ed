"""Tiles, squares and the precomputed tables the rules engine runs on.

Everything here is a constant computed once at import, so that move generation is a few list
look-ups per square instead of a chain of ``if`` tests on tile kinds.

Tile codes are small integers so they can index tuples:

* ``0`` an empty square,
* ``1..10`` a face-up tile (bear, fox, lumberjack, hunter N/E/S/W, duck, pheasant, tree),
* ``code + HIDDEN`` the same tile face down (a position that knows the deal),
* ``UNKNOWN`` a face-down tile whose identity nobody at the table knows (a player's view).
"""

from __future__ import annotations

from typing import TypeVar

EMPTY = 0
BEAR, FOX, LUMBERJACK = 1, 2, 3
HUNTER_N, HUNTER_E, HUNTER_S, HUNTER_W = 4, 5, 6, 7
DUCK, PHEASANT, TREE = 8, 9, 10
HIDDEN = 16
UNKNOWN = 32
CODES = range(1, 11)

BLUE, BROWN, GREEN = 0, 1, 2
PLAYER_NAMES = ("blue", "brown")

# Directions: index into RAYS / NEIGHBOURS and the rifle of a hunter.
NORTH, EAST, SOUTH, WEST = 0, 1, 2, 3
DIRECTION_LETTERS = "NESW"
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # (file, rank) steps

HUNTERS = (HUNTER_N, HUNTER_E, HUNTER_S, HUNTER_W)
HUNTER_OF_DIRECTION = {d: HUNTERS[d] for d in range(4)}

LETTER = {
    BEAR: "B", FOX: "F", LUMBERJACK: "L", HUNTER_N: "N", HUNTER_E: "E", HUNTER_S: "S",
    HUNTER_W: "W", DUCK: "D", PHEASANT: "P", TREE: "T",
}
CODE_OF_LETTER = {v: k for k, v in LETTER.items()}

NAME = {
    BEAR: "bear", FOX: "fox", LUMBERJACK: "lumberjack", HUNTER_N: "hunter", HUNTER_E: "hunter",
    HUNTER_S: "hunter", HUNTER_W: "hunter", DUCK: "duck", PHEASANT: "pheasant", TREE: "tree",
}

# Kinds group the four hunters into one; piles and tile counts work on kinds.
KIND_LETTERS = "BFLHDPT"
K_BEAR, K_FOX, K_LUMBERJACK, K_HUNTER, K_DUCK, K_PHEASANT, K_TREE = range(7)
KIND_NAMES = ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant", "tree")
KIND_COUNT = (2, 6, 2, 8, 7, 8, 15)
KIND_VALUE = (10, 5, 5, 5, 2, 3, 2)
KIND_OWNER = (BLUE, BLUE, BROWN, BROWN, GREEN, GREEN, GREEN)

# Per-code tables, indexed by any board value (0..UNKNOWN).
_SIZE = UNKNOWN + 1


_T = TypeVar("_T")


def _table(values: dict[int, _T], default: _T) -> tuple[_T, ...]:
    return tuple(values.get(i, default) for i in range(_SIZE))


KIND = _table(
    {BEAR: K_BEAR, FOX: K_FOX, LUMBERJACK: K_LUMBERJACK, HUNTER_N: K_HUNTER, HUNTER_E: K_HUNTER,
     HUNTER_S: K_HUNTER, HUNTER_W: K_HUNTER, DUCK: K_DUCK, PHEASANT: K_PHEASANT, TREE: K_TREE},
    -1,
)
OWNER = _table({c: KIND_OWNER[KIND[c]] for c in CODES}, -1)
VALUE = _table({c: KIND_VALUE[KIND[c]] for c in CODES}, 0)
IS_NEUTRAL_MOVER = _table({DUCK: True, PHEASANT: True}, False)
STEPS_ONE = _table({BEAR: True, LUMBERJACK: True}, False)
# MOVABLE[player][code]: may this player move a face-up tile of this code?
MOVABLE = (
    _table({BEAR: True, FOX: True, DUCK: True, PHEASANT: True}, False),
    _table({LUMBERJACK: True, HUNTER_N: True, HUNTER_E: True, HUNTER_S: True, HUNTER_W: True,
            DUCK: True, PHEASANT: True}, False),
)
# OWN[player][code]: is this face-up tile of the player's own colour?
OWN = tuple(_table({c: OWNER[c] == p for c in CODES}, False) for p in (BLUE, BROWN))

_PREY = {
    BEAR: (HUNTER_N, HUNTER_E, HUNTER_S, HUNTER_W, LUMBERJACK),
    FOX: (DUCK, PHEASANT),
    LUMBERJACK: (TREE,),
    HUNTER_N: (BEAR, FOX, DUCK, PHEASANT),
}
_PREY[HUNTER_E] = _PREY[HUNTER_S] = _PREY[HUNTER_W] = _PREY[HUNTER_N]


def _captures(code: int, direction: int) -> tuple[bool, ...]:
    if code in HUNTERS and HUNTERS.index(code) != direction:
        return (False,) * _SIZE
    prey = _PREY.get(code, ())
    return tuple(i in prey for i in range(_SIZE))


# CAPTURES[code][direction][target]: may `code`, moving in `direction`, capture face-up `target`?
CAPTURES = tuple(tuple(_captures(c, d) for d in range(4)) for c in range(_SIZE))
# What a tile may capture at all, ignoring direction (for hints and explanations).
PREY_KINDS = {c: tuple(sorted({KIND[t] for t in _PREY.get(c, ())})) for c in CODES}

# Squares: index = rank * 7 + file, a1 = 0, g7 = 48, d4 = 24.
SIZE = 7
SQUARES = range(49)
CENTRE = 24
FILES = "abcdefg"


def square_name(sq: int) -> str:
    return FILES[sq % 7] + str(sq // 7 + 1)


SQUARE_NAMES = tuple(square_name(s) for s in SQUARES)
SQUARE_OF_NAME = {n: s for s, n in enumerate(SQUARE_NAMES)}


def _ray(sq: int, d: int) -> tuple[int, ...]:
    f, r = sq % 7, sq // 7
    df, dr = DELTAS[d]
    out = []
    f, r = f + df, r + dr
    while 0 <= f < 7 and 0 <= r < 7:
        out.append(r * 7 + f)
        f, r = f + df, r + dr
    return tuple(out)


# RAYS[sq][d]: squares from sq (exclusive) to the edge in direction d.
RAYS = tuple(tuple(_ray(s, d) for d in range(4)) for s in SQUARES)
# NEIGHBOURS[sq]: (direction, square) pairs of the orthogonal neighbours.
NEIGHBOURS = tuple(tuple((d, RAYS[s][d][0]) for d in range(4) if RAYS[s][d]) for s in SQUARES)

# Exits: the square next to each exit, and the direction a tile leaves in.
EXIT_SQUARE = (SQUARE_OF_NAME["d7"], SQUARE_OF_NAME["g4"], SQUARE_OF_NAME["d1"], SQUARE_OF_NAME["a4"])
# EXIT_PATHS[sq]: (direction, squares that must be empty) for each exit reachable along a middle line.
EXIT_PATHS = tuple(
    tuple((d, RAYS[s][d]) for d in range(4) if s == EXIT_SQUARE[d] or EXIT_SQUARE[d] in RAYS[s][d])
    for s in SQUARES
)


def direction_between(a: int, b: int) -> int:
    """The direction from a to b if they share a rank or file, else -1."""
    for d in range(4):
        if b in RAYS[a][d]:
            return d
    return -1
