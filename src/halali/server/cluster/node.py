"""One node of a cluster: which tables it owns, how a request for another node's table travels, and
how the other nodes' events reach this node's connections.

- **Ownership.** A table is this node's while it holds the table's lease (``halali.store.leases``):
  taken when it creates the table or finds the lease run out, renewed every third of its time to
  live, and given up for good the moment a renewal fails (the table leaves memory, and the
  connections watching it here reconnect and resync through whoever owns it now).
- **Forwarding.** A message about a table another node owns goes, as it came from the browser, to
  that node's inbox with who sent it. The owner runs it through the same handler as its own
  clients' messages, with a ``RemoteConnection`` in place of the WebSocket, whose answers come back
  to this node's inbox and go out on the real WebSocket.
- **Events.** The owner appends every event of a table to the table's stream (per audience, as it
  sends its own connections), and a copy to the inbox of each node with a connection at the table
  (it knows them from their forwarded requests and the beat). That node gives each connection its
  own audience's text: so each sees exactly its own view.
  An ``open`` forwarded to the owner is answered first (resumed and the missed events, or the whole
  table) and events from the inbox older than that answer are dropped, so nothing comes twice.
- **Presence.** Every node tells each owner, every ``BEAT`` seconds, which of its connections watch
  which table, and publishes who is online on it; what is not refreshed for three beats is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from halali.server.cluster.answers import Answers
from halali.server.cluster.bus import ALL, Bus, Fields, inbox, table_stream
from halali.server.cluster.cards import Cards
from halali.server.cluster.presence import Presence
from halali.server.cluster.remote import RemoteConnection
from halali.server.cluster.turns import TURN_KINDS, Turns
from halali.server.context import Context
from halali.server.hub import Connection

log = logging.getLogger("halali.cluster")
# Seconds a looked-up owner is trusted; a request it does not answer is asked again of the then owner.
OWNER_CACHE = 3.0
LOCAL_TYPES = frozenset({"name", "lobby", "unlobby", "create", "ping", "tournament_create", "tournament_watch",
                         "tournament_unwatch", "tournament_join", "tournament_withdraw", "tournament_level",
                         "tournament_start"})
# Connection and request ids, unique across restarts: a node that comes back under the same name
# must not reuse an id that another node still knows as one of its earlier connections.
_ids = itertools.count(1)
_run = secrets.token_hex(4)


class ClusterNode(Answers, Cards, Presence, Turns):
    def __init__(self, ctx: Context, bus: Bus, dispatch: Callable[[Connection, str], Awaitable[None]],
                 tables: Any) -> None:
        self.ctx, self.bus, self.dispatch, self.tables = ctx, bus, dispatch, tables
        self.node = bus.node
        self.ttl = ctx.settings.lease_ttl
        self.conns: dict[str, Connection] = {}  # this node's connections that talk to other nodes' tables
        self.proxies: dict[str, RemoteConnection] = {}  # key -> other nodes' connections at our tables
        self.pending: dict[tuple[str, str], list[tuple[int, str]]] = {}  # (conn, table) -> held events
        self.floor: dict[tuple[str, str], int] = {}  # (conn, table) -> the last event it has
        self.owners: dict[str, tuple[str | None, float]] = {}
        self.turn_state: dict[tuple[str, str], Any] = {}  # (player, table) -> since when it is his turn
        self.turn_lists: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {}  # see Turns
        self.wanted_at: dict[str, float] = {}
        # sent, unanswered: (connection, text, table, first sent, last sent, to which node)
        self.requests: dict[str, tuple[Connection, str, str, float, float, str]] = {}
        self.elsewhere: set[str] = set()
        self.lobby_elsewhere: set[str] = set()
        self.cards: dict[str, dict[str, Any]] = {}  # other nodes' tables in the lobby (see Cards)
        self.card_nodes: dict[str, str] = {}
        self.node_seen: dict[str, float] = {}
        self.tournament_changed: Callable[[str], None] | None = None  # another node changed a tournament
        self.sessions_ended: Callable[[str, str], None] | None = None  # another node ended a player's sessions
        self.online_elsewhere_changed: Callable[[], None] | None = None  # the beat found other players online
        self._tasks: list[asyncio.Task[None]] = []
        self._renewer = ThreadPoolExecutor(1, thread_name_prefix="halali-leases")
        bus.on_entry = self.on_entry
        bus.on_connect = self.load_cards

    # ---- wiring ------------------------------------------------------------------------------------
    def install(self) -> None:
        hub = self.ctx.hub
        hub.relay = self.relay
        hub.table_relay = self.table_event
        hub.elsewhere = lambda: self.elsewhere
        hub.lobbies_elsewhere = lambda: bool(self.lobby_elsewhere)
        hub.removed.append(self.connection_gone)
        self.ctx.store.enable_fencing(self.node, self.ttl)

    def start(self) -> None:
        self.bus.start()
        self._tasks = [asyncio.create_task(self._keep_leases()), asyncio.create_task(self._beat())]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        fences = dict(self.ctx.store.fences or {})
        for table_id, token in fences.items():  # a clean stop: the others need not wait for the expiry
            with contextlib.suppress(Exception):
                await self.ctx.db(self.ctx.store.release_lease, table_id, self.node, token)
        await self.bus.stop()
        self._renewer.shutdown(wait=False)

    # ---- ownership ---------------------------------------------------------------------------------
    async def refresh_owners(self, table_ids: list[str]) -> None:
        """Whom these tables belong to, in one query (the beat, for the tables its browsers watch)."""
        wanted = [t for t in table_ids if not self.owns(t)]
        if not wanted:
            return
        found = await asyncio.to_thread(self.ctx.store.leases, wanted)
        now, stamp = self.ctx.now(), time.monotonic()
        for table_id, lease in found.items():
            if lease.expires_at > now and lease.node != self.node:
                self.owners[table_id] = (lease.node, stamp)

    def owns(self, table_id: str) -> bool:
        return table_id in (self.ctx.store.fences or {})

    async def claim(self, table_id: str) -> bool:
        """Take the table if nobody holds a live lease on it (or this node already does)."""
        if self.owns(table_id):
            return True
        lease = await self.ctx.db(self.ctx.store.acquire_lease, table_id, self.node, self.ctx.now(), self.ttl)
        if lease is None:
            return False
        self.owners[table_id] = (self.node, time.monotonic())
        return True

    async def first_version(self, table_id: str) -> int:
        """A table taken over goes on numbering its events where the stream left off. When the stream is
        gone (Redis restarted without it) or cannot be read just now, it numbers on from the time in
        milliseconds: beyond any number the table has used (unless it had more than one event a
        millisecond since a takeover), so no page or node takes a new event for one it already has
        and skips it; the jump is a gap, and a page resyncs."""
        last = await self.bus.last_entry(table_stream(table_id))
        return int(last[1].get("v", 0)) if last else int(time.time() * 1000)

    async def owner_of(self, table_id: str) -> str | None:
        """The node that owns the table, taking it when its lease ran out; None for no such table."""
        if self.owns(table_id):
            return self.node
        cached = self.owners.get(table_id)
        if cached is not None and cached[0] not in (None, self.node) and time.monotonic() - cached[1] < OWNER_CACHE:
            return cached[0]
        for _ in range(2):  # a node that took the table over between the read and the claim: ask again
            lease = await asyncio.to_thread(self.ctx.store.lease, table_id)  # a read: not in the writers' queue
            if lease is not None and lease.expires_at > self.ctx.now() and lease.node != self.node:
                self.owners[table_id] = (lease.node, time.monotonic())
                return lease.node
            if await self.tables.load(table_id) is not None:  # load() claims it (TableService.claim)
                return self.node
        return None

    async def _keep_leases(self) -> None:
        """Renew this node's leases; drop the tables whose lease is lost; take over orphaned tables."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                store = self.ctx.store
                # On a thread of its own, beside the writer thread and the lookups, never behind them:
                # a busy node must not lose its tables.
                loop = asyncio.get_running_loop()
                lost = await loop.run_in_executor(self._renewer, store.renew_leases, self.node,
                                                  dict(store.fences or {}), self.ctx.now(), self.ttl)
                for table_id in lost:
                    log.warning("lost the lease of table %s", table_id)
                    await self.drop(table_id)
                # A read: on a thread beside the writer, never in the commits' queue.
                for table_id in await asyncio.to_thread(store.orphaned_tables, ("waiting", "playing"), self.ctx.now()):
                    await self.tables.load(table_id)  # a take-over: TableService.load tells those watching
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("while keeping the leases")

    async def drop(self, table_id: str) -> None:
        table = self.tables.tables.pop(table_id, None)
        if table is not None and table.bot_task is not None:
            table.bot_task.cancel()
        (self.ctx.store.fences or {}).pop(table_id, None)
        self.owners.pop(table_id, None)
        self.ctx.hub.remote.pop(table_id, None)
        for conn in list(self.ctx.hub.watchers(table_id)):
            conn.close(1012)  # they come back (through the front) to whoever owns the table now

    # ---- the way in: a message from this node's own browser ---------------------------------------
    def conn_id(self, conn: Connection) -> str:
        cid = getattr(conn, "cluster_id", None)
        if cid is None:
            cid = f"c{_run}.{next(_ids)}"
            conn.cluster_id = cid  # type: ignore[attr-defined]
        self.conns[cid] = conn
        return str(cid)

    async def route(self, conn: Connection, msg: dict[str, Any], text: str) -> bool:
        """True when the message went to the table's owner on another node (its answers follow)."""
        kind = msg["type"]
        if isinstance(conn, RemoteConnection) or kind in LOCAL_TYPES:
            return False
        if kind == "close":
            self.leave(conn)
            return False
        table_id = msg.get("table", conn.table_id) if kind != "open" else msg.get("table")
        if not isinstance(table_id, str) or len(table_id) > 16:
            return False
        owner = await self.owner_of(table_id)
        if owner is None or owner == self.node:
            if kind == "open":
                self.leave(conn, keep=table_id)
            return False
        cid = self.conn_id(conn)
        if kind == "open" or (conn.table_id != table_id and kind in ("join", "watch")):
            self.leave(conn, keep=table_id)
            self.ctx.hub.set_table(conn, table_id)
            self.pending[(cid, table_id)] = []  # events held until the answer says which it covers
        if not self.bus.reading.is_set():  # a node just started: its answer must not be skipped
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.ttl):  # not wait_for: see tournaments.director.run
                    await self.bus.reading.wait()
        rid = f"r{_run}.{next(_ids)}"
        self.requests[rid] = (conn, text, table_id, time.monotonic(), time.monotonic(), owner)
        self.request(owner, conn, rid, text, table_id)
        return True

    def request(self, owner: str, conn: Connection, rid: str, text: str, table_id: str) -> None:
        """A browser's message to the table's owner, with who sent it (its name as this node knows it),
        the table it is about, whether events are held for its answer (which then always comes as
        a ``done`` with the number it covers), and whether the connection is at that table (``at``: a
        new owner may hear of the request before the beat that tells it the connection is there)."""
        people = self.ctx.people
        cid = self.conn_id(conn)
        self.bus.send(owner, {"k": "req", "from": self.node, "c": cid, "r": rid, "p": conn.player_id,
                              "n": people.name(conn.player_id), "acc": "1" if conn.player_id in people.accounts else "",
                              "a": conn.address, "s": conn.session, "t": text, "tb": table_id,
                              "hold": "1" if (cid, table_id) in self.pending else "",
                              "at": "1" if conn.table_id == table_id else ""})

    async def _retry_requests(self) -> None:
        """A request the owner never answered (it died before it could): asked again, every half a
        lease, of whoever owns the table by then (after the dead owner's lease ran out, the node that
        took it over); a request to an owner that still holds its lease is only waited for. An action
        carries its ply, so one that the dead owner did commit is refused as stale, never played twice."""
        now = time.monotonic()
        for rid, (conn, text, table_id, first, last, asked) in list(self.requests.items()):
            if now - last < self.ttl / 2:
                continue
            if conn.closed or now - first > 5 * self.ttl:
                del self.requests[rid]
                if not conn.closed:
                    conn.send({"type": "error", "key": "error.busy", "params": {}, "message": "Try again."})
                continue
            self.owners.pop(table_id, None)
            owner = await self.owner_of(table_id)
            if owner is None:
                del self.requests[rid]
            elif owner == self.node:
                del self.requests[rid]
                self.pending.pop((str(getattr(conn, "cluster_id", "")), table_id), None)
                await self.dispatch(conn, text)
            elif owner == asked:  # the same live owner: slow, not gone; asking again would only add work
                self.requests[rid] = (conn, text, table_id, first, now, asked)
            else:
                self.requests[rid] = (conn, text, table_id, first, now, owner)
                self.request(owner, conn, rid, text, table_id)

    def leave(self, conn: Connection, keep: str | None = None) -> None:
        """This connection leaves the page of another node's table (it closes it, or opens another)."""
        old = conn.table_id
        if old is None or old == keep or self.owns(old):
            return
        cid = self.conn_id(conn)
        owner = self.owners.get(old, (None, 0.0))[0]
        if owner is not None:
            self.bus.send(owner, {"k": "gone", "from": self.node, "c": cid})
        self.pending.pop((cid, old), None)
        self.floor.pop((cid, old), None)

    def connection_gone(self, conn: Connection) -> None:
        cid = getattr(conn, "cluster_id", None)
        if cid is None:
            return
        self.leave(conn)
        self.conns.pop(cid, None)

    # ---- the way back: what the Redis streams bring ------------------------------------------------
    def on_entry(self, stream: str, entry_id: str, fields: Fields) -> None:
        """Every entry read, in order; nothing here waits (a request is served in a task of its own)."""
        if stream == inbox(self.node):
            if "ev" in fields:
                self.on_table_event(fields["ev"], fields)
            else:
                self.on_message({**fields, **json.loads(fields["m"])} if "m" in fields else fields)
        elif stream == ALL:
            self.on_broadcast(fields)

    def on_broadcast(self, fields: Fields) -> None:
        if fields.get("from") == self.node:
            return
        if fields["kind"] in TURN_KINDS:
            self.on_turns(fields)
            return
        hub, text = self.ctx.hub, fields["text"]
        if fields["kind"] == "lobby":
            self.card_heard(json.loads(text), fields.get("from", ""))
            hub.to_lobby(text, relay=False)
        elif fields["kind"] == "player":
            hub.to_player(fields["player"], text, relay=False)
        elif fields["kind"] == "tournament" and self.tournament_changed is not None:
            self.tournament_changed(fields["player"])
        elif fields["kind"] == "sessions" and self.sessions_ended is not None:
            self.sessions_ended(fields["player"], text)

    def on_message(self, m: dict[str, Any]) -> None:
        kind = m.get("k")
        if kind == "req":  # we own the table: run it as if the browser were ours, in its own order
            key = f"{m['from']}:{m['c']}"
            proxy = self.proxies.get(key)
            if proxy is not None and proxy.player_id != m["p"]:  # never another player's connection
                self.proxy_gone(key)
                proxy = None
            if proxy is None:
                proxy = self.proxies[key] = RemoteConnection(self, m["from"], m["c"], m["p"], m["a"], m.get("s"))
            proxy.seen = time.monotonic()
            proxy.inbox.put_nowait(m)
            if proxy.worker is None or proxy.worker.done():
                proxy.worker = asyncio.create_task(self._serve(proxy))
        elif kind in ("out", "close", "done"):
            conn = self.conns.get(m["c"])
            if conn is None:
                return
            if kind == "out":
                conn.send(m["t"])
            elif kind == "close":
                conn.close(int(m.get("code", 1000)))
            else:
                self.requests.pop(m.get("r", ""), None)
                self.opened(conn, m["c"], m.get("table"), int(m["v"]) if m.get("v") else None)
        elif kind == "gone":
            self.proxy_gone(f"{m['from']}:{m['c']}")
        elif kind == "watching":
            self.refresh(m["from"], m["conns"])
