"""Whole walks of the game tree: perft and uniformly random games.

Not rules but yardsticks of the rules engine: perft counts are the standard check of action
generation (``tests/games/forest/test_perft.py`` holds them to a reference written from the rule
book), and both are what ``halali bench`` times. They live apart from ``position.py`` because they
need nothing of a position but its public ``legal_actions``, ``push`` and ``pop``.
"""

from __future__ import annotations

import random

from halali.games.forest.position import Position


def perft(pos: Position, depth: int) -> int:
    """Number of legal action sequences of length ``depth`` (the deal must be known)."""
    if depth == 0:
        return 1
    acts = pos.legal_actions()
    if depth == 1:
        return len(acts)
    total = 0
    push, pop = pos.push, pos.pop
    for a in acts:
        push(a)
        total += perft(pos, depth - 1)
        pop()
    return total


def random_game(pos: Position, rng: random.Random) -> int:
    """Play uniformly random actions to the end; return the number of actions played."""
    n = 0
    legal = pos.legal_actions
    push = pos.push
    choice = rng.choice
    acts = legal()
    while acts:
        push(choice(acts))
        n += 1
        acts = legal()
    return n
