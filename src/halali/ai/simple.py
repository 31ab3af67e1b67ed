"""The two simple bots: uniformly random, and greedy (grab what is worth most right now)."""

from __future__ import annotations

import random

from halali.games.forest.actions import CAPTURE, EXIT, MOVE, TYPE_SHIFT, Action
from halali.games.forest.position import Position
from halali.games.forest.tiles import OWN, VALUE


class RandomBot:
    """Level 1: any legal action, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: Position, movetime: float | None = None) -> Action:
        return self.rng.choice(sorted(view.legal_actions()))


class GreedyBot:
    """Level 2: exit > capture (highest value first) > move of an own-colour tile > reveal or
    neutral move; random among the actions of the best class."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    @staticmethod
    def rank(view: Position, a: Action) -> int:
        kind = a >> TYPE_SHIFT & 7
        if kind == EXIT:
            return 1000
        if kind == CAPTURE:
            return 100 + VALUE[view.board[a & 63]]
        if kind == MOVE and OWN[view.turn][view.board[a >> 6 & 63]]:
            return 10
        return 0

    def choose(self, view: Position, movetime: float | None = None) -> Action:
        acts = sorted(view.legal_actions())
        best = max(self.rank(view, a) for a in acts)
        return self.rng.choice([a for a in acts if self.rank(view, a) == best])
