"""Luck and skill of finished forest games and matches, for the replay page, the end-of-match summary
and the record export.

Each game's luck is computed once, in the worker pool (``Bots.luck``), at the fixed depth of
``halali.ai.luck.DEFAULT_DEPTH`` so that everyone sees the same numbers; a match adds its games by
seat, as ``halali.ai.luck.MatchLuck`` does, from those cached answers.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from halali.ai.luck import DEFAULT_DEPTH, verdict
from halali.games.forest.match import colour_of
from halali.games.forest.notation import parse_position
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest import rules_of
from halali.server.games.forest_history import game_detail, player_json, remember
from halali.server.limits import RateLimiter, refuse_while_limited

COLOURS = ("blue", "brown")


class Luck:
    def __init__(self, ctx: Context, analyses: RateLimiter) -> None:
        self.ctx, self.analyses = ctx, analyses
        self._games: OrderedDict[int, dict[str, Any]] = OrderedDict()  # finished games never change
        self._thinking = asyncio.Lock()  # one game at a time in the worker pool

    async def game(self, game_id: Any, address: str) -> dict[str, Any]:
        """The luck of every reveal and the loss of every decision of a finished game; a computation
        counts against the address's allowance of fresh analyses, an answer from the cache does not."""
        if isinstance(game_id, int) and game_id in self._games:
            return self._games[game_id]
        detail = await game_detail(self.ctx, game_id)
        if not detail.over:
            raise ClientError("error.not_over")
        key = detail.summary.id
        refuse_while_limited(await self.analyses.retry_after(address))
        await self.analyses.hit(address)
        async with self._thinking:
            found = self._games.get(key)
            if found is None:
                start = parse_position(detail.deal, rules_of(detail.rules))
                rules = dict(r.split("=", 1) for r in start.rules.to_strings())
                found = {"id": key, **await self.ctx.bots.luck(start.fen(), rules, list(detail.actions),
                                                               DEFAULT_DEPTH)}
                remember(self._games, key, found)
        return found

    async def match(self, game_id: Any, address: str) -> dict[str, Any]:
        """The finished games of the match that game ``game_id`` belongs to, added up by seat (seat 0
        plays brown in game 1 and blue in game 2): each seat's luck, skill loss, score difference and
        luck-adjusted result, and the verdict with the seat (0 or 1) as its ``player``."""
        detail = await game_detail(self.ctx, game_id)
        if not detail.over:
            raise ClientError("error.not_over")
        mine = detail.summary
        games, _ = await self.ctx.db(self.ctx.store.finished_games, None, mine.table_id, None, None)
        played = sorted((g for g in games if g.match_id == mine.match_id and g.result is not None),
                        key=lambda g: g.number)
        seats: list[dict[str, Any]] = [{"luck": 0.0, "skill_loss": 0.0, "score_difference": 0, "adjusted": 0.0}
                                       for _ in range(2)]
        for g in played:
            sides = (await self.game(g.id, address))["sides"]
            for seat in (0, 1):
                mine_c, other_c = COLOURS[colour_of(seat, g.number - 1)], COLOURS[colour_of(1 - seat, g.number - 1)]
                side, other = sides[mine_c], sides[other_c]
                seats[seat]["luck"] += side["luck"]
                seats[seat]["skill_loss"] += side["skill_loss"]
                seats[seat]["score_difference"] += side["score"] - other["score"]
                seats[seat]["adjusted"] += side["adjusted"]
        for seat, s in enumerate(seats):
            s.update({k: round(v, 3) for k, v in s.items() if isinstance(v, float)})
            s["player"] = player_json(mine.players[seat])
        found = verdict([s["luck"] for s in seats], [s["skill_loss"] for s in seats], ["0", "1"])
        return {"match": mine.match_id, "table": mine.table_id, "games": [g.id for g in played], "seats": seats,
                "depth": DEFAULT_DEPTH, "summary": [{"key": key, "params": params} for key, params in found.keys]}
