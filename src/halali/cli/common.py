"""What several subcommands share: the usage error, the forest's ``--rules`` option, the batch loop.

Kept apart from ``halali.cli`` itself so that a subcommand module never imports the main module
back (``halali.cli`` imports the subcommand modules to register them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from halali.games.errors import HalaliError
from halali.games.forest.rules import DEFAULT_RULES, Rules


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
