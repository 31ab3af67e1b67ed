"""``halali bench --kernel``: how fast the compiled kernel plays random games on one core.

Random playouts are the kernel's hot loop (action generation, apply, drawing unknown tiles), so
actions per second in playouts is the figure the search bots live on; the target is 2,000,000.
"""

from __future__ import annotations

import time

from halali.ai import kernel as K
from halali.games.forest.position import Position

TARGET = 2_000_000
DEFAULT_GAMES = 20_000


def run(games: int | None) -> int:
    """Play ``games`` random games from players' views of fresh deals; print the figures."""
    games = DEFAULT_GAMES if games is None else games
    if games <= 0:
        raise ValueError("the number of games must be 1 or more")
    t0 = time.perf_counter()
    start = K.from_position(Position.deal(seed=1).view())
    K.playouts(start, 1, K.new_rng(0))  # compile or load the cached machine code
    load = time.perf_counter() - t0
    deals = 10
    per_deal = max(1, games // deals)
    actions = played = 0
    elapsed = 0.0
    for seed in range(deals):
        state = K.from_position(Position.deal(seed=seed).view())
        rng = K.new_rng(seed)
        t = time.perf_counter()
        n, _ = K.playouts(state, per_deal, rng)
        elapsed += time.perf_counter() - t
        actions += n
        played += per_deal
    rate = actions / elapsed
    print(f"kernel load/compile: {load:.2f} s")
    print(f"random games:        {played} ({actions / played:.1f} actions per game)")
    print(f"games/s:             {played / elapsed:,.0f}")
    print(f"actions/s:           {rate:,.0f}")
    print(f"target:              {TARGET:,} actions/s, ratio {rate / TARGET:.2f}")
    return 0
