"""Finished games' analyses, kept with the games: computed once, then read by everyone.

The analysis is deterministic (the same game and budget give the same numbers), so two nodes of a
cluster that computed the same game at once stored the same thing: the first insert stands and the
second is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.exc import IntegrityError

from halali.store import schema as s
from halali.store.rows import now, utc


@dataclass(frozen=True)
class StoredAnalysis:
    game_id: int
    budget: str
    data: dict[str, Any]
    computed_at: datetime


class AnalysisStore:
    engine: Engine

    def game_analysis(self, game_id: int, budget: str | None = None) -> StoredAnalysis | None:
        """The game's analysis by ``budget`` (None: by whichever budget it was made), or None."""
        a = s.game_analyses.c
        q = select(a.game_id, a.budget, a.data, a.computed_at).where(a.game_id == game_id)
        with self.engine.connect() as conn:
            row = conn.execute(q if budget is None else q.where(a.budget == budget)).first()
        if row is None:
            return None
        return StoredAnalysis(int(row.game_id), row.budget, dict(row.data), utc(row.computed_at))

    def save_game_analysis(self, game_id: int, budget: str, data: dict[str, Any]) -> StoredAnalysis:
        """Keep the analysis (one by another budget is replaced); when another process stored this one
        first, its row stands and is returned."""
        a = s.game_analyses.c
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(s.game_analyses).where(a.game_id == game_id, a.budget != budget))
                conn.execute(insert(s.game_analyses).values(game_id=game_id, budget=budget, data=data,
                                                            computed_at=now()))
        except IntegrityError:
            pass
        found = self.game_analysis(game_id, budget)
        assert found is not None
        return found
