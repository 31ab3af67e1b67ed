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
    p.add_argument("position", nargs="*", help="a position in forest notation (face-down tiles as ?)")
    p.add_argument("--record", metavar="FILE", help="a finished game's record ('-' reads stdin); with --luck")
    p.add_argument("--luck", action="store_true", help="the luck of every reveal and each side's skill loss")
    p.add_argument("--depth", type=int, default=None, metavar="N",
                   help="search depth for --luck (default 1; fixed, so the result is repeatable)")
    p.add_argument("--annotate", metavar="OUT", help="with --luck: also write the record with the luck and the "
                   "marked mistakes as headers and {comments} to OUT")
    p.add_argument("--movetime", type=int, default=1000, metavar="MS", help="thinking time (default 1000)")
    p.add_argument("--top", type=int, default=10, help="how many actions to list (default 10)")
    p.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE", help="a rule option; repeatable")
    p.set_defaults(func=_cmd_analyse)


def _cmd_analyse(args: argparse.Namespace) -> int:
    from halali.ai.analysis import analyse_position
    from halali.games.forest.notation import parse_position
    from halali.games.forest.rules import DEFAULT_RULES

    if args.record or args.luck or args.annotate:
        if not (args.record and args.luck) or args.position:
            raise ValueError("--luck needs --record FILE and no position")
        return _cmd_luck(args)
    if not args.position:
        raise ValueError("a position is needed (or --record FILE --luck)")
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


def _cmd_luck(args: argparse.Namespace) -> int:
    from pathlib import Path

    from halali.ai.luck import DEFAULT_DEPTH, luck_of_game, record_notes
    from halali.cli.replay import read_record

    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    if depth < 1:
        raise ValueError("--depth must be 1 or more")
    record = read_record(args.record)
    g = luck_of_game(record.start(), list(record.actions), depth)
    if not record.positions()[-1].is_over():
        print("the game is not over: luck so far")
    print(f"luck of every reveal (points for the revealer, searched at depth {depth}):")
    for r in g.reveals:
        print(f"{r.ply // 2 + 1:>4}. {PLAYER_NAMES[r.player]:<5} {r.action:<8} value {r.value:+7.2f}  "
              f"expected {r.expected:+7.2f}  luck {r.luck:+7.2f}")
    for name, best in (("luckiest", g.luckiest()), ("unluckiest", g.unluckiest())):
        if best is not None:
            print(f"{name}: {best.ply // 2 + 1}. {PLAYER_NAMES[best.player]} {best.action} ({best.luck:+.2f})")
    for p in (0, 1):
        n = sum(1 for d in g.decisions if d.player == p)
        print(f"{PLAYER_NAMES[p]}: score {g.score[p]}, luck {g.luck(p):+.2f}, skill loss {g.skill_loss(p):.2f} "
              f"over {n} decisions, luck-adjusted result {g.adjusted(p):+.2f}")
    print(g.summary().text)
    if args.annotate:
        headers, comments = record_notes(g)
        record.headers.update(headers)
        record.comments = comments
        Path(args.annotate).write_text(record.format(), encoding="utf-8")
        print(f"annotated record written to {args.annotate}")
    return 0
