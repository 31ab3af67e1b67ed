"""The forest board as SVG: the page's board (``web/js/board-drawing.js``) with the tiles of ``art.js``.

Geometry and colours are board-geometry.js's and halali.css's: 100-unit squares inside a 76-unit margin, the
four exits beyond the middle of each edge (lit once the final phase has begun), the last action framed
(its source dashed, its target solid) and arrows drawn as the page draws its suggested action.
"""

from __future__ import annotations

from collections.abc import Iterable

from halali.games.forest.actions import CAPTURE, EXIT, MOVE, REVEAL, TYPE_SHIFT, Action
from halali.games.forest.notation import parse_action_text
from halali.games.forest.position import Position
from halali.games.forest.tiles import DIRECTION_LETTERS, HIDDEN, LETTER, SQUARE_NAMES, SQUARE_OF_NAME, UNKNOWN
from halali.svg.art import tile_back, tile_face
from halali.svg.base import Arrow, SvgImage, arrow_markup, svg_open

CELL = 100
MARGIN = 76
VIEW = CELL * 7 + MARGIN * 2
EXIT_OFFSET = 50
# Where each exit sits beyond the board's edge: the centre of its arrow and its rotation.
EXITS = {
    "N": (MARGIN + 3.5 * CELL, MARGIN - EXIT_OFFSET, 0),
    "E": (MARGIN + 7 * CELL + EXIT_OFFSET, MARGIN + 3.5 * CELL, 90),
    "S": (MARGIN + 3.5 * CELL, MARGIN + 7 * CELL + EXIT_OFFSET, 180),
    "W": (MARGIN - EXIT_OFFSET, MARGIN + 3.5 * CELL, 270),
}
_STEP = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}
_DEFS = """<defs>
  <radialGradient id="floor" cx="50%" cy="45%" r="70%">
    <stop offset="0" stop-color="#7da25a"/><stop offset="1" stop-color="#4f7536"/>
  </radialGradient>
  <filter id="rest" x="-10%" y="-10%" width="120%" height="130%">
    <feDropShadow dx="0" dy="2" stdDeviation="1.6" flood-opacity="0.35"/>
  </filter>
</defs>"""
# The mark on a face-down tile drawn with its face (a finished game's deal, as the replay page shows).
_PEEK = (
    '<g class="peek-mark">'
    '<rect x="3" y="3" width="94" height="94" rx="12" fill="rgba(43, 70, 50, 0.34)"/>'
    '<path d="M3 25 L25 3 M3 55 L55 3 M3 85 L85 3 M15 97 L97 15 M45 97 L97 45 M75 97 L97 75" '
    'stroke="rgba(43, 70, 50, 0.35)" stroke-width="7"/>'
    '<rect x="5" y="5" width="90" height="90" rx="11" fill="none" stroke="#f4efe0" stroke-width="3" '
    'stroke-dasharray="7 5"/></g>'
)


def origin(square: int) -> tuple[int, int]:
    """The top left corner of a square (a1 = 0) on the picture."""
    return MARGIN + square % 7 * CELL, MARGIN + (6 - square // 7) * CELL


def _centre(name: str) -> tuple[float, float]:
    x, y = origin(SQUARE_OF_NAME[name])
    return x + CELL / 2, y + CELL / 2


def _action(action: Action | str | None) -> tuple[int, int, str | None] | None:
    """(source square or -1, target square or -1, exit letter or None) of the action to mark."""
    if action is None:
        return None
    a = parse_action_text(action) if isinstance(action, str) else action
    kind = a >> TYPE_SHIFT & 7
    if kind == REVEAL:
        return -1, a & 63, None
    if kind in (MOVE, CAPTURE):
        return a >> 6 & 63, a & 63, None
    if kind == EXIT:
        return a >> 6 & 63, -1, DIRECTION_LETTERS[a & 3]
    return None


def _exits(final: bool, last: str | None) -> list[str]:
    out = ['<g class="exits">']
    for d, (x, y, rot) in EXITS.items():
        if d == last:
            pad = 'fill="rgba(255, 232, 120, 0.35)" stroke="#ffe06a" stroke-width="2"'
        elif final:
            pad = 'fill="rgba(242, 178, 51, 0.12)" stroke="#f2b233" stroke-width="2" stroke-dasharray="6 6"'
        else:
            pad = ('fill="rgba(255, 255, 255, 0.06)" stroke="rgba(255, 255, 255, 0.2)" stroke-width="2" '
                   'stroke-dasharray="6 6"')
        arrow = "#f2b233" if final else "#8d7b5a"
        out.append(f'<g class="exit" data-exit="{d}" transform="translate({x:g} {y:g}) rotate({rot})">'
                   f'<rect x="-58" y="-21" width="116" height="42" rx="12" {pad}/>'
                   f'<path d="M0 -18 L22 1 L9 1 L9 17 L-9 17 L-9 1 L-22 1 Z" fill="{arrow}"/></g>')
    out.append("</g>")
    return out


def _tile(square: int, code: int, deal: bool) -> str:
    x, y = origin(square)
    if code >= HIDDEN and code != UNKNOWN:
        body = tile_face(LETTER[code - HIDDEN]) + _PEEK if deal else tile_back()
    elif code == UNKNOWN:
        body = tile_back()
    else:
        body = tile_face(LETTER[code])
    return (f'<g class="tile" data-square="{SQUARE_NAMES[square]}" transform="translate({x} {y})">'
            f'<g filter="url(#rest)">{body}</g></g>')


def _arrow(arrow: Arrow) -> str:
    x0, y0 = _centre(arrow.tail)
    if arrow.head == arrow.tail:
        return (f'<circle cx="{x0:g}" cy="{y0:g}" r="40" fill="none" stroke="{arrow.color}" stroke-width="7" '
                'stroke-dasharray="12 7"/>')
    if arrow.head in _STEP:
        dx, dy = _STEP[arrow.head]
        x1, y1 = x0 + dx * 130, y0 + dy * 130
    else:
        x1, y1 = _centre(arrow.head)
    return arrow_markup(x0, y0, x1, y1, arrow.color, 12, 16)


def forest(position: Position, *, lastaction: Action | str | None = None, arrows: Iterable[Arrow] = (),
           size: int | None = None, coordinates: bool = True, deal: bool = False) -> SvgImage:
    """The board of ``position``: its tiles, the exits (lit in the final phase), ``lastaction`` framed
    and ``arrows`` over it. Face-down tiles show their back; ``deal=True`` shows the face of those a
    full position knows, marked as face down (as the replay page shows a finished game's deal)."""
    parts = [svg_open(f"0 0 {VIEW} {VIEW}", size, "Halali! forest board"), _DEFS,
             f'<rect x="4" y="4" width="{VIEW - 8}" height="{VIEW - 8}" rx="26" fill="#3b2a1a"/>',
             f'<rect x="{MARGIN - 8}" y="{MARGIN - 8}" width="{7 * CELL + 16}" height="{7 * CELL + 16}" rx="14" '
             'fill="url(#floor)"/>', '<g class="cells">']
    for sq in range(49):
        x, y = origin(sq)
        fill = "rgba(255, 255, 255, 0.08)" if (sq % 7 + sq // 7) % 2 else "rgba(0, 0, 0, 0.05)"
        parts.append(f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" height="{CELL - 3}" rx="10" '
                     f'fill="{fill}" stroke="rgba(0, 0, 0, 0.12)" stroke-width="1"/>')
    parts.append("</g>")
    if coordinates:
        parts.append('<g class="coords" fill="#e9dcb8" font-size="21" font-weight="700" '
                     'font-family="system-ui, sans-serif" text-anchor="middle">')
        for i in range(7):
            fx, ry = MARGIN + i * CELL + CELL // 2, MARGIN + (6 - i) * CELL + CELL // 2 + 7
            parts.append(f'<text x="{fx}" y="{MARGIN + 7 * CELL + 27}">{"abcdefg"[i]}</text>')
            parts.append(f'<text x="{MARGIN - 20}" y="{ry}">{i + 1}</text>')
        parts.append("</g>")
    marked = _action(lastaction)
    parts += _exits(position.final >= 0, marked[2] if marked else None)
    if marked:
        for sq, stroke in ((marked[0], 'stroke="rgba(255, 230, 120, 0.55)" stroke-dasharray="10 8"'),
                           (marked[1], 'stroke="#ffe06a"')):
            if sq >= 0:
                x, y = origin(sq)
                parts.append(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" rx="12" '
                             f'fill="none" stroke-width="6" {stroke}/>')
    parts.append('<g class="tiles">')
    parts += [_tile(sq, code, deal) for sq, code in enumerate(position.board) if code]
    parts.append("</g>")
    parts += [_arrow(a) for a in arrows]
    parts.append("</svg>")
    return SvgImage("\n".join(parts))


def _repr_svg_(position: Position) -> str:
    """The board as a picture in Jupyter, the last action framed."""
    return forest(position, lastaction=position.last_action, size=400)


# Once the pictures are loaded (``import halali.svg``) a position shows itself in Jupyter; the rules
# themselves never import them.
Position._repr_svg_ = _repr_svg_  # type: ignore[attr-defined]
