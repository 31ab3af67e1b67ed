"""The arena: rated matches between neighbouring computer levels, one at a time, so that the ladder of
the levels (``/arena``) is always being kept, in the same rating system as people's.

Every ``arena_every`` seconds, when the arena's last match is over, the next pair of neighbouring
levels (the hare hunt: three) sits down at a new rated table with no owner. Anyone may watch it from
the lobby. Their thinking runs in the computer players' pool like every other bot turn, and the
levels' players get their ratings and histories as people do.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import asdict
from typing import Any

from halali.server.context import Context
from halali.server.people import new_id
from halali.server.table import PLAYING, WAITING
from halali.server.tables import TableService

log = logging.getLogger("halali.server")


class LevelArena:
    def __init__(self, ctx: Context, tables: TableService) -> None:
        self.ctx = ctx
        self.tables = tables
        self.current: str | None = None  # the arena's running table
        self.turn = itertools.count()

    def pairs(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every group of neighbouring levels per game: the forest's pairs, the hunt's threes."""
        out = []
        for game in self.tables.games.values():
            levels = sorted(game.bot_names())
            size = 2 if game.paired else min(3, game.max_seats)  # a hunt is best with three or more
            out += [(game.id, tuple(levels[i:i + size])) for i in range(len(levels) - size + 1)]
        return out

    async def run(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.play_next()
            except Exception:
                log.exception("the arena's next match failed")

    async def play_next(self) -> str | None:
        """Seat and begin the next arena match unless the last one still runs; its table id."""
        if self.current is not None:
            table = self.tables.tables.get(self.current)
            if table is not None and table.state == PLAYING:
                return None
        groups = self.pairs()
        if not groups:
            return None
        game, levels = groups[next(self.turn) % len(groups)]
        table_id = new_id("t_")
        await self.ctx.db(self.ctx.store.create_table, table_id, game, {}, None, seats=len(levels), rated=True,
                          seated=[(None, lv) for lv in levels])
        table = await self.tables.load(table_id)
        if table is None:
            return None
        async with table.lock:
            if table.state == WAITING:
                await self.tables.begin(table, True)
        self.current = table_id
        return table_id

    async def ladder(self) -> dict[str, Any]:
        """Each game's levels with their ratings and their scores against the level below."""
        out = {}
        for game in self.tables.games:
            rungs = await self.ctx.db(self.ctx.store.level_ladder, game)
            out[game] = [asdict(r) for r in rungs]
        return {"games": out, "current": self.current, "every": self.ctx.settings.arena_every}
