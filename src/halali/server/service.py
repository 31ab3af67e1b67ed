"""The tables and the lobby: every change is checked, committed to the store, then announced.

All state lives on the event loop; the store runs in one worker thread (so the loop never waits on the
disk) and bots in a process pool. A per-table lock keeps "check → commit → apply → announce" of one
table in order while other tables go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from halali.games.errors import NotationError
from halali.games.forest.match import colour_of
from halali.games.forest.rules import DEFAULT_RULES, Rules
from halali.games.forest.tiles import BLUE
from halali.server import views
from halali.server.accounts import Accounts
from halali.server.analyst import Analyst
from halali.server.bots import BotPool, level_names
from halali.server.clock import clock_spec
from halali.server.computer import ComputerTurns
from halali.server.errors import ClientError
from halali.server.hare_history import HareHistory
from halali.server.hare_service import HareTables
from halali.server.hare_table import HareTable
from halali.server.history import History
from halali.server.hub import Connection, Hub, dumps
from halali.server.limits import RateLimiter
from halali.server.settings import Settings
from halali.server.table import FINISHED, PLAYING, WAITING, ActionPlan, Deals, Seat, Table
from halali.server.writer import StoreWriter
from halali.store import ActionWrite, NameTaken, PlayerRecord, RatingRequest, Store

log = logging.getLogger("halali.server")
T = TypeVar("T")
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
MAX_STALL_LIMIT = 1000
CLOSED = "closed"
ARCHIVED = "archived"


def new_id(prefix: str) -> str:
    return prefix + "".join(secrets.choice(ID_ALPHABET) for _ in range(8))


def rules_from_request(value: Any) -> Rules:
    """Rule options from a client: a dict of option -> string/bool/int; ClientError when anything is off."""
    if value is None:
        return DEFAULT_RULES
    if not isinstance(value, dict) or len(value) > 8:
        raise ClientError("error.bad_request", field="rules")
    options: dict[str, str] = {}
    for key, v in value.items():
        if isinstance(v, bool):
            options[str(key)] = "true" if v else "false"
        elif isinstance(v, int | str) and len(str(v)) <= 32:
            options[str(key)] = str(v)
        else:
            raise ClientError("error.bad_rules", reason=f"bad value for {key}")
    try:
        rules = DEFAULT_RULES.with_options(options)
    except NotationError as exc:
        raise ClientError("error.bad_rules", reason=str(exc)) from exc
    if rules.stall_limit > MAX_STALL_LIMIT:
        raise ClientError("error.bad_rules", reason=f"stall_limit is at most {MAX_STALL_LIMIT}")
    return rules


def clean_name(name: Any) -> str:
    """A display name as people may choose it: 1-24 printable characters, spaces collapsed."""
    if not isinstance(name, str):
        raise ClientError("error.bad_request", field="name")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 24:
        raise ClientError("error.bad_name", reason="length")
    if any(not ch.isprintable() for ch in name):
        raise ClientError("error.bad_name", reason="characters")
    return name


def rule_strings(rules: Rules) -> dict[str, str]:
    return dict(item.split("=", 1) for item in rules.to_strings())


class GameServer(ComputerTurns):
    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.hub = Hub()
        self.tables: dict[str, Table] = {}
        self.names: dict[str, str] = {}
        self.sessions: dict[str, str] = {}  # token -> player id, a cache of the store
        self.bots = BotPool(settings.bot_workers, settings.bot_movetime)
        self.bot_names = level_names()
        self.writer = StoreWriter(store)
        self._housekeeping: asyncio.Task[None] | None = None
        self._clocks: asyncio.Task[None] | None = None
        self.now: Callable[[], float] = settings.clock  # the clocks' time; tests inject their own
        self.bot_players: dict[int, str] = {}  # level -> the player that stands for it (ratings, history)
        self.accounts: set[str] = set()  # ids of the players that are accounts (cached from the store)
        self.account_service = Accounts(self)
        self.history = History(self)
        self.analyst = Analyst(self)
        self.hints = RateLimiter(self, "hint", settings.hints_per_player, settings.hint_window)
        self.hare_history = HareHistory(self)
        self.hare = HareTables(self)

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A store call on the writer thread, in order with every other write."""
        return await self.writer.call(fn, *args, **kwargs)

    # ---- life ------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every waiting or running table from the store and let its computer players go on."""
        self.bot_players = await self.db(self.store.ensure_bots, self.bot_names)
        await self.hare.start_up()
        for table_id in await self.db(self.store.table_ids, (WAITING, PLAYING)):
            table = await self.load(table_id)
            if table is not None:
                self.maybe_bot(table)
        self._housekeeping = asyncio.create_task(self._sweep())
        self._clocks = asyncio.create_task(self._watch_clocks())

    async def stop(self) -> None:
        await self.hare.stop()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task] + [
            t for t in (self._housekeeping, self._clocks) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for conn in list(self.hub.connections):
            conn.close()
        self.bots.shutdown()
        self.writer.close()
        self.store.close()

    async def load(self, table_id: Any) -> Table | None:
        """A table from memory, or rebuilt from the store (its match replayed)."""
        if not isinstance(table_id, str) or len(table_id) > 16:
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        snap = await self.db(self.store.load_table, table_id)
        if snap is not None and snap.table.game == "hare" and snap.table.state in (WAITING, PLAYING, FINISHED):
            if table_id not in self.hare.tables:  # a hare table comes back to the hare tables, not here
                self.hare.maybe_bot(self.hare.restore(snap))
            return None
        if snap is None or snap.table.state in (CLOSED, ARCHIVED) or snap.table.game != "forest":
            return None  # an imported game is no table to play at
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        rules = DEFAULT_RULES.with_options({k: str(v).lower() if isinstance(v, bool) else str(v)
                                            for k, v in snap.table.rules.items()})
        table = Table.from_snapshot(snap, rules, self.now())
        for p in snap.players.values():
            self.names.setdefault(p.id, p.name)
            if p.account:
                self.accounts.add(p.id)
        for c in snap.chat:
            table.chat.append(self._line(c.player_id, c.text, c.key, c.params, c.time))
        table.updated_at = time.monotonic()
        self.tables[table_id] = table
        return table

    # ---- players ---------------------------------------------------------------------------------
    async def player_for_token(self, token: str | None) -> PlayerRecord | None:
        if not token or len(token) > 128:
            return None
        pid = self.sessions.get(token)
        if pid is not None:
            return PlayerRecord(pid, self.names[pid], pid in self.accounts)
        rec = await self.db(self.store.player_by_token, token)
        if rec is not None:
            self.sessions[token] = rec.id
            self.names[rec.id] = rec.name
            if rec.account:
                self.accounts.add(rec.id)
        return rec

    async def new_player(self) -> tuple[str, PlayerRecord]:
        token = secrets.token_urlsafe(32)
        rec = await self.db(self.store.create_player, new_id("p_"), token, f"Guest {secrets.randbelow(9000) + 1000}")
        self.sessions[token] = rec.id
        self.names[rec.id] = rec.name
        return token, rec

    async def rename(self, player_id: str, name: Any) -> PlayerRecord:
        """A new display name; an account's login changes with it. Nobody may take an account's name."""
        name = clean_name(name)
        login = name.casefold()
        holder = await self.db(self.store.account_by_login, login)
        if holder is not None and holder.player.id != player_id:
            raise ClientError("error.name_taken", name=name)
        try:
            rec = await self.db(self.store.rename_player, player_id, name,
                                login if player_id in self.accounts else None)
        except NameTaken:
            raise ClientError("error.name_taken", name=name) from None
        self.names_changed(player_id, name)
        return rec

    def names_changed(self, player_id: str, name: str) -> None:
        """Tell every table and the lobby that a player has a new name."""
        self.names[player_id] = name
        for table in self.tables.values():
            if table.seat_of(player_id) is not None or player_id in self.hub.watcher_players(table.id):
                self._table_changed(table)
        for hare in self.hare.tables.values():
            if hare.seat_of(player_id) is not None or player_id in self.hub.watcher_players(hare.id):
                self.hare.changed(hare)
        self._online_changed()

    def you(self, player_id: str) -> dict[str, str]:
        return {"id": player_id, "name": self.names.get(player_id, "?")}

    def me(self, player_id: str) -> dict[str, Any]:
        return {**self.you(player_id), "account": player_id in self.accounts}

    # ---- connections -----------------------------------------------------------------------------
    def connect(self, conn: Connection) -> None:
        conn.start()
        came_online = self.hub.add(conn)
        conn.send({"type": "welcome", "you": self.you(conn.player_id),
                   "levels": [{"level": lv, "name": n} for lv, n in self.bot_names.items()],
                   "rules": {"defaults": DEFAULT_RULES.to_dict(),
                             "choices": {"green_lock": ["revealed_or_moved", "revealed_only"],
                                         "no_return_neutrals": [True, False],
                                         "stall_limit": f"integer 0..{MAX_STALL_LIMIT}",
                                         "match": ["match", "single"]}},
                   "hare": {"levels": [{"level": lv, "name": n} for lv, n in self.hare.bot_names.items()],
                            "seats": [2, 6], "rules": {"bush": ["on", "off"], "overshoot": ["choose", "target"]}},
                   "max_message": self.settings.max_message})
        if came_online:
            self._online_changed(seated_only=True, player_id=conn.player_id)

    def disconnect(self, conn: Connection) -> None:
        left = conn.table_id
        went_offline = self.hub.remove(conn)
        if left is not None and left in self.tables:
            self._table_changed(self.tables[left])
        elif left is not None and left in self.hare.tables:
            self.hare.changed(self.hare.tables[left])
        if went_offline:
            self._online_changed(seated_only=True, player_id=conn.player_id)

    def _online_changed(self, seated_only: bool = False, player_id: str | None = None) -> None:
        if self.hub.lobby_conns:
            self.hub.to_lobby({"type": "online", "online": [self.you(p) for p in sorted(self.hub.online())]})
        if seated_only and player_id is not None:
            for table in self.tables.values():
                if table.seat_of(player_id) is not None:
                    self._table_changed(table)

    def subscribe_lobby(self, conn: Connection, on: bool) -> None:
        self.hub.set_lobby(conn, on)
        if on:
            conn.send(self.lobby_message())
            conn.send({"type": "my_turn", "tables": self.my_turn(conn.player_id)})

    def lobby_message(self) -> dict[str, Any]:
        return {"type": "lobby", "tables": [self.summary(t) for t in self.lobby_tables()]
                + [self.hare.summary(t) for t in self.hare.tables.values()],
                "online": [self.you(p) for p in sorted(self.hub.online())]}

    def lobby_tables(self) -> list[Table]:
        return sorted(self.tables.values(), key=lambda t: t.created_at)

    async def open(self, conn: Connection, table_id: Any) -> Table:
        table = await self.load(table_id)
        if table is None:
            raise ClientError("error.no_table")
        old = self.hub.set_table(conn, table.id)
        if old is not None and old != table.id and old in self.tables:
            self._table_changed(self.tables[old])
        self._table_changed(table)
        return table

    def close(self, conn: Connection) -> None:
        old = self.hub.set_table(conn, None)
        if old is not None and old in self.tables:
            self._table_changed(self.tables[old])

    # ---- announcing ------------------------------------------------------------------------------
    def summary(self, table: Table) -> dict[str, Any]:
        return {"id": table.id, "game": "forest", "rules": views.rules_json(table.rules), "state": table.state,
                "seats": self._seats(table), "spectators": self._spectators(table),
                "game_number": table.game_index + 1 if table.match else 0,
                "number_of_games": 1 if table.rules.match == "single" else 2,
                "created": views.iso(table.created_at),
                # the match's own when there is one (a test seed or /startnosave makes it unrated)
                "rated": table.match_rated if table.match else table.rated, "mode": table.mode,
                "clock": table.clock_spec}

    def _seats(self, table: Table) -> list[dict[str, Any] | None]:
        return views.seat_json(table, self.names, self.hub.online(), self.bot_names)

    def _spectators(self, table: Table) -> list[dict[str, str]]:
        seated = {s.player_id for s in table.seats}
        return [self.you(p) for p in sorted(self.hub.watcher_players(table.id) - seated)]

    def _table_changed(self, table: Table) -> None:
        """Seats, spectators or state changed: a fresh `table` to everyone there, a summary to the lobby."""
        table.updated_at = time.monotonic()
        watchers = self.hub.watchers(table.id)
        if not watchers and not self.hub.lobby_conns:
            return
        summary = self.summary(table)
        self.hub.to_lobby({"type": "lobby_table", "table": summary})
        if not watchers:
            return
        base = dict(summary)
        del base["game_number"]
        base.update(match_number=table.match_number, rematch=[i in table.rematch for i in range(2)],
                    chat=[self._named(line) for line in table.chat])
        now = self.now()
        games = [views.game_json(table, i, now) for i in range(len(table.match.games))] if table.match else []
        mover = table.seat_to_move()
        legal = views.legal_for(table) if mover is not None else []
        match = views.match_json(table)
        for conn in watchers:
            seat = table.seat_of(conn.player_id)
            if seat is not None and seat == mover and games:
                own = [*games[:-1], {**games[-1], "legal": legal}]
            else:
                own = games
            you = {"id": conn.player_id, "seat": seat, "hints": table.hints_for(seat)}
            conn.send({"type": "table", "table": {**base, "you": you},
                       "games": own, "match": match})

    def _send_game(self, table: Table, index: int) -> None:
        watchers = self.hub.watchers(table.id)
        if not watchers:
            return
        text = dumps(views.game_message(table, index, self.now()))
        mover = table.seat_to_move() if index == table.game_index else None
        mover_id = table.seats[mover].player_id if mover is not None else None
        mover_text = text
        if mover_id is not None:  # the same text with the legal actions spliced in (the one `"legal":[]`)
            mover_text = text.replace('"legal":[]', '"legal":' + dumps(views.legal_for(table)), 1)
        for conn in watchers:
            conn.send(mover_text if conn.player_id == mover_id else text)

    @staticmethod
    def _line(player_id: str | None, text: str | None, key: str | None, params: dict[str, Any] | None,
              when: Any) -> dict[str, Any]:
        line: dict[str, Any] = {"time": views.iso(when)}
        if key is not None:
            line.update(key=key, params=params or {})
        else:
            line.update({"from": {"id": player_id}, "text": text})
        return line

    def _named(self, line: dict[str, Any]) -> dict[str, Any]:
        if "from" in line:
            pid = line["from"]["id"]
            return {**line, "from": {"id": pid, "name": self.names.get(pid, "?")}}
        return line

    async def notice(self, table: Table, key: str, **params: Any) -> None:
        """A public notice, stored like chat so a reload shows it, then sent as a key for translation."""
        rec = await self.db(self.store.add_chat, table.id, None, None, key, params)
        line = self._line(None, None, key, params, rec.time)
        table.chat.append(line)
        text = dumps({"type": "chat", "table": table.id, "line": line})
        for conn in self.hub.watchers(table.id):
            conn.send(text)

    async def say(self, conn: Connection, table: Table, text: Any) -> None:
        if not isinstance(text, str):
            raise ClientError("error.bad_request", field="text")
        text = text.strip()
        if not 1 <= len(text) <= 500:
            raise ClientError("error.bad_chat")
        if conn.table_id != table.id and table.seat_of(conn.player_id) is None:
            raise ClientError("error.no_table")
        rec = await self.db(self.store.add_chat, table.id, conn.player_id, text)
        line = self._line(conn.player_id, text, None, None, rec.time)
        table.chat.append(line)
        out = dumps({"type": "chat", "table": table.id, "line": self._named(line)})
        for c in self.hub.watchers(table.id):
            c.send(out)

    # ---- tables and seats ------------------------------------------------------------------------
    async def create(self, conn: Connection, rules_value: Any, join: Any = False, seed: Any = None,
                     rated: Any = True, mode: Any = "live", clock: Any = None) -> Table:
        rules = rules_from_request(rules_value)
        if seed is not None and (not self.settings.test_seeds or not isinstance(seed, int)
                                 or isinstance(seed, bool) or not 0 <= seed < 2**62):
            raise ClientError("error.bad_request", field="seed")
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        spec = clock_spec(mode, clock)
        table_id = new_id("t_")
        rec = await self.db(self.store.create_table, table_id, "forest", rules.to_dict(), conn.player_id, seed,
                            rated=rated, mode=mode, clock=spec)
        table = Table(table_id, rules, rec.created_at, test_seed=seed, rated=rated, mode=mode, clock_spec=spec)
        table.updated_at = time.monotonic()
        self.tables[table_id] = table
        conn.send({"type": "created", "table": table_id})
        if join is True:
            await self.join(conn, table, open_table=False)
        else:
            self._table_changed(table)
        return table

    async def _set_seat(self, table: Table, seat: int, new: Seat) -> None:
        state = table.state_after_seat_change()
        await self.db(self.store.set_seat, table.id, seat, new.player_id, new.bot, state)
        table.seats[seat] = new
        table.state = state
        table.rematch.clear()

    async def join(self, conn: Connection, table: Table, open_table: bool = True) -> None:
        async with table.lock:
            seat = table.plan_join(conn.player_id)
            await self._set_seat(table, seat, Seat(conn.player_id))
            await self.notice(table, "chat.joined", name=self.names[conn.player_id], seat=seat)
        if open_table and conn.table_id != table.id:
            await self.open(conn, table.id)
        else:
            self._table_changed(table)

    async def unseat(self, conn: Connection, table: Table, leave: bool) -> None:
        """`watch` (keep watching) or `leave` (also leave the page) — a seat is given up only between matches."""
        async with table.lock:
            seat = table.seat_of(conn.player_id)
            if seat is not None:
                table.plan_unseat(conn.player_id)
                await self._set_seat(table, seat, Seat())
                await self.notice(table, "chat.left" if leave else "chat.watching", name=self.names[conn.player_id])
        if leave:
            if conn.table_id == table.id:
                self.close(conn)
            conn.send({"type": "left", "table": table.id})
            self._table_changed(table)
        elif conn.table_id != table.id:
            await self.open(conn, table.id)
        else:
            self._table_changed(table)

    async def add_bot(self, table: Table, level: int) -> None:
        self.bots.warm()
        async with table.lock:
            seat = table.plan_bot()
            await self._set_seat(table, seat, Seat(bot=level))
            await self.notice(table, "chat.bot_added", name=self.bot_names[level], level=level, seat=seat)
        self._table_changed(table)

    async def remove_bot(self, table: Table, seat: Any) -> None:
        async with table.lock:
            seat = table.plan_unbot(seat)
            level = table.seats[seat].bot
            await self._set_seat(table, seat, Seat())
            await self.notice(table, "chat.bot_removed", name=self.bot_names.get(level or 0, "?"), seat=seat)
        self._table_changed(table)

    # ---- matches ---------------------------------------------------------------------------------
    async def start_match(self, conn: Connection, table: Table, rated: Any = True) -> None:
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        async with table.lock:
            deals = table.plan_start(conn.player_id)
            await self._begin(table, deals, rated)

    async def rematch(self, conn: Connection, table: Table) -> None:
        async with table.lock:
            if table.plan_rematch(conn.player_id):
                await self._begin(table, table.draw_deals(), table.match_rated or table.match is None)
                return
            seat = table.seat_of(conn.player_id)
            assert seat is not None
            table.rematch.add(seat)
            await self.notice(table, "chat.rematch_asked", name=self.names[conn.player_id])
        self._table_changed(table)

    async def _begin(self, table: Table, deals: Deals, rated: bool = True) -> None:
        """Store the new match with its deals and salts first; only then does anyone hear of it.

        A match is rated when the table and the start say so and its deals were not drawn from a test seed.
        """
        number = table.match_number + 1
        rated = rated and table.rated and table.test_seed is None
        players = (self.seat_player(table, 0), self.seat_player(table, 1))
        rec = await self.db(self.store.start_match, table.id, number, deals.deals, deals.salts, deals.commitments,
                            players, rated)
        table.begin_match(rec.id, number, [g.id for g in rec.games], deals, rated, self.now())
        await self.notice(table, "chat.started", match=number, rated=rated)
        await self._game_started(table)
        self._table_changed(table)
        self._send_game(table, 0)
        self.maybe_bot(table)
        self.my_turn_changed(table)

    def seat_player(self, table: Table, seat: int) -> str | None:
        """The player behind a seat: a person, or the player that stands for a computer level."""
        s = table.seats[seat]
        return self.bot_players.get(s.bot) if s.bot is not None else s.player_id

    async def _game_started(self, table: Table) -> None:
        i = table.game_index
        blue = 0 if colour_of(0, i) == BLUE else 1
        await self.notice(table, "chat.game_started", game=i + 1, blue=self._seat_name(table, blue),
                          brown=self._seat_name(table, 1 - blue))

    def _seat_name(self, table: Table, seat: int) -> str:
        s = table.seats[seat]
        if s.bot is not None:
            return self.bot_names.get(s.bot, "?")
        return self.names.get(s.player_id or "", "?")

    # ---- actions ---------------------------------------------------------------------------------
    async def act(self, conn: Connection, table: Table, text: Any, ply: Any) -> None:
        async with table.lock:
            if await self._flag(table):  # the mover's time ran out before the watcher noticed
                raise ClientError("error.game_over")
            plan = table.plan_action(table.seat_of(conn.player_id), text, ply, self.now())
            await self._commit(table, plan)

    async def hint(self, conn: Connection, table: Table) -> None:
        """The engine's best action for the asker's turn, from the public view only (the same engine
        and cache as a replay's analysis). Everyone at the table is told that a hint was taken."""
        seat = table.plan_hint(conn.player_id)
        public = table.public()
        found = await self.analyst.analyse(public.view, self.hints, conn.player_id)
        await self.notice(table, "chat.hint", name=self._seat_name(table, seat))
        match, index, ply = public.key
        conn.send({"type": "hint", "table": table.id, "match": match, "game": index + 1, "ply": ply,
                   "action": found["best"], "score": found["score"], "depth": found["depth"]})

    def _rating_request(self, table: Table, winner: int | None) -> RatingRequest | None:
        p0, p1 = self.seat_player(table, 0), self.seat_player(table, 1)
        if not table.match_rated or table.match_id is None or p0 is None or p1 is None:
            return None
        return RatingRequest("forest", table.match_id, (p0, p1), winner)

    async def _commit(self, table: Table, plan: ActionPlan) -> None:
        """The store first, then memory, then the connections (lock held)."""
        index = table.game_index
        rating = self._rating_request(table, plan.match_winner) if plan.match_over else None
        await self.writer.record(ActionWrite(table.id, plan.game_id, plan.ply, plan.record, plan.seat,
                                             plan.game_result, table.match_id, plan.match_winner, plan.match_over,
                                             plan.clock_ms, table.next_game_id(plan), rating))
        ended = table.apply_action(plan)
        self._send_game(table, index)
        if ended:
            result = plan.game_result or {}
            winner = result.get("winner_seat")
            await self.notice(table, "chat.game_over", game=index + 1,
                              winner=None if winner is None else self._seat_name(table, winner),
                              blue=result.get("score", {}).get("blue"), brown=result.get("score", {}).get("brown"))
            if table.game_index != index:
                await self._game_started(table)
                self._send_game(table, table.game_index)
            if plan.match_over:
                await self._match_over(table, plan.match_winner, rating is not None)
            self._table_changed(table)
        else:
            table.updated_at = time.monotonic()
        self.maybe_bot(table)
        self.my_turn_changed(table)

    async def _match_over(self, table: Table, winner: int | None, rated: bool) -> None:
        totals = views.match_json(table)["totals"]
        await self.notice(table, "chat.match_over", winner=None if winner is None else self._seat_name(table, winner),
                          totals=totals)
        if rated and table.match_id is not None:
            for change in await self.db(self.store.rating_changes, table.match_id):
                seat = 0 if change.player_id == self.seat_player(table, 0) else 1
                await self.notice(table, "chat.rating", name=self._seat_name(table, seat), before=change.before,
                                  after=change.after)

    # ---- clocks ----------------------------------------------------------------------------------
    async def _flag(self, table: Table) -> bool:
        """End the game on time if the running clock is at zero (lock held); True when it did."""
        plan = table.plan_timeout(self.now())
        if plan is None or table.match_id is None:
            return False
        rating = self._rating_request(table, plan.match_winner)
        await self.db(self.store.record_timeout, table.id, plan.game_id, plan.game_result, table.match_id,
                      plan.match_winner, rating)
        index = table.game_index
        table.apply_timeout(plan, self.now())
        self._send_game(table, index)
        await self.notice(table, "chat.time_out", name=self._seat_name(table, plan.seat))
        await self._match_over(table, plan.match_winner, rating is not None)
        self._table_changed(table)
        self.my_turn_changed(table)
        return True

    async def check_clocks(self) -> None:
        """Flag every running clock that has reached zero, whether or not anyone is connected."""
        now = self.now()
        for table in list(self.tables.values()):
            if table.clock is not None and table.clock.expired(now) and table.seat_to_move() is not None:
                async with table.lock:
                    await self._flag(table)

    async def _watch_clocks(self) -> None:
        while True:
            await asyncio.sleep(self.settings.clock_poll)
            try:
                await self.check_clocks()
            except Exception:
                log.exception("clock check failed")

    # ---- whose turn ------------------------------------------------------------------------------
    def my_turn(self, player_id: str) -> list[dict[str, Any]]:
        """Every running table where it is this player's turn (correspondence games above all), longest
        waiting first; hare hunts too."""
        out = []
        for table in self.tables.values():
            seat = table.seat_to_move()
            if seat is not None and table.seats[seat].player_id == player_id:
                out.append({"id": table.id, "game": "forest", "mode": table.mode,
                            "opponent": self._seat_name(table, 1 - seat), "since": views.iso(table.turn_since)})
        out += self.hare.my_turn(player_id)
        return sorted(out, key=lambda t: t["since"])

    def my_turn_changed(self, table: Table | HareTable) -> None:
        """Tell the seated players' lobby pages their new list of turns."""
        for s in table.seats:
            pid = s.player_id
            if pid is not None and any(c.lobby for c in self.hub.by_player.get(pid, ())):
                msg = {"type": "my_turn", "tables": self.my_turn(pid)}
                for c in self.hub.by_player.get(pid, ()):
                    if c.lobby:
                        c.send(msg)

    # ---- computer players (the loop is ComputerTurns') ------------------------------------------
    @property
    def bot_delay(self) -> float:
        return self.settings.bot_delay

    def turn_stamp(self, table: Table) -> tuple[int, int, int | None]:
        return table.ply, table.game_index, table.seat_to_move()

    async def bot_answer(self, table: Table, seat: int, level: int) -> str:
        assert table.match is not None
        return await self.bots.choose(level, table.match.position.view().fen(), rule_strings(table.rules))

    def legal_texts(self, table: Table) -> list[str]:
        return views.legal_for(table)

    def plan_bot_action(self, table: Table, seat: int, text: str) -> ActionPlan:
        return table.plan_action(seat, text, table.ply, self.now())

    async def commit_bot_action(self, table: Table, plan: ActionPlan) -> None:
        await self._commit(table, plan)

    async def bot_may_play(self, table: Table) -> bool:
        return not await self._flag(table)

    # ---- housekeeping ----------------------------------------------------------------------------
    async def _sweep(self) -> None:
        """Checkpoint the store's log every 2 s (off the writer thread), sweep tables every 30 s."""
        ticks = 0
        while True:
            await asyncio.sleep(2)
            ticks += 1
            try:
                await asyncio.to_thread(self.store.checkpoint)
                if ticks % 15 == 0:
                    await self.sweep()
            except Exception:
                log.exception("housekeeping failed")

    async def sweep(self, now: float | None = None) -> None:
        """Drop finished tables nobody looks at, and close waiting tables nobody sits at or looks at."""
        now = time.monotonic() if now is None else now
        limit = self.settings.finished_minutes * 60
        await self.hare.sweep(now, limit)
        for table in list(self.tables.values()):
            if self.hub.watchers(table.id) or table.lock.locked() or table.state == PLAYING:
                continue
            idle = now - table.updated_at
            empty = all(s.player_id is None for s in table.seats)
            if table.state == FINISHED and idle > limit:
                del self.tables[table.id]
            elif table.state == WAITING and empty and idle > limit:
                await self.db(self.store.set_state, table.id, CLOSED)
                del self.tables[table.id]
            else:
                continue
            self.hub.to_lobby({"type": "lobby_remove", "id": table.id})
