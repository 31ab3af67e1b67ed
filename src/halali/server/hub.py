"""Connections: one outgoing queue each, who is online, who watches the lobby and each table.

Sending never awaits the network: a message is queued at once and a writer task per connection drains
the queue, so one slow browser cannot hold up a table, and every connection sees events in the order
they happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

MAX_QUEUE = 2000  # messages waiting for one connection before it is dropped as too slow


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One WebSocket of one player."""

    remote = False  # a browser on another node of a cluster (halali.server.cluster.node.RemoteConnection)
    key = ""

    def __init__(self, ws: WebSocket, player_id: str, rate: float, burst: int, session: str | None = None,
                 address: str = "") -> None:
        self.ws = ws
        self.address = address
        self.player_id = player_id
        self.session = session  # the session token it was opened with (closed when that session ends)
        self.close_code = 1000
        self.table_id: str | None = None
        self.lobby = False
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self._rate, self._burst = rate, float(burst)
        self._tokens, self._stamp = float(burst), time.monotonic()
        self.writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.close()
            return
        self.queue.put_nowait(msg if isinstance(msg, str) else dumps(msg))

    def allow(self) -> bool:
        """Token bucket: a sustained rate with bursts; False means the message is refused."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while (text := await self.queue.get()) is not None:
                await self.ws.send_text(text)
        except Exception:  # the peer went away; the reader notices and cleans up
            self.closed = True
        if self.closed:
            with contextlib.suppress(Exception):
                await self.ws.close(code=self.close_code)

    async def finish(self) -> None:
        self.close()
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.writer, 2.0)


def _nobody() -> set[str]:
    return set()


def _no() -> bool:
    return False


class Hub:
    """Every open connection, indexed by player, by table and by lobby interest.

    In a cluster (``halali.server.cluster``) the hub also knows, per table this node owns, who watches
    it from other nodes (``remote``), who is online elsewhere, and a ``relay`` that carries lobby and
    player messages to the other nodes; on a single server these stay empty."""

    def __init__(self) -> None:
        self.connections: set[Connection] = set()
        self.by_player: dict[str, set[Connection]] = defaultdict(set)
        self.by_table: dict[str, set[Connection]] = defaultdict(set)
        self.lobby_conns: set[Connection] = set()
        self.remote: dict[str, dict[str, str]] = defaultdict(dict)  # table -> {node:connection -> player}
        self.elsewhere: Callable[[], set[str]] = _nobody  # players online on other nodes
        self.lobbies_elsewhere: Callable[[], bool] = _no  # whether another node has a lobby page open
        self.relay: Callable[[str, str | None, str], None] | None = None  # (kind, player, text) to other nodes
        # (table, v, the player in each seat, the text per audience, the text for everyone else)
        self.table_relay: Callable[[str, int, list[str | None], dict[Any, str], str | None], None] | None = None
        self.removed: list[Callable[[Connection], None]] = []  # told of every connection that goes

    def add(self, conn: Connection) -> bool:
        """Register a connection; True when its player just came online."""
        self.connections.add(conn)
        first = not self.by_player[conn.player_id]
        self.by_player[conn.player_id].add(conn)
        return first

    def remove(self, conn: Connection) -> bool:
        """Forget a connection; True when its player went offline."""
        self.connections.discard(conn)
        self.lobby_conns.discard(conn)
        self.set_table(conn, None)
        for tell in self.removed:
            tell(conn)
        conns = self.by_player.get(conn.player_id)
        if conns is None:
            return False
        conns.discard(conn)
        if not conns:
            del self.by_player[conn.player_id]
            return True
        return False

    def set_table(self, conn: Connection, table_id: str | None) -> str | None:
        """Move a connection to another table page; returns the table it left."""
        old = conn.table_id
        if conn.remote:  # another node's connection at a table of ours: counted, never sent to
            if old is not None and old in self.remote:
                self.remote[old].pop(conn.key, None)
                if not self.remote[old]:
                    del self.remote[old]
            conn.table_id = table_id
            if table_id is not None:
                self.remote[table_id][conn.key] = conn.player_id
            return old
        if old is not None:
            watchers = self.by_table.get(old)
            if watchers is not None:
                watchers.discard(conn)
                if not watchers:
                    del self.by_table[old]
        conn.table_id = table_id
        if table_id is not None:
            self.by_table[table_id].add(conn)
        return old

    def online(self) -> set[str]:
        return set(self.by_player) | self.elsewhere()

    def watchers(self, table_id: str) -> set[Connection]:
        """This node's own connections at the table (the ones it sends to)."""
        return self.by_table.get(table_id, set())

    def watched(self, table_id: str) -> bool:
        return bool(self.by_table.get(table_id)) or bool(self.remote.get(table_id))

    def watcher_players(self, table_id: str) -> set[str]:
        """Everyone at the table's page, on any node."""
        return {c.player_id for c in self.watchers(table_id)} | set(self.remote.get(table_id, {}).values())

    def set_lobby(self, conn: Connection, on: bool) -> None:
        conn.lobby = on
        if on:
            self.lobby_conns.add(conn)
        else:
            self.lobby_conns.discard(conn)

    def to_lobby(self, msg: dict[str, Any] | str, relay: bool = True) -> None:
        text = msg if isinstance(msg, str) else dumps(msg)
        for c in list(self.lobby_conns):
            c.send(text)
        if relay and self.relay is not None:
            self.relay("lobby", None, text)

    def to_player(self, player_id: str, msg: dict[str, Any] | str, relay: bool = True) -> None:
        text = msg if isinstance(msg, str) else dumps(msg)
        for c in self.by_player.get(player_id, ()):
            c.send(text)
        if relay and self.relay is not None:
            self.relay("player", player_id, text)
