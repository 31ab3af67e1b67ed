"""Hare hunt tables beside the forest tables: the same lobby, chat, store and process pool.

Every action is checked by the engine, written to the store (the same `actions` rows as the forest
game) and only then applied and announced. Each connection gets its own `hare` message built from
``HareGame.view`` for its seat (spectators: ``None``), so a club card leaves the server only to its
owner until it is public. A hunt is rated like a forest match (the table and its start say so,
and its dice are not from a test seed): every seat's player, computer levels as the hare hunt's
own bot players, ranked by placing, in the transaction that stores the last action.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from halali.ai.hare.registry import TABLE as HARE_LEVELS
from halali.ai.hare.registry import choose_action as hare_choose
from halali.games.hare.state import replay
from halali.server import views
from halali.server.bots import level_names, parse_level
from halali.server.computer import ComputerTurns
from halali.server.errors import ClientError
from halali.server.hare_table import GAME, HarePlan, HareTable, hare_options, seat_count
from halali.server.hub import Connection
from halali.server.table import FINISHED, PLAYING, WAITING, Seat
from halali.store import ActionWrite, RatingRequest
from halali.store.records import TableSnapshot

if TYPE_CHECKING:
    from halali.server.service import GameServer


def hare_level_names() -> dict[int, str]:
    return level_names(HARE_LEVELS)


def parse_hare_level(value: object) -> int:
    return parse_level(value, HARE_LEVELS)


class HareTables(ComputerTurns):
    """The hare tables of one server, in memory and rebuilt from the store after a restart (`restore`)."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.tables: dict[str, HareTable] = {}
        self.bot_names = hare_level_names()
        self.bot_players: dict[int, str] = {}  # level -> the player that stands for it (set at start)

    async def start_up(self) -> None:
        self.bot_players = await self.server.db(self.server.store.ensure_bots, self.bot_names, GAME.id)

    def get(self, table_id: Any) -> HareTable | None:
        return self.tables.get(table_id) if isinstance(table_id, str) else None

    def restore(self, snap: TableSnapshot) -> HareTable:
        """A hare table rebuilt from the store after a restart: its hunt replayed from the stored full
        start (dice secret included) and actions, every one checked again by the engine."""
        t = snap.table
        seats = [Seat(s.player_id, s.bot_level) for s in sorted(snap.seats, key=lambda s: s.seat)]
        table = HareTable(t.id, len(seats), {k: str(v) for k, v in t.rules.items()}, t.created_at,
                          test_seed=t.test_seed, seats=seats, state=t.state, rated=t.rated)
        if snap.match is not None:
            table.match_rated = snap.match.rated
        if snap.match is not None and snap.match.games:
            game = snap.match.games[0]
            hunt = replay(f"{game.deal} ; {' '.join(a.action for a in game.actions)}")
            table.begin(hunt, snap.match.id, game.id, snap.match.number)
            if game.actions and game.actions[-1].time is not None:
                table.turn_since = game.actions[-1].time
            if hunt.is_over():
                table.state = WAITING if t.state == WAITING else FINISHED
        for p in snap.players.values():
            self.server.names.setdefault(p.id, p.name)
        for c in snap.chat:
            table.chat.append(self.server._line(c.player_id, c.text, c.key, c.params, c.time))
        table.updated_at = time.monotonic()
        self.tables[table.id] = table
        return table

    # ---- announcing ------------------------------------------------------------------------------
    def _seats(self, table: HareTable) -> list[dict[str, Any] | None]:
        return views.seat_json(table, self.server.names, self.server.hub.online(), self.bot_names)  # type: ignore[arg-type]

    def summary(self, table: HareTable) -> dict[str, Any]:
        return {"id": table.id, "game": "hare", "rules": dict(table.options), "state": table.state,
                "seats": self._seats(table), "spectators": self._spectators(table), "game_number": 0,
                "number_of_games": 1, "created": views.iso(table.created_at),
                "rated": table.match_rated if table.match_id is not None else table.rated, "mode": "live",
                "clock": None}

    def _spectators(self, table: HareTable) -> list[dict[str, str]]:
        seated = {s.player_id for s in table.seats}
        return [self.server.you(p) for p in sorted(self.server.hub.watcher_players(table.id) - seated)]

    def hunt_json(self, table: HareTable, seat: int | None) -> dict[str, Any] | None:
        """The hunt as ``seat`` may see it (None: a spectator); the legal actions only for the mover."""
        hunt = table.hunt
        if hunt is None:
            return None
        view = hunt.view(seat)
        over = hunt.is_over()
        mover = table.seat_to_move()
        return {"position": view.fen(), "actions": list(hunt.history), "ply": table.ply,
                "to_move": mover, "phase": hunt.phase, "over": over,
                "legal": GAME.legal_actions(hunt) if mover is not None and mover == seat else [],
                "result": GAME.result(hunt) if over else None,
                "replay": f"/hunt/{table.game_id}" if over else None,
                "placings": GAME.placings(hunt) if over else None}  # type: ignore[attr-defined]

    def changed(self, table: HareTable) -> None:
        """Anything changed: a fresh `hare` message to everyone at the table, a summary to the lobby."""
        table.updated_at = time.monotonic()
        summary = self.summary(table)
        self.server.hub.to_lobby({"type": "lobby_table", "table": summary})
        chat = [self.server._named(line) for line in table.chat]
        for conn in self.server.hub.watchers(table.id):
            seat = table.seat_of(conn.player_id)
            conn.send({"type": "hare", "table": {**summary, "chat": chat, "match_number": table.match_number,
                                                 "you": {"id": conn.player_id, "seat": seat}},
                       "hunt": self.hunt_json(table, seat)})

    # ---- tables and seats ------------------------------------------------------------------------
    async def create(self, conn: Connection, msg: dict[str, Any]) -> HareTable:
        options = hare_options(msg.get("rules"))
        nseats = seat_count(msg.get("seats"))
        seed = msg.get("seed")
        if seed is not None and (not self.server.settings.test_seeds or not isinstance(seed, int)
                                 or isinstance(seed, bool) or not 0 <= seed < 2**62):
            raise ClientError("error.bad_request", field="seed")
        rated = msg.get("rated", True)
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        from halali.server.service import new_id

        table_id = new_id("t_")
        rec = await self.server.db(self.server.store.create_table, table_id, "hare", options, conn.player_id, seed,
                                   seats=nseats, rated=rated)
        table = HareTable(table_id, nseats, options, rec.created_at, test_seed=seed, rated=rated)
        self.tables[table_id] = table
        conn.send({"type": "created", "table": table_id, "game": "hare"})
        if msg.get("join") is True:
            await self.join(conn, table)
        else:
            self.changed(table)
        return table

    async def open(self, conn: Connection, table: HareTable) -> None:
        old = self.server.hub.set_table(conn, table.id)
        if old is not None and old != table.id:
            self._left(old)
        self.changed(table)

    def _left(self, table_id: str) -> None:
        other = self.get(table_id)
        if other is not None:
            self.changed(other)
        elif table_id in self.server.tables:
            self.server._table_changed(self.server.tables[table_id])

    async def _set_seat(self, table: HareTable, seat: int, new: Seat) -> None:
        state = table.state_after_seat_change()
        await self.server.db(self.server.store.set_seat, table.id, seat, new.player_id, new.bot, state)
        table.seats[seat] = new
        table.state = state

    async def join(self, conn: Connection, table: HareTable) -> None:
        async with table.lock:
            seat = table.plan_join(conn.player_id)
            await self._set_seat(table, seat, Seat(conn.player_id))
            await self.server.notice(table, "chat.joined", name=self.server.names[conn.player_id], seat=seat)  # type: ignore[arg-type]
        if conn.table_id != table.id:
            await self.open(conn, table)
        else:
            self.changed(table)

    async def unseat(self, conn: Connection, table: HareTable, leave: bool) -> None:
        async with table.lock:
            seat = table.seat_of(conn.player_id)
            if seat is not None:
                table.plan_unseat(conn.player_id)
                await self._set_seat(table, seat, Seat())
                await self.server.notice(table, "chat.left" if leave else "chat.watching",  # type: ignore[arg-type]
                                         name=self.server.names[conn.player_id])
        if leave:
            if conn.table_id == table.id:
                self.server.hub.set_table(conn, None)
            conn.send({"type": "left", "table": table.id})
            self.changed(table)
        elif conn.table_id != table.id:
            await self.open(conn, table)
        else:
            self.changed(table)

    async def add_bot(self, table: HareTable, level: int) -> None:
        self.server.bots.warm()
        async with table.lock:
            seat = table.plan_bot()
            await self._set_seat(table, seat, Seat(bot=level))
            await self.server.notice(table, "chat.bot_added", name=self.bot_names[level], level=level,  # type: ignore[arg-type]
                                     seat=seat)
        self.changed(table)

    async def remove_bot(self, table: HareTable, seat: Any) -> None:
        async with table.lock:
            seat = table.plan_unbot(seat)
            level = table.seats[seat].bot
            await self._set_seat(table, seat, Seat())
            await self.server.notice(table, "chat.bot_removed", name=self.bot_names.get(level or 0, "?"),  # type: ignore[arg-type]
                                     seat=seat)
        self.changed(table)

    # ---- the hunt --------------------------------------------------------------------------------
    async def start(self, conn: Connection, table: HareTable, rated: Any = True) -> None:
        """Draw the hunt and store it (its full start, the dice secret included, stays in the store)."""
        if not isinstance(rated, bool):
            raise ClientError("error.bad_request", field="rated")
        async with table.lock:
            hunt = table.plan_start(conn.player_id)
            number = table.match_number + 1
            rated = rated and table.rated and table.test_seed is None
            rec = await self.server.db(self.server.store.start_match, table.id, number, [hunt.fen()],
                                       players=(None, None), rated=rated,
                                       seat_players=[self.seat_player(table, i) for i in range(len(table.seats))])
            table.begin(hunt, rec.id, rec.games[0].id, number)
            table.match_rated = rated
            await self.server.notice(table, "chat.hare_started", hunt=number, rated=rated)  # type: ignore[arg-type]
        self.changed(table)
        self.maybe_bot(table)
        self.server.my_turn_changed(table)

    async def act(self, conn: Connection, table: HareTable, text: Any, ply: Any) -> None:
        async with table.lock:
            plan = table.plan_action(table.seat_of(conn.player_id), text, ply)
            await self._commit(table, plan)

    async def _commit(self, table: HareTable, plan: HarePlan) -> None:
        """The store first, then memory, then the connections (lock held)."""
        assert table.game_id is not None
        result = None
        rating = None
        if plan.over:
            result = {"result": GAME.result(plan.after), "placings": GAME.placings(plan.after)}  # type: ignore[attr-defined]
            rating = self._rating_request(table, result["placings"])
        await self.server.writer.record(ActionWrite(table.id, table.game_id, plan.ply, plan.record, plan.seat,
                                                    result, table.match_id, None, plan.over, rating=rating))
        table.apply(plan)
        if plan.over:
            winners = [self._seat_name(table, p) for p, r in enumerate(result["result"] if result else []) if r > 0]
            await self.server.notice(table, "chat.hare_over", winners=", ".join(winners))  # type: ignore[arg-type]
            if rating is not None:
                await self._rating_notices(table, rating)
        self.changed(table)
        self.maybe_bot(table)
        self.server.my_turn_changed(table)

    def seat_player(self, table: HareTable, seat: int) -> str | None:
        """The player behind a seat: a person, or the player that stands for a computer level."""
        s = table.seats[seat]
        return self.bot_players.get(s.bot) if s.bot is not None else s.player_id

    def _rating_request(self, table: HareTable, placings: list[float]) -> RatingRequest | None:
        players = [self.seat_player(table, seat) for seat in range(len(table.seats))]
        if not table.match_rated or table.match_id is None or any(p is None for p in players):
            return None
        return RatingRequest(GAME.id, table.match_id, tuple(p for p in players if p is not None),
                             ranks=tuple(float(x) for x in placings))

    async def _rating_notices(self, table: HareTable, rating: RatingRequest) -> None:
        names = {pid: self._seat_name(table, seat) for seat, pid in enumerate(rating.players)}
        for change in await self.server.db(self.server.store.rating_changes, rating.match_id):
            await self.server.notice(table, "chat.rating", name=names.get(change.player_id, "?"),  # type: ignore[arg-type]
                                     before=change.before, after=change.after)

    def my_turn(self, player_id: str) -> list[dict[str, Any]]:
        """The hunts where it is this player's decision, for the lobby's "your turn" list."""
        out = []
        for table in self.tables.values():
            seat = table.seat_to_move()
            if seat is not None and table.seats[seat].player_id == player_id:
                others = ", ".join(self._seat_name(table, i) for i in range(len(table.seats)) if i != seat)
                out.append({"id": table.id, "game": "hare", "mode": "live", "opponent": others,
                            "since": views.iso(table.turn_since)})
        return out

    def _seat_name(self, table: HareTable, seat: int) -> str:
        s = table.seats[seat]
        if s.bot is not None:
            return self.bot_names.get(s.bot, "?")
        return self.server.names.get(s.player_id or "", "?")

    # ---- computer players (the loop is ComputerTurns') ------------------------------------------
    @property
    def bot_delay(self) -> float:
        return self.server.settings.bot_delay

    def turn_stamp(self, table: HareTable) -> tuple[int, int | None]:
        return table.ply, table.seat_to_move()

    async def bot_answer(self, table: HareTable, seat: int, level: int) -> str:
        """The bot sees only its own seat's record; a roll it asks for is the server's dice."""
        assert table.hunt is not None
        record = GAME.view_record(table.hunt, seat)  # type: ignore[attr-defined]
        text = await self.server.bots.run(hare_choose, level, record, self.server.settings.bot_movetime,
                                          secrets.randbits(32))
        return "roll" if text.startswith("roll") else text

    def legal_texts(self, table: HareTable) -> list[str]:
        assert table.hunt is not None
        return list(GAME.legal_actions(table.hunt))

    def plan_bot_action(self, table: HareTable, seat: int, text: str) -> HarePlan:
        return table.plan_action(seat, text, table.ply)

    async def commit_bot_action(self, table: HareTable, plan: HarePlan) -> None:
        await self._commit(table, plan)

    async def sweep(self, now: float, limit: float) -> None:
        """Forget hare tables idle for ``limit`` seconds that nobody looks at and no hunt runs on
        (finished ones, and waiting ones without a person); the store keeps them (closed)."""
        for table in list(self.tables.values()):
            if self.server.hub.watchers(table.id) or table.lock.locked() or table.state == PLAYING:
                continue
            if now - table.updated_at <= limit:
                continue
            if table.state == WAITING and any(s.player_id is not None for s in table.seats):
                continue
            if table.state == WAITING:
                await self.server.db(self.server.store.set_state, table.id, "closed")
            del self.tables[table.id]
            self.server.hub.to_lobby({"type": "lobby_remove", "id": table.id})

    async def stop(self) -> None:
        for table in self.tables.values():
            if table.bot_task is not None:
                table.bot_task.cancel()
