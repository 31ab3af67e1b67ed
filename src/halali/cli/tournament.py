"""``halali tournament``: a Swiss or round-robin event of engines and levels on this machine.

The event itself is ``halali.engine.event``'s (the arena's matches, paired by ``halali.tournament``);
this module turns the command line into an ``Event``, shows the progress on stderr and prints the
standings, the crosstable and the ratings on stdout as plain aligned text, which reads the same in a
terminal, a log file and a test.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from halali.ai.registry import level_of
from halali.cli.common import add_rules_option, progress_bar, rules_from

if TYPE_CHECKING:  # imported when the event is played: the arena's modules are heavy
    from halali.engine.event import Event, Played
    from halali.tournament import Result


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("tournament", help="a Swiss or round-robin event of engines and levels, two-game matches")
    p.add_argument("--engine", action="append", dest="players", type=lambda s: ("engine", s), metavar="COMMAND",
                   help="an outside engine command (engine protocol); repeatable, plays as engine1, engine2 ...")
    p.add_argument("--level", action="append", dest="players", type=lambda s: ("level", s), metavar="LEVEL",
                   help="one of the site's levels (1..6 or a name); repeatable. Players are seeded in the order "
                        "their --engine and --level options are given")
    p.add_argument("--rounds", type=int, default=None,
                   help="rounds to play (Swiss: needed; round robin: one whole cycle by default)")
    p.add_argument("--format", choices=("swiss", "round-robin"), default="swiss", help="pairing (default swiss)")
    p.add_argument("--jobs", type=int, default=1, help="matches played at once, in a process pool")
    p.add_argument("--movetime", type=int, default=1000, metavar="MS",
                   help="milliseconds per action (default 1000); later than MS + grace loses the match")
    p.add_argument("--grace", type=int, default=100, metavar="MS",
                   help="an answer later than movetime + MS loses (default 100, the protocol's)")
    p.add_argument("--nodes", type=int, default=None, help="also pass a node budget with every go")
    p.add_argument("--seed", type=int, default=1, help="round r is played on deal seed + r - 1 (default 1)")
    p.add_argument("--out", default=None, metavar="FILE.jsonl", help="append each finished match to FILE")
    p.add_argument("--resume", action="store_true", help="continue the event whose matches --out FILE holds")
    add_rules_option(p)
    p.set_defaults(func=_cmd_tournament)


def _players(raw: Sequence[tuple[str, str]] | None) -> list[tuple[str, str]]:
    """(name, arena spec) per player: engine1, engine2 ... and level3, level3-2 for a level twice."""
    out: list[tuple[str, str]] = []
    engines = 0
    for kind, text in raw or []:
        if kind == "engine":
            engines += 1
            out.append((f"engine{engines}", "cmd:" + text))
            continue
        level = level_of(text)
        name = f"level{level}"
        taken = sum(1 for n, _ in out if n == name or n.startswith(name + "-"))
        out.append((f"{name}-{taken + 1}" if taken else name, str(level)))
    return out


def _event(args: argparse.Namespace) -> Event:
    from halali.engine.event import Event, Player
    from halali.tournament import round_robin

    players = tuple(Player(name, spec) for name, spec in _players(args.players))
    if len(players) < 2:
        raise ValueError("a tournament needs at least two players (--engine COMMAND, --level LEVEL)")
    if args.movetime < 1:
        raise ValueError("--movetime must be 1 ms or more")
    if args.grace < 100:
        raise ValueError("--grace must be 100 ms (the protocol's allowance) or more")
    if args.jobs < 1:
        raise ValueError("--jobs must be 1 or more")
    rounds = args.rounds
    if rounds is None:
        if args.format == "swiss":
            raise ValueError("a Swiss event needs --rounds")
        rounds = len(round_robin([p.id for p in players]))
    return Event(players, args.format, rounds, rules_from(args), args.movetime / 1000, args.nodes, args.seed,
                 args.grace / 1000)


def _cmd_tournament(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from halali.engine.event import run

    event = _event(args)
    path = Path(args.out) if args.out else None
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    resumed = 0
    with progress_bar(console, *columns) as bar:
        task = bar.add_task(f"round 1/{event.rounds}", total=event.matches())

        def advance(played: Played) -> None:
            nonlocal resumed
            resumed += played.resumed
            bar.update(task, advance=1, description=f"round {played.round}/{event.rounds}: "
                                                    f"{_line(played)}")

        results = run(event, args.jobs, path, args.resume, advance)
    if resumed:
        console.print(f"{resumed} match(es) read from {path}, {event.matches() - resumed} played now", soft_wrap=True)
    report(event, results)
    return 0


def _line(played: Played) -> str:
    score = played.match.score
    sign = "1-0" if score == 1.0 else "0-1" if score == 0.0 else "½-½"
    return f"{played.a} {sign} {played.b}"


def _number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.2f}".rstrip("0")


def _columns(header: Sequence[str], rows: Sequence[Sequence[str]], right: Callable[[int], bool]) -> list[str]:
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    return ["  ".join(c.rjust(w) if right(i) else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))
            .rstrip() for r in (header, *rows)]


def report(event: Event, results: list[Result], write: Callable[[str], None] = print) -> None:
    """Standings with their tie-breaks, the crosstable, and the ratings fitted from every match."""
    from halali.tournament import crosstable, fit_elo

    entrants = event.entrants
    matches = [r for r in results if r.met]
    write(f"{'Swiss' if event.format == 'swiss' else 'Round robin'}, {event.rounds} round(s), "
          f"{len(event.players)} players, {len(matches)} two-game matches (one deal per round, roles swapped)")
    for p in event.players:
        write(f"  {p.id}: {p.spec[4:] if p.spec.startswith('cmd:') else 'level ' + p.spec}")
    rows = crosstable(entrants, results, event.rounds)
    write("")
    write("Standings (score, then Buchholz, games won, points scored)")
    body = [[str(r.number), str(r.rank), r.id, _number(r.score), _number(r.buchholz), _number(r.games),
             str(r.tiles), str(r.played)] for r in rows]
    for line in _columns(["#", "rank", "player", "score", "Buchholz", "games", "points", "matches"], body,
                         lambda i: i != 2):
        write(line)
    write("")
    write("Crosstable (+N won against number N, =N drawn, -N lost, f by forfeit)")
    body = [[str(r.number), r.id, *(c.text or "." for c in r.cells), _number(r.score)] for r in rows]
    header = ["#", "player", *(f"R{k}" for k in range(1, event.rounds + 1)), "score"]
    for line in _columns(header, body, lambda i: i != 1):
        write(line)
    write("")
    ratings = fit_elo([e.id for e in entrants], [(r.players[0], r.players[1], r.points[0]) for r in matches])
    write("Ratings (Elo scale, fitted from all matches; 95% interval)")
    body = [[r.id, f"{r.elo:.0f}", f"{r.low:.0f} .. {r.high:.0f}", str(r.matches), _number(r.score)]
            for r in ratings]
    for line in _columns(["player", "Elo", "95% interval", "matches", "match score"], body, lambda i: i not in (0, 2)):
        write(line)
