"""A third game, for the tests only: two seats count up to ten by ones and twos; who reaches ten wins.

It plugs into the real table service through the same adapter interface as the forest game and the
hare hunt, and nothing in the server knows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from halali.ai.base import LevelTable
from halali.server.errors import ClientError
from halali.server.games.base import Ending, Notice, Plan, SeatName, Start, TableGame
from halali.server.table import Audience, Table
from halali.store.records import TableSnapshot

GOAL = 10


def first_legal(record: str, movetime: float, seed: int) -> str:
    return "+1"


@dataclass
class Count:
    game_id: int
    total: int = 0
    history: list[str] = field(default_factory=list)
    ending: dict[str, Any] | None = None

    def to_move(self) -> int | None:
        return None if self.total >= GOAL or self.ending else len(self.history) % 2


class CountingTables(TableGame):
    id = "count"
    levels: LevelTable[None] = LevelTable("counting bot", {1: lambda seed: None}, {"first": 1})
    page = "table.html"
    message_type = "count"

    def options(self, value: Any) -> dict[str, Any]:
        if value not in (None, {}):
            raise ClientError("error.bad_rules", reason="no options")
        return {}

    def describe(self) -> dict[str, Any]:
        return {"goal": GOAL}

    def draw(self, table: Table) -> Start:
        return Start(["0"])

    def begin(self, table: Table, start: Start, game_ids: list[int], now: float) -> None:
        table.play = Count(game_ids[0])

    def restore(self, table: Table, snap: TableSnapshot, now: float) -> None:
        if snap.match is None or not snap.match.games:
            return
        game = snap.match.games[0]
        table.play = Count(game.id)
        for act in game.actions:
            self.apply(table, self.plan(table, act.seat, act.action, None, now), now)

    def to_move(self, table: Table) -> int | None:
        return table.play.to_move() if table.play is not None else None

    def ply(self, table: Table) -> int:
        return len(table.play.history) if table.play is not None else 0

    def game_id(self, table: Table) -> int:
        return int(table.play.game_id)

    def plan(self, table: Table, seat: int, text: str, ply: Any, now: float) -> Plan:
        count: Count = table.play
        if count.to_move() is None:
            raise ClientError("error.game_over")
        if count.to_move() != seat:
            raise ClientError("error.not_your_turn")
        if text not in ("+1", "+2"):
            raise ClientError("error.illegal", reason="count by one or two", rule="rule.count", rule_params={})
        total = count.total + int(text)
        over = total >= GOAL
        result = {"winner_seat": seat, "total": total} if over else None
        return Plan(seat, len(count.history), count.game_id, text, result, over, seat if over else None,
                    native=total)

    def apply(self, table: Table, plan: Plan, now: float) -> None:
        table.play.total = plan.native
        table.play.history.append(plan.record)

    def end(self, table: Table, termination: str, losers: frozenset[int], now: float) -> Ending:
        winner = None if len(losers) != 1 else 1 - next(iter(losers))
        return Ending(termination, table.play.game_id, {"winner_seat": winner, "termination": termination},
                      winner, losers=losers)

    def apply_end(self, table: Table, ending: Ending, now: float) -> None:
        table.play.ending = ending.game_result

    def legal(self, table: Table) -> list[str]:
        return ["+1", "+2"] if self.to_move(table) is not None else []

    async def bot_answer(self, run: Callable[..., Any], table: Table, seat: int, level: int, movetime: float,
                         seed: int, now: float) -> str:
        answer: str = await run(first_legal, ",".join(table.play.history), movetime, seed)
        return answer

    def summary(self, table: Table) -> dict[str, Any]:
        return {"rules": {}, "game_number": 1 if table.play is not None else 0, "number_of_games": 1, "clock": None}

    def view(self, table: Table, seat: Audience, now: float) -> dict[str, Any]:
        count = table.play
        if count is None:
            return {"count": None}
        mover = count.to_move()
        return {"count": {"total": count.total, "history": list(count.history), "to_move": mover,
                          "legal": self.legal(table) if seat is not None and seat == mover else [],
                          "ending": count.ending}}

    def started(self, table: Table, name: SeatName) -> list[Notice]:
        return [("chat.started", {"match": table.match_number, "rated": table.match_rated})]

    def after_action(self, table: Table, plan: Plan, name: SeatName) -> list[Notice]:
        return []
