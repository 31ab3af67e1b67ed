"""An SVG picture as an RGB array, for the environments' ``rgb_array`` render mode.

The picture is ``halali.svg``'s; resvg (``resvg-py``, a self-contained renderer that needs no system
library) turns it into a PNG, which Pillow decodes.
"""

from __future__ import annotations

import io

import numpy as np
import resvg_py
from PIL import Image

PIXELS = 480
"""The width and height of a rendered board."""


def rgb_array(svg: str, size: int = PIXELS) -> np.ndarray:
    """``svg`` drawn on ``size`` x ``size`` pixels: a (size, size, 3) uint8 array."""
    png = resvg_py.svg_to_bytes(svg_string=svg, width=size, height=size, background="#ffffff")
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
