"""Server settings: one dataclass filled by `halali serve` (or by tests)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass
class Settings:
    data_dir: Path = Path("data")
    db_url: str | None = None  # default: SQLite file halali.sqlite3 in data_dir
    redis_url: str | None = None  # a cluster node (halali.server.cluster): events, inboxes and bot jobs on Redis
    web_dir: Path = WEB_DIR
    bot_movetime: float = 0.5  # seconds a computer player may think
    bot_delay: float = 0.3  # least seconds between two computer actions, so people can follow
    # Processes for computer players and game analyses: one per core (a game's analysis is spread over
    # all of them; the players' turns go first), at most 8.
    bot_workers: int = field(default_factory=lambda: max(1, min(8, os.cpu_count() or 1)))
    max_message: int = 4096  # bytes per WebSocket message
    rate_per_second: float = 50.0  # messages per socket, sustained
    rate_burst: int = 100
    test_seeds: bool = False  # accept a deal seed in `create` (never sent to clients)
    house_seed: int | None = None  # tests only: tables without a seed of their own draw from this one, still rated
    finished_minutes: float = 10.0  # finished tables stay in the lobby this long
    waiting_minutes: float = 60.0  # a waiting table whose seated people are all offline closes after this
    abandon_grace: float = 60.0  # seconds a live player may be away before the others may claim
    correspondence_days: float = 3.0  # a correspondence mover's deadline, then the others may claim
    abandoned_minutes: float = 30.0  # a live match whose people are all away this long ends by itself
    table_events: int = 64  # events a table keeps for clients that reconnect (older ones get the whole table)
    confirm_seconds: float = 30.0  # how long a resign waits for its confirmation
    tables_per_guest: int = 3  # open (waiting or playing) tables a guest may have created
    tables_per_account: int = 10
    tables_per_address: int = 20
    secure_cookies: bool = False  # set when served over https
    freeze_gc: bool = False  # move everything alive after startup out of the collector's way (a server process)
    # Start the bot pool with the server (``halali serve``): its worker is ready, and the computer's search
    # compiling or loading, before anyone sits down to play; the tests start it when a computer sits down.
    start_bots: bool = False
    clock: Callable[[], float] = time.time  # the game clocks' time in seconds (tests inject a fake one)
    clock_poll: float = 0.2  # seconds between two looks at the running clocks
    analysis_movetime: float = 0.3  # seconds the engine thinks for a hint
    # Nodes a game analysis searches per position before it stops deepening (docs/ai.md "Game analysis");
    # the analyses stored under another budget are computed again.
    analysis_nodes: int = 50_000
    # Analyse every finished forest game as it ends, and a running game's chunks while it is played
    # (docs/ai.md "Game analysis"); off, only the games someone asks for are analysed.
    background_analysis: bool = True
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)  # extra origins allowed to post
    # Failed logins for one name from one address, or from one address for any names, within
    # login_window before the next attempt waits: login_delay seconds, doubling with each further
    # failure, up to login_window. Nobody's guesses lock a name for its owner at another address.
    login_failures_per_name: int = 5
    login_failures_per_address: int = 20
    login_window: float = 900.0  # seconds
    login_delay: float = 30.0  # seconds
    registrations_per_address: int = 10  # new accounts from one address per registration_window
    registration_window: float = 3600.0
    imports_per_address: int = 30  # record imports from one address per import_window
    import_window: float = 3600.0
    analyses_per_address: int = 30  # games analysed afresh (not from the store) per analysis_window
    analysis_window: float = 3600.0
    hints_per_player: int = 200  # hints searched afresh for one player per hint_window
    hint_window: float = 3600.0
    # Bot accounts (docs/bots.md): games a bot account may play at once and begin in a day, its tokens,
    # and the challenges anyone may have open and how long one waits for an answer.
    bot_games_at_once: int = 8
    bot_games_per_day: int = 100
    api_tokens_per_account: int = 10
    challenges_per_player: int = 5
    challenge_live_seconds: float = 60.0
    challenge_correspondence_seconds: float = 86400.0
    node_id: str | None = None  # this node's name in the cluster (default: host and process id)
    tournament_director: bool = False  # a cluster node that directs the tournaments (exactly one should)
    arena_every: float = 0.0  # seconds between two rated matches of neighbouring computer levels (0: none)
    stock_puzzles: bool = True  # a site without puzzles stocks the ones shipped with the package (docs/puzzles.md)
    tournaments_per_account: int = 5  # upcoming or running tournaments one account may have created
    tournament_poll: float = 1.0  # seconds between the director's looks at start times and deadlines
    lease_ttl: float = 5.0  # seconds a table's lease lives unless its node renews it
    argon2_time_cost: int = 3  # password hashing cost (argon2id); tests lower it to stay fast
    argon2_memory_kib: int = 65536

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        s = cls(test_seeds=os.environ.get("HALALI_TEST_SEEDS") == "1")
        if s.test_seeds:  # test mode: a browser suite creates all its tables from one loopback address
            s.tables_per_address = 10_000
        for key, value in overrides.items():
            if value is not None:
                setattr(s, key, value)
        return s

    def database_url(self) -> str:
        if self.db_url:
            return self.db_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'halali.sqlite3').resolve()}"
