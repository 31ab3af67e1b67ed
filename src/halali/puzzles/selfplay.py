"""The games ``halali puzzles generate`` plays against itself, and the puzzles it finds in them.

Both sides are the strongest level searching every action to depth 2 with a full window,
so each position comes with the margin of its best action at that depth (what ``mine`` needs to
choose the positions worth judging) at no extra cost. A side plays one of the actions within
``SLACK`` points of its best, drawn from the game's seed: the games vary, and like people's games
they hold the small slips that give the other side its chances. Game ``seed`` is played on the deal
of that seed, so a run can be repeated and extended.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.puzzles.games import margin_of, shallow_values
from halali.puzzles.mine import Budget, Seen, puzzles_of_game
from halali.puzzles.model import Puzzle

SLACK = 1.0  # points


@dataclass
class GameResult:
    seed: int
    puzzles: list[Puzzle]
    plies: int
    tried: int = 0
    seconds: float = 0.0
    proofs: list[float] = field(default_factory=list)


def play(seed: int, rules: Rules = DEFAULT_RULES) -> list[Seen]:
    """One self-play game on the deal of ``seed``: every position as its player saw it, with margins."""
    pos = Position.deal(rules, seed=seed)
    rng = random.Random(seed)
    bot = SearchBot(STYLES[max(STYLES)], seed)
    seen: list[Seen] = []
    ply = 0
    while not pos.is_over():
        view = pos.view()
        values = shallow_values(view, bot)
        seen.append(Seen(ply, view, margin_of(values)))
        near = [a for a, v in values if v >= values[0][1] - SLACK]
        pos.push(pos.check(rng.choice(near)))
        ply += 1
    return seen


def generate(seed: int, budget: Budget | None = None, rules: Rules = DEFAULT_RULES) -> GameResult:
    """Play game ``seed`` and mine it (one unit of work for a process of ``halali puzzles generate``)."""
    start = time.perf_counter()
    budget = budget or Budget()
    positions = play(seed, rules)
    result = GameResult(seed, [], len(positions))

    def tried(seen: Seen, puzzle: Puzzle | None) -> None:
        result.tried += 1

    result.puzzles = puzzles_of_game(positions, budget, {"kind": "selfplay", "seed": seed}, tried=tried)
    result.seconds = time.perf_counter() - start
    return result
