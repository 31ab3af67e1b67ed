"""Forest notation (docs/notation.md): positions and actions as text, and back.

Formatting is canonical: one position has exactly one string. Parsing accepts that form (and a
few harmless variants such as piles out of order) and rejects anything malformed or impossible
with a message that says what is wrong and where. The reading and writing itself is ``text.py``,
on a position's fields; this module builds the ``Position`` a text describes.
"""

from __future__ import annotations

from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.text import format_position, parse_action, parse_action_text, read_position


def parse_position(text: str, rules: Rules = DEFAULT_RULES) -> Position:
    """Read a position; raises NotationError / PositionError saying what is wrong and where."""
    return read_position(text, rules, Position)


__all__ = ["format_position", "parse_action", "parse_action_text", "parse_position"]
