"""``halali engine``: one bot speaking the engine protocol (docs/engine-protocol.md) on stdin/stdout.

The protocol itself is ``halali.engine.session``'s; this module only wires it to the process's
streams, so that an arena or an outside program can run ``halali engine`` as a child process.
"""

from __future__ import annotations

import argparse
import sys

from halali.ai.registry import NAMES, level_of, strongest_level


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("engine", help="speak the engine protocol on stdin/stdout (docs/engine-protocol.md)",
                       description="One bot speaking the engine protocol on stdin/stdout, a line protocol in "
                                   "the spirit of chess's UCI; it is described in docs/engine-protocol.md.")
    p.add_argument("--level", default=None,
                   help=f"bot level 1..{strongest_level()} or a name ({', '.join(NAMES)}); strongest when omitted")
    p.set_defaults(func=_cmd_engine)


def _cmd_engine(args: argparse.Namespace) -> int:
    from halali.engine.session import EngineSession

    level = None if args.level is None else level_of(args.level)

    def write(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    session = EngineSession(write, level)
    for line in sys.stdin:
        if not session.handle(line):
            return 0
    session.handle("quit")  # end of input: stop any search and leave
    return 0
