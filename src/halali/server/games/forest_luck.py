"""Luck and skill of finished forest games and matches, for the replay page, the end-of-match summary
and the record export.

A game's luck and mistakes are part of its analysis (``GameAnalyses``: computed once, stored with the
game, the same for everyone); a match adds its games by seat, as ``halali.ai.luck.MatchLuck`` does.
"""

from __future__ import annotations

from typing import Any

from halali.ai.game_analysis import DEFAULT_BUDGET
from halali.ai.luck import verdict
from halali.games.forest.match import colour_of
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest_analysis import GameAnalyses
from halali.server.games.forest_history import game_detail, player_json

COLOURS = ("blue", "brown")


LUCK = ("depth", "reveals", "decisions", "sides", "luckiest", "unluckiest", "summary", "record")


class Luck:
    def __init__(self, ctx: Context, analyses: GameAnalyses) -> None:
        self.ctx, self.analyses = ctx, analyses

    async def game(self, game_id: Any, address: str) -> dict[str, Any]:
        """The luck of every reveal and the loss of every decision of a finished game, from its analysis
        (waiting for it when it is not done yet; starting it counts against the asker's allowance)."""
        found = await self.analyses.whole(game_id, address)
        return {"id": found["game"], **{k: found[k] for k in LUCK}}

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
                "depth": DEFAULT_BUDGET.luck_depth,
                "summary": [{"key": key, "params": params} for key, params in found.keys]}
