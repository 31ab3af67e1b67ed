"""``halali bench --kernel``: how fast the compiled kernels play random games on one core.

Random playouts are a kernel's hot loop (action generation, apply, drawing unknown tiles), so
actions per second in playouts is the figure the search bots live on. Both kernels run in the same
process on the same deals, alternating which goes first from one deal to the next, so they share
the machine's noise: only their ratio compares across runs. The target, 6,000,000 actions/s for the
bitboard kernel, is a third of what a tuned C rules engine does on this machine.
"""

from __future__ import annotations

import time

from halali.ai import bits as B
from halali.ai import kernel as K
from halali.games.forest.position import Position

TARGET = 6_000_000
DEFAULT_GAMES = 20_000
DEALS = 10


def _array(pos: Position, games: int, seed: int) -> tuple[int, float]:
    state = K.from_position(pos)
    rng = K.new_rng(seed)
    t = time.perf_counter()
    n, _ = K.playouts(state, games, rng)
    return n, time.perf_counter() - t


def _bits(pos: Position, games: int, seed: int) -> tuple[int, float]:
    bb, s = B.from_position(pos)
    rng = B.new_rng(seed)
    t = time.perf_counter()
    n, _ = B.playouts(bb, s, games, rng)
    return n, time.perf_counter() - t


def run(games: int | None) -> int:
    """Play ``games`` random games per kernel from players' views of fresh deals; print the figures."""
    games = DEFAULT_GAMES if games is None else games
    if games <= 0:
        raise ValueError("the number of games must be 1 or more")
    start = Position.deal(seed=1).view()
    loads = []
    for side in (_array, _bits):  # compile or load the cached machine code
        t0 = time.perf_counter()
        side(start, 1, 0)
        loads.append(time.perf_counter() - t0)
    per_deal = max(1, games // DEALS)
    actions = [0, 0]
    elapsed = [0.0, 0.0]
    for seed in range(DEALS):
        pos = Position.deal(seed=seed).view()
        order = (0, 1) if seed % 2 == 0 else (1, 0)
        for i in order:
            n, dt = (_array, _bits)[i](pos, per_deal, seed)
            actions[i] += n
            elapsed[i] += dt
    played = per_deal * DEALS
    rates = [actions[i] / elapsed[i] for i in (0, 1)]
    print(f"kernel load/compile: array {loads[0]:.2f} s, bitboard {loads[1]:.2f} s")
    print(f"random games:        {played} per kernel from {DEALS} deals "
          f"({actions[0] / played:.1f} and {actions[1] / played:.1f} actions per game)")
    for name, i in (("array kernel", 0), ("bitboard kernel", 1)):
        print(f"{name + ':':<21}{rates[i]:>12,.0f} actions/s {played / elapsed[i]:>10,.0f} games/s")
    print(f"bitboard / array:    {rates[1] / rates[0]:.2f} (same run)")
    print(f"target:              {TARGET:,} actions/s for the bitboard kernel, ratio {rates[1] / TARGET:.2f}")
    return 0
