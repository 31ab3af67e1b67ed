"""Random tournaments for the pairing and standings tests, and brute-force pairings to check them by.

A tournament is played round by round with the real pairing functions and random results, so the
histories the tests see are ones a tournament can reach: score groups, byes, rematch pressure in
small fields, withdrawals.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from halali.tournament import Entrant, Result, Round, bye, pair_swiss, placing_points, seat_tables


def entrants(n: int, rng: random.Random, tied_ratings: bool = False) -> list[Entrant]:
    return [Entrant(f"p{i:02d}", 1500.0 if tied_ratings else float(rng.randrange(1000, 2400, 50)))
            for i in range(n)]


def forest_results(rnd: Round, number: int, rng: random.Random) -> list[Result]:
    out = []
    for a, b in rnd.tables:
        games_a = rng.choice([0.0, 0.5, 1.0, 1.5, 2.0])
        points_a = 1.0 if games_a > 1 else 0.0 if games_a < 1 else rng.choice([0.0, 0.5, 1.0])
        kind = "forfeit" if rng.random() < 0.05 else "played"
        out.append(Result(number, (a, b), (points_a, 1.0 - points_a), (games_a, 2.0 - games_a),
                          (rng.randrange(40), rng.randrange(40)), kind))
    if rnd.bye is not None:
        out.append(bye(number, rnd.bye))
    return out


def hare_results(rnd: Round, number: int, rng: random.Random) -> list[Result]:
    out = []
    for table in rnd.tables:
        ranks = [float(rng.randrange(len(table))) for _ in table]
        points = placing_points(ranks)
        out.append(Result(number, table, points, points, tuple(rng.randrange(30) for _ in table)))
    return out


def swiss(people: list[Entrant], rounds: int, rng: random.Random, withdraw: float = 0.0) -> Iterator[
        tuple[list[Entrant], list[Result], int]]:
    """Each state before a round: the entrants (some withdrawn on the way), the results so far, and
    the round's number; the last state is the one after the last round."""
    results: list[Result] = []
    for number in range(1, rounds + 1):
        yield people, results, number
        results = results + forest_results(pair_swiss(people, results, number), number, rng)
        people = [Entrant(e.id, e.rating, True) if not e.withdrawn and rng.random() < withdraw else e
                  for e in people]
    yield people, results, rounds + 1


def hare(people: list[Entrant], rounds: int, rng: random.Random) -> list[Result]:
    results: list[Result] = []
    for number in range(1, rounds + 1):
        results = results + hare_results(seat_tables(people, results, number), number, rng)
    return results


def perfect_matchings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to pair an even number of players."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]
