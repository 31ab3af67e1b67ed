"""What both boards' drawings share: the picture type, arrows, a single tile."""

from __future__ import annotations

from dataclasses import dataclass

from halali.svg.art import tile_back, tile_face


class SvgImage(str):
    """SVG markup that displays itself in Jupyter (``_repr_svg_``), as python-chess's ``SvgWrapper``."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow from ``tail`` to ``head``: forest squares (``"c3"``) or an exit (``"N"``, ``"E"``,
    ``"S"``, ``"W"`` as the head), hare cells (``"e4"``). ``tail == head`` draws a ring on it."""

    tail: str
    head: str
    color: str = "rgba(255, 216, 58, 0.9)"


def svg_open(view_box: str, size: int | None, label: str) -> str:
    dims = "" if size is None else f' width="{size}" height="{size}"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}"{dims} role="img" '
            f'aria-label="{label}">')


def tile(letter: str, size: int | None = 100, value: bool = True) -> SvgImage:
    """One forest tile by its notation letter (``?`` the back), as on the page's piles and legend."""
    body = tile_back() if letter == "?" else tile_face(letter, value)
    return SvgImage(svg_open("0 0 100 100", size, letter) + body + "</svg>")


def arrow_markup(x0: float, y0: float, x1: float, y1: float, color: str, width: float, head: float) -> str:
    """A line with a triangular head ending at (x1, y1), the page's "best action" arrow."""
    dx, dy = x1 - x0, y1 - y0
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    tx, ty = x1 - ux * head * 1.1, y1 - uy * head * 1.1
    return (f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" stroke="{color}" '
            f'stroke-width="{width}" stroke-linecap="round"/>'
            f'<path d="M{x1:.1f} {y1:.1f} L{tx - uy * head:.1f} {ty + ux * head:.1f} '
            f'L{tx + uy * head:.1f} {ty - ux * head:.1f} Z" fill="{color}"/>')
