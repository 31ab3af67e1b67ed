"""Who is where, across the nodes, and whose turn it is: every beat each node tells the owners of the
tables its browsers watch which connections are there (after a takeover that is how the new owner
learns of them), forgets what it was not told for three beats, and publishes who is online on it.
"Your turn" lists live in Redis, one hash per player, written by the tables' owners.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from halali.server.cluster.bus import PREFIX, Bus
from halali.server.cluster.remote import RemoteConnection
from halali.server.context import Context

if TYPE_CHECKING:
    from collections.abc import Awaitable

log = logging.getLogger("halali.cluster")
BEAT = 1.0  # seconds between two presence refreshes (and retries of unanswered requests)


class Presence:
    ctx: Context
    bus: Bus
    node: str
    tables: Any
    proxies: dict[str, RemoteConnection]
    elsewhere: set[str]

    turn_state: dict[tuple[str, str], str | None]
    _tasks: list[asyncio.Task[None]]

    if TYPE_CHECKING:
        def owns(self, table_id: str) -> bool: ...
        def owner_of(self, table_id: str) -> Awaitable[str | None]: ...
        def conn_id(self, conn: Any) -> str: ...
        def _retry_requests(self) -> Awaitable[None]: ...
        def refresh_owners(self, table_ids: list[str]) -> Awaitable[None]: ...

    def proxy_gone(self, key: str) -> None:
        proxy = self.proxies.pop(key, None)
        if proxy is None or proxy.table_id is None:
            return
        table_id = proxy.table_id
        self.ctx.hub.set_table(proxy, None)
        table = self.tables.tables.get(table_id)
        if table is not None:
            self.tables.left_table(table, proxy.player_id)

    def refresh(self, origin: str, conns: list[list[str]]) -> None:
        """Another node's list of its connections at our tables (after a takeover, the only way we
        learn of them)."""
        now = time.monotonic()
        for cid, player, table_id in conns:
            if not self.owns(table_id):
                continue
            key = f"{origin}:{cid}"
            proxy = self.proxies.get(key)
            if proxy is None:
                proxy = self.proxies[key] = RemoteConnection(self, origin, cid, player, "", None)
            proxy.seen = now
            if proxy.table_id != table_id:
                self.ctx.hub.set_table(proxy, table_id)
                table = self.tables.tables.get(table_id)
                if table is not None:
                    self.tables.changed(table)

    async def _beat(self) -> None:
        while True:
            try:
                await self._beat_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("while refreshing the presence")
            await asyncio.sleep(BEAT)

    async def _beat_once(self) -> None:
        await self._retry_requests()
        by_owner: dict[str, list[list[str]]] = {}
        await self.refresh_owners(list(self.ctx.hub.by_table))
        for table_id, here in list(self.ctx.hub.by_table.items()):
            if self.owns(table_id):
                continue
            owner = await self.owner_of(table_id)
            if owner is None or owner == self.node:
                continue
            by_owner.setdefault(owner, []).extend([self.conn_id(c), c.player_id, table_id] for c in here)
        for owner, watching in by_owner.items():
            self.bus.send(owner, {"k": "watching", "from": self.node, "conns": watching})
        stale = time.monotonic() - 3 * BEAT
        for key, proxy in list(self.proxies.items()):
            if proxy.seen < stale:
                self.proxy_gone(key)
        players = json.dumps(sorted(self.ctx.hub.by_player))
        online_key = f"{PREFIX}online:{self.node}"
        await self.bus.call(lambda r: r.set(online_key, players, ex=int(3 * BEAT) + 1))
        keys = await self.bus.call(lambda r: r.keys(f"{PREFIX}online:*")) or []
        others = [k for k in keys if k != online_key]
        values = await self.bus.call(lambda r: r.mget(others)) if others else []
        elsewhere: set[str] = set()
        for v in values or []:
            if v:
                elsewhere.update(json.loads(v))
        self.elsewhere = elsewhere

    # ---- "your turn", across nodes ------------------------------------------------------------
    def turns_changed(self, table: Any) -> None:
        """The owner keeps each seated player's turns at this table in ``halali:turns:PLAYER``; every
        node then sends the player's lobby pages the whole list, from all nodes' tables. The writes
        are queued behind the table's events, never awaited; one "turns" notice for the players whose
        turns changed follows them in the same round trip and reaches every node, this one too, once
        the hashes hold the change."""
        changed = []
        for pid in table.people():
            entry = self.tables.turn_entry(table, pid)
            key = (pid, table.id)
            state = None if entry is None else entry["since"]
            if self.turn_state.get(key, None) == state and key in self.turn_state:
                continue  # nothing changed for this player: no write, no message
            self.turn_state[key] = state
            if entry is None:
                self.bus.command("HDEL", f"{PREFIX}turns:{pid}", table.id)
            else:
                self.bus.command("HSET", f"{PREFIX}turns:{pid}", table.id, json.dumps(entry))
            changed.append(pid)
        if changed:
            self.bus.broadcast("turns", json.dumps(changed), "")

    def _later(self, job: Any) -> None:
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(asyncio.create_task(job))

    def send_turns_soon(self, player: str) -> None:
        if any(c.lobby for c in self.ctx.hub.by_player.get(player, ())):
            self._later(self.send_turns(player))

    async def send_turns(self, player: str) -> None:
        conns = [c for c in self.ctx.hub.by_player.get(player, ()) if c.lobby]
        if not conns:
            return
        found = await self.bus.call(lambda r: r.hvals(f"{PREFIX}turns:{player}")) or []
        items = sorted((json.loads(v) for v in found), key=lambda t: t["since"])
        for c in conns:
            c.send({"type": "my_turn", "tables": items})
