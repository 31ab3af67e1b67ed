"""Standings with their tie-breaks, and the crosstable, both as plain data.

The order is score, then Buchholz, then games, then tiles. Buchholz is the sum of the final scores
of the opponents met: beating strong players is worth more than beating weak ones. Two extensions
of the usual chess rule:

- at a hare table a player has several opponents at once; the round adds the mean score of its
  table-mates, so a round weighs the same at a table of 3 as at a table of 6;
- a bye or an absence has no opponent; it adds the player's own score, a simplified form of FIDE's
  "virtual opponent", so that sitting out neither raises nor sinks a player's Buchholz against
  players of its own score.

Players equal on all four share a rank, and the next rank skips (1, 2, 2, 4). The values are
rounded to 9 decimals before they are compared, so that the same score reached by different sums of
thirds compares equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from halali.tournament.history import scores
from halali.tournament.model import Entrant, Result

_PLACES = 9


@dataclass(frozen=True)
class Standing:
    id: str
    rank: int  # shared by players equal on every tie-break; the next rank skips
    score: float
    buchholz: float
    games: float  # games won inside the matches (hare: the points again)
    tiles: int  # points collected on the boards
    played: int  # rounds at a table (kind played or forfeit)
    withdrawn: bool = False


@dataclass(frozen=True)
class Cell:
    """One player's round in the crosstable; ``kind`` is "" for a round without a result."""

    round: int
    kind: str
    opponents: tuple[int, ...]  # standing numbers (1-based, the row numbers of the crosstable)
    points: float | None
    games: float | None = None
    tiles: int | None = None
    text: str = ""  # "+3" won against number 3, "=3", "-3", "+3f" by forfeit, "bye", "abs", "2,5,7 0.67"


@dataclass(frozen=True)
class CrossRow:
    number: int  # 1-based position in the standings, what the cells refer to
    id: str
    rank: int
    cells: tuple[Cell, ...]
    score: float
    buchholz: float
    games: float
    tiles: int
    played: int
    withdrawn: bool = False


def _check(entrants: Sequence[Entrant], results: Sequence[Result]) -> None:
    ids = {e.id for e in entrants}
    if len(ids) != len(entrants):
        raise ValueError("an entrant id appears twice")
    for r in results:
        unknown = [p for p in r.players if p not in ids]
        if unknown:
            raise ValueError(f"a result of round {r.round} names players who are not entrants: {unknown}")


def standings(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Standing]:
    """Every entrant, withdrawn ones included (their results stay), best first."""
    _check(entrants, results)
    score = scores(results)
    total = {e.id: score.get(e.id, 0.0) for e in entrants}
    buchholz = dict.fromkeys(total, 0.0)
    games = dict.fromkeys(total, 0.0)
    tiles = dict.fromkeys(total, 0)
    played = dict.fromkeys(total, 0)
    for r in results:
        for i, p in enumerate(r.players):
            others = [q for q in r.players if q != p]
            buchholz[p] += sum(total[q] for q in others) / len(others) if others else total[p]
            games[p] += r.games_of(i)
            tiles[p] += r.tiles_of(i)
            played[p] += r.met
    rating = {e.id: e.rating for e in entrants}

    def key(pid: str) -> tuple[float, float, float, int]:
        return (round(total[pid], _PLACES), round(buchholz[pid], _PLACES), round(games[pid], _PLACES), tiles[pid])

    order = sorted(total, key=lambda pid: (*(-v for v in key(pid)), -rating[pid], pid))
    out: list[Standing] = []
    withdrawn = {e.id for e in entrants if e.withdrawn}
    for i, pid in enumerate(order):
        rank = out[-1].rank if out and key(order[i - 1]) == key(pid) else i + 1
        out.append(Standing(pid, rank, total[pid], buchholz[pid], games[pid], tiles[pid], played[pid],
                            pid in withdrawn))
    return out


def _text(r: Result, index: int, opponents: tuple[int, ...]) -> str:
    if r.kind == "bye":
        return "bye"
    if r.kind == "absent":
        return "abs"
    if len(opponents) == 1:
        points = r.points[index]
        sign = "+" if points > 0.5 else "-" if points < 0.5 else "="
        return f"{sign}{opponents[0]}{'f' if r.kind == 'forfeit' else ''}"
    mark = " f" if r.kind == "forfeit" else ""
    return f"{','.join(map(str, opponents))} {r.points[index]:.2f}{mark}"


def crosstable(entrants: Sequence[Entrant], results: Sequence[Result], rounds: int) -> list[CrossRow]:
    """One row per entrant in standing order, one cell per round 1..``rounds``, and the totals.

    Cells name opponents by their standing number, as printed crosstables do, so a row can be read
    against the rows it points to. A player with two results in one round is refused: a crosstable
    cell could not show it, and it is a mistake upstream."""
    table = standings(entrants, results)
    number = {s.id: i + 1 for i, s in enumerate(table)}
    cells: dict[tuple[str, int], Cell] = {}
    for r in results:
        for i, p in enumerate(r.players):
            if (p, r.round) in cells:
                raise ValueError(f"{p} has two results in round {r.round}")
            opponents = tuple(sorted(number[q] for q in r.players if q != p))
            cells[p, r.round] = Cell(r.round, r.kind, opponents, r.points[i], r.games_of(i),
                                     r.tiles_of(i) if r.tiles else None, _text(r, i, opponents))
    rows = []
    for s in table:
        row = tuple(cells.get((s.id, k), Cell(k, "", (), None)) for k in range(1, rounds + 1))
        rows.append(CrossRow(number[s.id], s.id, s.rank, row, s.score, s.buchholz, s.games, s.tiles, s.played,
                             s.withdrawn))
    return rows
