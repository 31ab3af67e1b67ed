"""The ``halali`` command. Thin: it parses arguments and hands over to the parts.

Every subcommand reports bad input as one line on stderr with exit status 2, never a traceback.
Subcommands of other parts (engine, arena, serve, ...) live in their part's ``commands`` module and
register themselves through ``register(subparsers)``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from halali.games.errors import HalaliError
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position, perft
from halali.games.forest.rules import DEFAULT_RULES, Rules

# Parts that add subcommands; a missing module is skipped so the core command always works.
COMMAND_MODULES = ("halali.play", "halali.bench", "halali.replay", "halali.ai.commands", "halali.engine.commands",
                   "halali.server.commands", "halali.store.commands", "halali.hare_commands")


class UsageError(HalaliError):
    """Bad command-line input."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, status 2, as argparse itself does
        self.exit(2, f"halali: error: {message}\n")


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", action="append", default=[], metavar="KEY=VALUE",
        help="a rule option (green_lock, no_return_neutrals, stall_limit, match); repeatable",
    )


def add_game_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=("forest", "hare"), default="forest",
                        help="forest (default) or hare, the 1997 hare hunt (docs/hare.md)")
    parser.add_argument("--players", type=int, default=None, help="hare hunt only: 2..6 players (default 3)")


def hare_handler(name: str) -> Callable[[argparse.Namespace], int]:
    """The hare hunt's implementation of a shared verb, imported only when asked for."""

    def run(args: argparse.Namespace) -> int:
        from halali import hare_commands as commands

        return int(getattr(commands, f"{name}_main")(args))

    return run


def _for_game(name: str, forest: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        if getattr(args, "game", "forest") == "hare":
            return hare_handler(name)(args)
        if getattr(args, "players", None) not in (None, 2):
            raise UsageError("the forest game is for 2 players; --players is for --game hare")
        return forest(args)

    return run


def rules_from(args: argparse.Namespace) -> Rules:
    return DEFAULT_RULES.with_options(getattr(args, "rules", []) or [])


def _cmd_new(args: argparse.Namespace) -> int:
    print(Position.deal(rules_from(args), seed=args.seed).fen())
    return 0


def _legal_line(text: str, rules: Rules) -> str:
    pos = parse_position(text.strip(), rules)
    return " ".join(sorted(pos.action_str(a) for a in pos.legal_actions()))


def _cmd_legal(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    if args.position is not None:
        print(_legal_line(" ".join(args.position), rules))
        return 0
    return batch(lambda line: _legal_line(line, rules))


def _apply_line(position: str, actions: Sequence[str], rules: Rules) -> str:
    pos = parse_position(position.strip(), rules)
    for text in actions:
        pos.play(text)
    return pos.fen()


def _cmd_apply(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    if args.position is not None:
        return _print(_apply_line(args.position, args.actions, rules))

    def one(line: str) -> str:
        position, sep, actions = line.partition(";")
        if not sep:
            raise UsageError(f"expected 'POSITION ; ACTION ...', got {line.strip()!r}")
        return _apply_line(position, actions.split(), rules)

    return batch(one)


def _cmd_perft(args: argparse.Namespace) -> int:
    pos = parse_position(args.position, rules_from(args))
    if not pos.knows_deal():
        raise UsageError("perft needs a position that knows the deal (lowercase letters, no '?')")
    if args.depth < 0:
        raise UsageError("depth must be 0 or more")
    print(perft(pos, args.depth))
    return 0


def _print(text: str) -> int:
    print(text)
    return 0


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


CORE_COMMANDS = ("new", "legal", "apply", "perft")


def build_parser(core_only: bool = False) -> argparse.ArgumentParser:
    """The parser; ``core_only`` skips the other parts' commands, whose imports (search kernel,
    server, database) would cost a tool calling ``halali legal`` thousands of times a second each."""
    parser = _Parser(prog="halali", description="Halali! - the forest game: rules, bots, server.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("new", help="print the full position of a fresh deal")
    p.add_argument("--seed", type=int, default=None, help="deal from this seed instead of the secure source")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=_for_game("new", _cmd_new))

    p = sub.add_parser("legal", help="print the legal actions (reads positions from stdin without argument)")
    p.add_argument("position", nargs="*", default=None, help="a position in forest notation")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=_for_game("legal", _cmd_legal))

    p = sub.add_parser("apply", help="print the position after the actions (batch from stdin)")
    p.add_argument("position", nargs="?", default=None)
    p.add_argument("actions", nargs="*")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=_for_game("apply", _cmd_apply))

    p = sub.add_parser("perft", help="count the action sequences of a given length")
    p.add_argument("position")
    p.add_argument("depth", type=int)
    add_rules_option(p)
    p.set_defaults(func=_cmd_perft)

    for name in () if core_only else COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that part is not installed / not written
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(core_only=command in CORE_COMMANDS)
    args = parser.parse_args(argv)
    if args.command == "legal" and args.position == []:
        args.position = None
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except HalaliError as exc:
        print(f"halali: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"halali: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
