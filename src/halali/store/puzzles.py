"""Puzzles, their Glicko-2 ratings and the players' tries; the course's stars.

A player's first try at a puzzle is the one that counts: its row is unique per player and puzzle,
and its insert, the two rating updates and the puzzle's counters are one transaction, with the
puzzle's and the player's rating rows locked first (``FOR UPDATE`` on PostgreSQL; SQLite writes one
transaction at a time), so two nodes rating tries of the same puzzle at once both count, in turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from halali.store import schema as s
from halali.store.glicko import START, START_DEVIATION, START_VOLATILITY, Glicko, play
from halali.store.rows import now, utc

NEAR = 150.0  # the next puzzle is drawn from the untried ones this close to the rating asked for
NEAREST = 12  # ... at most this many of them; with none that close, the closest one


@dataclass(frozen=True)
class NewPuzzle:
    position: str
    rules: str  # space-separated KEY=VALUE options other than the defaults
    solution: list[str]
    value: float
    margin: float
    proven: bool
    depth: int
    rating: float
    themes: list[str]
    source: dict[str, Any]


@dataclass(frozen=True)
class PuzzleRecord:
    id: int
    position: str
    rules: str
    solution: list[str]
    value: float
    margin: float
    proven: bool
    depth: int
    rating: float
    deviation: float
    tries: int
    solved: int
    themes: list[str]
    source: dict[str, Any]


@dataclass(frozen=True)
class TryRecord:
    puzzle_id: int
    solved: bool
    how: str
    player_before: float
    player_after: float
    puzzle_before: float
    puzzle_after: float
    when: datetime
    first: bool = True  # False: this player had tried the puzzle before, and nothing changed now


@dataclass(frozen=True)
class PuzzleRating:
    rating: float
    deviation: float
    tries: int


class PuzzleStore:
    """Mixed into the Store."""

    engine: Engine

    # ---- puzzles --------------------------------------------------------------------------------
    def add_puzzles(self, found: list[NewPuzzle]) -> int:
        """Store the puzzles whose position (with its rules) is not stored yet; how many were new.

        The positions already stored are read first, and the others inserted together in one
        transaction (a new site's 315 shipped puzzles: one commit, not 315). The transaction only
        writes, so SQLite takes its lock at once and never has a read snapshot to lose. Should
        another writer store one of them meanwhile (nodes of a cluster stock at once), the unique
        index refuses the whole batch, and they go in one at a time.
        """
        positions = sorted({p.position for p in found})
        stored: set[tuple[str, str]] = set()
        with self.engine.connect() as conn:
            for at in range(0, len(positions), 500):
                known = select(s.puzzles.c.position, s.puzzles.c.rules).where(
                    s.puzzles.c.position.in_(positions[at:at + 500]))
                stored.update((r.position, r.rules) for r in conn.execute(known))
        fresh: dict[tuple[str, str], NewPuzzle] = {}
        for p in found:
            if (p.position, p.rules) not in stored:
                fresh.setdefault((p.position, p.rules), p)
        if not fresh:
            return 0
        try:
            with self.engine.begin() as conn:
                t = now()
                ids = conn.execute(insert(s.puzzles).returning(s.puzzles.c.id, sort_by_parameter_order=True),
                                   [self._row(p, t) for p in fresh.values()]).scalars().all()
                themes = [{"puzzle_id": pid, "theme": th} for pid, p in zip(ids, fresh.values(), strict=True)
                          for th in p.themes]
                if themes:
                    conn.execute(insert(s.puzzle_themes), themes)
            return len(ids)
        except IntegrityError:
            return sum(self._add_one(p) for p in fresh.values())

    def _add_one(self, p: NewPuzzle) -> int:
        try:
            with self.engine.begin() as conn:
                pid = conn.execute(insert(s.puzzles).values(**self._row(p, now()))).inserted_primary_key[0]  # type: ignore[index]
                if p.themes:
                    conn.execute(insert(s.puzzle_themes), [{"puzzle_id": pid, "theme": th} for th in p.themes])
            return 1
        except IntegrityError:
            return 0

    @staticmethod
    def _row(p: NewPuzzle, t: datetime) -> dict[str, Any]:
        return {"position": p.position, "rules": p.rules, "solution": p.solution, "value": p.value,
                "margin": p.margin, "proven": p.proven, "depth": p.depth, "rating": p.rating,
                "deviation": START_DEVIATION, "volatility": START_VOLATILITY, "tries": 0, "solved": 0,
                "source": p.source, "created_at": t}

    def _records(self, conn: Connection, rows: list[Any]) -> list[PuzzleRecord]:
        ids = [r.id for r in rows]
        themes: dict[int, list[str]] = {i: [] for i in ids}
        if ids:
            for r in conn.execute(select(s.puzzle_themes).where(s.puzzle_themes.c.puzzle_id.in_(ids))):
                themes[r.puzzle_id].append(r.theme)
        return [PuzzleRecord(r.id, r.position, r.rules, list(r.solution), r.value, r.margin, bool(r.proven), r.depth,
                             r.rating, r.deviation, r.tries, r.solved, sorted(themes[r.id]), dict(r.source))
                for r in rows]

    def puzzle(self, puzzle_id: int) -> PuzzleRecord | None:
        with self.engine.connect() as conn:
            rows = list(conn.execute(select(s.puzzles).where(s.puzzles.c.id == puzzle_id)))
            return self._records(conn, rows)[0] if rows else None

    def puzzles_page(self, after: int = 0, limit: int = 500) -> list[PuzzleRecord]:
        """Puzzles in the order they were stored, ``limit`` at a time after the id ``after`` (export)."""
        with self.engine.connect() as conn:
            rows = list(conn.execute(select(s.puzzles).where(s.puzzles.c.id > after)
                                     .order_by(s.puzzles.c.id).limit(limit)))
            return self._records(conn, rows)

    def puzzle_count(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(s.puzzles)).scalar_one())

    def theme_counts(self) -> dict[str, int]:
        t = s.puzzle_themes.c
        with self.engine.connect() as conn:
            return {r.theme: int(r.n) for r in conn.execute(
                select(t.theme, func.count().label("n")).group_by(t.theme))}

    def next_puzzle(self, player_id: str, theme: str | None = None, target: float | None = None,
                    exclude: int | None = None, rng: random.Random | None = None) -> PuzzleRecord | None:
        """A puzzle the player has not tried, of ``theme`` if given, drawn from those within ``NEAR`` of
        ``target`` (the player's rating when None), or the closest; ``exclude`` is the one on the screen."""
        p = s.puzzles.c
        tried = select(s.puzzle_tries.c.puzzle_id).where(s.puzzle_tries.c.player_id == player_id)
        q = select(s.puzzles).where(p.id.not_in(tried))
        if exclude is not None:
            q = q.where(p.id != exclude)
        if theme:
            q = q.where(p.id.in_(select(s.puzzle_themes.c.puzzle_id).where(s.puzzle_themes.c.theme == theme)))
        with self.engine.connect() as conn:
            if target is None:
                target = self._rating(conn, player_id).rating
            rows = list(conn.execute(q.order_by(func.abs(p.rating - target), p.id).limit(NEAREST)))
            if not rows:
                return None
            near = [r for r in rows if abs(r.rating - target) <= NEAR] or rows[:1]
            return self._records(conn, [(rng or random.Random()).choice(near)])[0]

    # ---- ratings and tries ----------------------------------------------------------------------
    def _rating(self, conn: Connection, player_id: str) -> PuzzleRating:
        r = conn.execute(select(s.puzzle_ratings).where(s.puzzle_ratings.c.player_id == player_id)).first()
        return PuzzleRating(START, START_DEVIATION, 0) if r is None else PuzzleRating(r.rating, r.deviation, r.tries)

    def puzzle_rating(self, player_id: str) -> PuzzleRating:
        with self.engine.connect() as conn:
            return self._rating(conn, player_id)

    def first_try(self, player_id: str, puzzle_id: int) -> TryRecord | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(s.puzzle_tries).where(s.puzzle_tries.c.player_id == player_id,
                                                          s.puzzle_tries.c.puzzle_id == puzzle_id)).first()
        return None if r is None else _try(r)

    def record_try(self, player_id: str, puzzle_id: int, solved: bool, how: str) -> TryRecord:
        """Rate the player's first try at the puzzle; a later try changes nothing and returns the first."""
        for _ in range(3):
            try:
                return self._record_try(player_id, puzzle_id, solved, how)
            except IntegrityError:  # a first try of the same player stored meanwhile (another node)
                found = self.first_try(player_id, puzzle_id)
                if found is not None:
                    return _again(found)
        raise RuntimeError("the try could not be stored")

    def _record_try(self, player_id: str, puzzle_id: int, solved: bool, how: str) -> TryRecord:
        t = now()
        with self.engine.begin() as conn:
            pz = conn.execute(select(s.puzzles).where(s.puzzles.c.id == puzzle_id).with_for_update()).first()
            if pz is None:
                raise KeyError(puzzle_id)
            old = conn.execute(select(s.puzzle_tries).where(s.puzzle_tries.c.player_id == player_id,
                                                            s.puzzle_tries.c.puzzle_id == puzzle_id)).first()
            if old is not None:
                return _again(_try(old))
            pr = conn.execute(select(s.puzzle_ratings).where(s.puzzle_ratings.c.player_id == player_id)
                              .with_for_update()).first()
            me = Glicko(START, START_DEVIATION, START_VOLATILITY) if pr is None else \
                Glicko(pr.rating, pr.deviation, pr.volatility)
            it = Glicko(pz.rating, pz.deviation, pz.volatility)
            me2, it2 = play(me, it, solved)
            values = {"rating": me2.rating, "deviation": me2.deviation, "volatility": me2.volatility,
                      "updated_at": t}
            if pr is None:
                conn.execute(insert(s.puzzle_ratings).values(player_id=player_id, tries=1, **values))
            else:
                conn.execute(update(s.puzzle_ratings).where(s.puzzle_ratings.c.player_id == player_id)
                             .values(tries=pr.tries + 1, **values))
            conn.execute(update(s.puzzles).where(s.puzzles.c.id == puzzle_id).values(
                rating=it2.rating, deviation=it2.deviation, volatility=it2.volatility, tries=pz.tries + 1,
                solved=pz.solved + (1 if solved else 0)))
            conn.execute(insert(s.puzzle_tries).values(
                player_id=player_id, puzzle_id=puzzle_id, solved=solved, how=how, player_before=me.rating,
                player_after=me2.rating, puzzle_before=it.rating, puzzle_after=it2.rating, created_at=t))
        return TryRecord(puzzle_id, solved, how, me.rating, me2.rating, it.rating, it2.rating, t)

    def puzzle_history(self, player_id: str, before: int | None = None, limit: int = 20) -> list[tuple[int, TryRecord]]:
        """(try id, try) of the player, newest first, ``limit`` at a time before the try id ``before``."""
        c = s.puzzle_tries.c
        q = select(s.puzzle_tries).where(c.player_id == player_id)
        if before is not None:
            q = q.where(c.id < before)
        with self.engine.connect() as conn:
            return [(r.id, _try(r)) for r in conn.execute(q.order_by(c.id.desc()).limit(limit))]

    # ---- puzzles from the site's games ----------------------------------------------------------
    def games_to_mine(self, limit: int = 100) -> list[int]:
        """Finished forest games not mined yet, oldest first."""
        g = s.games.c
        mined = select(s.mined_games.c.game_id)
        q = (select(g.id).join(s.matches, s.matches.c.id == g.match_id)
             .join(s.game_tables, s.game_tables.c.id == s.matches.c.table_id)
             .where(s.game_tables.c.game == "forest", g.finished_at.is_not(None), g.id.not_in(mined))
             .order_by(g.id).limit(limit))
        with self.engine.connect() as conn:
            return [int(r[0]) for r in conn.execute(q)]

    def mark_mined(self, game_id: int, puzzles: int) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(s.mined_games).values(game_id=game_id, puzzles=puzzles, mined_at=now()))
        except IntegrityError:  # mined twice at once (two miners): the first one's count stands
            pass

    # ---- the daily puzzle -----------------------------------------------------------------------
    def daily_puzzle(self, day: str) -> PuzzleRecord | None:
        """The day's puzzle: chosen by the first caller of the day among the proven puzzles nobody had
        as a daily puzzle yet (any puzzle, once those run out), then the same for everyone."""
        d = s.daily_puzzles.c
        with self.engine.connect() as conn:
            found = conn.execute(select(d.puzzle_id).where(d.day == day)).scalar()
        if found is None:
            used = select(d.puzzle_id)
            with self.engine.connect() as conn:
                pick = None
                for proven in (True, None):
                    q = select(s.puzzles.c.id).where(s.puzzles.c.id.not_in(used))
                    if proven:
                        q = q.where(s.puzzles.c.proven)
                    ids = [r[0] for r in conn.execute(q.order_by(s.puzzles.c.id))]
                    if ids:
                        pick = random.Random(day).choice(ids)
                        break
            if pick is None:
                return None
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(s.daily_puzzles).values(day=day, puzzle_id=pick))
            except IntegrityError:  # another node chose first: its choice stands
                pass
            with self.engine.connect() as conn:
                found = conn.execute(select(d.puzzle_id).where(d.day == day)).scalar()
        return None if found is None else self.puzzle(int(found))

    # ---- the course -----------------------------------------------------------------------------
    def learn_stars(self, player_id: str) -> dict[tuple[str, int], int]:
        c = s.learn_progress.c
        with self.engine.connect() as conn:
            return {(r.lesson, r.task): r.stars for r in conn.execute(
                select(s.learn_progress).where(c.player_id == player_id))}

    def save_stars(self, player_id: str, lesson: str, task: int, stars: int) -> int:
        """Keep the best stars the player earned for the task; returns them."""
        c = s.learn_progress.c
        where = and_(c.player_id == player_id, c.lesson == lesson, c.task == task)
        for _ in range(3):
            try:
                with self.engine.begin() as conn:
                    old = conn.execute(select(c.stars).where(where).with_for_update()).scalar()
                    if old is None:
                        conn.execute(insert(s.learn_progress).values(player_id=player_id, lesson=lesson, task=task,
                                                                     stars=stars, updated_at=now()))
                        return stars
                    if stars > old:
                        conn.execute(update(s.learn_progress).where(where).values(stars=stars, updated_at=now()))
                        return stars
                    return int(old)
            except IntegrityError:  # the same task saved at once from two tabs: read it again
                continue
        raise RuntimeError("the stars could not be stored")


def _try(r: Any) -> TryRecord:
    return TryRecord(r.puzzle_id, bool(r.solved), r.how, r.player_before, r.player_after, r.puzzle_before,
                     r.puzzle_after, utc(r.created_at))


def _again(t: TryRecord) -> TryRecord:
    return TryRecord(t.puzzle_id, t.solved, t.how, t.player_before, t.player_after, t.puzzle_before, t.puzzle_after,
                     t.when, first=False)
