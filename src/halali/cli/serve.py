"""``halali serve``: the game server with the web page on one port.

The server is ``halali.server.app``'s, its settings ``halali.server.settings``'s; this module turns the
command line into those settings and runs the app under uvicorn (imported only when serving). It
listens and says where before anything slow: the app is imported after, and the computer's search is
compiled in the background (``halali.server.kernel_process``), never before the first answer.
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the game server and web page")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--data", type=Path, default=Path("data"), help="folder for the SQLite database (default ./data)")
    p.add_argument("--db", default=None, metavar="URL", help="database URL instead of the SQLite file in --data")
    p.add_argument("--bot-movetime", type=float, default=0.5, metavar="SECONDS",
                   help="thinking time of computer players (default 0.5)")
    p.add_argument("--bot-delay", type=float, default=0.3, metavar="SECONDS",
                   help="least time between two computer actions (default 0.3)")
    p.add_argument("--bot-workers", type=int, default=None,
                   help="processes for computer players and game analyses (default: one per core, at most 8)")
    p.add_argument("--max-rate", type=float, default=50.0, metavar="N",
                   help="messages per second one WebSocket may send, sustained (default 50)")
    p.add_argument("--allowed-origin", action="append", default=[], metavar="URL",
                   help="another origin allowed to post and open WebSockets, e.g. https://halali.example "
                        "behind a proxy (repeatable)")
    p.add_argument("--secure-cookies", action="store_true", help="mark the session cookie Secure (behind https)")
    p.add_argument("--tables-per-address", type=int, default=None, metavar="N",
                   help="open tables one address may have created (default 20; 0: no limit, e.g. behind a proxy "
                        "that hides the clients' addresses)")
    p.add_argument("--redis", default=None, metavar="URL",
                   help="run as one node of a cluster: events, inboxes and bot jobs (played by `halali worker`s) "
                        "on this Redis "
                        "(redis://host:6379/0); needs --db postgresql+psycopg://... (docs/deploy.md)")
    p.add_argument("--node-id", default=None, metavar="NAME", help="this node's name in the cluster "
                   "(default: host name and process id)")
    p.add_argument("--lease-ttl", type=float, default=None, metavar="SECONDS",
                   help="with --redis: how long a table's lease lives unless renewed, so how soon another node "
                        "takes over the tables of a node that died (default 5)")
    p.add_argument("--tournament-director", action="store_true",
                   help="with --redis: this node begins the tournaments' rounds and takes their results in "
                        "(exactly one node of a cluster should; a single server always does)")
    p.add_argument("--arena-minutes", type=float, default=60.0, metavar="MINUTES",
                   help="minutes between two rated matches of neighbouring computer levels, which keep the "
                        "arena's ladder of the levels (default 60; 0: none)")
    p.add_argument("--no-background-analysis", dest="background_analysis", action="store_false",
                   help="analyse only the games someone asks for, not every finished game as it ends "
                        "(a machine that must keep its processes for play)")
    p.add_argument("--analysis-nodes", type=int, default=None, metavar="N",
                   help="nodes a game's analysis searches per position before it stops deepening (default "
                        "50000; fewer: quicker, shallower analyses on a small machine)")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    from halali.server.settings import Settings

    if args.tables_per_address is not None and args.tables_per_address < 0:
        raise ValueError("--tables-per-address must be >= 0")
    if not 0 < args.port < 65536:
        raise ValueError(f"port must be 1..65535, not {args.port}")
    bad_workers = args.bot_workers is not None and args.bot_workers < 1
    if args.bot_movetime <= 0 or args.bot_delay < 0 or bad_workers or args.max_rate <= 0:
        raise ValueError("--bot-movetime and --max-rate must be > 0, --bot-delay >= 0, --bot-workers >= 1")
    if args.analysis_nodes is not None and args.analysis_nodes < 1:
        raise ValueError("--analysis-nodes must be >= 1")
    if args.redis and not (args.db or "").startswith("postgresql"):
        raise ValueError("--redis needs --db postgresql+psycopg://...: the nodes share one database")
    settings = Settings.from_env(data_dir=args.data, db_url=args.db, bot_movetime=args.bot_movetime,
                                 redis_url=args.redis, node_id=args.node_id, lease_ttl=args.lease_ttl,
                                 tournament_director=args.tournament_director or None,
                                 arena_every=args.arena_minutes * 60 if args.arena_minutes >= 0 else None,
                                 bot_delay=args.bot_delay, bot_workers=args.bot_workers,
                                 rate_per_second=args.max_rate, rate_burst=max(100, int(2 * args.max_rate)),
                                 freeze_gc=True, start_bots=True, background_analysis=args.background_analysis,
                                 analysis_nodes=args.analysis_nodes,
                                 allowed_origins=tuple(o.rstrip("/") for o in args.allowed_origin),
                                 secure_cookies=args.secure_cookies or None,
                                 tables_per_address=None if args.tables_per_address is None
                                 else (args.tables_per_address or 10**9))
    from halali.store import Store

    Store(settings.database_url()).close()  # a database that cannot be opened: one line, before serving
    try:
        sock = _bind(args.host, args.port)
    except OSError as e:
        print(f"halali: cannot listen on {args.host}:{args.port}: {e.strerror or e}", file=sys.stderr, flush=True)
        return 1
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"halali: serving on http://{host}:{args.port}/ (data: {args.db or settings.data_dir})", flush=True)
    # Said first, then loaded: the connections wait in the socket's queue for the second or two the
    # app takes to import. Once it runs, the server starts its bot pool (``start_bots``), which starts
    # the compilation of the computer's search in a process of its own if it is not compiled yet.
    import uvicorn

    from halali.server.app import create_app

    app = create_app(settings)
    # Compression off: the messages are small and CPU is the scarce thing on a busy server.
    config = uvicorn.Config(app, log_level=args.log_level, ws_max_size=65536, ws_per_message_deflate=False,
                            ws_ping_interval=20, ws_ping_timeout=20, proxy_headers=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound before anything is said: a taken port is one clear error, and the
    address printed is one that already accepts connections."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock
