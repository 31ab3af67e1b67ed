"""The hare hunt's board as SVG: the page's hex board (``web/js/hare-board.js``, ``hare.css``).

Pointy-top cells of 30 units (the picture a little taller than the page's, so that it is square and
the top and bottom rows are whole), the hare's three axes a shade darker, the hare and the bush drawn as
the page draws them, each hunter a disc in its club's colour with an arrow for its facing. The last
action lights its cells (a step's two, a turn's or the bush's one; a removed hunter's in red), and
arrows run from cell to cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from halali.games.hare.actions import BUSH, REMOVE, STEP, TURN, Action, parse_action_text
from halali.games.hare.board import CENTRE, COORDS, DIRECTION_NAMES, INDEX_OF_NAME, NAMES, ON_AXIS
from halali.games.hare.clubs import CLUB_LETTERS, PER_CLUB
from halali.games.hare.state import HareState
from halali.svg.base import Arrow, SvgImage, arrow_markup, svg_open

SIZE = 30
CLUB_COLOURS = {"R": "#c62828", "Y": "#f2c200", "G": "#2e7d32", "B": "#1565c0", "W": "#fafafa", "K": "#212121"}
ANGLE = {"E": 0, "NE": -60, "NW": -120, "W": 180, "SW": 120, "SE": 60}
_LIT = "#f3d27a"
_REMOVED = "#f0a49c"


def cell_xy(cell: int) -> tuple[float, float]:
    """The centre of a cell on the picture (the hare at 0, 0)."""
    q, r = COORDS[cell]
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _hex(x: float, y: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{x + (SIZE - 1) * math.cos(a):.1f},{y + (SIZE - 1) * math.sin(a):.1f}")
    return " ".join(pts)


def _lit(action: Action | str | None) -> dict[int, str]:
    if action is None:
        return {}
    kind, x, y = parse_action_text(action) if isinstance(action, str) else action
    if kind == STEP:
        return {x: _LIT, y: _LIT}
    if kind in (TURN, BUSH):
        return {x: _LIT}
    if kind == REMOVE:
        return {x: _REMOVED}
    return {}


def hare(state: HareState, *, lastaction: Action | str | None = None, arrows: Iterable[Arrow] = (),
         size: int | None = None, coordinates: bool = False) -> SvgImage:
    """The board of ``state``: cells, the hare, the bush, the hunters with their facings;
    ``lastaction`` lit and ``arrows`` over it; ``coordinates`` writes each empty cell's name."""
    lit = _lit(lastaction)
    parts = [svg_open("-290 -290 580 580", size, "Halali! hare hunt board")]
    for c in range(len(COORDS)):
        x, y = cell_xy(c)
        fill = lit.get(c, "#bcd89c" if ON_AXIS[c] or c == CENTRE else "#cfe3b4")
        parts.append(f'<polygon points="{_hex(x, y)}" fill="{fill}" stroke="#8aa870" stroke-width="1" '
                     f'data-cell="{NAMES[c]}"/>')
        if coordinates and state.occ[c] < 0 and c != CENTRE and c != state.bush:
            parts.append(f'<text x="{x:.1f}" y="{y + 3:.1f}" font-size="9" text-anchor="middle" fill="#6b8a55" '
                         f'font-family="system-ui, sans-serif">{NAMES[c]}</text>')
    hx, hy = cell_xy(CENTRE)
    parts.append('<g class="hare" fill="#8b6a45">'
                 f'<ellipse cx="{hx:g}" cy="{hy + 4:g}" rx="13" ry="10"/>'
                 f'<ellipse cx="{hx - 5:g}" cy="{hy - 12:g}" rx="3.5" ry="10"/>'
                 f'<ellipse cx="{hx + 5:g}" cy="{hy - 12:g}" rx="3.5" ry="10"/></g>')
    if state.bush >= 0:
        bx, by = cell_xy(state.bush)
        parts.append('<g class="bush" fill="#2f6b2a">' + "".join(
            f'<circle cx="{bx + dx:.1f}" cy="{by + dy:.1f}" r="10"/>' for dx, dy in ((-8, 4), (8, 4), (0, -7), (0, 6)))
            + "</g>")
    for h, c in enumerate(state.hcell):
        if c < 0:
            continue
        x, y = cell_xy(c)
        colour = CLUB_COLOURS[CLUB_LETTERS[h // PER_CLUB]]
        angle = ANGLE[DIRECTION_NAMES[state.hface[h]]]
        parts.append(f'<g class="hunter" data-cell="{NAMES[c]}" data-club="{CLUB_LETTERS[h // PER_CLUB]}">'
                     f'<polygon points="{x + 24:.1f},{y:.1f} {x + 12:.1f},{y - 7:.1f} {x + 12:.1f},{y + 7:.1f}" '
                     f'fill="{colour}" stroke="#222" transform="rotate({angle} {x:.1f} {y:.1f})"/>'
                     f'<circle cx="{x:.1f}" cy="{y:.1f}" r="13" fill="{colour}" stroke="#222" stroke-width="1.5"/></g>')
    for a in arrows:
        x0, y0 = cell_xy(INDEX_OF_NAME[a.tail])
        if a.head == a.tail:
            parts.append(f'<circle cx="{x0:.1f}" cy="{y0:.1f}" r="20" fill="none" stroke="{a.color}" '
                         'stroke-width="4" stroke-dasharray="6 4"/>')
        else:
            x1, y1 = cell_xy(INDEX_OF_NAME[a.head])
            parts.append(arrow_markup(x0, y0, x1, y1, a.color, 6, 9))
    parts.append("</svg>")
    return SvgImage("\n".join(parts))


def _repr_svg_(state: HareState) -> str:
    """The board as a picture in Jupyter, the last action lit."""
    return hare(state, lastaction=state.history[-1] if state.history else None, size=400)


# Once the pictures are loaded (``import halali.svg``) a state shows itself in Jupyter; the rules
# themselves never import them.
HareState._repr_svg_ = _repr_svg_  # type: ignore[attr-defined]
