"""What a face-down tile may be, and with what probability.

In a view every face-down tile is unknown (``?``); a reveal there is a chance event whose outcomes
follow from what is not yet accounted for: the deal's tile counts less everything face up, known
face down or in a pile. Bots, the search, the luck analysis and the game interface all weight
reveals with these functions, so the probabilities live in one place.

The functions read only the board and the two piles of a position, typed as the
:class:`PositionFields` it is built on (``fields.py``), so this module does not import
``position.py``, whose ``Position`` offers them as methods.
"""

from __future__ import annotations

from halali.games.errors import IllegalAction
from halali.games.forest.actions import OUTCOME_SHIFT, Action, action_str
from halali.games.forest.fields import PositionFields
from halali.games.forest.tiles import BLUE, BROWN, HIDDEN, HUNTERS, KIND, KIND_COUNT, UNKNOWN


def remaining_kinds(pos: PositionFields) -> list[int]:
    """How many tiles of each kind are not yet accounted for by anything visible or known."""
    left = list(KIND_COUNT)
    b = pos.board
    for sq in range(49):
        v = b[sq]
        if v and v != UNKNOWN:
            left[KIND[v - HIDDEN if v >= HIDDEN else v]] -= 1
    for p in (BLUE, BROWN):
        for k in range(7):
            left[k] -= pos.captured[p][k] + pos.exited[p][k]
    return left


def hidden_distribution(pos: PositionFields) -> dict[int, float]:
    """What an unknown face-down tile is: tile code (hunters by rifle) -> probability."""
    left = remaining_kinds(pos)
    total = sum(max(n, 0) for n in left)
    if total <= 0:
        return {}
    dist: dict[int, float] = {}
    for kind, code in enumerate((1, 2, 3, 4, 8, 9, 10)):
        n = left[kind]
        if n <= 0:
            continue
        if code == 4:
            for h in HUNTERS:
                dist[h] = n / total / 4
        else:
            dist[code] = n / total
    return dist


def reveal_outcomes(pos: PositionFields, square: int) -> list[tuple[Action, float]]:
    """The chance outcomes of revealing ``square``: (reveal action with outcome, probability)."""
    v = pos.board[square]
    if v == UNKNOWN:
        return [(square | code << OUTCOME_SHIFT, prob) for code, prob in hidden_distribution(pos).items()]
    if v >= HIDDEN:
        return [(square, 1.0)]
    raise IllegalAction(f"{action_str(square)[1:]} is not face down")
