"""Computer players' turns: one loop for every game a table can hold.

A computer player thinks in the process pool while the table stays open to everyone. Its answer is
played only if the table is still where it was when it started to think (no other action came first,
no clock ran out), and through the same plan-and-commit path as a person's action, so the engine
checks it like any other. An answer that fails or that the rules refuse is replaced by a random
legal action: a broken bot must never stall a table.

A game's service mixes in ``ComputerTurns`` and says what differs: who is to move, what a bot is
shown, how an action is planned and committed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from halali.server.errors import ClientError

log = logging.getLogger("halali.server")


class BotSeat(Protocol):
    bot: int | None  # the computer level in this seat, None for a person or a free seat


class BotTable(Protocol):
    """What the loop needs of a table: its seats, whose turn it is, its lock and the task that plays
    its computer seats."""

    id: str
    lock: asyncio.Lock
    bot_task: asyncio.Task[None] | None

    @property
    def seats(self) -> Sequence[BotSeat]: ...


class ComputerTurns(ABC):
    """The computer seats of one kind of table, played one action after another."""

    bot_delay: float  # seconds a computer player's action takes at least, so people can follow it

    @abstractmethod
    def seat_to_move(self, table: Any) -> int | None:
        """The seat to move at this table, None when nobody is (or the match is not running)."""

    def bot_to_move(self, table: BotTable) -> tuple[int, int] | None:
        """(seat, level) when a computer player is to move."""
        seat = self.seat_to_move(table)
        level = None if seat is None else table.seats[seat].bot
        return None if seat is None or level is None else (seat, level)

    @abstractmethod
    def turn_stamp(self, table: Any) -> Hashable:
        """What must not have changed between the question and the answer (ply, game, seat)."""

    @abstractmethod
    async def bot_answer(self, table: Any, seat: int, level: int) -> str:
        """Ask the computer player (in the process pool), showing it only what its seat may see."""

    @abstractmethod
    def legal_texts(self, table: Any) -> list[str]:
        """The legal actions of the player to move, in notation (the stand-in when an answer fails)."""

    @abstractmethod
    def plan_bot_action(self, table: Any, seat: int, text: str) -> Any:
        """Check an action for ``seat`` with the engine (raises ClientError when it is refused)."""

    @abstractmethod
    async def commit_bot_action(self, table: Any, plan: Any) -> None:
        """Store, apply and announce a planned action (lock held)."""

    async def bot_may_play(self, table: Any) -> bool:
        """False when the game ended while the bot was thinking (the clock, lock held)."""
        return True

    def maybe_bot(self, table: BotTable) -> None:
        """Start the computer players' turns if one of them is to move and none is thinking yet."""
        if self.bot_to_move(table) is None:
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = asyncio.create_task(self._bot_turns(table))

    async def _bot_turns(self, table: BotTable) -> None:
        loop = asyncio.get_running_loop()
        try:
            while (turn := self.bot_to_move(table)) is not None:
                seat, level = turn
                stamp = self.turn_stamp(table)
                started = loop.time()
                try:
                    text = await self.bot_answer(table, seat, level)
                except Exception as exc:  # handled: one line, no traceback (docs/server.md, "Logs")
                    log.error("computer player failed at table %s (%s: %s); playing a random legal action",
                              table.id, type(exc).__name__, exc)
                    text = random.choice(self.legal_texts(table))
                wait = self.bot_delay - (loop.time() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                async with table.lock:
                    if self.turn_stamp(table) != stamp:
                        continue
                    if not await self.bot_may_play(table):
                        break
                    try:
                        plan = self.plan_bot_action(table, seat, text)
                    except ClientError as exc:
                        log.error("computer player chose %r at table %s: %s", text, table.id, exc)
                        plan = self.plan_bot_action(table, seat, random.choice(self.legal_texts(table)))
                    await self.commit_bot_action(table, plan)
        finally:
            if table.bot_task is asyncio.current_task():
                table.bot_task = None
