"""``halali puzzles``: make puzzles by self-play, export and import them (docs/puzzles.md).

``generate`` plays games against itself in a process pool, mines each for puzzles (proven in the
final phase, judged at two depths before it) and adds them to the site's database, with a progress
bar and the figures at the end. ``export`` writes every stored puzzle as a JSON line, ``import``
reads such lines back (each one checked against the rules first).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from halali.cli.common import progress_bar


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("puzzles", help="make, export and import puzzles")
    cmds = p.add_subparsers(dest="puzzles_command", metavar="SUBCOMMAND", parser_class=type(p))
    g = cmds.add_parser("generate", help="play games against itself and keep the puzzles found in them")
    g.add_argument("--games", type=int, required=True, help="self-play games to play and mine")
    g.add_argument("--seed", type=int, default=None,
                   help="game i is played on the deal of seed + i (default: a random seed, printed)")
    g.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games played at once (default: cores)")
    g.add_argument("--proof-nodes", type=int, default=None, metavar="N",
                   help="search nodes a proof or a verdict may take before its position is left out")
    _db_options(g)
    g.set_defaults(func=_generate)
    m = cmds.add_parser("mine", help="find puzzles in the site's finished games not looked at yet")
    m.add_argument("--games", type=int, default=100, help="finished games to look at, oldest first (default 100)")
    m.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games mined at once (default: cores)")
    m.add_argument("--proof-nodes", type=int, default=None, metavar="N",
                   help="search nodes a proof or a verdict may take before its position is left out")
    _db_options(m)
    m.set_defaults(func=_mine)
    e = cmds.add_parser("export", help="write every puzzle as a JSON line")
    e.add_argument("file", metavar="FILE", help="the file to write ('-': standard output)")
    _db_options(e)
    e.set_defaults(func=_export)
    i = cmds.add_parser("import", help="add the puzzles of a JSON lines file (as export writes them)")
    i.add_argument("file", metavar="FILE", help="the file to read ('-': standard input)")
    _db_options(i)
    i.set_defaults(func=_import)

    def usage(args: argparse.Namespace) -> int:
        p.print_help()
        return 0

    p.set_defaults(func=usage)


def _db_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", type=Path, default=Path("data"), help="folder of the SQLite database (default ./data)")
    p.add_argument("--db", default=None, metavar="URL", help="database URL instead of the SQLite file in --data")


def _store(args: argparse.Namespace) -> Any:
    from halali.server.settings import Settings
    from halali.store import Store

    return Store(Settings(data_dir=args.data, db_url=args.db).database_url())


def _generate(args: argparse.Namespace) -> int:
    import multiprocessing
    import secrets
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from halali.engine.lifeline import exit_with_parent
    from halali.puzzles.mine import Budget
    from halali.puzzles.selfplay import GameResult, generate
    from halali.server.puzzles.records import to_store

    if args.games < 1:
        raise ValueError("--games must be 1 or more")
    if args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    if args.proof_nodes is not None and args.proof_nodes < 1000:
        raise ValueError("--proof-nodes must be 1000 or more")
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    budget = Budget() if args.proof_nodes is None else Budget(args.proof_nodes, args.proof_nodes)
    store = _store(args)
    console = Console(stderr=True)
    console.print(f"self-play games {seed} to {seed + args.games - 1}, {args.jobs} at a time")
    start = time.perf_counter()
    found: list[GameResult] = []
    added = 0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        with progress_bar(console, *columns) as bar:
            task = bar.add_task("games", total=args.games)

            def done(result: GameResult) -> None:
                nonlocal added
                found.append(result)
                added += store.add_puzzles([to_store(p) for p in result.puzzles])
                proven = sum(p.proven for r in found for p in r.puzzles)
                bar.update(task, advance=1, description=f"games: {added} puzzles, {proven} proven")

            seeds = [seed + i for i in range(args.games)]
            if args.jobs == 1:
                for s in seeds:
                    done(generate(s, budget))
            else:
                ctx = multiprocessing.get_context("spawn")
                with ProcessPoolExecutor(args.jobs, mp_context=ctx, initializer=exit_with_parent,
                                         initargs=(os.getpid(),)) as pool:
                    for future in as_completed([pool.submit(generate, s, budget) for s in seeds]):
                        done(future.result())
    finally:
        store.close()
    seconds = time.perf_counter() - start
    puzzles = [p for r in found for p in r.puzzles]
    proven = sum(p.proven for p in puzzles)
    themes: dict[str, int] = {}
    for p in puzzles:
        for t in p.themes:
            themes[t] = themes.get(t, 0) + 1
    share = f"{proven / len(puzzles):.0%}" if puzzles else "-"
    print(f"games:      {len(found)} ({sum(r.plies for r in found):,} positions, "
          f"{sum(r.tried for r in found):,} tried)")
    print(f"puzzles:    {len(puzzles)} found, {added} new in the database")
    print(f"proven:     {proven} ({share}); judged: {len(puzzles) - proven}")
    print("themes:     " + (", ".join(f"{t} {n}" for t, n in sorted(themes.items(), key=lambda x: -x[1])) or "-"))
    print(f"time:       {seconds:.1f} s ({seconds / max(1, len(puzzles)):.2f} s per puzzle), load average "
          f"{os.getloadavg()[0]:.2f}")
    return 0


def _mine_one(game_id: int, deal: str, actions: list[str], rules: list[str], nodes: int | None,
              margins: dict[int, float] | None) -> list[Any]:
    """One site game's puzzles (a unit of work for the process pool); ``margins`` from its stored
    analysis, if it has one (else the miner searches them)."""
    from halali.games.forest.rules import DEFAULT_RULES
    from halali.puzzles.games import puzzles_of_site_game
    from halali.puzzles.mine import Budget

    budget = Budget() if nodes is None else Budget(nodes, nodes)
    return puzzles_of_site_game(game_id, deal, actions, DEFAULT_RULES.with_options(rules), budget, margins)


def _mine(args: argparse.Namespace) -> int:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from halali.engine.lifeline import exit_with_parent
    from halali.puzzles.games import stored_margins
    from halali.server.puzzles.records import to_store

    if args.games < 1:
        raise ValueError("--games must be 1 or more")
    if args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    store = _store(args)
    start = time.perf_counter()
    found = added = mined = analysed = 0
    try:
        work = []
        for game_id in store.games_to_mine(args.games):
            detail = store.game_detail(game_id)
            rules = [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in detail.rules.items()
                     if k in ("green_lock", "no_return_neutrals", "stall_limit")]
            stored = store.game_analysis(game_id)
            margins = stored_margins(stored.data["plies"]) if stored is not None else None
            analysed += stored is not None
            work.append((game_id, detail.deal, list(detail.actions), rules, args.proof_nodes, margins))
        console = Console(stderr=True)
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with progress_bar(console, *columns) as bar:
            task = bar.add_task("games", total=len(work))

            def done(game_id: int, puzzles: list[Any]) -> None:
                nonlocal found, added, mined
                added += store.add_puzzles([to_store(p) for p in puzzles])
                store.mark_mined(game_id, len(puzzles))
                found += len(puzzles)
                mined += 1
                bar.update(task, advance=1, description=f"games: {found} puzzles")

            if args.jobs == 1 or len(work) < 2:
                for item in work:
                    done(item[0], _mine_one(*item))
            else:
                ctx = multiprocessing.get_context("spawn")
                with ProcessPoolExecutor(args.jobs, mp_context=ctx, initializer=exit_with_parent,
                                         initargs=(os.getpid(),)) as pool:
                    futures = {pool.submit(_mine_one, *item): item[0] for item in work}
                    for future in as_completed(futures):
                        done(futures[future], future.result())
    finally:
        store.close()
    print(f"games:      {mined} mined ({analysed} with the margins of their stored analysis)")
    print(f"puzzles:    {found} found, {added} new in the database")
    print(f"time:       {time.perf_counter() - start:.1f} s")
    return 0


def _export(args: argparse.Namespace) -> int:
    from halali.server.puzzles.records import from_store

    store = _store(args)
    out = sys.stdout if args.file == "-" else open(args.file, "w", encoding="utf-8")  # noqa: SIM115
    n = 0
    try:
        after = 0
        while page := store.puzzles_page(after):
            for rec in page:
                out.write(from_store(rec).to_json() + "\n")
                n += 1
            after = page[-1].id
    finally:
        if out is not sys.stdout:
            out.close()
        store.close()
    print(f"{n} puzzles written to {args.file}", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    from halali.games.errors import HalaliError
    from halali.puzzles.model import Puzzle
    from halali.server.puzzles.records import to_store

    source = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")  # noqa: SIM115
    puzzles = []
    try:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                puzzles.append(Puzzle.from_json(line))
            except HalaliError as exc:
                raise ValueError(f"{args.file}, line {number}: {exc}") from None
    finally:
        if source is not sys.stdin:
            source.close()
    store = _store(args)
    try:
        added = store.add_puzzles([to_store(p) for p in puzzles])
    finally:
        store.close()
    print(f"{len(puzzles)} puzzles read, {added} new in the database")
    return 0
