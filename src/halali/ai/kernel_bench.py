"""``halali bench --kernel``: how fast the compiled kernel plays random games on one core.

Random playouts are a kernel's hot loop (action generation, the action played, unknown tiles drawn
from the pool), so actions per second in playouts is the figure the search bots live on. The pure
engine plays random games from the same deals in the same run, alternating which goes first from
one deal to the next, so both share the machine's noise: the ratio compares across runs, the
absolute figures only on one machine. The target, 6,000,000 actions/s for the kernel, is a third
of what a tuned C rules engine does on this machine.
"""

from __future__ import annotations

import random
import time

from halali.ai import bits as B
from halali.games.forest.perft import random_game
from halali.games.forest.position import Position

TARGET = 6_000_000
DEFAULT_GAMES = 20_000
DEALS = 10
ENGINE_SHARE = 100  # the engine plays a hundredth of the kernel's games: it is about that much slower


def _engine(pos: Position, games: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    starts = [pos.copy() for _ in range(games)]  # the deal itself: the engine reveals what it holds
    t = time.perf_counter()
    n = sum(random_game(p, rng) for p in starts)
    return n, time.perf_counter() - t


def _kernel(pos: Position, games: int, seed: int) -> tuple[int, float]:
    bb, s = B.from_position(pos.view())  # the player's view: the kernel draws what it reveals
    rng = B.new_rng(seed)
    t = time.perf_counter()
    n, _ = B.playouts(bb, s, games, rng)
    return n, time.perf_counter() - t


def run(games: int | None) -> int:
    """Play ``games`` random games on the kernel (and a hundredth of them, at least one per deal, on
    the pure engine) from fresh deals; print the figures."""
    games = DEFAULT_GAMES if games is None else games
    if games <= 0:
        raise ValueError("the number of games must be 1 or more")
    t0 = time.perf_counter()
    _kernel(Position.deal(seed=1), 1, 0)  # compile or load the cached machine code
    load = time.perf_counter() - t0
    per_deal = max(1, games // DEALS)
    engine_per_deal = max(1, per_deal // ENGINE_SHARE)
    sides = (_engine, _kernel)
    counts = (engine_per_deal, per_deal)
    actions = [0, 0]
    elapsed = [0.0, 0.0]
    for seed in range(DEALS):
        pos = Position.deal(seed=seed)
        for i in ((0, 1) if seed % 2 == 0 else (1, 0)):
            n, dt = sides[i](pos, counts[i], seed)
            actions[i] += n
            elapsed[i] += dt
    played = [c * DEALS for c in counts]
    rates = [actions[i] / elapsed[i] for i in (0, 1)]
    print(f"kernel load/compile: {load:.2f} s")
    print(f"random games:        {played[1]} on the kernel, {played[0]} on the pure engine, from {DEALS} deals "
          f"({actions[1] / played[1]:.1f} and {actions[0] / played[0]:.1f} actions per game)")
    for name, i in (("pure engine", 0), ("compiled kernel", 1)):
        print(f"{name + ':':<21}{rates[i]:>12,.0f} actions/s {played[i] / elapsed[i]:>10,.0f} games/s")
    print(f"kernel / engine:     {rates[1] / rates[0]:.2f} (same run)")
    print(f"target:              {TARGET:,} actions/s for the kernel, ratio {rates[1] / TARGET:.2f}")
    return 0
