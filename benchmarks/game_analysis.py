"""Time a whole game's analysis: the job the server runs (chunks of plies over the bot pool's
processes) against the former one request per position, measured in the same run on the same game.

    python benchmarks/game_analysis.py                  # a 125-action game, 2 processes
    python benchmarks/game_analysis.py --actions 90 --workers 1 --no-baseline

The game: the first seeded deal on which two tactics players (level 4 at depth 2, deterministic)
play a game of exactly ``--actions`` actions. The baseline is the analysis the replay page used to
ask for: every position searched for the server's 0.3 s by the strongest level with every action
valued exactly, one position at a time in one worker, then the luck of the game at depth 1. Both run
in worker processes started and warmed before the clock starts, as a running server's are. The
"depth" lines compare how deep each searched the same positions: the new analysis must look at least
as deep as the old one, nearly everywhere.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from halali.ai.game_analysis import DEFAULT_BUDGET, Budget, chunks, summary
from halali.ai.levels import STYLES
from halali.ai.search_bots import SearchBot, warm_up
from halali.games.forest.actions import OUTCOME_SHIFT, REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.server.bots import BotPool

OLD_MOVETIME = 0.3  # the server's former analysis_movetime


def a_game(actions: int) -> tuple[str, list[str], tuple[int, int]]:
    """The deal, the recorded actions and the final score of the first seeded game of that length."""
    for seed in itertools.count():
        pos = Position.deal(seed=seed)
        deal = pos.fen()
        bots = [SearchBot(STYLES[4], seed), SearchBot(STYLES[4], seed + 1)]
        played: list[str] = []
        while not pos.is_over() and len(played) <= actions:
            view = pos.view()
            played.append(_play(pos, view, bots[view.turn].think(view, None, depth=2).action))
        if pos.is_over() and len(played) == actions:
            return deal, played, (pos.score[0], pos.score[1])
    raise AssertionError("unreachable")


def _play(pos: Position, view: Position, a: int) -> str:
    """Play ``a`` on the full position; the action as a record has it (a reveal with its outcome)."""
    pos.push(a)
    if a >> TYPE_SHIFT & 7 == REVEAL:
        a |= pos.board[a & 63] << OUTCOME_SHIFT
    return view.action_str(a)


def old_position(deal: str, actions: list[str], ply: int) -> tuple[int, float]:
    """The former per-position analysis of one position: (depth reached, seconds)."""
    from halali.ai.analysis import analyse_position
    from halali.games.forest.notation import parse_position

    pos = parse_position(deal)
    for text in actions[:ply]:
        pos.play(text)
    t0 = time.perf_counter()
    result = analyse_position(pos.view(), OLD_MOVETIME)
    return result.depth, time.perf_counter() - t0


def old_luck(deal: str, actions: list[str]) -> float:
    from halali.ai.luck import luck_of_game
    from halali.games.forest.notation import parse_position

    t0 = time.perf_counter()
    luck_of_game(parse_position(deal), actions, 1)
    return time.perf_counter() - t0


def baseline(deal: str, actions: list[str]) -> tuple[float, list[int]]:
    """The former way, one worker, one position at a time: (wall seconds, depth per position)."""
    with ProcessPoolExecutor(1) as pool:
        pool.submit(warm_up).result()
        t0 = time.perf_counter()
        depths = [pool.submit(old_position, deal, actions, ply).result()[0] for ply in range(len(actions))]
        pool.submit(old_luck, deal, actions).result()
        return time.perf_counter() - t0, depths


def cpu_seconds(pool: BotPool) -> float:
    """User and system time of the pool's processes so far (Linux: /proc/PID/stat)."""
    executor = pool._executor()
    total = 0
    for pid in executor._processes:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def job(pool: BotPool, deal: str, actions: list[str], score: tuple[int, int],
              budget: Budget) -> tuple[float, float, dict[str, Any]]:
    """The server's job: every chunk to the pool at once, then the whole summed up; (wall seconds,
    the processes' CPU seconds, the analysis)."""
    cpu, t0 = cpu_seconds(pool), time.perf_counter()
    parts = await asyncio.gather(*(pool.analyse_plies(deal, {}, actions, f, e, budget.to_list())
                                   for f, e in chunks(len(actions), budget.chunk)))
    plies = [p for part in parts for p in part]
    whole = {"plies": plies, **summary(plies, score, budget.luck_depth)}
    return time.perf_counter() - t0, cpu_seconds(pool) - cpu, whole


async def new(deal: str, actions: list[str], score: tuple[int, int], workers: int, runs: int,
              budget: Budget) -> list[tuple[float, float, dict[str, Any]]]:
    pool = BotPool(workers)
    try:
        await asyncio.gather(*(pool.run(warm_up) for _ in range(workers)))  # every process up and warm
        return [await job(pool, deal, actions, score, budget) for _ in range(runs)]
    finally:
        pool.shutdown()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--actions", type=int, default=125)
    p.add_argument("--workers", type=int, default=2, help="the bot pool's processes (default 2)")
    p.add_argument("--runs", type=int, default=2, help="analyses of the same game (default 2: the same marks?)")
    p.add_argument("--nodes", type=int, default=DEFAULT_BUDGET.soft_nodes, help="soft node budget per position")
    p.add_argument("--no-baseline", action="store_true", help="skip the former per-position analysis")
    args = p.parse_args()
    budget = Budget(args.nodes, DEFAULT_BUDGET.hard_nodes, DEFAULT_BUDGET.luck_depth, DEFAULT_BUDGET.chunk)
    deal, actions, score = a_game(args.actions)
    print(f"game: {len(actions)} actions, final score {score[0]}-{score[1]}; budget {budget.key()}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
    runs = asyncio.run(new(deal, actions, score, args.workers, args.runs, budget))
    first = runs[0][2]
    marks = [e["played"]["mark"] for e in first["plies"] if e["played"] and e["played"]["mark"]]
    for i, (seconds, cpu, _) in enumerate(runs, 1):
        print(f"game analysis, run {i}: {seconds:6.2f} s wall on {args.workers} processes, {cpu:.2f} s of CPU "
              f"(on {args.workers} idle cores at least {cpu / args.workers:.2f} s wall)")
    same = all(whole == first for _, _, whole in runs[1:])
    print(f"repeatable: {'yes' if same else 'NO'} ({len(runs)} runs: the same values, marks and luck)")
    print(f"marks: {len(marks)} ({', '.join(f'{m} {marks.count(m)}' for m in ('inaccuracy', 'mistake', 'blunder'))}); "
          f"reveals weighed: {len(first['reveals'])}")
    depths = [e["depth"] for e in first["plies"]]
    print(f"depth: mean {sum(depths) / len(depths):.2f}, min {min(depths)}, max {max(depths)}")
    if not args.no_baseline:
        old_seconds, old_depths = baseline(deal, actions)
        best = min(s for s, _, _ in runs)
        shallower = sum(1 for a, b in zip(depths, old_depths, strict=True) if a < b)
        deeper = sum(1 for a, b in zip(depths, old_depths, strict=True) if a > b)
        print(f"former per-position analysis ({OLD_MOVETIME} s a position, one worker, then the luck at depth 1): "
              f"{old_seconds:6.2f} s wall; depth mean {sum(old_depths) / len(old_depths):.2f}")
        print(f"depth against the former: deeper at {deeper} positions, as deep at "
              f"{len(depths) - deeper - shallower}, shallower at {shallower}")
        print(f"ratio former / new: {old_seconds / best:.2f}x")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
