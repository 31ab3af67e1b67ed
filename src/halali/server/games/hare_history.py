"""Finished hare hunts as the JSON API shows them: lists per player and per table, and replays.

A replay is rebuilt from the store (the full start and every action, rolls with their outcome) and
is given only once the hunt is over, when every club is public: then each position shows all clubs.
The dice secret never leaves the server, not even then.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from halali.games.hare.record import retell
from halali.server import views
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest_history import CACHE, seat_players
from halali.store import HuntDetail, HuntSummary


def hunt_json(h: HuntSummary) -> dict[str, Any]:
    result = h.result or {}
    return {"id": h.id, "game": "hare", "table": h.table_id, "match": h.match_id, "number": h.number,
            "rated": h.rated, "started": h.started_at and views.iso(h.started_at),
            "finished": h.finished_at and views.iso(h.finished_at),
            "players": seat_players(h.players),
            "result": result.get("result"), "placings": result.get("placings")}


class HareHistory:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._replays: OrderedDict[int, dict[str, Any]] = OrderedDict()  # finished hunts never change

    async def hunts(self, player_id: str | None = None, table_id: str | None = None, before: int | None = None,
                    limit: int = 20) -> dict[str, Any]:
        hunts, more = await self.ctx.db(self.ctx.store.finished_hunts, player_id, table_id, before, limit)
        return {"hunts": [hunt_json(h) for h in hunts], "more": more}

    async def hunt(self, game_id: int) -> dict[str, Any]:
        """A finished hunt with every position; a running one is refused (its clubs are still secret)."""
        if game_id in self._replays:
            self._replays.move_to_end(game_id)
            return self._replays[game_id]
        detail = await self.ctx.db(self.ctx.store.hunt_detail, game_id)
        if detail is None:
            raise ClientError("error.no_game")
        if not detail.over:
            raise ClientError("error.hunt_not_over")
        out = await asyncio.to_thread(self._replay_json, detail)
        self._replays[game_id] = out
        while len(self._replays) > CACHE:
            self._replays.popitem(last=False)
        return out

    async def record(self, game_id: int) -> str:
        """A finished hunt's record in hare notation (docs/hare-notation.md, "Records"): its start with
        every club shown and no dice secret, then every action, rolls with their outcome."""
        hunt = await self.hunt(game_id)
        return f"{hunt['positions'][0]} ; {' '.join(hunt['actions'])}".rstrip() + "\n"

    @staticmethod
    def _replay_json(detail: HuntDetail) -> dict[str, Any]:
        """Every position with every club shown; who played each action and what each brought about."""
        told = retell(f"{detail.start} ; {' '.join(detail.actions)}", positions=True)
        return {**hunt_json(detail.summary), "actions": list(detail.actions), "positions": told.positions,
                "movers": told.movers, "events": {str(i): e for i, e in told.events.items()},
                "record": f"/api/hunts/{detail.summary.id}/record"}
