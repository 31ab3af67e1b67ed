"""Integer-coded actions.

An action is a plain ``int`` so that legal-action lists are cheap to build, compare and hash:

* bits 0..5   target square (move, capture), the square (reveal), or the exit direction (exit)
* bits 6..11  source square (move, capture, exit)
* bits 12..14 the type: reveal, move, capture, exit, pass
* bits 15..19 a reveal's outcome (a tile code), when the position does not know the deal
"""

from __future__ import annotations

from halali.games.forest.tiles import CODE_OF_LETTER, DIRECTION_LETTERS, LETTER, SQUARE_NAMES

Action = int

REVEAL, MOVE, CAPTURE, EXIT, PASS = 0, 1, 2, 3, 4
TYPE_SHIFT = 12
OUTCOME_SHIFT = 15
PASS_ACTION: Action = PASS << TYPE_SHIFT


def reveal(square: int, outcome: int = 0) -> Action:
    return square | outcome << OUTCOME_SHIFT


def move(source: int, target: int) -> Action:
    return MOVE << TYPE_SHIFT | source << 6 | target


def capture(source: int, target: int) -> Action:
    return CAPTURE << TYPE_SHIFT | source << 6 | target


def exit_(source: int, direction: int) -> Action:
    return EXIT << TYPE_SHIFT | source << 6 | direction


def action_type(action: Action) -> int:
    return action >> TYPE_SHIFT & 7


def source(action: Action) -> int:
    """The square a move, capture or exit starts from; the square of a reveal."""
    return action & 63 if action >> TYPE_SHIFT & 7 == REVEAL else action >> 6 & 63


def target(action: Action) -> int:
    """The square a move or capture ends on (the revealed square for a reveal)."""
    return action & 63


def outcome(action: Action) -> int:
    return action >> OUTCOME_SHIFT & 31


def without_outcome(action: Action) -> Action:
    return action & ((1 << OUTCOME_SHIFT) - 1)


def action_str(action: Action) -> str:
    """The action in forest notation (a capture always with ``x``)."""
    kind = action >> TYPE_SHIFT & 7
    if kind == REVEAL:
        text = "?" + SQUARE_NAMES[action & 63]
        out = action >> OUTCOME_SHIFT & 31
        return f"{text}={LETTER[out]}" if out else text
    if kind == MOVE:
        return SQUARE_NAMES[action >> 6 & 63] + "-" + SQUARE_NAMES[action & 63]
    if kind == CAPTURE:
        return SQUARE_NAMES[action >> 6 & 63] + "x" + SQUARE_NAMES[action & 63]
    if kind == EXIT:
        return SQUARE_NAMES[action >> 6 & 63] + "-" + DIRECTION_LETTERS[action & 3]
    return "pass"


__all__ = [
    "CAPTURE", "CODE_OF_LETTER", "EXIT", "MOVE", "PASS", "PASS_ACTION", "REVEAL", "Action",
    "action_str", "action_type", "capture", "exit_", "move", "outcome", "reveal", "source", "target",
    "without_outcome",
]
