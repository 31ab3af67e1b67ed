"""``halali bot``: run a bot account on a server, its moves from an engine (docs/bots.md).

The bridge itself is ``halali.engine.bridge``; this module reads the owner's policy from the options
and runs it until it is interrupted (Ctrl-C or SIGTERM end it cleanly, engines included).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys

from halali.games.forest.rules import DEFAULT_RULES, parse_options

MODES = ("live", "correspondence")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bot", help="play a bot account's games on a server with an engine (docs/bots.md)",
                       description="Connect a bot account to a Halali! server with its API token, accept the "
                                   "challenges that fit, and play every game it is seated at with an engine "
                                   "that speaks the engine protocol (docs/engine-protocol.md).",
                       epilog="example: halali bot --server http://127.0.0.1:8000 --token hal_... -- "
                              "halali engine --level 3")
    p.add_argument("--server", required=True, help="the server's address, e.g. https://halali.example")
    p.add_argument("--token", default=None,
                   help="the bot account's API token (default: the HALALI_BOT_TOKEN environment variable)")
    rated = p.add_mutually_exclusive_group()
    rated.add_argument("--accept-rated", dest="rated", action="store_true", default=True,
                       help="accept rated challenges as well as unrated ones (the default)")
    rated.add_argument("--unrated", dest="rated", action="store_false", help="accept unrated challenges only")
    p.add_argument("--modes", default=",".join(MODES), help="the modes to accept, comma-separated (default: both)")
    p.add_argument("--max-games", type=int, default=4, help="games at once taken on by challenge (default 4)")
    p.add_argument("--rules", nargs="+", default=[], metavar="KEY=VALUE",
                   help="rule options a challenge must have, e.g. match=single stall_limit=30")
    p.add_argument("--movetime", type=float, default=1.0, help="seconds per action without a clock (default 1)")
    p.add_argument("--tournament", action="append", default=[], metavar="ID",
                   help="enter this tournament on connecting (repeatable); its games are played as they come")
    p.add_argument("--verbose", "-v", action="store_true", help="say what the bot does, on stderr")
    p.add_argument("engine", nargs=argparse.REMAINDER, help="-- and the engine's command line")
    p.set_defaults(func=_cmd_bot)


def _policy(args: argparse.Namespace) -> object:
    from halali.engine.bridge import Policy

    modes = frozenset(m.strip() for m in args.modes.split(",") if m.strip())
    if not modes or not modes <= set(MODES):
        raise ValueError(f"--modes takes {' and '.join(MODES)}, comma-separated")
    if args.max_games < 1:
        raise ValueError("--max-games must be 1 or more")
    if args.movetime <= 0:
        raise ValueError("--movetime must be more than 0")
    rules = parse_options(args.rules)
    DEFAULT_RULES.with_options(rules)  # an unknown option or value is an error now, not a silent mismatch
    return Policy(rated=args.rated, modes=modes, max_games=args.max_games, rules=rules, movetime=args.movetime)


def _cmd_bot(args: argparse.Namespace) -> int:
    from halali.engine.bridge import Bridge, TokenRefused

    engine = args.engine[1:] if args.engine[:1] == ["--"] else args.engine
    if not engine:
        raise ValueError("give the engine's command after --, e.g. -- halali engine --level 3")
    token = args.token or os.environ.get("HALALI_BOT_TOKEN")
    if not token:
        raise ValueError("give the bot account's API token with --token or HALALI_BOT_TOKEN")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="halali bot: %(message)s")
    bridge = Bridge(args.server, token, engine, _policy(args), args.tournament)  # type: ignore[arg-type]
    probe = bridge.new_engine()  # an engine that cannot start is one line now, not at the first game
    try:
        probe.start()
    finally:
        probe.close()

    async def main() -> None:
        task = asyncio.ensure_future(bridge.run())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await task

    try:
        asyncio.run(main())
    except TokenRefused:
        print("halali bot: the server refused the token (unknown or revoked)", file=sys.stderr)
        return 1
    return 0
