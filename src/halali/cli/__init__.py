"""The ``halali`` command. Thin: it parses arguments and hands over to the subcommand modules.

Every subcommand reports bad input as one line on stderr with exit status 2, never a traceback.
Each module of this package named in ``COMMAND_MODULES`` adds its subcommands through
``register(subparsers)``; they are imported here (only the one a command needs) and never import
this module back (what they share is in ``halali.cli.common``). Nothing outside this package
imports it: the command line sits on top of the rules, the bots and the server, not beside them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from halali.cli import positions

# The modules that add subcommands, in the order ``halali --help`` lists them (after the core commands),
# with the commands each adds (``tests/cli`` checks that they say so truly).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "halali.cli.play": ("play",), "halali.cli.bench": ("bench",), "halali.cli.replay": ("replay", "verify"),
    "halali.cli.analyse": ("analyse", "analyze"), "halali.cli.engine": ("engine",), "halali.cli.arena": ("arena",),
    "halali.cli.tournament": ("tournament",), "halali.cli.serve": ("serve",), "halali.cli.worker": ("worker",),
    "halali.cli.hare": ("hare",), "halali.cli.bot": ("bot",), "halali.cli.train": ("train",),
    "halali.cli.puzzles": ("puzzles",),
}
CORE_COMMANDS = positions.COMMANDS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, status 2, as argparse itself does
        self.exit(2, f"halali: error: {message}\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or (given a known ``command``) of the core commands and that
    one only: the others' modules import the search, the server or the database, which a tool calling
    ``halali legal`` thousands of times, or each of a test run's hundreds of servers and engines,
    would pay for at every start."""
    parser = _Parser(prog="halali", description="Halali! - the forest game: rules, bots, server.")
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser)
    positions.register(sub)
    known = command in CORE_COMMANDS or any(command in names for names in COMMAND_MODULES.values())
    for name, names in COMMAND_MODULES.items():
        if not known or command in names:
            importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(command)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:  # HalaliError is a ValueError
        return _error(exc)
    except Exception as exc:
        if not _bad_input(exc):
            raise
        return _error(exc)


def _error(exc: BaseException) -> int:
    """The one line a command's bad input gets (a long message, such as a driver's, keeps its first)."""
    lines = [line for line in str(exc).splitlines() if line.strip()] or [type(exc).__name__]
    print(f"halali: error: {lines[0]}", file=sys.stderr)
    return 2


def _bad_input(exc: Exception) -> bool:
    """Failures that are the command line's bad input like a missing file: an engine that cannot be
    started or answers nonsense from the start (one that fails mid-game only loses its match), and a
    database URL that names no database or one that cannot be reached. Imported here, not at the top,
    so that the core commands start without these modules."""
    from sqlalchemy.exc import ArgumentError, OperationalError

    from halali.engine.client import EngineError

    return isinstance(exc, (EngineError, ArgumentError, OperationalError))


__all__ = ["build_parser", "main"]
