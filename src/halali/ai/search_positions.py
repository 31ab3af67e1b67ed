"""The committed positions of ``halali bench --search`` and of the search's tests.

``search_positions.txt`` holds public views in forest notation, six each of the opening, the middle
game and the final phase, each under a comment line naming its phase; ``benchmarks/search_positions.py``
writes it from seeded games.
"""

from __future__ import annotations

from pathlib import Path

from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position

POSITIONS = Path(__file__).with_name("search_positions.txt")


def load_positions(path: Path | None = None) -> list[tuple[str, Position]]:
    """(label, public view) for every non-comment line; the label is the comment line above it."""
    path = POSITIONS if path is None else path
    out: list[tuple[str, Position]] = []
    label = ""
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            label = line.lstrip("#").strip()
            continue
        out.append((label.split(" ")[0] if label else f"#{len(out) + 1}", parse_position(line).view()))
        label = ""
    if not out:
        raise ValueError(f"{path}: no positions")
    return out
