"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012), one game per rating period.

Puzzles are rated as lichess rates them: each first try is a game between the player and the
puzzle, won by whoever the result favours, and both ratings move. Written here rather than taken
from a package: PyPI's ``glicko2`` (2.1.0) has the paper's volatility function wrong (it uses the
rating where the paper has the deviation, so the volatility drifts for any rating but 1500), and
the one other implementation there was a first beta of a few weeks; the algorithm is forty lines,
and ``tests/store/test_glicko.py`` holds these to the paper's worked example.
"""

from __future__ import annotations

import math
from typing import NamedTuple

SCALE = 173.7178
TAU = 0.5  # how much the volatility may change: the paper suggests 0.3 to 1.2
START = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
MIN_DEVIATION = 45.0  # a rating never becomes so sure of itself that it stops moving
MAX_DEVIATION = 350.0
EPSILON = 1e-6


class Glicko(NamedTuple):
    rating: float
    deviation: float
    volatility: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected(a: Glicko, b: Glicko) -> float:
    """The chance that ``a`` beats ``b``."""
    return _expected((a.rating - START) / SCALE, (b.rating - START) / SCALE, b.deviation / SCALE)


def update(player: Glicko, games: list[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """The player's rating after one rating period of ``games``: (opponent, score 1, 0.5 or 0)."""
    mu = (player.rating - START) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:
        return Glicko(player.rating, min(MAX_DEVIATION, math.sqrt(phi * phi + sigma * sigma) * SCALE), sigma)
    inv_v = 0.0
    gain = 0.0
    for opp, score in games:
        mu_j, phi_j = (opp.rating - START) / SCALE, opp.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inv_v += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / inv_v
    delta = v * gain
    sigma = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * gain
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, phi * SCALE))
    return Glicko(START + mu * SCALE, deviation, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5 of the paper: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    for _ in range(100):
        if abs(big_b - big_a) <= EPSILON:
            break
        c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2.0
        big_b, fb = c, fc
    return math.exp(big_a / 2.0)


def play(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """Both ratings after one try: the player won if he solved it, the puzzle if he did not."""
    score = 1.0 if solved else 0.0
    return update(player, [(puzzle, score)]), update(puzzle, [(player, 1.0 - score)])
