"""Tournaments in the store: settings, entries, and each round's pairings with their results.

A round's pairings are written in one transaction with the round number, so a restart finds either
the whole round or none of it; each result is written once, when its table's match is over, so the
director can always tell from the store alone what is still to be played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, func, insert, select, update

from halali.store import schema as s
from halali.store.rows import inserted_id, now, utc


@dataclass(frozen=True, slots=True)
class EntryRecord:
    player_id: str
    joined_round: int
    withdrawn: bool
    bot_level: int | None
    name: str
    account: bool


@dataclass(frozen=True, slots=True)
class PairingRecord:
    id: int
    round: int
    board: int
    players: tuple[str, ...]
    table_id: str | None
    kind: str
    points: tuple[float, ...] | None = None
    games: tuple[float, ...] | None = None
    tiles: tuple[int, ...] | None = None

    @property
    def done(self) -> bool:
        return self.points is not None


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: str
    game: str
    name: str
    created_by: str | None
    created_at: datetime
    rules: dict[str, Any]
    rounds: int
    pace: str
    clock: dict[str, int] | None
    interval: float
    rated: bool
    entry: dict[str, Any]
    table_size: int
    state: str
    round: int
    starts_at: float
    next_at: float | None
    entries: tuple[EntryRecord, ...] = ()
    pairings: tuple[PairingRecord, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class NewPairing:
    board: int
    players: tuple[str, ...]
    table_id: str | None
    kind: str  # "played" (a table), "bye" or "absent" (a result at once)
    points: tuple[float, ...] | None = None
    games: tuple[float, ...] | None = None


class TournamentStore:
    """Mixed into the Store."""

    engine: Engine

    def create_tournament(self, tid: str, game: str, name: str, created_by: str | None, rules: dict[str, Any],
                          rounds: int, pace: str, clock: dict[str, int] | None, interval: float, rated: bool,
                          entry: dict[str, Any], table_size: int, starts_at: float) -> TournamentRecord:
        with self.engine.begin() as conn:
            conn.execute(insert(s.tournaments).values(
                id=tid, game=game, name=name, created_by=created_by, created_at=now(), rules=rules, rounds=rounds,
                pace=pace, clock=clock, interval=interval, rated=rated, entry=entry, table_size=table_size,
                state="upcoming", round=0, starts_at=starts_at, next_at=starts_at))
        found = self.tournament(tid)
        assert found is not None
        return found

    def tournament(self, tid: str) -> TournamentRecord | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(s.tournaments).where(s.tournaments.c.id == tid)).first()
            if row is None:
                return None
            e, p = s.tournament_entries, s.players
            entries = tuple(
                EntryRecord(r.player_id, r.joined_round, bool(r.withdrawn), r.bot_level, r.name, r.login is not None)
                for r in conn.execute(select(e, p.c.name, p.c.login).join(p, p.c.id == e.c.player_id)
                                      .where(e.c.tournament_id == tid).order_by(e.c.created_at, e.c.player_id)))
            t = s.tournament_pairings
            pairings = tuple(
                PairingRecord(r.id, r.round, r.board, tuple(r.players), r.table_id, r.kind,
                              None if r.points is None else tuple(float(x) for x in r.points),
                              None if r.games is None else tuple(float(x) for x in r.games),
                              None if r.tiles is None else tuple(int(x) for x in r.tiles))
                for r in conn.execute(select(t).where(t.c.tournament_id == tid).order_by(t.c.round, t.c.board)))
        return TournamentRecord(row.id, row.game, row.name, row.created_by, utc(row.created_at), dict(row.rules),
                                row.rounds, row.pace, row.clock, row.interval, bool(row.rated), dict(row.entry),
                                row.table_size, row.state, row.round, row.starts_at, row.next_at, entries, pairings)

    def tournament_ids(self, states: Sequence[str]) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(s.tournaments.c.id).where(s.tournaments.c.state.in_(states))
                                .order_by(s.tournaments.c.starts_at)).all()
        return [r.id for r in rows]

    def add_entry(self, tid: str, player_id: str, joined_round: int, bot_level: int | None = None,
                  missed: Sequence[tuple[int, NewPairing]] = ()) -> None:
        """An entry, with the results of the rounds it missed (a late entry, or one back after
        withdrawing), each under its round's real number, in one transaction: a round that already
        holds a result of this player refuses the whole entry and writes nothing."""
        e, t = s.tournament_entries, s.tournament_pairings
        with self.engine.begin() as conn:
            found = conn.execute(select(e.c.withdrawn).where(e.c.tournament_id == tid, e.c.player_id == player_id)
                                 ).first()
            if found is not None:  # back after withdrawing: paired again from the next round
                conn.execute(update(e).where(e.c.tournament_id == tid, e.c.player_id == player_id)
                             .values(withdrawn=False))
            else:
                conn.execute(insert(e).values(tournament_id=tid, player_id=player_id, joined_round=joined_round,
                                              bot_level=bot_level, created_at=now()))
            held = {r.round for r in conn.execute(select(t.c.round, t.c.players).where(t.c.tournament_id == tid))
                    if player_id in r.players}
            for number, p in missed:
                if number in held or player_id not in p.players:
                    raise ValueError(f"{player_id} already has a result in round {number}")
                held.add(number)
                self._add_pairing(conn, tid, number, p)

    def withdraw_entry(self, tid: str, player_id: str, remove: bool) -> None:
        """Withdraw from a running tournament (the results stay), or leave one not yet begun."""
        e = s.tournament_entries
        where = (e.c.tournament_id == tid, e.c.player_id == player_id)
        with self.engine.begin() as conn:
            if remove:
                conn.execute(delete(e).where(*where))
            else:
                conn.execute(update(e).where(*where).values(withdrawn=True))

    def start_round(self, tid: str, number: int, pairings: Sequence[NewPairing], next_at: float | None) -> None:
        """A round's pairings with the round number, at once."""
        with self.engine.begin() as conn:
            for p in pairings:
                self._add_pairing(conn, tid, number, p)
            conn.execute(update(s.tournaments).where(s.tournaments.c.id == tid)
                         .values(state="running", round=number, next_at=next_at))

    @staticmethod
    def _add_pairing(conn: Any, tid: str, number: int, p: NewPairing) -> int:
        return inserted_id(conn.execute(insert(s.tournament_pairings).values(
            tournament_id=tid, round=number, board=p.board, players=list(p.players), table_id=p.table_id,
            kind=p.kind, points=None if p.points is None else list(p.points),
            games=None if p.games is None else list(p.games), tiles=[0] * len(p.players) if p.points else None)))

    def record_pairing(self, pairing_id: int, kind: str, points: Sequence[float], games: Sequence[float],
                       tiles: Sequence[int]) -> bool:
        """A table's result, written once: False when it was already in."""
        t = s.tournament_pairings
        with self.engine.begin() as conn:
            done = conn.execute(update(t).where(t.c.id == pairing_id, t.c.points.is_(None))
                                .values(kind=kind, points=list(points), games=list(games), tiles=list(tiles)))
        return bool(done.rowcount)

    def set_tournament(self, tid: str, **values: Any) -> None:
        """``state``, ``next_at``: the director's next step; ``starts_at`` when a start is brought forward."""
        assert set(values) <= {"state", "next_at", "starts_at"}
        with self.engine.begin() as conn:
            conn.execute(update(s.tournaments).where(s.tournaments.c.id == tid).values(**values))

    def pairing_for_table(self, table_id: str) -> tuple[str, int] | None:
        t = s.tournament_pairings
        with self.engine.connect() as conn:
            row = conn.execute(select(t.c.tournament_id, t.c.id).where(t.c.table_id == table_id)).first()
        return None if row is None else (row.tournament_id, row.id)

    def open_tournaments_by(self, player_id: str) -> int:
        t = s.tournaments
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(t).where(
                t.c.created_by == player_id, t.c.state.in_(("upcoming", "running")))).scalar_one())

    def tournament_list(self, limit: int = 50) -> list[TournamentRecord]:
        """Upcoming and running tournaments first, then the newest finished ones."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(s.tournaments.c.id).order_by(
                (s.tournaments.c.state.in_(("upcoming", "running"))).desc(), s.tournaments.c.starts_at.desc())
                .limit(limit)).all()
        return [t for t in (self.tournament(r.id) for r in rows) if t is not None]


@dataclass(frozen=True, slots=True)
class LevelRung:
    """One computer level on the arena's ladder, and how it did against the level just below."""

    level: int
    player_id: str
    name: str
    rating: int | None
    sigma: float | None
    matches: int
    below_score: float | None = None  # its match points against the level below, as a share
    below_matches: int = 0


class LadderQueries:
    """Mixed into the Store: the arena's ladder of the computer levels (halali.server.arena)."""

    engine: Engine

    def level_ladder(self, game: str, recent: int = 2000) -> list[LevelRung]:
        """The levels of a game with their ratings, and each level's score against the one below it
        over the newest ``recent`` finished two-level matches (forest: the stored player0/player1)."""
        p, r, m = s.players, s.ratings, s.matches
        with self.engine.connect() as conn:
            rows = conn.execute(select(p.c.id, p.c.name, p.c.bot_level, r.c.rating, r.c.sigma, r.c.matches)
                                .outerjoin(r, (r.c.player_id == p.c.id) & (r.c.game == game))
                                .where(p.c.bot_game == game, p.c.bot_level.is_not(None))
                                .order_by(p.c.bot_level)).all()
            ids = {row.id: row.bot_level for row in rows}
            games = conn.execute(select(m.c.player0, m.c.player1, m.c.winner_seat)
                                 .where(m.c.finished.is_(True), m.c.aborted.is_(False),
                                        m.c.player0.in_(list(ids)), m.c.player1.in_(list(ids)))
                                 .order_by(m.c.id.desc()).limit(recent)).all()
        against: dict[int, list[float]] = {}
        for g in games:
            a, b = ids[g.player0], ids[g.player1]
            if abs(a - b) != 1:
                continue
            upper_seat = 0 if a > b else 1
            score = 0.5 if g.winner_seat is None else float(g.winner_seat == upper_seat)
            against.setdefault(max(a, b), []).append(score)
        out = []
        for row in rows:
            scores = against.get(row.bot_level, [])
            out.append(LevelRung(row.bot_level, row.id, row.name, row.rating, row.sigma, row.matches or 0,
                                 sum(scores) / len(scores) if scores else None, len(scores)))
        return out
