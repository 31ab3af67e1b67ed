"""What the results so far say about each player: scores, who met whom, who had a bye.

Pairing and standings read the same history, so they can never disagree about a score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from halali.tournament.model import Result


def before(results: Iterable[Result], round: int) -> list[Result]:
    """The results of the rounds before ``round``: pairing a round again gives the same pairing
    even when results of later rounds already exist."""
    return [r for r in results if r.round < round]


def scores(results: Iterable[Result]) -> dict[str, float]:
    out: dict[str, float] = {}
    for r in results:
        for player, points in zip(r.players, r.points, strict=True):
            out[player] = out.get(player, 0.0) + points
    return out


def meetings(results: Iterable[Result]) -> Counter[frozenset[str]]:
    """How often each pair of players sat at one table (a forfeit counts, a bye does not)."""
    out: Counter[frozenset[str]] = Counter()
    for r in results:
        if r.met:
            for i, a in enumerate(r.players):
                for b in r.players[i + 1:]:
                    out[frozenset((a, b))] += 1
    return out


def byes(results: Iterable[Result]) -> Counter[str]:
    return Counter(r.players[0] for r in results if r.kind == "bye")

