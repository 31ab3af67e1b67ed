"""Analysis of a position: its value and the value of every action, by the strongest search.

The same function serves ``halali analyse`` and the server. It searches the public view only, with
every root action given a full window so that each value is exact at the depth reached, not just
a bound (slower than play, which only needs the best action).
"""

from __future__ import annotations

from dataclasses import dataclass

from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot, Thought
from halali.games.forest.position import Position

DEFAULT_MOVETIME = 1.0


@dataclass
class Analysis:
    score: float  # expected final score difference for the player to move, in points
    actions: list[tuple[str, float]]  # every searched root action, best first
    depth: int
    nodes: int
    seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def analyse_position(view: Position, movetime: float | None = DEFAULT_MOVETIME, nodes: int | None = None,
                     depth: int | None = None, seed: int = 0) -> Analysis:
    """Search ``view`` (a position that knows the deal is reduced to its view first)."""
    if view.is_over():
        raise ValueError("the game is over in this position: there is nothing to analyse")
    bot = SearchBot(STYLES[max(STYLES)], seed)
    t: Thought = bot.think(view.view(), movetime, nodes=nodes, depth=depth, exact=True)
    values = t.values or [(t.action, t.score)]
    return Analysis(t.score, [(view.action_str(a), v) for a, v in values], t.depth, t.nodes, t.seconds)


def analyse(view: Position, movetime: float | None = DEFAULT_MOVETIME) -> tuple[float, list[tuple[str, float]]]:
    """(value for the player to move, [(action, value), ...] best first); for the server."""
    result = analyse_position(view, movetime)
    return result.score, result.actions
