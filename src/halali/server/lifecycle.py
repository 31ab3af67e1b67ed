"""How tables end, the same for every game: clocks, resign, abort, abandonment, and housekeeping.

Decisions (docs/server.md, "The table lifecycle"), as lichess and BGA players know them:
- resign, by button, ``/resign`` or a seated player's ``/leave`` from a running match, asks for a
  confirmation first; it concedes the whole match;
- abort, until every seat has acted in the match: no result, no rating, in no history;
- abandonment: a live table's person away from the table past ``abandon_grace`` seconds, or a
  correspondence mover past ``correspondence_days``, lets those who stayed claim the win or a draw;
- a live match whose people have all been away for ``abandoned_minutes`` ends by itself: aborted
  while it may be, else lost to the computer players seated there, else an unrated draw;
- finished and stale waiting tables leave the lobby after a while; open tables are limited per
  guest, per account and per address.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from halali.server import views
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.base import Ending, TableGame
from halali.server.hub import Connection
from halali.server.table import CLOSED, FINISHED, PLAYING, WAITING, Table
from halali.store import RatingRequest
from halali.store.ratings import provisional

log = logging.getLogger("halali.server")


class Lifecycle:
    ctx: Context
    tables: dict[str, Table]
    games: dict[str, TableGame]
    turns_relay: Callable[[Table], None] | None  # a cluster keeps "your turn" across nodes
    match_ended: list[Callable[[Table], None]]  # the tournaments, told of every match's end

    if TYPE_CHECKING:  # provided by the other parts of the service
        def game_of(self, table: Table) -> TableGame: ...
        def seat_name(self, table: Table, seat: int) -> views.Name: ...
        def rated_name(self, table: Table, seat: int) -> views.Name: ...
        def seat_player(self, table: Table, seat: int) -> str | None: ...
        def seat_to_move(self, table: Table) -> int | None: ...
        def changed(self, table: Table) -> None: ...
        def send_game(self, table: Table) -> None: ...
        def send_all(self, table: Table, msg: dict[str, Any]) -> None: ...
        async def notice(self, table: Table, key: str, **params: Any) -> None: ...

    # ---- the end of a match ----------------------------------------------------------------------
    def rating_request(self, table: Table, winner: int | None, ranks: tuple[float, ...] | None
                       ) -> RatingRequest | None:
        players = [self.seat_player(table, i) for i in range(len(table.seats))]
        if not table.match_rated or table.match_id is None or any(p is None for p in players):
            return None
        return RatingRequest(table.game, table.match_id, tuple(p for p in players if p is not None),
                             winner_seat=winner if ranks is None else None, ranks=ranks)

    async def finish(self, table: Table, ending: Ending, key: str, rated: bool = True, **params: Any) -> None:
        """End the running match off the board (lock held): the store first, then memory and notices."""
        assert table.match_id is not None
        rating = self.rating_request(table, ending.winner, ending.ranks) if rated else None
        await self.ctx.db(self.ctx.store.end_match, table.id, ending.game_id, ending.game_result, table.match_id,
                          ending.winner, rating, ending.termination)
        self.game_of(table).apply_end(table, ending, self.ctx.now())
        table.state = FINISHED
        table.absent.clear()
        self.send_game(table)
        await self.notice(table, key, **params)
        await self.match_over(table, ending.winner, ending.ranks, rating is not None)
        self.changed(table)
        self.my_turn_changed(table)

    async def match_over(self, table: Table, winner: int | None, ranks: tuple[float, ...] | None,
                         rated: bool) -> None:
        key, params = self.game_of(table).over_notice(table, winner, ranks, lambda s: self.seat_name(table, s))
        await self.notice(table, key, **params)
        if rated and table.match_id is not None:
            # A computer's rating is its level's, whichever seats it held: named as the leaderboard names it.
            names = {self.seat_player(table, i): self.rated_name(table, i) for i in range(len(table.seats))}
            for change in await self.ctx.db(self.ctx.store.rating_changes, table.match_id):
                await self.notice(table, "chat.rating", name=names.get(change.player_id, "?"), before=change.before,
                                  after=change.after, provisional=provisional(change.matches))
        for tell in self.match_ended:
            tell(table)

    async def flag(self, table: Table) -> bool:
        """End the match on time if the running clock is at zero (lock held); True when it did."""
        if table.state != PLAYING:
            return False
        ending = self.game_of(table).timeout(table, self.ctx.now())
        if ending is None:
            return False
        (loser,) = ending.losers
        await self.finish(table, ending, "chat.time_out", name=self.seat_name(table, loser))
        return True

    async def check_clocks(self) -> None:
        """Flag every running clock that has reached zero, whether or not anyone is connected."""
        for table in list(self.tables.values()):
            if table.state == PLAYING and table.clock_spec is not None:
                async with table.lock:
                    await self.flag(table)

    # ---- resign and abort ------------------------------------------------------------------------
    def confirmed(self, conn: Connection, table: Table, request: str, confirm: Any) -> bool:
        """True when this request may go ahead: sent with ``confirm``, or asked twice within a while
        (a chat command typed again). Otherwise the client is asked to confirm, and nothing changes."""
        now = self.ctx.now()
        pending = table.confirm.pop(conn.player_id, None)
        if confirm is True or (pending is not None and pending[0] == request and pending[1] >= now):
            return True
        table.confirm[conn.player_id] = (request, now + self.ctx.settings.confirm_seconds)
        conn.send({"type": "confirm", "table": table.id, "request": request,
                   "seconds": self.ctx.settings.confirm_seconds})
        return False

    def running_seat(self, conn: Connection, table: Table) -> int:
        seat = table.seat_of(conn.player_id)
        if seat is None:
            raise ClientError("error.not_seated")
        if table.state != PLAYING:
            raise ClientError("error.not_started" if table.state == WAITING else "error.game_over")
        return seat

    async def resign(self, conn: Connection, table: Table, confirm: Any = False, then: str = "resign") -> None:
        seat = self.running_seat(conn, table)
        if not self.confirmed(conn, table, then, confirm):
            return
        async with table.lock:
            seat = self.running_seat(conn, table)
            ending = self.game_of(table).end(table, "resign", frozenset({seat}), self.ctx.now())
            await self.finish(table, ending, "chat.resigned", name=self.seat_name(table, seat))

    async def abort(self, conn: Connection, table: Table) -> None:
        self.running_seat(conn, table)
        if table.tournament is not None:  # a paired match is played or lost (docs/tournaments.md)
            raise ClientError("error.tournament_no_abort")
        async with table.lock:
            self.running_seat(conn, table)
            await self._abort(table, "chat.aborted", name=self.ctx.people.name(conn.player_id))

    async def _abort(self, table: Table, key: str, **params: Any) -> None:
        if not table.abortable():
            raise ClientError("error.cannot_abort")
        assert table.match_id is not None
        await self.ctx.db(self.ctx.store.abort_match, table.id, table.match_id, self.game_of(table).game_id(table),
                          WAITING)
        table.state, table.play, table.match_rated = WAITING, None, False
        table.absent.clear()
        await self.notice(table, key, **params)
        self.changed(table)
        self.my_turn_changed(table)
        for tell in self.match_ended:
            tell(table)

    # ---- abandonment -----------------------------------------------------------------------------
    def claim_times(self, table: Table) -> dict[int, float]:
        """Seat -> when those who stayed may claim against it (server clock)."""
        if table.state != PLAYING:
            return {}
        settings = self.ctx.settings
        if table.mode == "correspondence":
            mover = self.seat_to_move(table)
            if mover is None or table.seats[mover].player_id is None:
                return {}
            return {mover: table.turn_started + settings.correspondence_days * 86400}
        return {seat: since + settings.abandon_grace for seat, since in table.absent.items()
                if table.seats[seat].player_id is not None}

    def lifecycle_json(self, table: Table, now: float) -> dict[str, Any]:
        return {"abortable": table.abortable() and table.tournament is None,
                "claims": [{"seat": seat, "in": max(0, round(at - now))}
                           for seat, at in sorted(self.claim_times(table).items())]}

    async def claim(self, conn: Connection, table: Table, result: Any) -> None:
        if result not in ("win", "draw"):
            raise ClientError("error.bad_request", field="result")
        async with table.lock:
            seat = self.running_seat(conn, table)
            now = self.ctx.now()
            gone = frozenset(s for s, at in self.claim_times(table).items() if s != seat and at <= now)
            if not gone:
                raise ClientError("error.cannot_claim")
            ending = self.game_of(table).end(table, "abandon", gone if result == "win" else frozenset(), now)
            await self.finish(table, ending, f"chat.claimed_{result}", name=self.seat_name(table, seat))

    async def end_abandoned(self, table: Table) -> None:
        """A live match all of whose people have long been away (lock held)."""
        if table.abortable():
            await self._abort(table, "chat.abandoned")
            return
        people = frozenset(i for i, s in enumerate(table.seats) if s.player_id is not None)
        bots = len(people) < len(table.seats)
        ending = self.game_of(table).end(table, "abandon", people if bots else frozenset(), self.ctx.now())
        await self.finish(table, ending, "chat.abandoned", rated=bots)

    # ---- limits ----------------------------------------------------------------------------------
    async def check_table_limit(self, player_id: str, address: str, everywhere: bool = False) -> None:
        """A bounded number of open (waiting or playing) tables per guest, per account and per address;
        ``everywhere`` (a cluster) counts the player's tables on every node, in the store."""
        st = self.ctx.settings
        open_tables = [t for t in self.tables.values() if t.state in (WAITING, PLAYING)]
        mine = sum(1 for t in open_tables if t.owner == player_id)
        if everywhere:
            mine = max(mine, await self.ctx.db(self.ctx.store.open_tables_by, player_id))
        limit = st.tables_per_account if player_id in self.ctx.people.accounts else st.tables_per_guest
        if mine >= limit:
            raise ClientError("error.too_many_tables", max=limit)
        if address and sum(1 for t in open_tables if t.address == address) >= st.tables_per_address:
            raise ClientError("error.too_many_tables", max=st.tables_per_address)

    async def check_bot_limit(self, player_id: str | None) -> None:
        """The one check of how much a bot account plays (docs/bots.md): at most ``bot_games_at_once``
        tables where it sits waiting or playing, and ``bot_games_per_day`` matches begun in 24 hours.
        Anyone else passes. Called before a bot account takes a seat and before a challenge to or from
        one is made or accepted."""
        people = self.ctx.people
        if player_id is not None and player_id not in people.names:  # seated by id, never seen here yet
            info = await self.ctx.db(self.ctx.store.player_info, player_id)
            if info is not None:
                people.remember(info[0])
        if player_id is None or player_id not in people.bot_accounts:
            return
        st = self.ctx.settings
        seated = sum(1 for t in self.tables.values()
                     if t.state in (WAITING, PLAYING) and t.seat_of(player_id) is not None)
        if seated >= st.bot_games_at_once:
            raise ClientError("error.bot_busy", max=st.bot_games_at_once)
        since = datetime.now(UTC) - timedelta(days=1)
        if await self.ctx.db(self.ctx.store.matches_begun_since, player_id, since) >= st.bot_games_per_day:
            raise ClientError("error.bot_daily_limit", max=st.bot_games_per_day)

    # ---- whose turn ------------------------------------------------------------------------------
    def my_turn(self, player_id: str) -> list[dict[str, Any]]:
        """Every running table where it is this player's turn, longest waiting first."""
        out = [e for e in (self.turn_entry(table, player_id) for table in self.tables.values()) if e is not None]
        return sorted(out, key=lambda t: t["since"])

    def turn_entry(self, table: Table, player_id: str) -> dict[str, Any] | None:
        """This table in the player's list of turns, or None when it is not the player's turn there."""
        seat = self.seat_to_move(table)
        if seat is None or table.seats[seat].player_id != player_id:
            return None
        return self.seat_turn_entry(table, seat)

    def seat_turn_entry(self, table: Table, seat: int) -> dict[str, Any]:
        """The table in the list of turns of the player at ``seat``, whose turn it is."""
        others = [self.seat_name(table, i) for i in range(len(table.seats)) if i != seat]
        return {"id": table.id, "game": table.game, "mode": table.mode,
                "opponent": ", ".join(views.plain_name(n) for n in others), "opponents": others,
                "since": views.iso(table.turn_since)}

    def my_turn_changed(self, table: Table) -> None:
        """Tell the seated players' lobby pages their new list of turns."""
        if self.turns_relay is not None:  # a cluster: the lists are kept across nodes
            self.turns_relay(table)
            return
        hub = self.ctx.hub
        for pid in table.people():
            conns = [c for c in hub.by_player.get(pid, ()) if c.lobby]
            if conns:
                msg = {"type": "my_turn", "tables": self.my_turn(pid)}
                for c in conns:
                    c.send(msg)

    def renamed(self, player_id: str) -> None:
        for table in self.tables.values():
            if table.seat_of(player_id) is not None or player_id in self.ctx.hub.watcher_players(table.id):
                self.changed(table)

    # ---- housekeeping ----------------------------------------------------------------------------
    async def housekeeping(self) -> None:
        """Clocks every ``clock_poll`` seconds; the store's log checkpointed every 2 s (off the writer
        thread); the tables swept every 30 s."""
        checkpoint = sweep = time.monotonic()
        while True:
            await asyncio.sleep(self.ctx.settings.clock_poll)
            try:
                await self.check_clocks()
                if time.monotonic() - checkpoint >= 2:
                    checkpoint = time.monotonic()
                    await asyncio.to_thread(self.ctx.store.checkpoint)
                if time.monotonic() - sweep >= 30:
                    sweep = time.monotonic()
                    await self.sweep()
            except Exception:
                log.exception("housekeeping failed")

    def abandoned(self, table: Table, clock: float) -> bool:
        """A live match whose people have all been away for ``abandoned_minutes``."""
        people = table.people()
        gone = [clock - table.absent[i] for i, s in enumerate(table.seats) if s.player_id is not None
                and i in table.absent]
        return (table.mode == "live" and bool(people) and len(gone) == len(people)
                and min(gone) > self.ctx.settings.abandoned_minutes * 60)

    async def sweep(self, now: float | None = None) -> None:
        """Forget finished tables nobody looks at; close waiting tables nobody sits at, or whose people
        have all gone; end live matches whose people have all long been away."""
        now = time.monotonic() if now is None else now
        st = self.ctx.settings
        online = self.ctx.hub.online()
        clock = self.ctx.now()
        for table in list(self.tables.values()):
            if table.state == PLAYING:
                if self.abandoned(table, clock):
                    # A computer's move in progress holds the lock: waited for, it does not keep the
                    # match alive (computers alone would hold it often, and the sweep would pass by).
                    async with table.lock:
                        if table.state == PLAYING and self.abandoned(table, clock):
                            await self.end_abandoned(table)
                continue
            if table.lock.locked():
                continue
            watched = self.ctx.hub.watched(table.id)
            idle = now - table.updated_at
            people = table.people()
            if watched:
                continue
            if table.state == FINISHED and idle > st.finished_minutes * 60:
                del self.tables[table.id]
            elif table.state == WAITING and ((not people and idle > st.finished_minutes * 60)
                                             or (not set(people) & online and idle > st.waiting_minutes * 60)):
                await self.ctx.db(self.ctx.store.set_state, table.id, CLOSED)
                del self.tables[table.id]
            else:
                continue
            self.ctx.hub.to_lobby({"type": "lobby_remove", "id": table.id})
