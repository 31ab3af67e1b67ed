"""The computer players' turn loop shared by the forest and hare tables (server/computer.py).

A toy table stands in for a game: a counter is the position, the legal actions are "+1" and "+2"
(anything else is refused by "the engine"), and the computer seats answer from a script. The loop
must play every answer it can, replace a failed or refused answer by a legal one, drop an answer
the table moved past while the bot was thinking, and stop when a person is to move or the game ended
on the clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

import pytest

from halali.server.computer import ComputerTurns
from halali.server.errors import ClientError


@dataclass
class ToyTable:
    id: str = "t_toy"
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    ply: int = 0
    total: int = 0
    bots: tuple[bool, bool] = (True, True)  # which seats are computer players
    played: list[tuple[int, str]] = field(default_factory=list)


class ToyService(ComputerTurns):
    bot_delay = 0.0

    def __init__(self, answers: list[Any], end_at: int = 6, flag_at: int | None = None) -> None:
        self.answers = answers  # a string, an exception to raise, or a callable run while "thinking"
        self.end_at = end_at
        self.flag_at = flag_at
        self.shown: list[tuple[int, int]] = []

    def seat_to_move(self, table: ToyTable) -> int | None:
        return table.ply % 2

    def bot_to_move(self, table: ToyTable) -> tuple[int, int] | None:
        seat = table.ply % 2
        if table.ply >= self.end_at or not table.bots[seat]:  # the toy game ends after `end_at` actions
            return None
        return seat, 3

    def turn_stamp(self, table: ToyTable) -> Hashable:
        return table.ply

    async def bot_answer(self, table: ToyTable, seat: int, level: int) -> str:
        self.shown.append((seat, table.ply))
        answer = self.answers.pop(0) if self.answers else "+1"
        if isinstance(answer, BaseException):
            raise answer
        if callable(answer):
            return answer(table)
        return answer

    def legal_texts(self, table: ToyTable) -> list[str]:
        return ["+1", "+2"]

    def plan_bot_action(self, table: ToyTable, seat: int, text: str) -> tuple[int, str]:
        if text not in self.legal_texts(table):
            raise ClientError("error.illegal", rule="toy")
        return seat, text

    async def commit_bot_action(self, table: ToyTable, plan: tuple[int, str]) -> None:
        table.played.append(plan)
        table.total += int(plan[1])
        table.ply += 1

    async def bot_may_play(self, table: ToyTable) -> bool:
        return self.flag_at is None or table.ply < self.flag_at


async def run(service: ToyService, table: ToyTable) -> None:
    service.maybe_bot(table)
    assert table.bot_task is not None
    await asyncio.wait_for(table.bot_task, 5)
    assert table.bot_task is None  # the task forgets itself when it ends


def test_computer_players_play_until_the_game_ends() -> None:
    service, table = ToyService(["+2", "+1", "+2", "+1"], end_at=4), ToyTable()
    asyncio.run(run(service, table))
    assert table.played == [(0, "+2"), (1, "+1"), (0, "+2"), (1, "+1")] and table.total == 6


def test_a_failed_or_refused_answer_becomes_a_legal_action(caplog: pytest.LogCaptureFixture) -> None:
    service, table = ToyService([RuntimeError("the pool died"), "+7", "+2"], end_at=3), ToyTable()
    with caplog.at_level(logging.ERROR, logger="halali.server"):
        asyncio.run(run(service, table))
    assert [seat for seat, _ in table.played] == [0, 1, 0]
    assert all(text in ("+1", "+2") for _, text in table.played[:2]) and table.played[2] == (0, "+2")
    assert "the pool died" in caplog.text and "'+7'" in caplog.text


def test_an_answer_the_table_moved_past_is_not_played() -> None:
    def someone_else_moves(table: ToyTable) -> str:
        table.played.append((9, "+1"))  # another action came first while the bot was thinking
        table.total += 1
        table.ply += 1
        return "+2"

    service, table = ToyService([someone_else_moves, "+1", "+1"], end_at=3), ToyTable()
    asyncio.run(run(service, table))
    assert table.played == [(9, "+1"), (1, "+1"), (0, "+1")]
    assert service.shown == [(0, 0), (1, 1), (0, 2)]  # asked again for the new position


def test_the_loop_stops_at_a_person_and_on_a_flag() -> None:
    service, table = ToyService(["+1"]), ToyTable(bots=(True, False))
    asyncio.run(run(service, table))
    assert table.played == [(0, "+1")]  # seat 1 is a person: the loop waits for them
    service.maybe_bot(table)
    assert table.bot_task is None  # nothing to do on a person's turn

    service, table = ToyService(["+1", "+1", "+1"], flag_at=2), ToyTable()
    asyncio.run(run(service, table))
    assert len(table.played) == 2  # the game ended on the clock: the third answer is not played


def test_one_thinking_task_per_table() -> None:
    async def twice() -> None:
        service, table = ToyService(["+1", "+1"], end_at=2), ToyTable()
        service.maybe_bot(table)
        first = table.bot_task
        service.maybe_bot(table)
        assert table.bot_task is first
        await run(service, table)
        assert table.played == [(0, "+1"), (1, "+1")]

    asyncio.run(twice())
