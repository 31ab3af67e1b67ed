"""The engine's opinion of a public position, for hints at the table (a finished game's replay has
its whole analysis instead: ``games/forest_analysis.py``).

Answers are cached (a position asked twice is searched once) and one search at a time goes to the
worker pool, which keeps the computer players' moves from waiting behind a queue of them. Only the
public view is ever sent to the engine, and only a search that is not in the cache counts against
the asker's allowance.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any, cast

from halali.games.forest.position import Position
from halali.games.forest.tiles import BLUE
from halali.server.context import Context
from halali.server.limits import RateLimiter, refuse_while_limited

CACHE = 512  # positions


class Analyst:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._cache: OrderedDict[tuple[str, tuple[str, ...]], dict[str, Any]] = OrderedDict()
        self._thinking = asyncio.Semaphore(1)

    async def analyse(self, pos: Position, limit: RateLimiter, key: str) -> dict[str, Any]:
        """``{"position", "to_move", "score", "best", "actions", "depth"}`` for the public view of ``pos``;
        ``score`` and the actions' values are for the side to move."""
        view = pos.view()
        fen = view.fen()
        rules = tuple(sorted(pos.rules.to_strings()))
        found = self._cache.get((fen, rules))
        if found is None:
            refuse_while_limited(await limit.retry_after(key))
            await limit.hit(key)
            async with self._thinking:
                found = self._cache.get((fen, rules))
                if found is None:
                    found = await self.ctx.bots.analyse(fen, dict(r.split("=", 1) for r in rules),
                                                        self.ctx.settings.analysis_movetime)
                    self._remember((fen, rules), found)
        actions = cast(list[Any], found["actions"])
        return {"position": fen, "to_move": "blue" if view.turn == BLUE else "brown", "score": found["score"],
                "best": actions[0][0] if actions else None, "actions": actions, "depth": found["depth"]}

    def _remember(self, key: tuple[str, tuple[str, ...]], value: dict[str, Any]) -> None:
        self._cache[key] = value
        self._cache.move_to_end(key)
        while len(self._cache) > CACHE:
            self._cache.popitem(last=False)
