"""``halali replay RECORD`` and ``halali verify RECORD``: game records in the terminal."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from halali.cli.draw_forest import describe, render_board
from halali.games.errors import HalaliError
from halali.games.forest.record import Record, parse_record, verify


def read_record(path: str) -> Record:
    """A record from a file, or from stdin for ``-``."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise HalaliError(f"cannot read {path}: {exc.strerror}") from exc
    return parse_record(text)


def _show(console: Console, record: Record, ply: int) -> None:
    positions = record.positions()
    pos = positions[ply]
    view = pos if "Deal" in record.headers and pos.is_over() else pos.view()
    console.print(render_board(view))
    console.print(f"ply {ply} of {len(positions) - 1}" + (f" · {record.actions[ply - 1]}" if ply else ""))
    if not pos.is_over():
        console.print(describe(view))
    console.print(f"blue {pos.score[0]} ({pos.ntiles[0]} tiles) - brown {pos.score[1]} ({pos.ntiles[1]} tiles)")
    console.print(f"[dim]{view.fen()}[/]")


def _cmd_replay(args: argparse.Namespace) -> int:
    record = read_record(args.record)
    console = Console(highlight=False, force_terminal=None if sys.stdout.isatty() else False)
    positions = record.positions()  # validates every action before anything is shown
    last = len(positions) - 1
    if args.positions:
        for pos in positions:
            print(pos.fen())
        return 0
    for key in ("Blue", "Brown", "Date", "Result", "Score"):
        if key in record.headers:
            console.print(f"{key}: {record.headers[key]}")
    ply = last if args.ply is None else args.ply
    if not 0 <= ply <= last:
        raise HalaliError(f"--ply must be between 0 and {last}")
    _show(console, record, ply)
    if not args.step:
        return 0
    while True:
        try:
            cmd = console.input("[bold]enter[/] next, [bold]b[/] back, a number jumps, [bold]q[/] quits: ").strip()
        except EOFError:
            return 0
        if cmd in ("q", "quit"):
            return 0
        if cmd == "b":
            ply = max(0, ply - 1)
        elif cmd.isdecimal():
            ply = min(last, int(cmd))
        else:
            ply = min(last, ply + 1)
        _show(console, record, ply)


def _cmd_verify(args: argparse.Namespace) -> int:
    problems = verify(read_record(args.record))
    if problems:
        for p in problems:
            print(f"halali: verify: {p}", file=sys.stderr)
        return 1
    print("ok: the deal matches the commitment and every reveal matches the deal")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("replay", help="step through a game record in the terminal")
    p.add_argument("record", help="a record file (docs/record.md), or - for standard input")
    p.add_argument("--ply", type=int, default=None, help="show the position after this many actions")
    p.add_argument("--step", action="store_true", help="step forwards and backwards interactively")
    p.add_argument("--positions", action="store_true", help="print every position in notation, one per line")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("verify", help="check a finished record's fair-deal commitment")
    p.add_argument("record")
    p.set_defaults(func=_cmd_verify)
