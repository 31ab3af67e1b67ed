"""``halali analyse``: the value of a position and of its best actions.

The search is ``halali.ai.analysis``'s (imported only when the command runs, it loads the compiled
kernel); this module reads the position from the command line and prints the result.
"""

from __future__ import annotations

import argparse

from halali.games.forest.tiles import PLAYER_NAMES


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("analyse", aliases=["analyze"],
                       help="evaluate a position and list its best actions with their values")
    p.add_argument("position", nargs="+", help="a position in forest notation (face-down tiles as ?)")
    p.add_argument("--movetime", type=int, default=1000, metavar="MS", help="thinking time (default 1000)")
    p.add_argument("--top", type=int, default=10, help="how many actions to list (default 10)")
    p.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE", help="a rule option; repeatable")
    p.set_defaults(func=_cmd_analyse)


def _cmd_analyse(args: argparse.Namespace) -> int:
    from halali.ai.analysis import analyse_position
    from halali.games.forest.notation import parse_position
    from halali.games.forest.rules import DEFAULT_RULES

    if args.movetime < 1:
        raise ValueError("--movetime must be 1 ms or more")
    if args.top < 1:
        raise ValueError("--top must be 1 or more")
    pos = parse_position(" ".join(args.position), DEFAULT_RULES.with_options(args.rules))
    if pos.is_over():
        print(f"the game is over: blue {pos.score[0]}, brown {pos.score[1]}")
        return 0
    result = analyse_position(pos, args.movetime / 1000)
    who = PLAYER_NAMES[pos.turn]
    print(f"position: {pos.view().fen()}")
    print(f"evaluation: {result.score:+.2f} (expected final score difference for {who}, to move)")
    print(f"search: depth {result.depth}, {result.nodes:,} nodes in {result.seconds:.2f} s "
          f"({result.nps:,.0f} nodes/s)")
    print("best actions:")
    width = max(len(a) for a, _ in result.actions[:args.top])
    for i, (action, value) in enumerate(result.actions[:args.top], 1):
        print(f"{i:>3}. {action:<{width}}  {value:+.2f}")
    return 0
