"""The lobby's cards across the nodes: what a node that starts (or reconnects to Redis) loads so that
its lobby lists every node's tables at once, not only the ones that change after it came up.

Each owner keeps its tables' cards in one Redis hash (``halali:cards``: table id -> the owning node
and the card), written in order with the card's broadcast on ``halali:all`` (the hash first, so a
card a node reads from the stream is never newer than the hash it loaded). A node loads the hash on
its reading connection after its cursor on ``halali:all`` is set and before it says it is healthy:
every change after the load comes through the stream. On every reconnect an owner writes its own
cards again, as a Redis restart empties the hash. A finished table's card goes with its node: once
a node is gone (its keys ran out) nobody will take its finished tables over or remove their cards,
so every node forgets them (waiting and playing tables are taken over, and their new owner's card
replaces the old one).
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from halali.server.cluster.bus import PREFIX, Bus
from halali.server.cluster.presence import NODES
from halali.server.context import Context

if TYPE_CHECKING:
    import redis.asyncio as aioredis

log = logging.getLogger("halali.cluster")
CARDS = PREFIX + "cards"  # table id -> {"node": its owner, "card": the lobby card}
FINISHED = "finished"
_CARD_MESSAGES = ('{"type":"lobby_table"', '{"type":"lobby_remove"')


class Cards:
    ctx: Context
    bus: Bus
    node: str
    tables: Any
    cards: dict[str, dict[str, Any]]  # other nodes' tables in the lobby
    card_nodes: dict[str, str]  # table id -> the node that sent its card

    def relay(self, kind: str, player: str | None, text: str) -> None:
        """The hub's relay: everything to ``halali:all``, and a card change to the hash first."""
        if kind == "lobby" and text.startswith(_CARD_MESSAGES):
            self._keep(json.loads(text))
        self.bus.broadcast(kind, player, text)

    def _keep(self, msg: dict[str, Any]) -> None:
        table_id = msg["table"]["id"] if msg["type"] == "lobby_table" else str(msg["id"])
        self.cards.pop(table_id, None)  # ours now (taken over), or gone: no longer another node's card
        self.card_nodes.pop(table_id, None)
        if msg["type"] == "lobby_table":
            entry = json.dumps({"node": self.node, "card": msg["table"]}, separators=(",", ":"))
            self.bus.command("HSET", CARDS, table_id, entry)
        else:
            self.bus.command("HDEL", CARDS, table_id)

    def card_heard(self, msg: dict[str, Any], node: str) -> None:
        """Another node's card change, read on ``halali:all``."""
        if msg.get("type") == "lobby_table":
            self.cards[msg["table"]["id"]] = msg["table"]
            self.card_nodes[msg["table"]["id"]] = node
        elif msg.get("type") == "lobby_remove":
            self.cards.pop(str(msg.get("id")), None)
            self.card_nodes.pop(str(msg.get("id")), None)

    async def load_cards(self, r: aioredis.Redis) -> None:
        """On every (re)connect of the reading connection: this node's own cards written again, and the
        others' read from the hash. A card of a finished table whose node is gone is dropped (a stale
        one of this node's own earlier run is removed from every node's lobby)."""
        own = self.tables.tables
        for table in list(own.values()):
            self._keep({"type": "lobby_table", "table": self.tables.summary(table)})
        found: dict[str, str] = await r.hgetall(CARDS)  # type: ignore[assignment]  # (decoded: Bus.client)
        live = await live_nodes(r) | {self.node}
        hub = self.ctx.hub
        for table_id, text in found.items():
            if table_id in own:
                continue
            try:
                entry = json.loads(text)
                node, card = str(entry["node"]), dict(entry["card"])
            except (ValueError, KeyError, TypeError):
                self.bus.command("HDEL", CARDS, table_id)
                continue
            if card.get("state") == FINISHED and (node == self.node or node not in live):
                if node == self.node:  # this node's own, from before its restart: nobody lists it now
                    self.relay("lobby", None, json.dumps({"type": "lobby_remove", "id": table_id},
                                                         separators=(",", ":")))
                else:
                    self.bus.command("HDEL", CARDS, table_id)
                self._forget(table_id)
                continue
            self.card_nodes[table_id] = node
            if self.cards.get(table_id) != card:
                self.cards[table_id] = card
                hub.to_lobby({"type": "lobby_table", "table": card}, relay=False)

    def forget_cards_of_gone(self, live: set[str]) -> None:
        """The beat found which nodes live: the finished tables' cards of the others go."""
        for table_id, node in list(self.card_nodes.items()):
            if node != self.node and node not in live and self.cards.get(table_id, {}).get("state") == FINISHED:
                self.bus.command("HDEL", CARDS, table_id)
                self._forget(table_id)

    def _forget(self, table_id: str) -> None:
        self.card_nodes.pop(table_id, None)
        if self.cards.pop(table_id, None) is not None:
            self.ctx.hub.to_lobby({"type": "lobby_remove", "id": table_id}, relay=False)


async def live_nodes(r: aioredis.Redis) -> set[str]:
    """The nodes whose keys have not run out (as the beat counts them)."""
    members: list[str] = sorted(await r.smembers(NODES))  # type: ignore[arg-type]  # (decoded: Bus.client)
    if not members:
        return set()
    values = await r.mget([f"{PREFIX}online:{n}" for n in members])
    return {n for n, v in zip(members, values, strict=True) if v is not None}
