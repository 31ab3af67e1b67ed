"""The store's one door: a small repository API over SQLAlchemy Core.

Every method is one transaction, committed before it returns, so whatever a caller announces after a
call has survived a crash of the process. Methods are synchronous and thread-safe; the server calls them
from one worker thread so the event loop never waits on the disk.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, insert, select, update
from sqlalchemy.engine import Connection

from halali.store import schema as s
from halali.store.records import (
    ActionRecord,
    ActionWrite,
    ChatRecord,
    GameRecord,
    MatchRecord,
    PlayerRecord,
    SeatRecord,
    TableRecord,
    TableSnapshot,
)

MIGRATIONS = Path(__file__).parent / "migrations"


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


def hash_token(token: str) -> str:
    """Only a hash of a session token is stored: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime | None) -> datetime | None:
    # SQLite gives back naive datetimes; every time the store writes is UTC.
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: a commit is in the log before it returns, so it survives kill -9 of the server; NORMAL sync
    # skips the fsync per commit (only a power loss can lose the last commits).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    # The server checkpoints from its own thread (Store.checkpoint), so a commit never waits for the
    # copy back into the database file; this larger automatic limit is only a backstop.
    cursor.execute("PRAGMA wal_autocheckpoint=20000")
    cursor.close()


class Store:
    """Players, tables, seats, matches, games, actions and chat, by URL."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        if migrate:
            self.migrate()

    def migrate(self) -> None:
        """Bring the schema to the newest revision (Alembic, migrations shipped in the package)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def close(self) -> None:
        self.engine.dispose()

    def checkpoint(self) -> None:
        """Copy the SQLite log back into the database file without blocking writers (no-op elsewhere)."""
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    # ---- players ---------------------------------------------------------------------------------
    def player_by_token(self, token: str) -> PlayerRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(s.players.c.id, s.players.c.name)
                               .where(s.players.c.token_hash == hash_token(token))).first()
        return PlayerRecord(row.id, row.name) if row else None

    def create_player(self, player_id: str, token: str, name: str) -> PlayerRecord:
        with self.engine.begin() as conn:
            conn.execute(insert(s.players).values(id=player_id, token_hash=hash_token(token), name=name,
                                                  created_at=now()))
        return PlayerRecord(player_id, name)

    def rename_player(self, player_id: str, name: str) -> PlayerRecord:
        with self.engine.begin() as conn:
            conn.execute(update(s.players).where(s.players.c.id == player_id).values(name=name))
        return PlayerRecord(player_id, name)

    def players(self, ids: Iterable[str]) -> dict[str, PlayerRecord]:
        with self.engine.connect() as conn:
            return self._players(conn, ids)

    @staticmethod
    def _players(conn: Connection, ids: Iterable[str]) -> dict[str, PlayerRecord]:
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        rows = conn.execute(select(s.players.c.id, s.players.c.name).where(s.players.c.id.in_(wanted)))
        return {r.id: PlayerRecord(r.id, r.name) for r in rows}

    # ---- tables and seats ------------------------------------------------------------------------
    def create_table(self, table_id: str, game: str, rules: dict[str, Any], created_by: str | None,
                     test_seed: int | None = None, seats: int = 2) -> TableRecord:
        t = now()
        with self.engine.begin() as conn:
            conn.execute(insert(s.game_tables).values(
                id=table_id, game=game, rules=rules, state="waiting", created_by=created_by,
                test_seed=test_seed, created_at=t, updated_at=t))
            conn.execute(insert(s.seats), [{"table_id": table_id, "seat": i} for i in range(seats)])
        return TableRecord(table_id, game, dict(rules), "waiting", t, t, created_by, test_seed)

    def set_seat(self, table_id: str, seat: int, player_id: str | None = None, bot_level: int | None = None,
                 state: str | None = None) -> None:
        """Seat a person or a computer player (or free the seat with neither); optionally a new table state."""
        with self.engine.begin() as conn:
            conn.execute(update(s.seats).where(s.seats.c.table_id == table_id, s.seats.c.seat == seat)
                         .values(player_id=player_id, bot_level=bot_level))
            self._touch(conn, table_id, state)

    def set_state(self, table_id: str, state: str) -> None:
        with self.engine.begin() as conn:
            self._touch(conn, table_id, state)

    @staticmethod
    def _touch(conn: Connection, table_id: str, state: str | None) -> None:
        values: dict[str, Any] = {"updated_at": now()}
        if state is not None:
            values["state"] = state
        conn.execute(update(s.game_tables).where(s.game_tables.c.id == table_id).values(**values))

    def table_ids(self, states: Sequence[str] = ("waiting", "playing"), since: datetime | None = None) -> list[str]:
        """Ids of the tables in these states (changed at or after ``since``), oldest first."""
        q = select(s.game_tables.c.id).where(s.game_tables.c.state.in_(list(states)))
        if since is not None:
            q = q.where(s.game_tables.c.updated_at >= since)
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q.order_by(s.game_tables.c.created_at))]

    # ---- matches and actions ---------------------------------------------------------------------
    def start_match(self, table_id: str, number: int, deals: Sequence[str]) -> MatchRecord:
        """A new match with all its deals drawn in advance (kept here, never shown before a game ends)."""
        t = now()
        with self.engine.begin() as conn:
            match_id = conn.execute(insert(s.matches).values(
                table_id=table_id, number=number, finished=False, started_at=t)).inserted_primary_key[0]
            games = []
            for i, deal in enumerate(deals, 1):
                gid = conn.execute(insert(s.games).values(match_id=match_id, number=i, deal=deal)
                                   ).inserted_primary_key[0]
                games.append(GameRecord(gid, i, deal))
            self._touch(conn, table_id, "playing")
        return MatchRecord(match_id, number, tuple(games))

    def record_action(self, table_id: str, game_id: int, ply: int, action: str, seat: int,
                      game_result: dict[str, Any] | None = None, match_id: int | None = None,
                      match_winner: int | None = None, match_over: bool = False) -> None:
        """One played action, and the end of its game / match if it ended them: one transaction."""
        self.record_actions([ActionWrite(table_id, game_id, ply, action, seat, game_result, match_id,
                                         match_winner, match_over)])

    def record_actions(self, writes: Sequence[ActionWrite]) -> None:
        """Several actions (of any tables) in one transaction: a group commit under load.

        The (game, ply) primary key turns a second action at the same ply into an error, never a fork.
        """
        if not writes:
            return
        t = now()
        with self.engine.begin() as conn:
            conn.execute(insert(s.actions), [{"game_id": w.game_id, "ply": w.ply, "action": w.action,
                                              "seat": w.seat, "created_at": t} for w in writes])
            for w in writes:
                if w.game_result is not None:
                    conn.execute(update(s.games).where(s.games.c.id == w.game_id)
                                 .values(result=w.game_result, finished_at=t))
                if w.match_over and w.match_id is not None:
                    conn.execute(update(s.matches).where(s.matches.c.id == w.match_id)
                                 .values(finished=True, winner_seat=w.match_winner, finished_at=t))
                    self._touch(conn, w.table_id, "finished")

    # ---- chat ------------------------------------------------------------------------------------
    def add_chat(self, table_id: str, player_id: str | None = None, text: str | None = None,
                 key: str | None = None, params: dict[str, Any] | None = None) -> ChatRecord:
        t = now()
        with self.engine.begin() as conn:
            conn.execute(insert(s.chat).values(table_id=table_id, player_id=player_id, text=text, key=key,
                                               params=params, created_at=t))
        return ChatRecord(t, player_id, text, key, params)

    # ---- rebuilding ------------------------------------------------------------------------------
    def load_table(self, table_id: str, chat_lines: int = 100) -> TableSnapshot | None:
        """A table with its seats, its newest match (games, deals, actions in order) and recent chat."""
        with self.engine.connect() as conn:
            row = conn.execute(select(s.game_tables).where(s.game_tables.c.id == table_id)).first()
            if row is None:
                return None
            table = TableRecord(row.id, row.game, dict(row.rules), row.state, _utc(row.created_at),
                                _utc(row.updated_at), row.created_by, row.test_seed)
            seat_rows = conn.execute(select(s.seats).where(s.seats.c.table_id == table_id)
                                     .order_by(s.seats.c.seat)).all()
            seat_recs = tuple(SeatRecord(r.seat, r.player_id, r.bot_level) for r in seat_rows)
            match = self._newest_match(conn, table_id)
            chat_rows = conn.execute(select(s.chat).where(s.chat.c.table_id == table_id)
                                     .order_by(s.chat.c.id.desc()).limit(chat_lines)).all()
            chat = tuple(ChatRecord(_utc(r.created_at), r.player_id, r.text, r.key, r.params)
                         for r in reversed(chat_rows))
            ids = {r.player_id for r in seat_recs if r.player_id} | {c.player_id for c in chat if c.player_id}
            players = self._players(conn, ids)
        return TableSnapshot(table, seat_recs, players, match, chat)

    @staticmethod
    def _newest_match(conn: Connection, table_id: str) -> MatchRecord | None:
        m = conn.execute(select(s.matches).where(s.matches.c.table_id == table_id)
                         .order_by(s.matches.c.number.desc()).limit(1)).first()
        if m is None:
            return None
        game_rows = conn.execute(select(s.games).where(s.games.c.match_id == m.id)
                                 .order_by(s.games.c.number)).all()
        games = []
        for g in game_rows:
            acts = conn.execute(select(s.actions.c.ply, s.actions.c.action, s.actions.c.seat)
                                .where(s.actions.c.game_id == g.id).order_by(s.actions.c.ply)).all()
            games.append(GameRecord(g.id, g.number, g.deal, g.result,
                                    tuple(ActionRecord(a.ply, a.action, a.seat) for a in acts)))
        return MatchRecord(m.id, m.number, tuple(games), m.winner_seat, bool(m.finished))
