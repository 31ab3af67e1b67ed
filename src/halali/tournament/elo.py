"""Ratings of a finished event: one Bradley-Terry fit on the Elo scale over all its matches.

Why not the site's openskill updates (``halali.store.ratings``): those are made one match at a time
as matches end, so the same matches in another order give other ratings, and they start from
everyone's earlier history. An event's matches are all known at its end, so they are fitted at once:
the ratings that make the observed match scores most likely, where ``i`` scores against ``j`` on
average ``1 / (1 + 10 ** ((r_j - r_i) / 400))`` and a drawn match counts half a win.

Two choices make it behave on small events:

- every player also has one virtual drawn match against a virtual player rated ``CENTER``; without
  it a player who won every match would have an infinite rating (the likelihood keeps rising), and
  nothing would fix where the scale sits. One match's weight is small beside a real event's, and it
  pulls towards the middle only as much as one draw would;
- the 95% interval of each rating is ``± 1.96`` standard errors from the curvature of the fit (the
  inverse of the information matrix, the Laplace approximation), which is what lets a rating say
  "1620, but anywhere from 1480 to 1760" after a dozen matches.

The fit is Newton's method on a concave function, a few iterations for any event a machine can play.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

CENTER = 1500.0
PRIOR_MATCHES = 1.0
_K = math.log(10.0) / 400.0
_Z95 = 1.959964


@dataclass(frozen=True)
class Rating:
    id: str
    elo: float
    low: float  # the 95% interval
    high: float
    matches: int
    score: float  # match points, the fit's data


def _expected(diff: float) -> float:
    return 1.0 / (1.0 + math.exp(-_K * diff))


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with pivoting (the matrix is positive definite)."""
    n = len(vector)
    a = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def _inverse_diagonal(matrix: list[list[float]]) -> list[float]:
    n = len(matrix)
    return [_solve(matrix, [1.0 if j == i else 0.0 for j in range(n)])[i] for i in range(n)]


def fit_elo(ids: Sequence[str], matches: Sequence[tuple[str, str, float]]) -> list[Rating]:
    """Ratings with 95% intervals, best first, from ``(a, b, score of a)`` per match (1, 0.5, 0)."""
    index = {pid: i for i, pid in enumerate(ids)}
    if len(index) != len(ids):
        raise ValueError("an id appears twice")
    for a, b, s in matches:
        if a not in index or b not in index or a == b:
            raise ValueError(f"a match between {a!r} and {b!r} is not between two of the players")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"a match score is between 0 and 1, not {s}")
    n = len(ids)
    r = [CENTER] * n
    info: list[list[float]] = []
    for _ in range(100):
        grad = [_K * PRIOR_MATCHES * (0.5 - _expected(x - CENTER)) for x in r]
        info = [[0.0] * n for _ in range(n)]
        for i in range(n):
            p = _expected(r[i] - CENTER)
            info[i][i] += _K * _K * PRIOR_MATCHES * p * (1.0 - p)
        for a, b, s in matches:
            i, j = index[a], index[b]
            p = _expected(r[i] - r[j])
            grad[i] += _K * (s - p)
            grad[j] -= _K * (s - p)
            w = _K * _K * p * (1.0 - p)
            info[i][i] += w
            info[j][j] += w
            info[i][j] -= w
            info[j][i] -= w
        step = _solve(info, grad) if n else []
        biggest = max((abs(x) for x in step), default=0.0)
        if biggest > 400.0:  # far from the optimum: do not let one step fly off the scale
            step = [x * 400.0 / biggest for x in step]
        r = [x + d for x, d in zip(r, step, strict=True)]
        if biggest < 1e-7:
            break
    spread = [_Z95 * math.sqrt(v) for v in _inverse_diagonal(info)] if n else []
    played = [0] * n
    score = [0.0] * n
    for a, b, s in matches:
        played[index[a]] += 1
        played[index[b]] += 1
        score[index[a]] += s
        score[index[b]] += 1.0 - s
    out = [Rating(pid, r[i], r[i] - spread[i], r[i] + spread[i], played[i], score[i]) for pid, i in index.items()]
    return sorted(out, key=lambda x: (-x.elo, x.id))
