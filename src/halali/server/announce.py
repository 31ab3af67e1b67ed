"""How a table tells what happened: numbered events, each built once per audience (a seat, or the
spectators) through the game's one ``view``, then queued to every connection at the table.

Every message about a table carries its number ``v``; a client that reconnects says the last number
it has and receives exactly the events it missed, or, when those are no longer kept, the whole table
(docs/protocol.md, "Events and resync").

A kept event holds a seat's own view only of the match it was made in, and seats cannot change while a
match runs; once it is over its secrets are public. So replaying it to whoever holds that seat later
tells nothing that seat may not know.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from halali.server import views
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.base import Plan, TableGame
from halali.server.hub import Connection, dumps
from halali.server.table import Audience, Table


def personal(text: str, player_id: str) -> str:
    """A table message, stored once per seat, made out to one connection: its ``you`` gets the player's
    id. (User text inside it is JSON-escaped, so the first unescaped ``"you":{`` is the field itself.)"""
    return text.replace('"you":{', f'"you":{{"id":{json.dumps(player_id)},', 1)


class Announcer:
    ctx: Context
    games: dict[str, TableGame]

    if TYPE_CHECKING:  # the lifecycle's
        def lifecycle_json(self, table: Table, now: float) -> dict[str, Any]: ...

    def game_of(self, table: Table) -> TableGame:
        return self.games[table.game]

    # ---- names -----------------------------------------------------------------------------------
    def seat_name(self, table: Table, seat: int) -> views.Name:
        """A seat's name for a notice: a person's name, or the computer as ``views.computer`` has it."""
        s = table.seats[seat]
        if s.bot is not None:
            return self.computer_name(table, seat, s.bot)
        return self.ctx.people.name(s.player_id)

    def rated_name(self, table: Table, seat: int) -> views.Name:
        """The name a seat's rating goes under: a computer's is its level's, without a seat number."""
        s = table.seats[seat]
        if s.bot is not None:
            return views.computer(s.bot, self.game_of(table).bot_names().get(s.bot, "?"))
        return self.ctx.people.name(s.player_id)

    def computer_name(self, table: Table, seat: int, level: int) -> dict[str, Any]:
        """The computer of ``level`` in ``seat`` (also one just removed), numbered by ``views``' rule."""
        bots = [s.bot is not None or i == seat for i, s in enumerate(table.seats)]
        return views.computer(level, self.game_of(table).bot_names().get(level, "?"), views.computer_number(bots, seat))

    def named(self, line: dict[str, Any]) -> dict[str, Any]:
        if "from" in line:
            pid = line["from"]["id"]
            return {**line, "from": self.ctx.people.you(pid)}
        return line

    @staticmethod
    def line(player_id: str | None, text: str | None, key: str | None, params: dict[str, Any] | None,
             when: Any, at: dict[str, Any] | None = None) -> dict[str, Any]:
        """A chat line; ``at``: where in the running game it was said (``TableGame.chat_mark``)."""
        out: dict[str, Any] = {"time": views.iso(when), **({"at": at} if at is not None else {})}
        if key is not None:
            out.update(key=key, params=params or {})
        else:
            out.update({"from": {"id": player_id}, "text": text})
        return out

    # ---- what is shown ---------------------------------------------------------------------------
    def summary(self, table: Table) -> dict[str, Any]:
        hub, people = self.ctx.hub, self.ctx.people
        seated = {s.player_id for s in table.seats}
        game = self.game_of(table)
        return {"id": table.id, "game": table.game, "state": table.state, "owner": table.owner,
                "seats": views.seat_json(table.seats, people.names, hub.online(), game.bot_names(),
                                         people.bot_accounts),
                "spectators": [people.you(p) for p in sorted(hub.watcher_players(table.id) - seated)],
                "created": views.iso(table.created_at),
                # the match's own when there is one (a test seed or /startnosave makes it unrated)
                "rated": table.match_rated if table.play is not None else table.rated, "mode": table.mode,
                **({"tournament": table.tournament} if table.tournament is not None else {}), **game.summary(table)}

    def table_message(self, table: Table, seat: Audience, summary: dict[str, Any] | None = None) -> dict[str, Any]:
        game = self.game_of(table)
        now = self.ctx.now()
        base = {**(summary or self.summary(table)), "match_number": table.match_number,
                "rematch": [i in table.rematch for i in range(len(table.seats))],
                "chat": [self.named(line) for line in table.chat], "lifecycle": self.lifecycle_json(table, now),
                "you": {"seat": seat, "hints": game.hints_for(table, seat)}}
        return {"type": game.message_type, "table": base, "v": table.version, **game.view(table, seat, now)}

    # ---- sending ---------------------------------------------------------------------------------
    def audience_of(self, table: Table, conn: Connection) -> Audience:
        return table.seat_of(conn.player_id)

    def changed(self, table: Table) -> None:
        """Seats, spectators or state changed: the whole table to everyone there (one event), and its
        card to the lobby."""
        table.updated_at = time.monotonic()
        summary = self.summary(table)
        self.ctx.hub.to_lobby({"type": "lobby_table", "table": summary})
        v = table.next_version()
        texts: dict[Audience, str] = {}
        for seat in [None, *range(len(table.seats))]:
            msg = self.table_message(table, seat, summary)
            msg["v"] = v
            texts[seat] = dumps(msg)
        table.add_event(texts)
        self.publish(table, v, texts, None)
        for conn in self.ctx.hub.watchers(table.id):
            conn.send(personal(texts[self.audience_of(table, conn)], conn.player_id))

    def send_action(self, table: Table, plan: Plan | None) -> None:
        """An action's own message (the game adapter's), or the whole table where it has none."""
        game = self.game_of(table)
        made = game.action_texts(table, plan, self.ctx.now())
        if made is None:
            self.changed(table)
            return
        shared, own = made
        v = table.next_version()
        head = f'{{"v":{v},'
        shared = head + shared[1:]
        own = {seat: head + text[1:] for seat, text in own.items()}
        table.add_event({seat: text for seat, text in own.items()}, shared)
        self.publish(table, v, {seat: text for seat, text in own.items()}, shared)
        for conn in self.ctx.hub.watchers(table.id):
            seat = table.seat_of(conn.player_id)
            conn.send(own.get(seat, shared) if seat is not None else shared)
        table.updated_at = time.monotonic()

    def send_game(self, table: Table) -> None:
        """The running game's own message, for a game whose adapter has one (a start, an end off the board)."""
        if self.game_of(table).action_message(table, None, None, self.ctx.now()) is not None:
            self.send_action(table, None)

    def send_all(self, table: Table, msg: dict[str, Any]) -> None:
        """The same message to everyone at the table, as one event."""
        msg = {**msg, "v": table.next_version()}
        text = dumps(msg)
        table.add_event({}, text)
        self.publish(table, msg["v"], {}, text)
        for conn in self.ctx.hub.watchers(table.id):
            conn.send(text)

    def publish(self, table: Table, v: int, texts: dict[Any, str], shared: str | None) -> None:
        """In a cluster: the event to the table's stream, for the other nodes' connections."""
        relay = self.ctx.hub.table_relay
        if relay is not None:
            relay(table.id, v, [s.player_id for s in table.seats], texts, shared)

    def resync(self, conn: Connection, table: Table, since: Any) -> None:
        """What a (re)opening client missed since event ``since``, or the whole table."""
        seat = self.audience_of(table, conn)
        missed = None
        if isinstance(since, int) and not isinstance(since, bool) and 0 <= since <= table.version:
            missed = table.missed(since, seat)
        if missed is None:
            msg = self.table_message(table, seat)
            msg["table"]["you"]["id"] = conn.player_id
            conn.send({**msg, "resync": since is not None})
            return
        conn.send({"type": "resumed", "table": table.id, "since": since, "v": table.version, "missed": len(missed)})
        for text in missed:
            conn.send(personal(text, conn.player_id))

    async def notice(self, table: Table, key: str, **params: Any) -> None:
        """A public notice, stored like chat so a reload shows it, then sent as a key for translation."""
        rec = await self.ctx.db(self.ctx.store.add_chat, table.id, None, None, key, params)
        line = self.line(None, None, key, params, rec.time, self.game_of(table).chat_mark(table))
        table.chat.append(line)
        self.send_all(table, {"type": "chat", "table": table.id, "line": line})

    # ---- the chat ---------------------------------------------------------------------------------
    async def say(self, conn: Connection, table: Table, text: Any) -> None:
        if not isinstance(text, str):
            raise ClientError("error.bad_request", field="text")
        text = text.strip()
        if not 1 <= len(text) <= 500:
            raise ClientError("error.bad_chat")
        if conn.table_id != table.id and table.seat_of(conn.player_id) is None:
            raise ClientError("error.no_table")
        rec = await self.ctx.db(self.ctx.store.add_chat, table.id, conn.player_id, text)
        line = self.line(conn.player_id, text, None, None, rec.time, self.game_of(table).chat_mark(table))
        table.chat.append(line)
        self.send_all(table, {"type": "chat", "table": table.id, "line": self.named(line)})
