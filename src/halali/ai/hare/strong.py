"""The strong hare bot: the heuristic planner fed with inferred beliefs about the clubs, and a wider
plan search.

Its utilities are averaged over every assignment of clubs to the other seats, each weighted by how
consistent it is with what those seats did (:class:`halali.ai.hare.belief.Belief`): shots go where
an opponent most probably stands to lose, not at clubs nobody holds.
"""

from __future__ import annotations

from halali.ai.hare.belief import Belief
from halali.ai.hare.evaluate import graded_value, hunter_risk
from halali.ai.hare.heuristic import HeuristicBot
from halali.ai.hare.planner import Local, Value
from halali.games.hare.state import HareState


class StrongBot(HeuristicBot):
    """Level 3."""

    name = "strong"
    beam = 3

    def __init__(self, seed: int | None = None, exposure_weight: float = 0.3) -> None:
        super().__init__(seed, exposure_weight)
        self.belief = Belief()

    def owner(self, view: HareState) -> list[list[float]]:
        return self.belief.owner(view)

    def evaluator(self, view: HareState, u: list[float]) -> tuple[Value, Local | None]:
        horizon = float(min(len(view.players_in()) - 1, 3))

        def value(s: HareState) -> float:
            return graded_value(s, u, horizon)

        def local(s: HareState, h: int, cell: int, face: int) -> float:
            return horizon * u[h] * hunter_risk(s, h, cell, face)

        return value, local
