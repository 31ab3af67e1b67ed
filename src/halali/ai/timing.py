"""How long to think about one action when a real game clock runs, not a fixed ``movetime``.

A forest game has a horizon a chess clock manager has to guess: every face-down tile is revealed by
someone, and after the last reveal each side has a known number of final turns. So the actions a
side still has to make are about one and a half per face-down tile (measured, below) plus its final
turns; ``moves_left`` says how many. The budget of one action
is the time left spread over those, plus most of the increment; it never takes more than a fixed
share of what is left, so a slow machine or a long final phase cannot run the clock down to zero.
"""

from __future__ import annotations

from halali.games.forest.position import Position
from halali.games.forest.pushpop import FINAL_TURNS

# Own actions per face-down tile still on the board before the final phase: 1.27 (level 4) and 1.35
# (level 6) in self-play over six deals each, 0.95 at random; rounded up, as running short is worse.
MOVES_PER_TILE = 1.4
RESERVE = 2  # actions always assumed left, so that the last ones keep some time
MAX_SHARE = 0.25  # at most this share of the time left for one action
INCREMENT_SHARE = 0.8  # of the increment, spent on this action
MIN_MOVETIME = 0.01  # seconds: the least a search is given


def moves_left(view: Position) -> int:
    """The actions the side to move still has to make, by the face-down tiles and the final turns."""
    if view.final >= 0:  # the final phase: both sides' turns are counted together
        return (view.final + 1) // 2
    return round(len(view.hidden) * MOVES_PER_TILE) + (FINAL_TURNS + 1) // 2


def clock_movetime(view: Position, remaining: float, increment: float = 0.0, cap: float | None = None) -> float:
    """Seconds to think about this action with ``remaining`` seconds on the clock and ``increment``
    seconds added after it; at most ``cap`` (a level's own movetime, when it has one)."""
    if remaining < 0 or increment < 0:
        raise ValueError("the time left and the increment are 0 or more")
    spread = remaining / (moves_left(view) + RESERVE) + INCREMENT_SHARE * increment
    budget = min(spread, MAX_SHARE * remaining + INCREMENT_SHARE * increment, max(0.0, remaining - 0.05))
    if cap is not None:
        budget = min(budget, cap)
    return max(MIN_MOVETIME, budget)
