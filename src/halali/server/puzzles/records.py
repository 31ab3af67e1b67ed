"""A puzzle between its two forms: ``halali.puzzles.model.Puzzle`` (found, exported, imported) and the
store's rows (``halali.store.puzzles``), which keep its rating as it moves."""

from __future__ import annotations

from halali.puzzles.model import Puzzle
from halali.store.puzzles import NewPuzzle, PuzzleRecord


def to_store(p: Puzzle) -> NewPuzzle:
    return NewPuzzle(p.position, " ".join(p.rules), list(p.solution), p.value, p.margin, p.proven, p.depth,
                     float(p.rating), list(p.themes), dict(p.source))


def from_store(r: PuzzleRecord) -> Puzzle:
    """The puzzle as exported: its rating is the one its tries have made."""
    return Puzzle(r.position, tuple(r.solution), r.value, r.margin, r.proven, tuple(r.themes), r.depth,
                  round(r.rating), tuple(r.rules.split()), dict(r.source))
