"""``halali arena``: engines play two-game matches against each other, and the result is rated.

The matches themselves are ``halali.engine.arena``'s; this module turns the command line into its
``Settings``, shows the progress on stderr and keeps the results file.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from halali.ai.registry import level_of
from halali.cli.common import progress_bar
from halali.games.forest.rules import DEFAULT_RULES

if TYPE_CHECKING:  # imported when a match is played: the arena's modules are heavy
    from halali.engine.arena import MatchResult, Settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("arena", help="play two-game matches between two engines and rate the result")
    p.add_argument("bot_a", metavar="BOT_A", help="a level (1..6 or a name), or 'engine' for the --engine command")
    p.add_argument("bot_b", metavar="BOT_B", help="the same for the other side")
    p.add_argument("--matches", type=int, default=10, help="number of two-game matches (default 10)")
    p.add_argument("--movetime", type=int, default=1000, metavar="MS",
                   help="milliseconds per action (default 1000); later than MS+100 loses")
    p.add_argument("--nodes", type=int, default=None, help="also pass a node budget with every go")
    p.add_argument("--grace", type=int, default=100, metavar="MS",
                   help="an answer later than movetime + MS loses (default 100, the protocol's; more only to "
                        "measure strength on a busy machine, late answers are still counted)")
    p.add_argument("--jobs", type=int, default=1, help="matches played at once, in a process pool")
    p.add_argument("--engine", action="append", default=[], metavar="COMMAND",
                   help="an outside engine command; BOT 'engine' (or engine1, engine2...) plays it")
    p.add_argument("--seed", type=int, default=1, help="deal of match i is seed + i (default 1)")
    p.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE", help="a rule option; repeatable")
    p.add_argument("--results", default=None, metavar="FILE",
                   help="append each finished match to FILE (JSON lines); run again with the same FILE "
                        "and settings to continue where it stopped")
    p.add_argument("--report", action="store_true",
                   help="with --results: only report on the matches FILE holds, play none")
    p.set_defaults(func=_cmd_arena)


def _spec(text: str, engines: list[str]) -> str:
    """A bot argument as the arena knows it: a level number, or ``cmd:COMMAND``."""
    if text.startswith("engine"):
        rest = text[len("engine"):]
        if rest and not rest.isdecimal():
            raise ValueError(f"unknown bot {text!r}: write engine, engine1, engine2 ... for the --engine commands")
        number = int(rest or 1)
        if not 1 <= number <= len(engines):
            raise ValueError(f"{text!r} needs at least {number} --engine COMMAND option(s)")
        return "cmd:" + engines[number - 1]
    return str(level_of(text))


def _cmd_arena(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from halali.engine.arena import Settings, report, run_matches
    from halali.engine.results import append_result, load_results

    if args.matches < 1:
        raise ValueError("--matches must be 1 or more")
    if args.movetime < 1:
        raise ValueError("--movetime must be 1 ms or more")
    if args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    if args.grace < 100:
        raise ValueError("--grace must be 100 ms (the protocol's allowance) or more")
    settings = Settings(
        _spec(args.bot_a, args.engine), _spec(args.bot_b, args.engine), DEFAULT_RULES.with_options(args.rules),
        args.movetime / 1000, args.nodes, args.seed, args.grace / 1000,
    )
    path = Path(args.results) if args.results else None
    if args.report and path is None:
        raise ValueError("--report needs --results FILE")
    results = [r for r in load_results(path, settings) if r.index < args.matches] if path else []
    done = frozenset(r.index for r in results)
    if args.report:
        if not results:
            raise ValueError(f"{path} holds no match played with these settings")
        report(settings, sorted(results, key=lambda r: r.index))
        return 0
    console = Console(stderr=True)
    if done:
        console.print(f"{len(done)} match(es) already in {path}; playing the other {args.matches - len(done)}")
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn())
    with progress_bar(console, *columns) as bar:
        task = bar.add_task(_progress_text(settings, results), total=args.matches, completed=len(done))
        if len(done) < args.matches:
            for result in run_matches(settings, args.matches, args.jobs, skip=done):
                if path:
                    append_result(path, settings, result)
                results.append(result)
                bar.update(task, advance=1, description=_progress_text(settings, results))
    results.sort(key=lambda r: r.index)
    report(settings, results)
    return 0


def _progress_text(settings: Settings, results: list[MatchResult]) -> str:
    w = sum(1 for r in results if r.score == 1.0)
    d = sum(1 for r in results if r.score == 0.5)
    n = len(results)
    rate = f" {(w + d / 2) / n:.0%}" if n else ""
    return f"A {settings.spec_a} vs B {settings.spec_b}: +{w} ={d} -{n - w - d}{rate}"
