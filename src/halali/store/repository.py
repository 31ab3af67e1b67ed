"""The store's one door: a small repository API over SQLAlchemy Core.

Every method is one transaction, committed before it returns, so whatever a caller announces after a
call has survived a crash of the process. Methods are synchronous and thread-safe; the server calls them
from one worker thread so the event loop never waits on the disk. The same code runs on SQLite (the
default) and PostgreSQL (``postgresql+psycopg://...``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.engine import Connection

from halali.store import migrating
from halali.store import schema as s
from halali.store.accounts import AccountStore
from halali.store.analyses import AnalysisStore
from halali.store.bots import BotAccountStore
from halali.store.challenges import ChallengeStore
from halali.store.engine import make_engine
from halali.store.history import HistoryQueries
from halali.store.leases import LeaseStore
from halali.store.puzzles import PuzzleStore
from halali.store.ratings import apply_rating
from halali.store.records import (
    ActionRecord,
    ActionWrite,
    ChatRecord,
    GameRecord,
    MatchRecord,
    RatingChange,
    RatingRequest,
    SeatRecord,
    TableRecord,
    TableSnapshot,
)
from halali.store.rows import inserted_id, now, table_record, utc
from halali.store.tournaments import LadderQueries, TournamentStore


def sqlite_url(path: str | Path) -> str:
    return f"sqlite:///{Path(path).resolve()}"


class Store(AccountStore, HistoryQueries, LeaseStore, TournamentStore, LadderQueries, BotAccountStore,
            ChallengeStore, PuzzleStore, AnalysisStore):
    """Players and sessions (``AccountStore``), tables, seats, matches, games, actions, chat and
    ratings, by URL. In a
    cluster every write of a table's rows is fenced by its lease (``LeaseStore._fence``)."""

    def __init__(self, url: str, migrate: bool = True) -> None:
        self.url = url
        self.engine: Engine = make_engine(url)
        if migrate:
            self.migrate()

    def migrate(self, revision: str = "head", down: bool = False) -> None:
        """Bring the schema to a revision (``halali.store.migrating``: Alembic, migrations shipped in
        the package, and the short ways for a schema at the head or an empty database)."""
        migrating.migrate(self.engine, revision, down)

    def close(self) -> None:
        self.engine.dispose()

    def checkpoint(self) -> None:
        """Copy the SQLite log back into the database file without blocking writers (no-op elsewhere)."""
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    # ---- tables and seats ------------------------------------------------------------------------
    def create_table(self, table_id: str, game: str, rules: dict[str, Any], created_by: str | None,
                     test_seed: int | None = None, seats: int = 2, rated: bool = True, mode: str = "live",
                     clock: dict[str, int] | None = None, tournament_id: str | None = None,
                     seated: Sequence[tuple[str | None, int | None]] = ()) -> TableRecord:
        """``seated``: (player, computer level) per seat, for a table seated at once (a tournament's)."""
        t = now()
        with self.engine.begin() as conn:
            conn.execute(insert(s.game_tables).values(
                id=table_id, game=game, rules=rules, state="waiting", created_by=created_by,
                test_seed=test_seed, created_at=t, updated_at=t, rated=rated, mode=mode, clock=clock,
                tournament_id=tournament_id))
            filled = list(seated) + [(None, None)] * (seats - len(seated))
            conn.execute(insert(s.seats), [{"table_id": table_id, "seat": i, "player_id": p, "bot_level": b}
                                           for i, (p, b) in enumerate(filled)])
            if self.fences is not None:  # a cluster node owns the tables it creates from the start
                conn.execute(insert(s.table_leases).values(table_id=table_id, node=self.node, token=1,
                                                           expires_at=time.time() + self.lease_ttl))
                self.fences[table_id] = 1
        return TableRecord(table_id, game, dict(rules), "waiting", t, t, created_by, test_seed, rated, mode, clock,
                           tournament_id)

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

    def _touch(self, conn: Connection, table_id: str, state: str | None) -> None:
        self._fence(conn, table_id)
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
    def start_match(self, table_id: str, number: int, deals: Sequence[str], salts: Sequence[str | None] = (),
                    commitments: Sequence[str | None] = (), players: tuple[str | None, str | None] = (None, None),
                    rated: bool = False, seat_players: Sequence[str | None] = ()) -> MatchRecord:
        """A new match with all its deals drawn in advance (kept here, never shown before a game ends).

        Each game's salt stays here like its deal; its commitment is public from the game's start.
        ``seat_players`` (the hare hunt) records who sits in every seat, for the history.
        """
        t = now()
        salts = list(salts) or [None] * len(deals)
        commitments = list(commitments) or [None] * len(deals)
        with self.engine.begin() as conn:
            match_id = inserted_id(conn.execute(insert(s.matches).values(
                table_id=table_id, number=number, finished=False, started_at=t, rated=rated,
                player0=players[0], player1=players[1])))
            if seat_players:
                conn.execute(insert(s.match_seats), [{"match_id": match_id, "seat": i, "player_id": p}
                                                     for i, p in enumerate(seat_players)])
            games = []
            for i, (deal, salt, commit) in enumerate(zip(deals, salts, commitments, strict=True), 1):
                gid = inserted_id(conn.execute(insert(s.games).values(
                    match_id=match_id, number=i, deal=deal, salt=salt, commitment=commit,
                    started_at=t if i == 1 else None)))
                games.append(GameRecord(gid, i, deal, salt=salt, commitment=commit))
            self._touch(conn, table_id, "playing")
        return MatchRecord(match_id, number, tuple(games), rated=rated, players=players)

    def record_action(self, table_id: str, game_id: int, ply: int, action: str, seat: int,
                      game_result: dict[str, Any] | None = None, match_id: int | None = None,
                      match_winner: int | None = None, match_over: bool = False, **more: Any) -> None:
        """One played action, and the end of its game / match if it ended them: one transaction."""
        self.record_actions([ActionWrite(table_id, game_id, ply, action, seat, game_result, match_id,
                                         match_winner, match_over, **more)])

    def record_actions(self, writes: Sequence[ActionWrite]) -> list[RatingChange]:
        """Several actions (of any tables) in one transaction: a group commit under load.

        The (game, ply) primary key turns a second action at the same ply into an error, never a fork.
        A match's last action commits together with the match's end and its rating update.
        """
        if not writes:
            return []
        t = now()
        changes: list[RatingChange] = []
        rows = [{"game_id": w.game_id, "ply": w.ply, "action": w.action, "seat": w.seat, "created_at": t,
                 "clock_ms": w.clock_ms} for w in writes]
        if self.engine.dialect.name == "postgresql" and not any(_ends_something(w) for w in writes):
            # The usual group commit, actions only: one statement (``_insert_actions``), atomic on its own.
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                self._insert_actions(conn, rows, (w.table_id for w in writes))
            return changes
        with self.engine.begin() as conn:
            self._insert_actions(conn, rows, (w.table_id for w in writes))
            for w in writes:
                if w.game_result is not None:
                    conn.execute(update(s.games).where(s.games.c.id == w.game_id)
                                 .values(result=w.game_result, finished_at=t))
                if w.next_game_id is not None:
                    conn.execute(update(s.games).where(s.games.c.id == w.next_game_id).values(started_at=t))
                if w.match_over and w.match_id is not None:
                    changes += self._finish_match(conn, w.table_id, w.match_id, w.match_winner, w.rating, t)
        return changes

    def end_match(self, table_id: str, game_id: int, result: dict[str, Any], match_id: int,
                  winner_seat: int | None, rating: RatingRequest | None = None,
                  termination: str = "time") -> list[RatingChange]:
        """A match ended off the board (a clock ran out, a resignation, an abandonment claim): its
        running game ends with this termination and the match with it, in one transaction."""
        t = now()
        with self.engine.begin() as conn:
            self._fence(conn, table_id)
            conn.execute(update(s.games).where(s.games.c.id == game_id)
                         .values(result=result, finished_at=t, termination=termination))
            return self._finish_match(conn, table_id, match_id, winner_seat, rating, t)

    def abort_match(self, table_id: str, match_id: int, game_id: int, state: str = "waiting") -> None:
        """A match called off before every seat had acted: no result, no rating, in no history."""
        t = now()
        with self.engine.begin() as conn:
            conn.execute(update(s.games).where(s.games.c.id == game_id).values(termination="abort"))
            conn.execute(update(s.matches).where(s.matches.c.id == match_id)
                         .values(finished=True, aborted=True, finished_at=t))
            self._touch(conn, table_id, state)

    def _finish_match(self, conn: Connection, table_id: str, match_id: int, winner: int | None,
                      rating: RatingRequest | None, t: datetime) -> list[RatingChange]:
        conn.execute(update(s.matches).where(s.matches.c.id == match_id)
                     .values(finished=True, winner_seat=winner, finished_at=t))
        self._touch(conn, table_id, "finished")
        return apply_rating(conn, rating, t) if rating is not None else []

    def rating_changes(self, match_id: int) -> list[RatingChange]:
        """What a rated match did to its players' ratings (empty for an unrated one)."""
        with self.engine.connect() as conn:
            h = s.rating_history
            rows = list(conn.execute(select(h).where(h.c.match_id == match_id).order_by(h.c.id)))
            changes = []
            for r in rows:
                matches = conn.execute(select(func.count()).select_from(h).where(
                    h.c.player_id == r.player_id, h.c.game == r.game, h.c.id <= r.id)).scalar_one()
                changes.append(RatingChange(r.player_id, r.before, r.rating, int(matches)))
            return changes

    # ---- chat ------------------------------------------------------------------------------------
    def add_chat(self, table_id: str, player_id: str | None = None, text: str | None = None,
                 key: str | None = None, params: dict[str, Any] | None = None) -> ChatRecord:
        t = now()
        with self.engine.begin() as conn:
            self._fence(conn, table_id)
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
            table = table_record(row)
            seat_rows = conn.execute(select(s.seats).where(s.seats.c.table_id == table_id)
                                     .order_by(s.seats.c.seat)).all()
            seat_recs = tuple(SeatRecord(r.seat, r.player_id, r.bot_level) for r in seat_rows)
            match = self._newest_match(conn, table_id)
            chat_rows = conn.execute(select(s.chat).where(s.chat.c.table_id == table_id)
                                     .order_by(s.chat.c.id.desc()).limit(chat_lines)).all()
            chat = tuple(ChatRecord(utc(r.created_at), r.player_id, r.text, r.key, r.params)
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
            acts = conn.execute(select(s.actions.c.ply, s.actions.c.action, s.actions.c.seat, s.actions.c.clock_ms,
                                       s.actions.c.created_at)
                                .where(s.actions.c.game_id == g.id).order_by(s.actions.c.ply)).all()
            games.append(GameRecord(g.id, g.number, g.deal, g.result,
                                    tuple(ActionRecord(a.ply, a.action, a.seat, a.clock_ms, utc(a.created_at))
                                          for a in acts),
                                    g.salt, g.commitment, g.termination))
        return MatchRecord(m.id, m.number, tuple(games), m.winner_seat, bool(m.finished), bool(m.rated),
                           (m.player0, m.player1))


def _ends_something(w: ActionWrite) -> bool:
    """Whether the action ends a game or a match (more to write than the action itself)."""
    return w.game_result is not None or w.next_game_id is not None or (w.match_over and w.match_id is not None)
