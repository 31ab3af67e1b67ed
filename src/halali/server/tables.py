"""The one table service, for every game registered in ``games``: load, create, seats, computer
players, start, actions and chat. What differs between games is the adapter's (``server/games/``).

All state lives on the event loop; the store runs in one worker thread and bots in a process pool.
A per-table lock keeps "check → commit → apply → announce" of one table in order while other tables
go on. Nothing is applied to memory before the store has it.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from halali.server.announce import Announcer
from halali.server.bots import parse_level
from halali.server.computer import ComputerTurns
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.base import Plan, TableGame
from halali.server.hub import Connection
from halali.server.lifecycle import Lifecycle
from halali.server.seating import Seating
from halali.server.table import ARCHIVED, CLOSED, FINISHED, PLAYING, WAITING, Seat, Table
from halali.store import ActionWrite


class TableService(Announcer, Lifecycle, ComputerTurns, Seating):
    def __init__(self, ctx: Context, games: dict[str, TableGame]) -> None:
        self.ctx = ctx
        self.games = games
        self.bot_delay = ctx.settings.bot_delay
        seed = ctx.settings.house_seed
        self.house = random.Random(seed) if seed is not None else None  # tests: each new table's own seed
        self.tables: dict[str, Table] = {}
        self.bot_players: dict[tuple[str, int], str] = {}  # (game, level) -> the player standing for it
        ctx.people.renamed.append(self.renamed)
        # A cluster node's say over which tables it may hold (halali.server.cluster.node); None alone.
        self.take_lease: Callable[[str], Awaitable[bool]] | None = None
        self.first_version: Callable[[str], Awaitable[int]] | None = None
        self.turns_relay: Callable[[Table], None] | None = None
        # A game went on (game type, game id, actions so far) or ended on the board (game type, game id):
        # for its analysis, which starts on the positions played while the game goes on.
        self.game_progressed: Callable[[str, int, int], None] | None = None
        self.game_ended: Callable[[str, int], None] | None = None
        self.match_ended: list[Callable[[Table], None]] = []  # told when a match ends or is called off

    async def start_up(self) -> None:
        for game in self.games.values():
            ids = await self.ctx.db(self.ctx.store.ensure_bots, game.bot_names(), game.id)
            self.bot_players.update({(game.id, lv): pid for lv, pid in ids.items()})
        if self.take_lease is not None:
            return  # a cluster node takes tables over as their leases run out (ClusterNode._keep_leases)
        for table_id in await self.ctx.db(self.ctx.store.table_ids, (WAITING, PLAYING)):
            await self.load(table_id)  # its computer player moves at once if it is its turn

    def stop(self) -> list[asyncio.Task[None]]:
        """The computer players' tasks, for the caller to cancel and await."""
        return [t.bot_task for t in self.tables.values() if t.bot_task is not None]

    async def load(self, table_id: Any) -> Table | None:
        """A table from memory, or rebuilt from the store (its newest match replayed)."""
        if not isinstance(table_id, str) or len(table_id) > 16:
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        snap = await self.ctx.db(self.ctx.store.load_table, table_id)
        if snap is None or snap.table.state in (CLOSED, ARCHIVED) or snap.table.game not in self.games:
            return None  # an imported game is no table to play at
        if self.take_lease is not None and not await self.take_lease(table_id):
            return None  # another node owns it
        if self.take_lease is not None:  # it may have changed hands since the snapshot: read it as it is now
            snap = await self.ctx.db(self.ctx.store.load_table, table_id)
            if snap is None:
                return None
        version = await self.first_version(table_id) if self.first_version is not None else 0
        t = snap.table
        seats = [Seat() for _ in snap.seats]
        for s in snap.seats:
            seats[s.seat] = Seat(s.player_id, s.bot_level)
        table = Table(t.id, t.game, dict(t.rules), t.created_at, owner=t.created_by, state=t.state,
                      test_seed=t.test_seed, seats=seats, rated=t.rated, mode=t.mode, clock_spec=t.clock,
                      tournament=t.tournament_id)
        now = self.ctx.now()
        if snap.match is not None:
            table.match_id, table.match_number, table.match_rated = snap.match.id, snap.match.number, snap.match.rated
            self.games[t.game].restore(table, snap, now)
            last = [a for g in snap.match.games for a in g.actions if a.time is not None]
            if last and last[-1].time is not None:
                table.turn_since = last[-1].time
                table.turn_started = now - max(0.0, time.time() - last[-1].time.timestamp())
            else:
                table.turn_started = now
            if table.state == PLAYING and self.games[t.game].to_move(table) is None:
                table.state = FINISHED
        for p in snap.players.values():
            self.ctx.people.remember(p, rename=False)
        mark = self.games[t.game].chat_marks(table, snap)
        for c in snap.chat:
            table.chat.append(self.line(c.player_id, c.text, c.key, c.params, c.time, mark(c.time)))
        here = self.ctx.hub.watcher_players(table_id)  # a node taking a table over may have its pages already
        table.absent = {i: now for i, s in enumerate(seats) if s.player_id is not None and s.player_id not in here}
        table.events = deque(maxlen=self.ctx.settings.table_events)
        table.version = version
        table.updated_at = time.monotonic()
        if table_id in self.tables:  # loaded meanwhile, by another asker: one table, one computer's turn
            return self.tables[table_id]
        self.tables[table_id] = table
        if self.take_lease is not None:
            # Taken over from another node: what it sent just before it died may not have reached
            # everyone, and no later event may come, so the table as it is now goes to all watching.
            self.changed(table)
        self.maybe_bot(table)
        return table

    async def game_at(self, table_id: Any) -> TableGame | None:
        """The game played at a table that can be opened (here, or at another node of a cluster)."""
        table = await self.load(table_id)
        if table is not None:
            return self.game_of(table)
        if self.take_lease is None or not isinstance(table_id, str) or len(table_id) > 16:
            return None
        snap = await self.ctx.db(self.ctx.store.load_table, table_id, 0)
        if snap is None or snap.table.state in (CLOSED, ARCHIVED):
            return None
        return self.games.get(snap.table.game)

    async def table(self, table_id: Any) -> Table:
        table = await self.load(table_id) if table_id is not None else None
        if table is None:
            raise ClientError("error.no_table")
        return table

    # ---- pages -----------------------------------------------------------------------------------
    async def open(self, conn: Connection, table: Table, since: Any = None) -> None:
        old = self.ctx.hub.set_table(conn, table.id)
        if old is not None and old != table.id and old in self.tables:
            self.left_table(self.tables[old], conn.player_id)
        seat = table.seat_of(conn.player_id)
        if seat is not None:
            table.absent.pop(seat, None)
        if since is not None or old == table.id:
            self.resync(conn, table, since)
            return
        self.changed(table)

    def close(self, conn: Connection) -> None:
        old = self.ctx.hub.set_table(conn, None)
        if old is not None and old in self.tables:
            self.left_table(self.tables[old], conn.player_id)

    def left_table(self, table: Table, player_id: str) -> None:
        """A connection left a table's page: its player is absent once none of its connections is there."""
        seat = table.seat_of(player_id)
        if seat is not None and player_id not in self.ctx.hub.watcher_players(table.id):
            table.absent.setdefault(seat, self.ctx.now())
        self.changed(table)

    # ---- tables and seats ------------------------------------------------------------------------
    async def create(self, conn: Connection, msg: dict[str, Any], address: str = "") -> Table:
        name = msg.get("game", "forest")
        game = self.games.get(name) if isinstance(name, str) else None
        if game is None:
            raise ClientError("error.bad_request", field="game")
        options = game.options(msg.get("rules"))
        nseats = game.seat_count(msg.get("seats"))
        seed = msg.get("seed")
        if seed is not None and (not self.ctx.settings.test_seeds or not isinstance(seed, int)
                                 or isinstance(seed, bool) or not 0 <= seed < 2**62):
            raise ClientError("error.bad_request", field="seed")
        rated = msg.get("rated", True)
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        mode = msg.get("mode", "live")
        spec = game.clock(mode, msg.get("clock"))
        await self.check_table_limit(conn.player_id, address, everywhere=self.take_lease is not None)
        table = await self.new_table(conn.player_id, game, options, nseats, rated, mode, spec, seed, address)
        conn.send({"type": "created", "table": table.id, "game": game.id})
        if msg.get("join") is True:
            await self.join(conn, table)
        else:
            self.changed(table)
        return table

    async def set_seat(self, table: Table, seat: int, new: Seat) -> None:
        await self.check_bot_limit(new.player_id)
        state = table.state_after_seat_change()
        await self.ctx.db(self.ctx.store.set_seat, table.id, seat, new.player_id, new.bot, state)
        table.seats[seat] = new
        table.state = state
        table.rematch.clear()
        table.absent.pop(seat, None)

    async def join(self, conn: Connection, table: Table, open_table: bool = True) -> None:
        async with table.lock:
            seat = table.plan_join(conn.player_id)
            await self.set_seat(table, seat, Seat(conn.player_id))
            await self.notice(table, "chat.joined", name=self.ctx.people.name(conn.player_id), seat=seat)
        if open_table and conn.table_id != table.id:
            await self.open(conn, table)
        else:
            self.changed(table)

    async def unseat(self, conn: Connection, table: Table, leave: bool, confirm: Any = False) -> None:
        """`watch` (keep watching) or `leave` (also leave the page). From a running match this is a
        resignation, after a confirmation."""
        seat = table.seat_of(conn.player_id)
        if seat is not None and table.tournament is not None and table.state != PLAYING:
            raise ClientError("error.tournament_table")  # a tournament's seats stay as paired
        if seat is not None and table.state == PLAYING:
            await self.resign(conn, table, confirm, then="leave" if leave else "watch")
            if table.state == PLAYING:
                return  # asked for a confirmation
        async with table.lock:
            seat = table.seat_of(conn.player_id)
            if seat is not None and table.tournament is None:
                table.plan_unseat(conn.player_id)
                await self.set_seat(table, seat, Seat())
                await self.notice(table, "chat.left" if leave else "chat.watching",
                                  name=self.ctx.people.name(conn.player_id))
        if leave:
            if conn.table_id == table.id:
                self.ctx.hub.set_table(conn, None)
            conn.send({"type": "left", "table": table.id})
            self.changed(table)
        elif conn.table_id != table.id:
            await self.open(conn, table)
        else:
            self.changed(table)

    def present(self, table: Table) -> set[str]:
        return self.ctx.hub.watcher_players(table.id)

    async def add_bot(self, conn: Connection, table: Table, level: Any) -> None:
        game = self.game_of(table)
        level = parse_level(level, game.levels)
        self.ctx.bots.warm()
        async with table.lock:
            seat = table.plan_bot(conn.player_id, self.present(table))
            await self.set_seat(table, seat, Seat(bot=level))
            await self.notice(table, "chat.bot_added", name=self.computer_name(table, seat, level), level=level,
                              seat=seat, by=self.ctx.people.name(conn.player_id))
        self.changed(table)

    async def remove_bot(self, conn: Connection, table: Table, seat: Any) -> None:
        async with table.lock:
            seat = table.plan_unbot(conn.player_id, self.present(table), seat)
            level = table.seats[seat].bot
            name = self.computer_name(table, seat, level or 0)
            await self.set_seat(table, seat, Seat())
            await self.notice(table, "chat.bot_removed", name=name, seat=seat, by=self.ctx.people.name(conn.player_id))
        self.changed(table)

    # ---- matches ---------------------------------------------------------------------------------
    async def start(self, conn: Connection, table: Table, rated: Any = True) -> None:
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        async with table.lock:
            table.plan_start(conn.player_id, again=not self.game_of(table).agreed_rematch)
            await self.begin(table, rated)

    async def rematch(self, conn: Connection, table: Table, rated: Any = True) -> None:
        if not self.game_of(table).agreed_rematch:
            await self.start(conn, table, rated)
            return
        async with table.lock:
            if table.plan_rematch(conn.player_id):
                await self.begin(table, table.match_rated or table.play is None)
                return
            seat = table.seat_of(conn.player_id)
            assert seat is not None
            table.rematch.add(seat)
            await self.notice(table, "chat.rematch_asked", name=self.ctx.people.name(conn.player_id))
        self.changed(table)

    async def begin(self, table: Table, rated: bool) -> None:
        """Store the new match with its deals first; only then does anyone hear of it. A match is rated
        when the table and the start say so and its deals were not drawn from a test seed."""
        game = self.game_of(table)
        start = game.draw(table)
        number = table.match_number + 1
        rated = rated and table.rated and table.test_seed is None
        players = [self.seat_player(table, i) for i in range(len(table.seats))]
        paired = game.paired and len(players) == 2
        two = (players[0], players[1]) if paired else (None, None)
        rec = await self.ctx.db(self.ctx.store.start_match, table.id, number, start.deals, start.salts,
                                start.commitments, two, rated, seat_players=() if paired else players)
        now = self.ctx.now()
        table.begin(rec.id, number, rated, now)
        game.begin(table, start, [g.id for g in rec.games], now)
        for key, params in game.started(table, lambda s: self.seat_name(table, s)):
            await self.notice(table, key, **params)
        self.changed(table)
        self.send_game(table)
        self.maybe_bot(table)
        self.my_turn_changed(table)

    def seat_player(self, table: Table, seat: int) -> str | None:
        """The player behind a seat: a person, or the player that stands for a computer level."""
        s = table.seats[seat]
        return self.bot_players.get((table.game, s.bot)) if s.bot is not None else s.player_id

    def seat_to_move(self, table: Table) -> int | None:
        return self.game_of(table).to_move(table) if table.state == PLAYING else None

    async def act(self, conn: Connection, table: Table, text: Any, ply: Any) -> None:
        if not isinstance(text, str) or not text:
            raise ClientError("error.bad_request", field="action")
        if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool)):
            raise ClientError("error.bad_request", field="ply")
        async with table.lock:
            if await self.flag(table):  # the mover's time ran out before the watcher noticed
                raise ClientError("error.game_over")
            seat = table.seat_of(conn.player_id)
            if seat is None:
                raise ClientError("error.not_seated")
            if table.play is None or table.state == WAITING:
                raise ClientError("error.not_started")
            if table.state == FINISHED:
                raise ClientError("error.game_over")
            game = self.game_of(table)
            if game.to_move(table) == seat and ply is not None and ply != game.ply(table):
                raise ClientError("error.stale", ply=game.ply(table))
            await self.commit(table, game.plan(table, seat, text, ply, self.ctx.now()))

    async def commit(self, table: Table, plan: Plan) -> None:
        """The store first, then memory, then the connections (lock held)."""
        game = self.game_of(table)
        rating = self.rating_request(table, plan.winner, plan.ranks) if plan.match_over else None
        assert table.match_id is not None
        await self.ctx.writer.record(ActionWrite(table.id, plan.game_id, plan.ply, plan.record, plan.seat,
                                                 plan.game_result, table.match_id, plan.winner, plan.match_over,
                                                 plan.clock_ms, plan.next_game_id, rating))
        now = self.ctx.now()
        mover = game.to_move(table)
        abortable = table.abortable()
        game.apply(table, plan, now)
        table.acted.add(plan.seat)
        if game.to_move(table) != mover or plan.game_result is not None:
            table.turn_passed(now)
        if plan.match_over:
            table.state = FINISHED
        self.send_action(table, plan)
        for key, params in game.after_action(table, plan, lambda s: self.seat_name(table, s)):
            await self.notice(table, key, **params)
        if plan.next_game_id is not None:
            self.send_game(table)  # the next game of the match, begun by this action's end of the last
        if plan.match_over:
            await self.match_over(table, plan.winner, plan.ranks, rating is not None)
        if plan.game_result is not None or abortable != table.abortable():
            self.changed(table)  # a whole table: its result, or a match that can no longer be aborted
        if plan.game_result is not None and self.game_ended is not None:
            self.game_ended(table.game, plan.game_id)
        elif plan.game_result is None and self.game_progressed is not None:
            self.game_progressed(table.game, plan.game_id, plan.ply + 1)
        self.maybe_bot(table)
        self.my_turn_changed(table)

    # ---- computer players (the loop is ComputerTurns') ------------------------------------------
    def turn_stamp(self, table: Table) -> tuple[int, int, int | None, int]:
        return table.match_number, self.game_of(table).ply(table), self.seat_to_move(table), table.version

    async def bot_answer(self, table: Table, seat: int, level: int) -> str:
        house = table.seed()
        seed = secrets.randbits(32) if house is None else random.Random(f"{house}:{table.version}").getrandbits(32)
        return await self.game_of(table).bot_answer(self.ctx.bots.run, table, seat, level,
                                                    self.ctx.settings.bot_movetime, seed, self.ctx.now())

    def legal_texts(self, table: Table) -> list[str]:
        return self.game_of(table).legal(table)

    def plan_bot_action(self, table: Table, seat: int, text: str) -> Plan:
        game = self.game_of(table)
        return game.plan(table, seat, text, game.ply(table), self.ctx.now())

    async def commit_bot_action(self, table: Table, plan: Plan) -> None:
        await self.commit(table, plan)

    async def bot_may_play(self, table: Table) -> bool:
        return table.state == PLAYING and not await self.flag(table)
