"""Challenges: one player asks another to a forest match; an accept makes the table, seated and started.

The lobby's way (create a table, wait for someone to join) suits people; a bot account waits to be
asked, as on lichess. A challenge is stored (``halali.store.challenges``) until it is answered,
called off or runs out (a minute for a live match, a day for correspondence): so a player sees and
answers it on any node of a cluster, and a restart forgets none. No table exists before both agree.
Each player has only a few open at once. What it says reaches both players wherever they are
connected (``Hub.to_player``, relayed between nodes).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.hub import Connection
from halali.server.people import new_id
from halali.server.table import CLOSED
from halali.server.tables import TableService
from halali.store import ChallengeRecord as Challenge

log = logging.getLogger("halali.server")
GAME = "forest"
DECLINE_REASONS = ("generic", "later", "rated", "casual", "mode", "clock", "rules", "limit")


class Challenges:
    def __init__(self, ctx: Context, tables: TableService) -> None:
        self.ctx, self.tables = ctx, tables

    def json(self, c: Challenge) -> dict[str, Any]:
        people = self.ctx.people
        return {"id": c.id, "from": people.you(c.challenger), "to": people.you(c.challenged), "game": GAME,
                "rules": c.rules, "rated": c.rated, "mode": c.mode, "clock": c.clock,
                "expires_in": max(0, round(c.expires - self.ctx.now()))}

    def _tell(self, c: Challenge, msg: dict[str, Any]) -> None:
        for player_id in (c.challenger, c.challenged):
            self.ctx.hub.to_player(player_id, msg)

    async def open_for(self, player_id: str) -> list[Challenge]:
        """The challenges still open to or from the player."""
        return await self.ctx.db(self.ctx.store.challenges_of, player_id, self.ctx.now())

    async def connected(self, conn: Connection) -> None:
        """A new connection sees every challenge still open to or from its player (a store that
        cannot be read now costs the list, not the connection)."""
        try:
            found = await self.open_for(conn.player_id)
        except Exception as exc:  # handled: one line, no traceback (docs/server.md, "Logs")
            log.error("could not read the open challenges of %s (%s: %s)", conn.player_id, type(exc).__name__, exc)
            return
        for c in found:
            conn.send({"type": "challenge", "challenge": self.json(c)})

    async def create(self, conn: Connection, msg: dict[str, Any]) -> None:
        me, to = conn.player_id, msg.get("to")
        if not isinstance(to, str) or not 0 < len(to) <= 16:
            raise ClientError("error.bad_request", field="to")
        if to == me:
            raise ClientError("error.challenge_self")
        info = await self.ctx.db(self.ctx.store.player_info, to)
        if info is None or info[0].bot is not None:  # the computer levels are seated with `bot`
            raise ClientError("error.no_player")
        self.ctx.people.remember(info[0], rename=False)
        game = self.tables.games[GAME]
        rules = game.options(msg.get("rules"))
        rated = msg.get("rated", True)
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        mode = msg.get("mode", "live")
        spec = game.clock(mode, msg.get("clock"))
        limit = self.ctx.settings.challenges_per_player
        if await self.ctx.db(self.ctx.store.open_challenges_by, me, self.ctx.now()) >= limit:
            raise ClientError("error.too_many_challenges", max=limit)
        for player_id in (me, to):
            await self.tables.check_bot_limit(player_id)
        await self.tables.check_table_limit(me, conn.address)  # the table will be the challenger's
        st = self.ctx.settings
        wait = st.challenge_live_seconds if mode == "live" else st.challenge_correspondence_seconds
        c = Challenge(new_id("c_"), me, to, rules, rated, mode, spec, self.ctx.now() + wait)
        await self.ctx.db(self.ctx.store.add_challenge, c)
        self._tell(c, {"type": "challenge", "challenge": self.json(c)})

    async def _mine(self, conn: Connection, msg: dict[str, Any], challenged: bool) -> Challenge:
        cid = msg.get("challenge")
        c = await self.ctx.db(self.ctx.store.challenge, cid, self.ctx.now()) if isinstance(cid, str) else None
        if c is None or conn.player_id != (c.challenged if challenged else c.challenger):
            raise ClientError("error.no_challenge")
        return c

    async def _take(self, conn: Connection, msg: dict[str, Any], challenged: bool) -> Challenge:
        """The player's challenge, taken out of the store: by this answer only, not by a second one
        made at the same moment (on another node, say), nor by its expiry."""
        c = await self._mine(conn, msg, challenged)
        if not await self.ctx.db(self.ctx.store.take_challenge, c.id):
            raise ClientError("error.no_challenge")
        return c

    async def accept(self, conn: Connection, msg: dict[str, Any]) -> None:
        """The table, both seated (the challenger in seat 0) and the match started, as join and start do."""
        c = await self._mine(conn, msg, challenged=True)
        for player_id in (c.challenger, c.challenged):
            await self.tables.check_bot_limit(player_id)
        c = await self._take(conn, msg, challenged=True)
        tables = self.tables
        table = await tables.new_table(c.challenger, tables.games[GAME], c.rules, 2, c.rated, c.mode, c.clock)
        try:
            await tables.seat_and_begin(table, [c.challenger, c.challenged], c.rated)
        except ClientError:  # a bot account reached its limit meanwhile: no table after all
            await self.ctx.db(self.ctx.store.set_state, table.id, CLOSED)
            tables.tables.pop(table.id, None)
            self._tell(c, {"type": "challenge_declined", "challenge": c.id, "reason": "limit",
                           "key": "decline.limit", "by": self.ctx.people.you(c.challenged)})
            raise
        self._tell(c, {"type": "challenge_accepted", "challenge": c.id, "table": table.id})

    async def decline(self, conn: Connection, msg: dict[str, Any]) -> None:
        reason = msg.get("reason", "generic")
        if reason not in DECLINE_REASONS:
            raise ClientError("error.bad_request", field="reason")
        c = await self._take(conn, msg, challenged=True)
        self._tell(c, {"type": "challenge_declined", "challenge": c.id, "reason": reason, "key": f"decline.{reason}",
                       "by": self.ctx.people.you(c.challenged)})

    async def cancel(self, conn: Connection, msg: dict[str, Any]) -> None:
        c = await self._take(conn, msg, challenged=False)
        self._tell(c, {"type": "challenge_canceled", "challenge": c.id})

    async def expire(self) -> None:
        """Tell both sides of each challenge that ran out (in a cluster, the node that took it does)."""
        for c in await self.ctx.db(self.ctx.store.take_expired_challenges, self.ctx.now()):
            self._tell(c, {"type": "challenge_expired", "challenge": c.id})

    async def run(self, every: float = 1.0) -> None:
        """Tell both sides when a challenge runs out, whether or not either does anything."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire()
            except Exception:
                log.exception("expiring challenges failed")
