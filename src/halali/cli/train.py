"""``halali train``: self-play games, then the evaluation's weights fitted to how they ended.

The games and the fit are ``halali.ai.training``'s; this module plays the blocks of games that the
data folder does not hold yet (in a process pool with ``--jobs``), shows the progress, fits, and
writes the weights file with its figures.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from halali.cli.common import progress_bar


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("train", help="fit the evaluation's weights to self-play games")
    p.add_argument("--games", type=int, default=1000, help="self-play games to fit on (default 1000)")
    p.add_argument("--nodes", type=int, default=10000, help="search nodes per action in the games (default 10000)")
    p.add_argument("--seed", type=int, default=100000, help="game i is played on deal seed + i (default 100000)")
    p.add_argument("--data", default="train-data", metavar="DIR",
                   help="where the games are kept, a file per block of games; run again to go on (default train-data)")
    p.add_argument("--out", default="weights.json", metavar="FILE",
                   help="the weights file written (default weights.json)")
    p.add_argument("--lam", type=float, default=1.0,
                   help="what the fit aims at: LAM of each game's outcome, the rest the search's value (default 1)")
    p.add_argument("--strength", type=float, default=1.0,
                   help="pull towards the hand-set weights, per thousand positions (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="blocks of games played at once, in a process pool")
    p.set_defaults(func=_cmd_train)


def _cmd_train(args: argparse.Namespace) -> int:
    from halali.ai import training as T
    from halali.ai.bits import weights as E

    if args.games < T.BLOCK or args.games % T.BLOCK:
        raise ValueError(f"--games must be a multiple of {T.BLOCK}")
    if args.nodes < 100:
        raise ValueError("--nodes must be 100 or more")
    if args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    if not 0 <= args.lam <= 1:
        raise ValueError("--lam must be between 0 and 1")
    if args.strength < 0:
        raise ValueError("--strength must be 0 or more")
    out = Path(args.out)
    if not out.parent.is_dir():  # found out now, not after hours of self-play
        raise ValueError(f"cannot write {out}: {out.parent} is not a folder")
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    firsts = [args.seed + i for i in range(0, args.games, T.BLOCK)]
    _play_missing(data, [f for f in firsts if not T.block_path(data, f, args.nodes).exists()], args)
    blocks = [T.load_block(T.block_path(data, f, args.nodes)) for f in firsts]
    # Every tenth block is held out: the figures say whether the fit predicts games it never saw.
    held = T.Samples.concat(blocks[9::10])
    train = T.Samples.concat([b for i, b in enumerate(blocks) if i % 10 != 9])
    weights = T.fit(T.Samples.concat(blocks), args.lam, strength=args.strength)
    check = T.fit(train, args.lam, strength=args.strength)
    figures = {
        "games": args.games, "nodes": args.nodes, "seed": args.seed, "lam": args.lam, "strength": args.strength,
        "positions": int(len(train.targets) + len(held.targets)),
        "held_out_mse_hand_set": round(T.residual(held, E.WEIGHTS, args.lam), 3),
        "held_out_mse_fitted": round(T.residual(held, check, args.lam), 3),
    }
    print(f"{figures['positions']:,} positions from {args.games} games")
    print(f"{'weight':<12} {'hand-set':>9} {'fitted':>9}")
    for i in T.FITTED:
        print(f"{T.NAMES[i]:<12} {E.WEIGHTS[i]:>9.3f} {weights[i]:>9.3f}")
    print(f"held-out squared error per position (points^2): hand-set {figures['held_out_mse_hand_set']}, "
          f"fitted on the rest {figures['held_out_mse_fitted']}")
    T.write_weights(out, weights, figures)
    print(f"written to {args.out}")
    return 0


def _play_missing(data: Path, firsts: list[int], args: argparse.Namespace) -> None:
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    from halali.ai import training as T
    from halali.engine.lifeline import exit_with_parent

    if not firsts:
        return
    console = Console(stderr=True)
    done = args.games - len(firsts) * T.BLOCK
    if done:
        console.print(f"{done} game(s) already in {data}; playing the other {len(firsts) * T.BLOCK}")
    columns = (TextColumn("self-play games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with progress_bar(console, *columns) as bar:
        task = bar.add_task("", total=args.games, completed=done)
        if args.jobs == 1:
            for first in firsts:
                T.save_block(T.block_path(data, first, args.nodes), T.play_block(first, T.BLOCK, args.nodes))
                bar.update(task, advance=T.BLOCK)
            return
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(args.jobs, mp_context=ctx, initializer=exit_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            futures = {pool.submit(T.play_block, f, T.BLOCK, args.nodes): f for f in firsts}
            for future in as_completed(futures):
                first = futures[future]
                T.save_block(T.block_path(data, first, args.nodes), future.result())
                bar.update(task, advance=T.BLOCK)
