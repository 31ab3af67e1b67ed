"""The hexagonal board of the hare hunt: cells, names, directions and precomputed lines.

Cells are numbered 0..90 in reading order of the printed board (pointy-top hexagons, top row
first, each row left to right) so that the notation can list them in one canonical order. Every
rule that walks the board (steps, lines of fire, the hare's axes) reads the tables built here once
at import, which keeps move generation and shot resolution free of coordinate arithmetic.

Coordinates are axial (q, r) with s = -q - r; a cell's name is its file letter ``a``..``k``
(q + 5) followed by its rank ``1``..``11`` (6 - r), so the hare's cell is ``f6``.
"""

from __future__ import annotations

RADIUS = 5

# Directions counterclockwise from east (pointy-top layout, r grows downwards on the page).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
DIRECTION_OF_NAME: dict[str, int] = {name: i for i, name in enumerate(DIRECTION_NAMES)}


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def _cells() -> list[tuple[int, int]]:
    out = []
    for r in range(-RADIUS, RADIUS + 1):
        for q in range(-RADIUS, RADIUS + 1):
            if hex_distance((q, r), (0, 0)) <= RADIUS:
                out.append((q, r))
    return out


COORDS: tuple[tuple[int, int], ...] = tuple(_cells())
NCELLS = len(COORDS)
INDEX: dict[tuple[int, int], int] = {c: i for i, c in enumerate(COORDS)}
CENTRE = INDEX[(0, 0)]
DIST: tuple[int, ...] = tuple(hex_distance(c, (0, 0)) for c in COORDS)
"""Distance of every cell from the hare."""

NAMES: tuple[str, ...] = tuple(f"{chr(ord('a') + q + RADIUS)}{RADIUS + 1 - r}" for q, r in COORDS)
INDEX_OF_NAME: dict[str, int] = {n: i for i, n in enumerate(NAMES)}

NEIGHBOUR: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get((q + dq, r + dr), -1) for dq, dr in DIRECTIONS) for q, r in COORDS
)
"""NEIGHBOUR[cell][direction]: the adjacent cell, or -1 off the board."""


def _ray(cell: int, d: int) -> tuple[int, ...]:
    out = []
    c = NEIGHBOUR[cell][d]
    while c >= 0:
        out.append(c)
        c = NEIGHBOUR[c][d]
    return tuple(out)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(_ray(c, d) for d in range(6)) for c in range(NCELLS))
"""RAYS[cell][direction]: the cells from the next one to the board's edge."""


def _towards_hare(cell: int) -> int:
    for d in range(6):
        if CENTRE in RAYS[cell][d]:
            return d
    return -1


TOWARDS_HARE: tuple[int, ...] = tuple(_towards_hare(c) for c in range(NCELLS))
"""The direction in which a cell looks straight at the hare, or -1 when it is off the hare's three axes."""

ON_AXIS: tuple[bool, ...] = tuple(d >= 0 for d in TOWARDS_HARE)
OUTER_RING: tuple[int, ...] = tuple(i for i in range(NCELLS) if DIST[i] == RADIUS)
BUSH_CELLS: tuple[int, ...] = tuple(i for i in range(NCELLS) if DIST[i] in (2, 3))
"""Where the starting player may put the bush: distance 2 or 3 from the hare."""


def turn_left(d: int) -> int:
    return (d + 1) % 6


def turn_right(d: int) -> int:
    return (d + 5) % 6


def side_start(side: int) -> tuple[tuple[int, ...], int]:
    """The three cells a club takes on side ``side`` (0..5) of the outer ring, and their facing.

    Side k runs from the corner 5 * DIRECTIONS[k] to the corner 5 * DIRECTIONS[k + 1]; of its four
    cells between the corners the club takes the three nearest the first corner, all facing
    DIRECTIONS[k + 3], the inward direction parallel to the corner's axis. Every side is the same
    arrangement turned by 60 degrees, so no club starts better placed than another, and none of
    these cells is on the hare's axes.
    """
    cq, cr = (RADIUS * DIRECTIONS[side][0], RADIUS * DIRECTIONS[side][1])
    sq, sr = DIRECTIONS[(side + 2) % 6]
    cells = tuple(INDEX[(cq + i * sq, cr + i * sr)] for i in (1, 2, 3))
    return cells, (side + 3) % 6


def cell_name(cell: int) -> str:
    return NAMES[cell]
