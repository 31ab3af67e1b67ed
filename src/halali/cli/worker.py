"""``halali worker``: take a cluster's bot turns, hints and analyses from Redis (docs/deploy.md "Workers").

Any number of workers may run, on any machine that reaches the Redis of the nodes; the loop itself is
``halali.server.cluster.worker``'s. This module turns the command line into its arguments.
"""

from __future__ import annotations

import argparse
import os
import socket


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("worker", help="run bot turns and analyses for a cluster's nodes, pulled from Redis",
                       description="Pull jobs (computer players' turns, hints, analyses, luck) from the "
                                   "cluster's Redis stream and answer them; see docs/deploy.md.")
    p.add_argument("--redis", required=True, metavar="URL", help="the cluster's Redis, e.g. redis://127.0.0.1:6379/0")
    p.add_argument("--name", default=None, help="this worker's consumer name (default HOST-PID); unique per worker")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="jobs at a time, one process each (default 1)")
    p.add_argument("--claim-idle", type=float, default=10.0, metavar="SECONDS",
                   help="take over a job whose worker has been silent this long (default 10)")
    p.add_argument("--give-up", type=float, default=None, metavar="SECONDS",
                   help="exit (status 1) when Redis has been unreachable this long (default: retry for ever)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=_worker)


def _worker(args: argparse.Namespace) -> int:
    import logging

    from halali.server.cluster.worker import serve

    if args.jobs < 1 or args.claim_idle <= 0 or (args.give_up is not None and args.give_up <= 0):
        raise ValueError("--jobs must be >= 1, --claim-idle and --give-up > 0")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    return serve(args.redis, name, args.jobs, args.claim_idle, args.give_up)
