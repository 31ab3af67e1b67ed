"""Whose turn it is, across nodes: each player's list of the tables where it is his turn, for his
lobby pages (``my_turn``).

A list is kept where the player's lobby pages are, not in a shared store: the node of a page holds
his entries from its own tables and from what the other tables' owners told it. An owner speaks of a
change only for a player with a lobby page somewhere (``lobby_elsewhere``, or one of its own), so
that play costs nothing for the lists while nobody looks at them, as on a single server. A page
that opens asks every owner (``turns_wanted`` on ``halali:all``); each answers with all of the
player's entries at its tables (``turns_of``) and from then on with each change (``turn``), in order
on the same stream. ``turn_state`` is what the nodes with pages have been told, per player and table
(nothing yet, for a table taken over from a node that died: its first change is always told).
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from halali.server.cluster.bus import Bus, Fields
from halali.server.context import Context

TURN_KINDS = frozenset({"turns_wanted", "turns_of", "turn"})
Entry = dict[str, Any]


class Turns:
    ctx: Context
    bus: Bus
    node: str
    tables: Any
    lobby_elsewhere: set[str]
    wanted_at: dict[str, float]
    turn_state: dict[tuple[str, str], Any]
    turn_lists: dict[str, dict[str, tuple[str, Entry]]]  # player -> table -> (owner, entry)

    if TYPE_CHECKING:
        def _publish_lobby(self) -> None: ...

    def lobby_opened(self, player: str) -> None:
        """A lobby page of this player opened here: his list from this node's tables now, and every
        owner asked for the rest (the lobby key first, so that their next beat keeps him)."""
        self._publish_lobby()
        mine = {t: e for t, e in self.turn_lists.get(player, {}).items() if e[0] != self.node}
        entries = self.tables.my_turn(player)
        mine.update((e["id"], (self.node, e)) for e in entries)
        self.turn_lists[player] = mine
        self._told(player, entries)
        self.bus.broadcast("turns_wanted", player, "")
        self._send_turns(player)

    def turns_changed(self, table: Any) -> None:
        """An action at a table of ours: each seated player with a lobby page hears of the table's new
        place in his list (on this node directly; on the others through ``halali:all``)."""
        hub = self.ctx.hub
        if not hub.lobby_conns and not self.lobby_elsewhere:
            return  # no list is looked at anywhere (a page that opens gets every entry afresh)
        mover: str | None = None
        seat: int | None = None
        looked = False
        for pid in table.people():
            key = (pid, table.id)
            here = any(c.lobby for c in hub.by_player.get(pid, ()))
            if not here and pid not in self.lobby_elsewhere:
                self.turn_state.pop(key, None)  # nobody to tell; a page that opens asks afresh
                continue
            if not looked:
                looked, seat = True, self.tables.seat_to_move(table)
                mover = table.seats[seat].player_id if seat is not None else None
            state = table.turn_since if pid == mover else None
            if key in self.turn_state and self.turn_state[key] == state:
                continue  # what they were told still holds (a key not there: told nothing yet)
            self.turn_state[key] = state
            entry = self.tables.seat_turn_entry(table, seat) if state is not None and seat is not None else None
            if here:
                self._set_entry(pid, table.id, self.node, entry)
                self._send_turns(pid)
            if pid in self.lobby_elsewhere:
                self.bus.broadcast("turn", pid, json.dumps({"table": table.id, "entry": entry}))

    def on_turns(self, fields: Fields) -> None:
        """Another node's word on a player's turns: a page of his opened there, or its entries for him."""
        kind, player, origin = fields["kind"], fields["player"], fields["from"]
        if kind == "turns_wanted":
            self.wanted_at[player] = time.monotonic()
            self.lobby_elsewhere.add(player)
            entries = self.tables.my_turn(player)
            self._told(player, entries)
            self.bus.broadcast("turns_of", player, json.dumps(entries))
            return
        if player not in self.turn_lists:
            return  # no lobby page of his here
        if kind == "turns_of":
            lists = {t: e for t, e in self.turn_lists[player].items() if e[0] != origin}
            lists.update((e["id"], (origin, e)) for e in json.loads(fields["text"]))
            self.turn_lists[player] = lists
        else:
            change = json.loads(fields["text"])
            self._set_entry(player, change["table"], origin, change["entry"])
        self._send_turns(player)

    def _told(self, player: str, entries: list[Entry]) -> None:
        """A page now knows all of the player's entries at this node's tables: the changes from here on
        are measured against them."""
        since = {e["id"]: self.tables.tables[e["id"]].turn_since for e in entries}
        for table in self.tables.tables.values():
            if player in table.people():
                self.turn_state[(player, table.id)] = since.get(table.id)

    def _set_entry(self, player: str, table_id: str, owner: str, entry: Entry | None) -> None:
        lists = self.turn_lists.setdefault(player, {})
        if entry is None:
            lists.pop(table_id, None)
        else:
            lists[table_id] = (owner, entry)

    def _send_turns(self, player: str) -> None:
        conns = [c for c in self.ctx.hub.by_player.get(player, ()) if c.lobby]
        if not conns:
            self.turn_lists.pop(player, None)
            return
        items = sorted((e for _, e in self.turn_lists.get(player, {}).values()), key=lambda e: e["since"])
        for c in conns:
            c.send({"type": "my_turn", "tables": items})
