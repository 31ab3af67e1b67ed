"""Read-side queries of the store: game history, profiles, ratings, the leaderboard; and imports.

A mixin of :class:`halali.store.Store` (it uses only ``self.engine``), kept apart so the write path
stays short to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, func, insert, or_, select
from sqlalchemy.engine import Connection

from halali.store import schema as s
from halali.store.ratings import PROVISIONAL_MATCHES
from halali.store.records import (
    GameDetail,
    GameSummary,
    HuntDetail,
    HuntSummary,
    PlayerRecord,
    RatingPoint,
    RatingRecord,
)
from halali.store.rows import PLAYER_COLUMNS, inserted_id, now, player_record, utc

ARCHIVED = "archived"


def _rating(r: Any) -> RatingRecord:
    return RatingRecord(r.player_id, r.game, r.mu, r.sigma, r.rating, r.matches, utc(r.updated_at))


class HistoryQueries:
    engine: Engine

    # ---- games -----------------------------------------------------------------------------------
    def finished_games(self, player_id: str | None = None, table_id: str | None = None, before: int | None = None,
                       limit: int | None = 20) -> tuple[list[GameSummary], bool]:
        """Finished games, newest first, of a player and/or a table; ``more`` when a next page exists."""
        q = self._games_query().where(s.games.c.finished_at.is_not(None))
        if player_id is not None:
            q = q.where(or_(s.matches.c.player0 == player_id, s.matches.c.player1 == player_id))
        if table_id is not None:
            q = q.where(s.matches.c.table_id == table_id)
        if before is not None:
            q = q.where(s.games.c.id < before)
        q = q.order_by(s.games.c.id.desc())
        if limit is not None:
            q = q.limit(limit + 1)
        with self.engine.connect() as conn:
            rows = conn.execute(q).all()
            more = limit is not None and len(rows) > limit
            rows = rows[:limit] if limit is not None else rows
            players = self._named(conn, rows)
        return [self._summary(r, players) for r in rows], more

    def game_detail(self, game_id: int) -> GameDetail | None:
        with self.engine.connect() as conn:
            row = conn.execute(self._games_query().add_columns(
                s.games.c.deal, s.games.c.salt, s.games.c.commitment, s.game_tables.c.rules)
                .where(s.games.c.id == game_id)).first()
            if row is None:
                return None
            actions = conn.execute(select(s.actions.c.action).where(s.actions.c.game_id == game_id)
                                   .order_by(s.actions.c.ply)).scalars().all()
            summary = self._summary(row, self._named(conn, [row]))
        return GameDetail(summary, dict(row.rules), row.deal, row.salt, row.commitment, tuple(actions),
                          summary.finished_at is not None)

    @staticmethod
    def _games_query() -> Any:
        return (select(s.games.c.id, s.games.c.number, s.games.c.result, s.games.c.termination,
                       s.games.c.started_at, s.games.c.finished_at, s.games.c.headers, s.matches.c.id.label("match_id"),
                       s.matches.c.table_id, s.matches.c.rated, s.matches.c.player0, s.matches.c.player1,
                       s.game_tables.c.state)
                .join(s.matches, s.matches.c.id == s.games.c.match_id)
                .join(s.game_tables, s.game_tables.c.id == s.matches.c.table_id)
                .where(s.game_tables.c.game == "forest"))  # hare hunts are not forest games to replay

    @staticmethod
    def _named(conn: Connection, rows: Sequence[Any]) -> dict[str, PlayerRecord]:
        ids = sorted({p for r in rows for p in (r.player0, r.player1) if p})
        if not ids:
            return {}
        return {r.id: player_record(r) for r in conn.execute(select(*PLAYER_COLUMNS).where(s.players.c.id.in_(ids)))}

    @staticmethod
    def _summary(r: Any, players: dict[str, PlayerRecord]) -> GameSummary:
        return GameSummary(r.id, r.table_id, r.match_id, r.number, bool(r.rated), r.state == ARCHIVED,
                           (players.get(r.player0 or ""), players.get(r.player1 or "")), r.result, r.termination,
                           utc(r.started_at), utc(r.finished_at), dict(r.headers or {}))

    # ---- hare hunts ------------------------------------------------------------------------------
    def finished_hunts(self, player_id: str | None = None, table_id: str | None = None, before: int | None = None,
                       limit: int = 20) -> tuple[list[HuntSummary], bool]:
        """Finished hare hunts, newest first, of a player and/or a table; ``more`` when a next page exists."""
        q = self._hunts_query().where(s.games.c.finished_at.is_not(None))
        if player_id is not None:
            q = q.where(s.matches.c.id.in_(select(s.match_seats.c.match_id)
                                           .where(s.match_seats.c.player_id == player_id)))
        if table_id is not None:
            q = q.where(s.matches.c.table_id == table_id)
        if before is not None:
            q = q.where(s.games.c.id < before)
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(s.games.c.id.desc()).limit(limit + 1)).all()
            more = len(rows) > limit
            rows = rows[:limit]
            seats = self._hunt_seats(conn, [r.match_id for r in rows])
            return [self._hunt(r, seats.get(r.match_id, ())) for r in rows], more

    def hunt_detail(self, game_id: int) -> HuntDetail | None:
        with self.engine.connect() as conn:
            row = conn.execute(self._hunts_query().add_columns(s.games.c.deal)
                               .where(s.games.c.id == game_id)).first()
            if row is None:
                return None
            actions = conn.execute(select(s.actions.c.action).where(s.actions.c.game_id == game_id)
                                   .order_by(s.actions.c.ply)).scalars().all()
            summary = self._hunt(row, self._hunt_seats(conn, [row.match_id]).get(row.match_id, ()))
        return HuntDetail(summary, row.deal, tuple(actions), summary.finished_at is not None)

    @staticmethod
    def _hunts_query() -> Any:
        return (select(s.games.c.id, s.games.c.result, s.games.c.started_at, s.games.c.finished_at,
                       s.matches.c.id.label("match_id"), s.matches.c.number, s.matches.c.table_id, s.matches.c.rated)
                .join(s.matches, s.matches.c.id == s.games.c.match_id)
                .join(s.game_tables, s.game_tables.c.id == s.matches.c.table_id)
                .where(s.game_tables.c.game == "hare"))

    @staticmethod
    def _hunt_seats(conn: Connection, match_ids: list[int]) -> dict[int, tuple[PlayerRecord | None, ...]]:
        """Who sat where in each of these hunts, in one query."""
        if not match_ids:
            return {}
        rows = conn.execute(select(s.match_seats.c.match_id, s.match_seats.c.seat, *PLAYER_COLUMNS)
                            .join(s.players, s.players.c.id == s.match_seats.c.player_id, isouter=True)
                            .where(s.match_seats.c.match_id.in_(match_ids))
                            .order_by(s.match_seats.c.match_id, s.match_seats.c.seat)).all()
        out: dict[int, list[PlayerRecord | None]] = {}
        for r in rows:
            out.setdefault(r.match_id, []).append(player_record(r) if r.id is not None else None)
        return {m: tuple(players) for m, players in out.items()}

    @staticmethod
    def _hunt(r: Any, players: tuple[PlayerRecord | None, ...]) -> HuntSummary:
        return HuntSummary(r.id, r.table_id, r.match_id, r.number, bool(r.rated), players,
                           dict(r.result) if r.result is not None else None, utc(r.started_at), utc(r.finished_at))

    def hunt_results(self, player_id: str) -> list[float]:
        """The player's result (1 won, 0.5 a shared win, 0 lost) in every finished hare hunt it sat in;
        a player in several seats of one hunt counts once, with its best."""
        q = (select(s.match_seats.c.match_id, s.match_seats.c.seat, s.games.c.result)
             .join(s.games, s.games.c.match_id == s.match_seats.c.match_id)
             .where(s.match_seats.c.player_id == player_id, s.games.c.finished_at.is_not(None)))
        best: dict[int, float] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(q):
                results = (r.result or {}).get("result") or []
                if r.seat < len(results):
                    best[r.match_id] = max(best.get(r.match_id, 0.0), float(results[r.seat]))
        return list(best.values())

    def match_results(self, player_id: str) -> list[tuple[int, int | None]]:
        """(the player's seat, the winning seat or None) of every finished match the player sat in."""
        q = select(s.matches.c.player0, s.matches.c.winner_seat).where(
            s.matches.c.finished.is_(True), s.matches.c.aborted.is_(False),
            or_(s.matches.c.player0 == player_id, s.matches.c.player1 == player_id))
        with self.engine.connect() as conn:
            return [(0 if r.player0 == player_id else 1, r.winner_seat) for r in conn.execute(q)]

    def import_game(self, table_id: str, created_by: str | None, rules: dict[str, Any], deal: str, actions: list[str],
                    result: dict[str, Any] | None, headers: dict[str, str], salt: str | None = None,
                    commitment: str | None = None, termination: str | None = None) -> int:
        """An archived game (a record brought in from elsewhere): unrated, never in the lobby."""
        t = now()
        with self.engine.begin() as conn:
            conn.execute(insert(s.game_tables).values(
                id=table_id, game="forest", rules=rules, state=ARCHIVED, created_by=created_by, created_at=t,
                updated_at=t, rated=False, mode="live"))
            conn.execute(insert(s.seats), [{"table_id": table_id, "seat": i} for i in range(2)])
            match_id = inserted_id(conn.execute(insert(s.matches).values(
                table_id=table_id, number=1, finished=True, started_at=t, finished_at=t, rated=False,
                winner_seat=(result or {}).get("winner_seat"))))
            game_id = inserted_id(conn.execute(insert(s.games).values(
                match_id=match_id, number=1, deal=deal, result=result, finished_at=t, started_at=t, salt=salt,
                commitment=commitment, termination=termination, headers=headers)))
            if actions:
                conn.execute(insert(s.actions), [{"game_id": game_id, "ply": i, "action": a, "seat": -1,
                                                  "created_at": t} for i, a in enumerate(actions)])
        return game_id

    # ---- players and ratings ---------------------------------------------------------------------
    def player_info(self, player_id: str) -> tuple[PlayerRecord, datetime] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*PLAYER_COLUMNS, s.players.c.created_at)
                               .where(s.players.c.id == player_id)).first()
        return (player_record(row), utc(row.created_at)) if row else None

    def ratings_of(self, player_id: str) -> list[RatingRecord]:
        with self.engine.connect() as conn:
            return [_rating(r) for r in conn.execute(select(s.ratings).where(s.ratings.c.player_id == player_id)
                                                     .order_by(s.ratings.c.game))]

    def rating_history(self, player_id: str, game: str) -> list[RatingPoint]:
        q = (select(s.rating_history, s.matches.c.table_id)
             .join(s.matches, s.matches.c.id == s.rating_history.c.match_id)
             .where(s.rating_history.c.player_id == player_id, s.rating_history.c.game == game)
             .order_by(s.rating_history.c.id))
        with self.engine.connect() as conn:
            return [RatingPoint(utc(r.created_at), r.match_id, r.table_id, r.mu, r.sigma, r.rating, r.before)
                    for r in conn.execute(q)]

    def rank(self, game: str, rating: int, bots: bool = False) -> int:
        """1 + the number of players rated higher in this game, on the same board (people or bots)."""
        with self.engine.connect() as conn:
            higher = conn.execute(select(func.count()).select_from(s.ratings)
                                  .join(s.players, s.players.c.id == s.ratings.c.player_id)
                                  .where(s.ratings.c.game == game, s.ratings.c.rating > rating,
                                         s.players.c.bot_account.is_(bots))).scalar_one()
        return int(higher) + 1

    def leaderboard(self, game: str, limit: int = 50, offset: int = 0, provisional: bool = True, bots: bool = False
                    ) -> tuple[int, list[tuple[RatingRecord, PlayerRecord]]]:
        """(how many are listed in all, one page best first); ties by fewer uncertainty, then id.
        ``bots``: the bot accounts' ladder instead of everyone else's (the two never mix)."""
        cond = [s.ratings.c.game == game, s.players.c.bot_account.is_(bots)]
        if not provisional:
            cond.append(s.ratings.c.matches >= PROVISIONAL_MATCHES)
        rated = s.ratings.join(s.players, s.players.c.id == s.ratings.c.player_id)
        q = (select(s.ratings, *PLAYER_COLUMNS).select_from(rated)
             .where(and_(*cond)).order_by(s.ratings.c.rating.desc(), s.ratings.c.sigma, s.ratings.c.player_id)
             .limit(limit).offset(offset))
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(rated).where(and_(*cond))).scalar_one()
            rows = conn.execute(q).all()
        return int(total), [(_rating(r), player_record(r)) for r in rows]
