"""The tournament director: begins rounds when they are due, seats their tables, takes the results in,
ends a correspondence round at its deadline, and finishes the tournament after its last round.

Everything it decides it reads from the store, and every step is written before it is acted on: a
round's pairings (with their table ids) in one transaction, then each table, then each result once.
So after a restart or a crash between two steps, ``step`` finds what is missing and does it: a table
not yet created is created, a match not yet begun is begun, a result not yet recorded is recorded.
One step runs at a time (``lock``); requests that change a tournament take the same lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from halali.server.context import Context
from halali.server.people import new_id
from halali.server.table import FINISHED, PLAYING, WAITING, Table
from halali.server.tables import TableService
from halali.server.tournaments import views
from halali.store.tournaments import NewPairing, PairingRecord, TournamentRecord
from halali.tournament import Round, pair_swiss, seat_tables

log = logging.getLogger("halali.server")
BREAK = 30.0  # least seconds between the end of a live round and the start of the next
MIN_PLAYERS = {"forest": 2, "hare": 3}


class Director:
    def __init__(self, ctx: Context, tables: TableService, send: Callable[[TournamentRecord], None]) -> None:
        self.ctx = ctx
        self.tables = tables
        self.send = send
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        tables.match_ended.append(self.match_ended)

    async def run(self, poll: float = 1.0) -> None:
        """Steps at every wake-up (a request, a match's end) and at least every ``poll`` seconds (the
        start times and deadlines)."""
        while True:
            # asyncio.timeout, not wait_for: in Python 3.11 wait_for loses a cancellation that comes
            # as the event is set, and the server's stop then waited for this loop for ever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(poll):
                    await self.wake.wait()
            self.wake.clear()
            try:
                await self.step()
            except Exception:
                log.exception("the tournament director's step failed")

    async def step(self) -> None:
        async with self.lock:
            for tid in await self.ctx.db(self.ctx.store.tournament_ids, ("upcoming", "running")):
                t = await self.ctx.db(self.ctx.store.tournament, tid)
                if t is not None and await self.advance(t):
                    t = await self.ctx.db(self.ctx.store.tournament, tid)
                    if t is not None:
                        self.send(t)

    def match_ended(self, table: Table) -> None:
        if table.tournament is not None:
            self.wake.set()

    # ---- one tournament --------------------------------------------------------------------------
    async def advance(self, t: TournamentRecord) -> bool:
        """One tournament's due step; True when it changed."""
        now = self.ctx.now()
        if t.state == "upcoming":
            if t.next_at is None or now < t.next_at:
                return False
            if sum(1 for e in t.entries if not e.withdrawn) < MIN_PLAYERS.get(t.game, 2):
                await self.ctx.db(self.ctx.store.set_tournament, t.id, state="cancelled", next_at=None)
                return True
            await self.begin_round(t, 1)
            return True
        current = [p for p in t.pairings if p.round == t.round]
        changed = False
        for p in current:
            if not p.done and p.table_id is not None:
                changed |= await self.collect(t, p)
        if changed:
            return True
        if any(not p.done for p in current):
            if t.pace == "correspondence" and t.next_at is not None and now >= t.next_at:
                return await self.deadline(t, [p for p in current if not p.done])
            return False
        if t.round >= t.rounds:
            await self.ctx.db(self.ctx.store.set_tournament, t.id, state="finished", next_at=None)
            return True
        if t.pace == "live":  # a correspondence round is followed at once
            if t.next_at is None:  # the round is over: the next at its time, but after a short break
                due = max(t.starts_at + t.round * t.interval, now + BREAK)
                await self.ctx.db(self.ctx.store.set_tournament, t.id, next_at=due)
                return True
            if now < t.next_at:
                return False
        if sum(1 for e in t.entries if not e.withdrawn) < MIN_PLAYERS.get(t.game, 2):
            # Too few players left to pair another round (withdrawals): the tournament ends with the
            # rounds played, rather than wait for entries that may never come.
            await self.ctx.db(self.ctx.store.set_tournament, t.id, state="finished", next_at=None)
            return True
        await self.begin_round(t, t.round + 1)
        return True

    async def begin_round(self, t: TournamentRecord, number: int) -> None:
        """Pair, write the round, then seat and begin its tables."""
        ratings = await self.ratings(t)
        people = views.entrants(t, ratings)
        done = views.results(t)
        paired: Round = (seat_tables(people, done, number, t.table_size) if t.game == "hare"
                         else pair_swiss(people, done, number))
        new = [NewPairing(board, tuple(players), new_id("t_"), "played") for board, players
               in enumerate(paired.tables, start=1)]
        if paired.bye is not None:
            new.append(NewPairing(len(new) + 1, (paired.bye,), None, "bye", (1.0,), (1.0,)))
        deadline = self.ctx.now() + t.interval if t.pace == "correspondence" else None
        await self.ctx.db(self.ctx.store.start_round, t.id, number, new, deadline)
        fresh = await self.ctx.db(self.ctx.store.tournament, t.id)
        assert fresh is not None
        for p in fresh.pairings:
            if p.round == number and p.table_id is not None:
                await self.open_table(fresh, p)

    async def ratings(self, t: TournamentRecord) -> dict[str, float]:
        out = {}
        for e in t.entries:
            for r in await self.ctx.db(self.ctx.store.ratings_of, e.player_id):
                if r.game == t.game:
                    out[e.player_id] = float(r.rating)
        return out

    async def open_table(self, t: TournamentRecord, p: PairingRecord) -> None:
        """Create the pairing's table seated (unless it is there), begin its match (unless begun), and
        tell its people their game is ready."""
        assert p.table_id is not None
        snap = await self.ctx.db(self.ctx.store.load_table, p.table_id, 0)
        if snap is None:
            levels = {e.player_id: e.bot_level for e in t.entries}
            seated = [(None, levels[pid]) if levels.get(pid) is not None else (pid, None) for pid in p.players]
            await self.ctx.db(self.ctx.store.create_table, p.table_id, t.game, t.rules, None, seats=len(seated),
                              rated=t.rated, mode=t.pace, clock=t.clock, tournament_id=t.id, seated=seated)
        elif snap.match is not None:
            return  # begun before a restart: the table service has it
        table = await self.tables.load(p.table_id)
        if table is None:
            return  # another node of a cluster owns it
        async with table.lock:
            if table.state == WAITING and table.play is None:
                await self.tables.begin(table, t.rated)
        for pid in table.people():
            self.ctx.hub.to_player(pid, {"type": "tournament_game", "tournament": t.id, "name": t.name,
                                         "game": t.game, "round": p.round, "table": table.id})

    async def collect(self, t: TournamentRecord, p: PairingRecord) -> bool:
        """The result of a pairing's table once its match is over (or called off: lost by all)."""
        assert p.table_id is not None
        table = self.tables.tables.get(p.table_id)
        if table is not None and table.state == PLAYING:
            return False
        snap = await self.ctx.db(self.ctx.store.load_table, p.table_id, 0)
        if snap is None or snap.match is None:
            await self.open_table(t, p)  # the round was written, its table not yet (a restart)
            return False
        n = len(p.players)
        if snap.match.finished:
            out = self.tables.games[t.game].outcome(snap.match, n)
            return await self.ctx.db(self.ctx.store.record_pairing, p.id, "played", out.points, out.games, out.tiles)
        if snap.table.state == WAITING or (table is not None and table.state == WAITING):
            # a match called off (everyone away from the start): a forfeit by all, and the table closes
            recorded = await self.ctx.db(self.ctx.store.record_pairing, p.id, "forfeit", (0.0,) * n, (0.0,) * n,
                                         (0,) * n)
            await self.ctx.db(self.ctx.store.set_state, p.table_id, "closed")
            self.tables.tables.pop(p.table_id, None)
            return recorded
        if table is None:
            await self.tables.load(p.table_id)  # running, after a restart: the table service plays it on
        return False

    async def deadline(self, t: TournamentRecord, late: list[PairingRecord]) -> bool:
        """A correspondence round's deadline: its unfinished matches end as draws, unrated."""
        for p in late:
            table = await self.tables.load(p.table_id) if p.table_id is not None else None
            if table is None:
                continue
            async with table.lock:
                if table.state == PLAYING:
                    ending = self.tables.game_of(table).end(table, "deadline", frozenset(), self.ctx.now())
                    await self.tables.finish(table, ending, "chat.round_deadline", rated=False)
            if table.state == FINISHED:
                await self.collect(t, p)
        return True
