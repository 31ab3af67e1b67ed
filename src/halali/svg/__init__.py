"""Pictures of both games as SVG, in the manner of python-chess's ``chess.svg``.

>>> import halali.svg
>>> halali.svg.forest(position, lastaction=position.last_action, arrows=[halali.svg.Arrow("c3", "c5")])
>>> halali.svg.hare(state, arrows=[halali.svg.Arrow("e4", "f6", color="#c62828")])

Each returns an :class:`SvgImage`, a ``str`` of SVG markup that Jupyter displays as a picture; a forest
``Position`` and a ``HareState`` display themselves through this module (``_repr_svg_``). The drawing
is the web page's: the forest board of ``board-drawing.js`` with the tiles of ``art.js`` (``halali.svg.art``),
the hex board of ``hare-board.js``, their colours written out as attributes so a picture needs no
style sheet. Pure string building: no I/O, nothing but ``halali.games``.
"""

from __future__ import annotations

from halali.svg.base import Arrow, SvgImage, tile
from halali.svg.forest import forest
from halali.svg.hare import hare

__all__ = ["Arrow", "SvgImage", "forest", "hare", "tile"]
