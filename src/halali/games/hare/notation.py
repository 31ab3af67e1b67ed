"""Hare notation (docs/hare-notation.md): positions, records and actions as one line of text, and back.

Formatting is canonical: one position has exactly one string. Parsing accepts exactly that form
(hunters of a club in any order) and rejects anything malformed or impossible with a message that
names the field and what is wrong with it. The reading and writing itself is ``text.py``, on a
state's fields; this module builds the ``HareState`` a text describes.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.hare.rules import HareRules
from halali.games.hare.state import HareState
from halali.games.hare.text import FIELDS, format_position, parse_action, read_position


def parse_position(text: str, rules: HareRules | None = None) -> HareState:
    """A state from its notation; ``rules`` (if given) must agree with the position's options field."""
    return read_position(text, rules, HareState)


def parse_record(text: str) -> tuple[HareState, list[str]]:
    """A record ``START ; ACTION ...`` split into its starting state and its actions (not yet played)."""
    start, sep, actions = text.partition(";")
    st = parse_position(start.strip())
    return st, actions.split() if sep else []


__all__ = ["FIELDS", "IllegalAction", "format_position", "parse_action", "parse_position", "parse_record"]
