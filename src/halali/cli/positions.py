"""``halali new|legal|apply|perft``: positions and actions in notation, for people and for tools.

These are the core commands: ``halali.cli`` builds only their parser when one of them is asked
for, so this module imports nothing beyond the forest rules (no bots, no server, no ``rich``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from halali.cli.common import UsageError, add_rules_option, batch, rules_from
from halali.cli.game_option import add_game_option, for_game
from halali.games.forest.notation import parse_position
from halali.games.forest.perft import perft
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules

COMMANDS = ("new", "legal", "apply", "perft")


def _cmd_new(args: argparse.Namespace) -> int:
    print(Position.deal(rules_from(args), seed=args.seed).fen())
    return 0


def _legal_line(text: str, rules: Rules) -> str:
    pos = parse_position(text.strip(), rules)
    return " ".join(sorted(pos.action_str(a) for a in pos.legal_actions()))


def _cmd_legal(args: argparse.Namespace) -> int:
    rules = rules_from(args)
    if args.position:  # argparse gives [] for no words: then read standard input
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
        print(_apply_line(args.position, args.actions, rules))
        return 0

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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("new", help="print the full position of a fresh deal")
    p.add_argument("--seed", type=int, default=None, help="deal from this seed instead of the secure source")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=for_game("new", _cmd_new))

    p = sub.add_parser("legal", help="print the legal actions (reads positions from stdin without argument)")
    p.add_argument("position", nargs="*", default=None, help="a position in forest notation")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=for_game("legal", _cmd_legal))

    p = sub.add_parser("apply", help="print the position after the actions (batch from stdin)")
    p.add_argument("position", nargs="?", default=None)
    p.add_argument("actions", nargs="*")
    add_rules_option(p)
    add_game_option(p)
    p.set_defaults(func=for_game("apply", _cmd_apply))

    p = sub.add_parser("perft", help="count the action sequences of a given length")
    p.add_argument("position")
    p.add_argument("depth", type=int)
    add_rules_option(p)
    p.set_defaults(func=_cmd_perft)
