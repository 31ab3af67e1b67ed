"""The random hare bot: the baseline every other bot must beat."""

from __future__ import annotations

import random

from halali.games.hare.actions import Action
from halali.games.hare.state import HareState


class RandomBot:
    """Level 1: any legal action, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: HareState, movetime: float | None = None) -> Action:
        return self.rng.choice(view.legal_actions())
