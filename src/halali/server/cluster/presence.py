"""Who is where, across the nodes: every beat each node tells the owners of the
tables its browsers watch which connections are there (after a takeover that is how the new owner
learns of them), forgets what it was not told for three beats, and publishes who is online on it.
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
    from collections.abc import Awaitable, Callable

log = logging.getLogger("halali.cluster")
BEAT = 1.0  # seconds between two presence refreshes (and retries of unanswered requests)
NODES = PREFIX + "nodes"  # the set of the nodes' names


class Presence:
    ctx: Context
    bus: Bus
    node: str
    tables: Any
    proxies: dict[str, RemoteConnection]
    elsewhere: set[str]
    online_elsewhere_changed: Callable[[], None] | None
    lobby_elsewhere: set[str]  # players with a lobby page on another node

    wanted_at: dict[str, float]  # player -> when another node said it opened a lobby page of his
    turn_lists: dict[str, dict[str, tuple[str, dict[str, Any]]]]

    if TYPE_CHECKING:
        def owns(self, table_id: str) -> bool: ...
        def owner_of(self, table_id: str) -> Awaitable[str | None]: ...
        def conn_id(self, conn: Any) -> str: ...
        def _retry_requests(self) -> Awaitable[None]: ...
        def refresh_owners(self, table_ids: list[str]) -> Awaitable[None]: ...
        def forget_cards_of_gone(self, live: set[str]) -> None: ...

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
            self.attach(proxy, table_id)

    def attach(self, proxy: RemoteConnection, table_id: str) -> None:
        """Another node's connection is at this table of ours (its node says so, in its beat or with a
        request about the table): so it is here too, and its player is not away."""
        if proxy.table_id == table_id:
            return
        self.ctx.hub.set_table(proxy, table_id)
        table = self.tables.tables.get(table_id)
        if table is not None:
            seat = table.seat_of(proxy.player_id)
            if seat is not None:  # his page is there, on the other node: he is not away
                table.absent.pop(seat, None)
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
        # Each node's players, and those with a lobby page, under keys that expire unless refreshed;
        # the nodes are listed in one set (read in O(nodes), where KEYS would walk every key).
        hub, ttl = self.ctx.hub, int(3 * BEAT) + 1
        online = json.dumps(sorted(hub.by_player))
        await self.bus.call(lambda r: r.set(f"{PREFIX}online:{self.node}", online, ex=ttl))
        self._publish_lobby()
        await self.bus.call(lambda r: r.sadd(NODES, self.node))
        members = await self.bus.call(lambda r: r.smembers(NODES))
        others = sorted(set(members or ()) - {self.node})
        if not others:
            if members is not None:  # (None: Redis is away, and nothing is known of the others)
                self.forget_cards_of_gone(set())
            self._found_elsewhere(set(), set())
            return
        keys = [f"{PREFIX}{kind}:{n}" for n in others for kind in ("online", "lobby")]
        values = await self.bus.call(lambda r: r.mget(keys))
        if values is None:
            return  # Redis is away: keep what we knew
        elsewhere: set[str] = set()
        lobby: set[str] = set()
        gone: list[str] = []
        for i, node in enumerate(others):
            on, lob = values[2 * i], values[2 * i + 1]
            if on is None:  # its keys ran out: a node that is gone
                gone.append(node)
                continue
            elsewhere.update(json.loads(on))
            lobby.update(json.loads(lob or "[]"))
        if gone:
            await self.bus.call(lambda r: r.srem(NODES, *gone))
        self.forget_cards_of_gone(set(others) - set(gone))
        self._found_elsewhere(elsewhere, lobby)

    def _found_elsewhere(self, online: set[str], lobby: set[str]) -> None:
        """What the beat read of the other nodes. A node tells the others' lobby pages who came and went
        on it only while it knows of such a page; what a page missed (a node that just heard of it, a
        node that died) this beat's list puts right on the page's own node."""
        changed = online != self.elsewhere
        # A page opened just now may be missing from the keys this beat read: it counts for three beats.
        recent = time.monotonic() - 3 * BEAT
        self.wanted_at = {p: t for p, t in self.wanted_at.items() if t > recent}
        self.elsewhere, self.lobby_elsewhere = online, lobby | set(self.wanted_at)
        hub = self.ctx.hub
        for player in [p for p in self.turn_lists if not any(c.lobby for c in hub.by_player.get(p, ()))]:
            del self.turn_lists[player]  # his last lobby page here closed
        if changed and self.online_elsewhere_changed is not None:
            self.online_elsewhere_changed()

    def _publish_lobby(self) -> None:
        """The players with a lobby page here, queued in order with the events and notices."""
        players = sorted({c.player_id for c in self.ctx.hub.lobby_conns})
        self.bus.command("SET", f"{PREFIX}lobby:{self.node}", json.dumps(players), "EX", int(3 * BEAT) + 1)
