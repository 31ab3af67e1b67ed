"""The puzzle pages' side of the server: the next puzzle, a move checked against the solution, hints,
the solution, the daily puzzle, and the players' ratings and histories.

Nothing of a solution leaves the server before its player has played it, asked for a hint or for
the solution: the page gets the position and the legal actions, and each move is checked here. A
player's first try is rated (``store.puzzles``): a wrong move, a hint or the solution before the end
makes it a loss, the whole line played right a win; later tries change nothing. Every answer is
computed from the store and the request alone, so any node of a cluster can give it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from importlib.resources import files
from typing import Any

from halali.games.forest.actions import source
from halali.games.forest.notation import parse_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES
from halali.games.forest.tiles import SQUARE_NAMES
from halali.puzzles.model import Puzzle
from halali.puzzles.themes import THEMES
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest_check import read_action
from halali.server.puzzles.records import to_store
from halali.store.puzzles import PuzzleRecord, TryRecord

DIFFICULTY = {"easier": -300.0, "normal": 0.0, "harder": 300.0}
BUNDLED = "bundled.jsonl"


def bundled() -> list[Puzzle]:
    """The puzzles shipped with the package (``halali puzzles generate``'s, docs/puzzles.md)."""
    path = files("halali.puzzles").joinpath(BUNDLED)
    if not path.is_file():
        return []
    return [Puzzle.from_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _position(rec: PuzzleRecord) -> Position:
    return parse_position(rec.position, DEFAULT_RULES.with_options(rec.rules.split()))


def _legal(view: Position) -> list[str]:
    return sorted(view.action_str(a) for a in view.legal_actions())


def _rating(t: TryRecord) -> dict[str, Any]:
    return {"first": t.first, "solved": t.solved,
            "player": {"before": round(t.player_before), "after": round(t.player_after)},
            "puzzle": {"before": round(t.puzzle_before), "after": round(t.puzzle_after)}}


class PuzzleService:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def stock(self) -> None:
        """A site without puzzles gets the shipped ones (nodes of a cluster may do it at once: a
        position is stored once). It runs beside the server's start, which does not wait for it."""
        store = self.ctx.store
        if await self.ctx.db(store.puzzle_count):
            return
        shipped = await asyncio.to_thread(bundled)
        await self.ctx.db(store.add_puzzles, [to_store(p) for p in shipped])

    async def _get(self, puzzle_id: int) -> PuzzleRecord:
        rec = await self.ctx.db(self.ctx.store.puzzle, puzzle_id)
        if rec is None:
            raise ClientError("error.no_puzzle")
        return rec

    async def message(self, rec: PuzzleRecord, player_id: str) -> dict[str, Any]:
        """What the page shows before the first move: never the solution."""
        tried = await self.ctx.db(self.ctx.store.first_try, player_id, rec.id)
        view = _position(rec)
        out: dict[str, Any] = {
            "id": rec.id, "position": rec.position, "to_move": rec.position.split()[1], "legal": _legal(view),
            "moves": (len(rec.solution) + 1) // 2, "proven": rec.proven, "rating": round(rec.rating),
            "tries": rec.tries, "solved_by": rec.solved, "themes": rec.themes, "rules": rec.rules.split(),
            "tried": None if tried is None else {"solved": tried.solved, "how": tried.how},
        }
        return out

    async def puzzle(self, puzzle_id: int, player_id: str) -> dict[str, Any]:
        return await self.message(await self._get(puzzle_id), player_id)

    async def next(self, player_id: str, theme: str | None, difficulty: str, exclude: int | None) -> dict[str, Any]:
        if theme is not None and theme not in THEMES:
            raise ClientError("error.bad_request", field="theme")
        if difficulty not in DIFFICULTY:
            raise ClientError("error.bad_request", field="difficulty")
        store = self.ctx.store
        mine = await self.ctx.db(store.puzzle_rating, player_id)
        rec = await self.ctx.db(store.next_puzzle, player_id, theme, mine.rating + DIFFICULTY[difficulty], exclude)
        if rec is None:
            raise ClientError("error.no_puzzle_left")
        return await self.message(rec, player_id)

    def _replayed(self, rec: PuzzleRecord, moves: Any) -> Position:
        """The position after ``moves``, which must be the solution's start, the player to move."""
        if not isinstance(moves, list) or len(moves) % 2 or len(moves) >= len(rec.solution) or \
                moves != rec.solution[:len(moves)]:
            raise ClientError("error.bad_request", field="moves")
        pos = _position(rec)
        for m in moves:
            pos.play(m)
        return pos

    async def move(self, player_id: str, puzzle_id: int, moves: Any, action: Any) -> dict[str, Any]:
        """Check the player's next action against the solution (the rules first: an illegal action is
        explained and counts for nothing)."""
        rec = await self._get(puzzle_id)
        pos = self._replayed(rec, moves)
        a = read_action(pos, action)
        played = pos.action_str(a)
        expected = rec.solution[len(moves)]
        out: dict[str, Any] = {"action": played}
        if played != expected:
            tried = await self.ctx.db(self.ctx.store.record_try, player_id, rec.id, False, "wrong")
            out.update(correct=False, rating=_rating(tried))
            return out
        out["correct"] = True
        done = len(moves) + 1 == len(rec.solution)
        if done:
            tried = await self.ctx.db(self.ctx.store.record_try, player_id, rec.id, True, "solved")
            out.update(solved=True, rating=_rating(tried), solution=rec.solution, value=rec.value,
                       margin=rec.margin)
            return out
        pos.play(played)
        reply = rec.solution[len(moves) + 1]
        pos.play(reply)
        out.update(solved=False, reply=reply, position=pos.fen(), legal=_legal(pos))
        return out

    async def hint(self, player_id: str, puzzle_id: int, moves: Any) -> dict[str, Any]:
        """The square of the tile the next action moves (or turns over); a first try is then lost."""
        rec = await self._get(puzzle_id)
        pos = self._replayed(rec, moves)
        text = rec.solution[len(moves)]
        square = text[1:3] if text.startswith("?") else SQUARE_NAMES[source(pos.parse_action(text))]
        tried = await self.ctx.db(self.ctx.store.record_try, player_id, rec.id, False, "hint")
        return {"square": square, "rating": _rating(tried)}

    async def solution(self, player_id: str, puzzle_id: int) -> dict[str, Any]:
        rec = await self._get(puzzle_id)
        tried = await self.ctx.db(self.ctx.store.record_try, player_id, rec.id, False, "solution")
        return {"solution": rec.solution, "value": rec.value, "margin": rec.margin, "rating": _rating(tried)}

    async def daily(self, player_id: str) -> dict[str, Any] | None:
        day = dt.datetime.now(dt.UTC).date().isoformat()
        rec = await self.ctx.db(self.ctx.store.daily_puzzle, day)
        return None if rec is None else {"day": day, **await self.message(rec, player_id)}

    async def rating(self, player_id: str) -> dict[str, Any]:
        r = await self.ctx.db(self.ctx.store.puzzle_rating, player_id)
        return {"rating": round(r.rating), "deviation": round(r.deviation), "tries": r.tries,
                "provisional": r.deviation > 110}

    async def themes(self) -> dict[str, int]:
        counts = await self.ctx.db(self.ctx.store.theme_counts)
        return {t: counts.get(t, 0) for t in THEMES}

    async def history(self, player_id: str, before: int | None, limit: int) -> dict[str, Any]:
        store = self.ctx.store
        if await self.ctx.db(store.player_info, player_id) is None:
            raise ClientError("error.no_player")
        rows = await self.ctx.db(store.puzzle_history, player_id, before, limit)
        rating = await self.rating(player_id)
        return {"rating": rating, "tries": [
            {"id": i, "puzzle": t.puzzle_id, "solved": t.solved, "how": t.how, "when": t.when.isoformat(),
             "player": {"before": round(t.player_before), "after": round(t.player_after)},
             "puzzle_rating": round(t.puzzle_after)} for i, t in rows],
            "next": rows[-1][0] if len(rows) == limit else None}

