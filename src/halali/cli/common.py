"""What several subcommands share: the usage error, the forest's ``--rules`` option, the batch loop.

Kept apart from ``halali.cli`` itself so that a subcommand module never imports the main module
back (``halali.cli`` imports the subcommand modules to register them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from halali.games.errors import HalaliError
from halali.games.forest.rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:  # rich is imported by the commands that draw a bar, when they run
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn


class UsageError(HalaliError):
    """Bad command-line input."""


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", action="append", default=[], metavar="KEY=VALUE",
        help="a rule option (green_lock, no_return_neutrals, stall_limit, match); repeatable",
    )


def rules_from(args: argparse.Namespace) -> Rules:
    return DEFAULT_RULES.with_options(getattr(args, "rules", []) or [])


def batch(fn: Callable[[str], str]) -> int:
    """One output line per input line, so tools can pair them up.

    A bad line prints an empty output line and its error on stderr (with the line number); the
    other lines are still answered, and the exit status is then 2.
    """
    status = 0
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            print()
            continue
        try:
            out = fn(line)
        except HalaliError as exc:
            print()
            sys.stdout.flush()
            print(f"halali: error: line {number}: {exc}", file=sys.stderr)
            status = 2
            continue
        print(out)
    return status


def progress_bar(console: Console, *columns: str | ProgressColumn) -> Progress:
    """A transient bar on stderr while a long command runs; none when stderr is not a terminal (a log
    file, a pipe), which would get nothing from it but a stray blank line before an error's one line."""
    from rich.progress import Progress

    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)
