"""What a tournament is made of: its entrants, the results of each round, and a round's pairing.

Results are one record per table (or per player without a table), not per game: a forest match of
two games is one ``Result``, as is a hare table. A bye, an absence and a forfeit are results too, so
the score of a player is always the sum of the points in its results and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

KINDS = ("played", "bye", "absent", "forfeit")
# What a tournament gives outside a table: a bye is a won match; a missed round, or each round
# before a late entrant joined, is half a point, so an absence neither pays nor ruins a player.
BYE_POINTS = 1.0
ABSENT_POINTS = 0.5


@dataclass(frozen=True)
class Entrant:
    id: str
    rating: float = 1500.0  # orders players inside a score group and in round 1 (higher first)
    withdrawn: bool = False  # not paired any more; their results stay


@dataclass(frozen=True)
class Result:
    """One player's or one table's outcome in one round."""

    round: int  # 1-based
    players: tuple[str, ...]  # 2 for a forest match, 3..6 for a hare table, 1 for a bye/absence
    points: tuple[float, ...]  # tournament points per player: forest match win 1, draw 0.5, loss 0;
    # hare: placing points (below); bye: 1.0; absence (missed round, late join): 0.5
    games: tuple[float, ...] = ()  # forest: games won inside the match (a game draw 0.5); hare: same as points
    tiles: tuple[int, ...] = ()  # points collected on the board (the tie-break "tiles collected")
    kind: str = "played"  # "played" | "bye" | "absent" | "forfeit"

    def __post_init__(self) -> None:
        # A result that does not add up would corrupt every standing computed from it, far from
        # where it was made; refuse it here.
        if self.round < 1:
            raise ValueError(f"round must be 1 or more, not {self.round}")
        if self.kind not in KINDS:
            raise ValueError(f"unknown result kind {self.kind!r}; one of {', '.join(KINDS)}")
        if not self.players:
            raise ValueError("a result needs at least one player")
        if len(set(self.players)) != len(self.players):
            raise ValueError(f"a player appears twice in one result: {self.players}")
        if len(self.points) != len(self.players):
            raise ValueError("a result needs one points value per player")
        for name, values in (("games", self.games), ("tiles", self.tiles)):
            if values and len(values) != len(self.players):
                raise ValueError(f"a result's {name} must be empty or one per player")
        if self.kind in ("bye", "absent") and len(self.players) != 1:
            raise ValueError(f"a {self.kind} result is one player's")
        if self.kind in ("played", "forfeit") and len(self.players) < 2:
            raise ValueError(f"a {self.kind} result needs at least two players")

    @property
    def met(self) -> bool:
        """Whether the players of this result were paired with each other (a forfeit counts: they
        were drawn together, and pairing them again would repeat that draw)."""
        return self.kind in ("played", "forfeit")

    def games_of(self, index: int) -> float:
        """Games won by the player at ``index``; a result without games counts its points instead
        (a hare table, whose games are its points, and a bye or absence, which played none)."""
        return self.games[index] if self.games else self.points[index]

    def tiles_of(self, index: int) -> int:
        return self.tiles[index] if self.tiles else 0


@dataclass(frozen=True)
class Round:
    tables: tuple[tuple[str, ...], ...]  # forest: pairs; hare: tables of 3..6 players
    bye: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        """Everyone this round places, tables first, then the bye."""
        seated = tuple(p for table in self.tables for p in table)
        return (*seated, self.bye) if self.bye is not None else seated


def bye(round: int, player: str) -> Result:
    return Result(round, (player,), (BYE_POINTS,), kind="bye")


def absent(round: int, player: str) -> Result:
    return Result(round, (player,), (ABSENT_POINTS,), kind="absent")


def placing_points(ranks: Sequence[float]) -> tuple[float, ...]:
    """Placing points of one hare table, from the ranks the game gives (0 = first, ties share a rank).

    Each player scores as in a small round robin of the table: one point for every player ranked
    below, half for every other player tied with it, divided by ``n - 1``. So every value is in
    [0, 1], a table of n hands out n/2 in all, and winning a table of 6 weighs as much as winning a
    table of 3; that is what lets tables of different sizes share one standing."""
    n = len(ranks)
    if n < 2:
        raise ValueError("placing points need a table of two players or more")
    out = []
    for i, mine in enumerate(ranks):
        below = sum(1 for other in ranks if other > mine)
        tied = sum(1 for j, other in enumerate(ranks) if j != i and other == mine)
        out.append((below + 0.5 * tied) / (n - 1))
    return tuple(out)
