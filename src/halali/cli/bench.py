"""``halali bench``: the speed of the pure rules engine (``--kernel``: the compiled one beside it;
``--search``: the strongest search against a frozen baseline engine, ``halali.engine.search_bench``;
``--envs``: both games in OpenSpiel and PettingZoo beside the engine, ``halali.interop.bench``).

Random play is the honest measure of an engine: every turn generates the legal actions and applies
one, exactly what a search or a server does. The targets are printed beside the figures so a
regression is visible at a glance.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from halali.cli.common import UsageError, add_rules_option, rules_from
from halali.games.forest.perft import perft, random_game
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules

TARGET_ACTIONS = 80_000
TARGET_GAMES = 800
PERFT_SEED = 2026


def random_play(games: int, seed: int, rules: Rules, progress: bool = True) -> dict[str, float]:
    """Play ``games`` uniformly random games; time only generation and apply, not the deals."""
    rng = random.Random(seed)
    deals = [Position.deal(rules, rng) for _ in range(games)]
    actions = 0
    elapsed = 0.0
    if progress:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("random games", total=games)
            for i in range(0, games, 50):
                chunk = deals[i:i + 50]
                start = time.perf_counter()
                for pos in chunk:
                    actions += random_game(pos, rng)
                elapsed += time.perf_counter() - start
                bar.advance(task, len(chunk))
    else:
        start = time.perf_counter()
        for pos in deals:
            actions += random_game(pos, rng)
        elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "actions_per_s": actions / elapsed,
        "mean_length": actions / games,
    }


def perft_speed(rules: Rules, depth: int = 4) -> dict[str, float]:
    """Perft from a fresh deal and from a mid-game position (more moves, fewer reveals).

    Leaves are counted in bulk (the length of the last legal list), as chess perft tools do; the
    interior nodes (each one push, generate, pop) are reported beside them.
    """
    rng = random.Random(PERFT_SEED)
    start_pos = Position.deal(rules, rng)
    mid = Position.deal(rules, rng)
    for _ in range(60):
        acts = mid.legal_actions()
        if not acts:
            break
        mid.push(rng.choice(acts))
    nodes = interior = 0
    start = time.perf_counter()
    for pos in (start_pos, mid):
        nodes += perft(pos, depth)
    elapsed = time.perf_counter() - start
    for pos in (start_pos, mid):  # counted apart, so that it costs no measured time
        interior += sum(perft(pos, d) for d in range(depth))
    return {"nodes": nodes, "interior": interior, "seconds": elapsed, "nodes_per_s": nodes / elapsed,
            "interior_per_s": interior / elapsed}


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.kernel:
        from halali.ai.kernel_bench import run

        return run(args.games)
    if args.envs:
        if args.seconds <= 0:
            raise UsageError("--seconds must be more than 0")
        try:
            from halali.interop import bench as env_bench
        except ImportError as exc:  # pragma: no cover - the research extras are missing
            raise UsageError(f"--envs needs the research extras (pip install 'halali[research]'): {exc}") from exc
        return env_bench.run(args.seconds, args.seed)
    if args.search:
        from halali.engine import search_bench

        if args.depth < 1 or args.movetime < 1:
            raise UsageError("--depth and --movetime must be at least 1")
        path = None if args.positions is None else Path(args.positions)
        if path is not None and not path.is_file():
            raise UsageError(f"no such file: {path}")
        if args.baseline is not None and not args.baseline.strip():
            raise UsageError("--baseline needs an engine command")
        from halali.engine.client import EngineError

        try:
            return search_bench.run(path, args.depth, args.movetime / 1000, quiet=args.quiet, as_json=args.json,
                                    baseline=args.baseline)
        except EngineError as exc:
            raise UsageError(str(exc)) from exc
    rules = rules_from(args)
    r = random_play(args.games, args.seed, rules, progress=not args.quiet)
    print(f"random play, one core, {r['games']} games in {r['seconds']:.2f} s")
    print(f"  games/s        {r['games_per_s']:>12,.0f}   "
          f"(target {TARGET_GAMES:,}: x{r['games_per_s'] / TARGET_GAMES:.2f})")
    print(f"  actions/s      {r['actions_per_s']:>12,.0f}   "
          f"(target {TARGET_ACTIONS:,}: x{r['actions_per_s'] / TARGET_ACTIONS:.2f})")
    print(f"  mean length    {r['mean_length']:>12.1f}   actions per game")
    p = perft_speed(rules, args.perft_depth)
    print(f"perft depth {args.perft_depth} from two positions: {p['nodes']:,} nodes in {p['seconds']:.2f} s")
    print(f"  perft nodes/s  {p['nodes_per_s']:>12,.0f}   (leaves, counted in bulk at the last ply)")
    print(f"  interior/s     {p['interior_per_s']:>12,.0f}   (positions pushed, generated and popped)")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="measure the rules engine (random games/s, actions/s, perft nodes/s), "
                       "the compiled kernel or the search")
    p.add_argument("--games", type=int, default=2000, help="random games to play (default 2000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals and the random players")
    p.add_argument("--perft-depth", type=int, default=4)
    p.add_argument("--kernel", action="store_true", help="measure the compiled kernel used by the search bots")
    p.add_argument("--envs", action="store_true",
                   help="both games as OpenSpiel games and PettingZoo environments, beside the raw engine")
    p.add_argument("--seconds", type=float, default=2.0, help="--envs: time of each figure (default 2)")
    p.add_argument("--search", action="store_true",
                   help="time level 6's search to a depth and on the clock, against a baseline engine (--baseline)")
    p.add_argument("--baseline", metavar="COMMAND",
                   help="--search: the engine to compare with, a command line; the frozen baseline is level 6 of "
                   "commit e9b1b22 from a worktree: git worktree add --detach ../halali-baseline e9b1b22, then "
                   "--baseline \"env PYTHONPATH=../halali-baseline/src python -m halali.cli engine --level 6\"")
    p.add_argument("--positions", metavar="FILE", help="--search: positions, one public view a line "
                   "(default: the committed set, halali/ai/search_positions.txt)")
    p.add_argument("--depth", type=int, default=4, help="--search: depth of the depth-limited searches (default 4)")
    p.add_argument("--movetime", type=int, default=200, metavar="MS",
                   help="--search: time of the searches on the clock (default 200)")
    p.add_argument("--json", action="store_true", help="--search: the figures as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar (--search: only the totals)")
    add_rules_option(p)
    p.set_defaults(func=_cmd_bench)
