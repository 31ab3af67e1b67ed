"""Players' requests about tournaments: create, enter, withdraw, enter a computer level, start now, watch.

Every request is checked here and changes nothing when refused. The rounds themselves are the
director's (``director.py``); a request that changes what the director should do wakes it.

Decisions (docs/tournaments.md): a tournament may be entered until its last round begins, later
entries score ½ for each round missed; withdrawing from a running tournament keeps its results and
leaves the running match to be played (or resigned); the creator may enter the site's computer
levels and start early.
"""

from __future__ import annotations

import asyncio
from typing import Any

from halali.server.bots import parse_level
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.hub import Connection
from halali.server.people import new_id
from halali.server.tables import TableService
from halali.server.tournaments import views
from halali.server.tournaments.director import MIN_PLAYERS, Director
from halali.store.tournaments import NewPairing, TournamentRecord
from halali.tournament import ABSENT_POINTS

LIMITS = {"rounds": (1, 15), "round_minutes": (5, 24 * 60), "round_days": (1, 14), "players": (2, 256),
          "table_size": (3, 6)}


def _int(msg: dict[str, Any], field: str, default: int) -> int:
    value = msg.get(field, default)
    low, high = LIMITS[field]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ClientError("error.bad_request", field=field)
    return value


class TournamentService:
    def __init__(self, ctx: Context, tables: TableService) -> None:
        self.ctx = ctx
        self.tables = tables
        self.director = Director(ctx, tables, self.send)
        self.watchers: dict[str, set[Connection]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # ---- requests --------------------------------------------------------------------------------
    async def create(self, conn: Connection, msg: dict[str, Any]) -> TournamentRecord:
        if conn.player_id not in self.ctx.people.accounts:
            raise ClientError("error.account_needed")
        game = self.tables.games.get(msg.get("game", "forest")) if isinstance(msg.get("game", "forest"), str) else None
        if game is None:
            raise ClientError("error.bad_request", field="game")
        name = msg.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80:
            raise ClientError("error.bad_request", field="name")
        pace = msg.get("pace", "live")
        if pace not in ("live", "correspondence"):
            raise ClientError("error.bad_request", field="pace")
        rounds = _int(msg, "rounds", 5)
        interval = (_int(msg, "round_minutes", 30) * 60.0 if pace == "live" else _int(msg, "round_days", 3) * 86400.0)
        clock = game.clock(pace, msg.get("clock"))
        rated = msg.get("rated", True)
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        starts_in = msg.get("starts_in", 300)
        if isinstance(starts_in, bool) or not isinstance(starts_in, int) or not 0 <= starts_in <= 30 * 86400:
            raise ClientError("error.bad_request", field="starts_in")
        entry = self._entry(msg.get("entry"))
        most = self.ctx.settings.tournaments_per_account
        if await self.ctx.db(self.ctx.store.open_tournaments_by, conn.player_id) >= most:
            raise ClientError("error.too_many_tournaments", max=most)
        size = _int(msg, "table_size", 4) if game.id == "hare" else 2
        return await self.ctx.db(self.ctx.store.create_tournament, new_id("s_"), game.id, name.strip(), conn.player_id,
                                 game.options(msg.get("rules")), rounds, pace, clock, interval, rated, entry, size,
                                 self.ctx.now() + starts_in)

    @staticmethod
    def _entry(value: Any) -> dict[str, Any]:
        """Who may enter: accounts only (default) or guests too, bot accounts or not, a least rating,
        and how many."""
        value = {} if value is None else value
        if not isinstance(value, dict):
            raise ClientError("error.bad_request", field="entry")
        out: dict[str, Any] = {"accounts": value.get("accounts", True), "bots": value.get("bots", True),
                               "min_rating": value.get("min_rating"), "max": value.get("max", 64)}
        if not isinstance(out["accounts"], bool) or not isinstance(out["bots"], bool):
            raise ClientError("error.bad_request", field="entry")
        low, high = LIMITS["players"]
        for key, least in (("min_rating", 0), ("max", low)):
            v = out[key]
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not least <= v <= max(high, 4000)):
                raise ClientError("error.bad_request", field=f"entry.{key}")
        if not low <= out["max"] <= high:
            raise ClientError("error.bad_request", field="entry.max")
        return out

    async def get(self, tid: Any) -> TournamentRecord:
        t = await self.ctx.db(self.ctx.store.tournament, tid) if isinstance(tid, str) and len(tid) <= 16 else None
        if t is None:
            raise ClientError("error.no_tournament")
        return t

    async def join(self, conn: Connection, tid: Any) -> None:
        async with self.director.lock:
            t = await self.get(tid)
            await self._check_entry(t, conn.player_id)
            missed = self._missed(t, conn.player_id)
            await self.ctx.db(self.ctx.store.add_entry, t.id, conn.player_id, t.round + 1, None, missed)
        await self.changed(t.id)

    @staticmethod
    def _missed(t: TournamentRecord, player_id: str) -> list[tuple[int, NewPairing]]:
        """The rounds begun without this player (a late entry's, or those missed since withdrawing),
        by their numbers: ½ each (docs/tournaments.md). The entry is paired from the next round."""
        held = {p.round for p in t.pairings if player_id in p.players}
        return [(r, NewPairing(0, (player_id,), None, "absent", (ABSENT_POINTS,), (ABSENT_POINTS,)))
                for r in range(1, t.round + 1) if r not in held]

    async def _check_entry(self, t: TournamentRecord, player_id: str) -> None:
        if t.state not in ("upcoming", "running") or (t.state == "running" and t.round >= t.rounds):
            raise ClientError("error.tournament_closed")
        entry = next((e for e in t.entries if e.player_id == player_id), None)
        if entry is not None and not entry.withdrawn:
            raise ClientError("error.tournament_entered")
        if t.entry.get("accounts", True) and player_id not in self.ctx.people.accounts:
            raise ClientError("error.account_needed")
        if player_id in self.ctx.people.bot_accounts and (not t.entry.get("bots", True) or t.game != "forest"):
            raise ClientError("error.tournament_no_bots")  # the bridge speaks the forest's engine protocol
        if sum(1 for e in t.entries if not e.withdrawn) >= t.entry.get("max", 64):
            raise ClientError("error.tournament_full", max=t.entry.get("max", 64))
        least = t.entry.get("min_rating")
        if least is not None:
            mine = {r.game: r.rating for r in await self.ctx.db(self.ctx.store.ratings_of, player_id)}
            if mine.get(t.game, 0) < least:
                raise ClientError("error.rating_too_low", min=least)

    async def withdraw(self, conn: Connection, tid: Any) -> None:
        async with self.director.lock:
            t = await self.get(tid)
            entry = next((e for e in t.entries if e.player_id == conn.player_id and not e.withdrawn), None)
            if entry is None or t.state not in ("upcoming", "running"):
                raise ClientError("error.tournament_not_entered")
            await self.ctx.db(self.ctx.store.withdraw_entry, t.id, conn.player_id, t.state == "upcoming")
        await self.changed(t.id)

    async def add_level(self, conn: Connection, tid: Any, level: Any) -> None:
        """The creator enters one of the site's computer levels (the player that stands for it)."""
        async with self.director.lock:
            t = await self.get(tid)
            if conn.player_id != t.created_by:
                raise ClientError("error.not_owner")
            lv = parse_level(level, self.tables.games[t.game].levels)
            pid = self.tables.bot_players[(t.game, lv)]
            if t.state not in ("upcoming", "running") or (t.state == "running" and t.round >= t.rounds):
                raise ClientError("error.tournament_closed")
            if any(e.player_id == pid and not e.withdrawn for e in t.entries):
                raise ClientError("error.tournament_entered")
            await self.ctx.db(self.ctx.store.add_entry, t.id, pid, t.round + 1, lv, self._missed(t, pid))
        await self.changed(t.id)

    async def start_now(self, conn: Connection, tid: Any) -> None:
        async with self.director.lock:
            t = await self.get(tid)
            if conn.player_id != t.created_by:
                raise ClientError("error.not_owner")
            if t.state != "upcoming":
                raise ClientError("error.tournament_begun")
            if sum(1 for e in t.entries if not e.withdrawn) < MIN_PLAYERS.get(t.game, 2):
                raise ClientError("error.tournament_too_few", min=MIN_PLAYERS.get(t.game, 2))
            # The schedule counts from the real start: "a round every 30 minutes" means 30 minutes
            # after this start, not after the one planned.
            now = self.ctx.now()
            await self.ctx.db(self.ctx.store.set_tournament, t.id, next_at=now, starts_at=now)
        self.director.wake.set()

    async def cards(self) -> list[dict[str, Any]]:
        now = self.ctx.now()
        return [views.card_json(t, now) for t in await self.ctx.db(self.ctx.store.tournament_list)]

    # ---- watching --------------------------------------------------------------------------------
    async def watch(self, conn: Connection, tid: Any) -> None:
        t = await self.get(tid)
        self.watchers.setdefault(t.id, set()).add(conn)
        conn.send(self.message(t, conn.player_id))

    def unwatch(self, conn: Connection, tid: Any = None) -> None:
        for key in ([tid] if isinstance(tid, str) else list(self.watchers)):
            conns = self.watchers.get(key)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self.watchers[key]

    def message(self, t: TournamentRecord, you: str | None, whole: dict[str, Any] | None = None) -> dict[str, Any]:
        """``whole``: the tournament's shared part, computed once for all the watchers of a change."""
        whole = whole or views.tournament_json(t, self.ctx.now(), self.ctx.people.names, self.ctx.people.bot_accounts)
        return {"type": "tournament", "tournament": {**whole, "you": views.you_json(t, you)}}

    async def changed(self, tid: str) -> None:
        """Everyone watching gets the tournament as it is now; the director looks again."""
        self.director.wake.set()
        t = await self.ctx.db(self.ctx.store.tournament, tid)
        if t is not None:
            self.send(t)

    def changed_elsewhere(self, tid: str) -> None:
        """Another node of a cluster changed this tournament: this node's watchers get it from the store."""
        if tid in self.watchers:
            task = asyncio.get_running_loop().create_task(self._resend(tid))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _resend(self, tid: str) -> None:
        t = await self.ctx.db(self.ctx.store.tournament, tid)
        if t is not None:
            self.send(t, relay=False)

    def send(self, t: TournamentRecord, relay: bool = True) -> None:
        if relay and self.ctx.hub.relay is not None:  # a cluster: the other nodes' watchers too
            self.ctx.hub.relay("tournament", t.id, "")
        whole = None
        for conn in list(self.watchers.get(t.id, ())):
            if conn.closed:
                self.unwatch(conn, t.id)
                continue
            whole = whole or views.tournament_json(t, self.ctx.now(), self.ctx.people.names,
                                                   self.ctx.people.bot_accounts)
            conn.send(self.message(t, conn.player_id, whole))
