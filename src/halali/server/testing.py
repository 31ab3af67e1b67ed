"""Helpers for testing the server in-process with Starlette's TestClient (the suite uses them).

A :class:`Peer` is one player: its own session cookie and WebSocket, a record of every message it
received (so a test can inspect all of them afterwards) and ``expect`` with a timeout, so a missing
message fails a test instead of hanging it. No test waits a fixed time: it waits for the message that
must come (``expect``, ``collect``), and to check that something did *not* arrive it first makes sure
it would have (``sync``, a ping/pong round trip on the same connection), then looks in ``received``.
"""

from __future__ import annotations

import atexit
import json
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

with warnings.catch_warnings():  # Starlette suggests httpx2; the project pins httpx, which works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

from halali.server.app import create_app
from halali.server.bots import BotPool
from halali.server.games.base import TableGame
from halali.server.settings import Settings
from halali.server.ws import COOKIE

Message = dict[str, Any]
_PEERS: dict[int, list[Peer]] = {}


def settings_for_tests(data_dir: Path, **overrides: Any) -> Settings:
    """A test server's settings: quick computers, no limits, cheap passwords. Its finished games are
    analysed only when asked for (``background_analysis=True`` for the tests of that), and less deeply:
    an analysis nobody looks at, or a deeper one than the test needs, would only take the machine from
    the other tests. One bot worker: each one started loads the compiled search, seconds of work."""
    s = Settings(data_dir=data_dir, test_seeds=True, bot_delay=0.0, bot_movetime=0.05, rate_per_second=10000.0,
                 rate_burst=10000, argon2_time_cost=1, argon2_memory_kib=1024, tables_per_guest=1000,
                 tables_per_account=1000, tables_per_address=1000, stock_puzzles=False,
                 background_analysis=False, analysis_nodes=5000, bot_workers=1)
    for key, value in overrides.items():
        setattr(s, key, value)
    return s


_KEPT: dict[tuple[int, bool], ProcessPoolExecutor] = {}  # (workers, load_now): an idle pool


class ReusedBotPool(BotPool):
    """A test app's bot pool whose worker processes serve the next test app of the same process.

    A worker's start (a Python, the bots' modules, then the compiled search) costs seconds of CPU,
    and most tests that play a computer start an app of their own. A pool idle when its app stops
    is kept for the next app with the same number of workers; one with a job still in a worker
    (an analysis the test did not wait for) is ended as a server's is, so that no test's computer
    player waits behind another test's leftover work."""

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = _KEPT.pop((self.workers, self.load_now), None)
        return super()._executor()

    def shutdown(self) -> None:
        pool, key = self._pool, (self.workers, self.load_now)
        if pool is not None and key not in _KEPT and _idle(pool):
            _KEPT[key], self._pool = pool, None
        super().shutdown()  # ends the workers unless they were kept, and the compiling process if any


def _idle(pool: ProcessPoolExecutor) -> bool:
    """No job waits or runs in it, and it still works."""
    return not (pool._broken or pool._shutdown_thread or pool._pending_work_items)


@atexit.register
def _end_kept_pools() -> None:
    for pool in _KEPT.values():
        pool.shutdown(wait=True, cancel_futures=True)
    _KEPT.clear()


@contextmanager
def running(settings: Settings, games: dict[str, TableGame] | None = None,
            raise_server_exceptions: bool = True) -> Iterator[TestClient]:
    """The app with its lifespan (store, tables, bot pool) running, as a TestClient; ``games`` replaces
    the games it serves. ``raise_server_exceptions=False`` answers a request that fails inside the app
    with its 500, as a real server does, instead of raising the exception in the test. Its bot workers
    are those the last test app of this process left idle, if any (:class:`ReusedBotPool`)."""
    bots = None if settings.redis_url else ReusedBotPool(settings.bot_workers, settings.bot_movetime)
    app = create_app(settings, games, bots)
    with TestClient(app, raise_server_exceptions=raise_server_exceptions) as client:
        try:
            yield client
        finally:  # a WebSocket left open would keep the test client from shutting down
            for peer in list(_PEERS.get(id(client), [])):
                peer.close()
            _PEERS.pop(id(client), None)


def new_session(client: TestClient) -> str:
    """A fresh player: visit a page, keep its cookie, leave the client's cookie jar empty."""
    response = client.get("/api/me")
    token = response.cookies[COOKIE]
    client.cookies.clear()
    return token


WAIT = 30.0  # seconds a Peer waits for a message: only a bound (a busy machine may be slow), never a test


class Peer:
    """One player's WebSocket: its session cookie, or with ``bearer`` a bot account's API token (no cookie)."""

    def __init__(self, client: TestClient, token: str | None = None, bearer: str | None = None) -> None:
        self.client = client
        self.token = "" if bearer else token or new_session(client)
        self.received: list[Message] = []
        self.raw: list[str] = []
        headers = {"authorization": f"Bearer {bearer}"} if bearer else {"cookie": f"{COOKIE}={self.token}"}
        self._cm = client.websocket_connect("/ws", headers=headers)
        self.ws: WebSocketTestSession = self._cm.__enter__()
        self.open = True
        _PEERS.setdefault(id(client), []).append(self)
        self.welcome = self.expect("welcome")
        self.id: str = self.welcome["you"]["id"]

    def send(self, msg: Message | str) -> None:
        self.ws.send_text(msg if isinstance(msg, str) else json.dumps(msg))

    def receive(self, timeout: float = WAIT) -> Message:
        ws = self.ws

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await ws._send_rx.receive()

        message = ws.portal.call(get)
        if message["type"] == "websocket.close":
            raise ConnectionError(f"closed by the server: {message.get('code')}")
        text = message["text"]
        self.raw.append(text)
        msg = json.loads(text)
        self.received.append(msg)
        return msg

    def expect(self, type_: str, where: Callable[[Message], bool] | None = None, timeout: float = WAIT) -> Message:
        """The next message of this type (and condition), skipping others."""
        while True:
            msg = self.receive(timeout)
            if msg["type"] == type_ and (where is None or where(msg)):
                return msg

    def error(self, msg: Message | str, timeout: float = WAIT) -> Message:
        """Send something and return the error it causes (failing if something else answers first)."""
        self.send(msg)
        while True:
            got = self.receive(timeout)
            if got["type"] == "error":
                return got
            if got["type"] in ("created", "left", "you", "pong"):
                raise AssertionError(f"expected an error, got {got}")

    def collect(self, type_: str, where: Callable[[Message], bool] | None = None, count: int = 1,
                timeout: float = WAIT) -> list[Message]:
        """Wait until ``count`` messages of this type (and condition) have been received in all, those
        received earlier included; every such message so far."""

        def matching() -> list[Message]:
            return [m for m in self.received if m["type"] == type_ and (where is None or where(m))]

        while len(matching()) < count:
            self.receive(timeout)
        return matching()

    def sync(self, timeout: float = WAIT) -> list[Message]:
        """A barrier: send a ``ping`` and read up to its ``pong``. The server handles one connection's
        messages in order and its messages arrive in order, so once this returns every message the
        server sent this peer before it handled the ping is in ``received``. Returns the messages
        that came in meanwhile (before the pong)."""
        start = len(self.received)
        self.send({"type": "ping"})
        self.expect("pong", timeout=timeout)
        return self.received[start:-1]

    def close(self) -> None:
        if self.open:
            self.open = False
            self._cm.__exit__(None, None, None)

    def __enter__(self) -> Peer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---- databases and time for the storage, account and clock tests ----------------------------------
PG_ENV = "HALALI_TEST_PG_URL"
PG_MISSING = f"PostgreSQL tests need {PG_ENV} (scripts/test.sh sets it from scripts/postgres.sh)"


def account_peer(client: TestClient, name: str, password: str = "correct horse") -> Peer:
    """A newly registered account, connected."""
    guest = new_session(client)
    r = client.post("/api/register", json={"name": name, "password": password},
                    headers={"origin": "http://testserver", "cookie": f"{COOKIE}={guest}"})
    assert r.status_code == 200, r.text
    token = r.cookies[COOKIE]
    client.cookies.clear()
    return Peer(client, token)


def person_against_computer(client: TestClient, rated: bool = True, level: int = 1) -> tuple[Peer, str, Message]:
    """A person in seat 0 of a single game against a computer player, started and waiting for the
    person's first turn: (the person's peer, the table, that `game`). No test seed, which would make
    the match unrated whatever ``rated`` says."""
    person = Peer(client)
    person.send({"type": "create", "join": True, "rules": {"match": "single"}})
    table = person.expect("created")["table"]
    person.send({"type": "open", "table": table})
    person.expect("table")
    person.send({"type": "bot", "level": level})
    person.expect("table", lambda m: m["table"]["seats"][1] is not None)
    person.send({"type": "start", "rated": rated})
    game = person.expect("game", lambda m: bool(m["game"]["legal"]))["game"]
    return person, table, game


def computer_match(client: TestClient, levels: tuple[int, int] = (1, 2), timeout: float = 120.0,
                   **create: Any) -> tuple[Peer, str, Message]:
    """Two computer players play a table's match through, watched by a peer: (the peer, the table, the
    last `game` message). ``create`` goes into the `create` message; ``nosave=True`` starts it with
    ``/startnosave``."""
    nosave = create.pop("nosave", False)
    peer = Peer(client)
    peer.send({"type": "create", **create})
    table = peer.expect("created")["table"]
    peer.send({"type": "open", "table": table})
    peer.expect("table")
    for level in levels:
        peer.send({"type": "bot", "level": level})
        peer.expect("chat", lambda m: m["line"].get("key") == "chat.bot_added")
    peer.send({"type": "chat", "text": "/startnosave"} if nosave else {"type": "start"})
    last = peer.expect("game", lambda m: m["match"]["over"], timeout=timeout)
    return peer, table, last


@contextmanager
def fresh_database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A new, empty database of this kind ("sqlite" or "postgresql") for one test; its URL.

    For PostgreSQL a database is created next to the one in ``HALALI_TEST_PG_URL`` (that role may
    create databases) and dropped afterwards, so tests never see each other's rows.
    """
    if kind == "sqlite":
        yield f"sqlite:///{(tmp_path / 'halali.sqlite3').resolve()}"
        return
    import os
    import secrets

    from sqlalchemy import create_engine, make_url

    base = os.environ.get(PG_ENV)
    if not base:
        import pytest

        pytest.skip(PG_MISSING)
    name = "halali_t_" + secrets.token_hex(6)
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        from sqlalchemy.exc import DBAPIError

        try:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except DBAPIError:
            # FORCE may not end an autovacuum worker's session (not this role's); a plain DROP ends
            # that one itself, once this role's own sessions are gone.
            with admin.connect() as conn:
                conn.exec_driver_sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                     "WHERE datname = %(name)s AND usename = current_user AND pid <> pg_backend_pid()",
                                     {"name": name})
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        admin.dispose()


class FakeClock:
    """The server's clock in tests: time stands still until the test moves it."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def server_of(client: TestClient) -> Any:
    """The running server's parts (``Services``) behind a TestClient."""
    return client.app.state.server  # type: ignore[attr-defined]


def call(client: TestClient, fn: Callable[..., Any], *args: Any) -> Any:
    """Run a coroutine function of the server on its event loop and return its result."""
    return client.portal.call(fn, *args)  # type: ignore[union-attr]
