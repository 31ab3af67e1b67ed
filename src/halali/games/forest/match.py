"""A two-game match: roles swapped, a fresh deal for each game, totals and the tie-break.

Seats, not colours, own a match: seat 0 is the first player to join a table. Seat 0 plays brown in
game 1 and blue in game 2 (docs/rules.md); blue moves first in both games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import BLUE, BROWN


def colour_of(seat: int, game_index: int) -> int:
    """The colour a seat plays in game ``game_index`` (0 or 1)."""
    return BROWN if (seat == 0) == (game_index == 0) else BLUE


def seat_of(colour: int, game_index: int) -> int:
    return 0 if colour_of(0, game_index) == colour else 1


@dataclass
class Match:
    """Two games (or one, with ``match=single``) between seat 0 and seat 1.

    ``seed`` makes both deals reproducible (tests, replays); without it each deal uses the
    operating system's secure random source.
    """

    rules: Rules = DEFAULT_RULES
    seed: int | None = None
    games: list[Position] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng: random.Random = random.Random(self.seed) if self.seed is not None else random.SystemRandom()
        if not self.games:
            self.games.append(Position.deal(self.rules, self._rng))

    @property
    def number_of_games(self) -> int:
        return 1 if self.rules.match == "single" else 2

    @property
    def game_index(self) -> int:
        return len(self.games) - 1

    @property
    def position(self) -> Position:
        return self.games[-1]

    def can_start_next(self) -> bool:
        return self.position.is_over() and len(self.games) < self.number_of_games

    def start_next(self, deal: Position | None = None) -> Position:
        if not self.can_start_next():
            raise ValueError("the next game starts only after this one is over, and a match has two games")
        self.games.append(deal if deal is not None else Position.deal(self.rules, self._rng))
        return self.position

    def is_over(self) -> bool:
        return self.position.is_over() and len(self.games) == self.number_of_games

    def seat_to_move(self) -> int:
        return seat_of(self.position.turn, self.game_index)

    def colour_of(self, seat: int, game_index: int | None = None) -> int:
        return colour_of(seat, self.game_index if game_index is None else game_index)

    def totals(self) -> tuple[list[int], list[int]]:
        """(points per seat, tiles collected per seat) over the games played so far."""
        points, tiles = [0, 0], [0, 0]
        for i, g in enumerate(self.games):
            for seat in (0, 1):
                c = colour_of(seat, i)
                points[seat] += g.score[c]
                tiles[seat] += g.ntiles[c]
        return points, tiles

    def winner(self) -> int | None:
        """The winning seat: higher total, then more tiles collected; None for a draw."""
        points, tiles = self.totals()
        if points[0] != points[1]:
            return 0 if points[0] > points[1] else 1
        if tiles[0] != tiles[1]:
            return 0 if tiles[0] > tiles[1] else 1
        return None
