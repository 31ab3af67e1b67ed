"""The ``halali`` command. Thin: it parses arguments and hands over to the subcommand modules.

Every subcommand reports bad input as one line on stderr with exit status 2, never a traceback.
Each module of this package named in ``COMMAND_MODULES`` adds its subcommands through
``register(subparsers)``; they are imported here and never import this module back (what they
share is in ``halali.cli.common``). Nothing outside this package imports it: the command line
sits on top of the rules, the bots and the server, not beside them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from halali.cli import positions

# The modules that add subcommands, in the order ``halali --help`` lists them (after the core commands).
COMMAND_MODULES = ("halali.cli.play", "halali.cli.bench", "halali.cli.replay", "halali.cli.analyse",
                   "halali.cli.engine", "halali.cli.arena", "halali.cli.tournament", "halali.cli.serve",
                   "halali.cli.worker", "halali.cli.hare", "halali.cli.bot", "halali.cli.train",
                   "halali.cli.puzzles")
CORE_COMMANDS = positions.COMMANDS


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, status 2, as argparse itself does
        self.exit(2, f"halali: error: {message}\n")


def build_parser(core_only: bool = False) -> argparse.ArgumentParser:
    """The parser; ``core_only`` skips the other subcommands, whose imports (search kernel,
    server, database) would cost a tool calling ``halali legal`` thousands of times a second each."""
    parser = _Parser(prog="halali", description="Halali! - the forest game: rules, bots, server.")
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser)
    positions.register(sub)
    for name in () if core_only else COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(core_only=command in CORE_COMMANDS)
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
