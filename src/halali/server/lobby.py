"""The lobby: who is online, every open table's card, and the connections' comings and goings.

The lobby knows tables only through the table service's summaries; the table service knows the
lobby only as the hub's lobby connections, so neither holds the other's state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from halali.server.context import Context
from halali.server.hub import Connection
from halali.server.tables import TableService


class Lobby:
    def __init__(self, ctx: Context, tables: TableService) -> None:
        self.ctx, self.tables = ctx, tables
        self.remote_cards: Callable[[], dict[str, dict[str, Any]]] = dict  # a cluster: other nodes' tables
        self.turns_of: Callable[[str], None] | None = None  # a cluster: a player's turns on every node
        ctx.people.renamed.append(lambda player_id: self.online_changed())

    def welcome(self, conn: Connection) -> dict[str, Any]:
        """Who the player is, and what each game offers a new table (``games``). The forest's levels
        and rules and the hare hunt's fields stay where the pages first read them."""
        games = {name: {"levels": [{"level": lv, "name": n} for lv, n in g.bot_names().items()], **g.describe()}
                 for name, g in self.tables.games.items()}
        msg: dict[str, Any] = {"type": "welcome", "you": self.ctx.people.you(conn.player_id), "games": games,
                               "max_message": self.ctx.settings.max_message}
        if "forest" in games:
            msg.update(levels=games["forest"]["levels"], rules=self.tables.games["forest"].describe())
        if "hare" in games:
            msg["hare"] = games["hare"]
        return msg

    def connect(self, conn: Connection) -> None:
        conn.start()
        came_online = self.ctx.hub.add(conn)
        conn.send(self.welcome(conn))
        if came_online:
            self.online_changed(conn.player_id)

    def disconnect(self, conn: Connection) -> None:
        left = conn.table_id
        went_offline = self.ctx.hub.remove(conn)
        if left is not None and left in self.tables.tables:
            self.tables.left_table(self.tables.tables[left], conn.player_id)
        if went_offline:
            self.online_changed(conn.player_id)

    def online_changed(self, player_id: str | None = None) -> None:
        hub = self.ctx.hub
        # Only for lobby pages, here or (relayed) on another node: the list names everyone online, so
        # building it for nobody would cost a pass over every player at every coming and going.
        if hub.lobby_conns or hub.lobbies_elsewhere():
            hub.to_lobby(self.online())
        if player_id is not None:  # the seats show who is online
            for table in self.tables.tables.values():
                if table.seat_of(player_id) is not None:
                    self.tables.changed(table)

    def subscribe(self, conn: Connection, on: bool) -> None:
        self.ctx.hub.set_lobby(conn, on)
        if on:
            conn.send(self.message())
            if self.turns_of is not None:
                self.turns_of(conn.player_id)
            else:
                conn.send({"type": "my_turn", "tables": self.tables.my_turn(conn.player_id)})

    def online(self) -> dict[str, Any]:
        return {"type": "online", "online": [self.ctx.people.you(p) for p in sorted(self.ctx.hub.online())]}

    def show_online(self) -> None:
        """This node's lobby pages get the list again (in a cluster: the other nodes' players changed)."""
        if self.ctx.hub.lobby_conns:
            self.ctx.hub.to_lobby(self.online(), relay=False)

    def message(self) -> dict[str, Any]:
        tables = sorted(self.tables.tables.values(), key=lambda t: t.created_at)
        cards = [self.tables.summary(t) for t in tables]
        mine = {c["id"] for c in cards}
        cards += sorted((c for c in self.remote_cards().values() if c["id"] not in mine), key=lambda c: c["created"])
        return {"type": "lobby", "tables": cards, "online": self.online()["online"]}
