"""A gate with a fixed number of slots where a waiting call of a higher priority goes first.

The bot pool has one slot per worker process and hands them out only as they come free, so the
executor never holds a queue of its own: a computer player's turn (priority ``TURN``) that arrives
while every worker is busy analysing waits for one chunk of plies, never behind a game's worth.
Within a priority, first come first served.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import AsyncIterator

TURN = 0  # a computer player's turn, a hint, a hare turn: someone is waiting for it
ANALYSIS = 1  # a chunk of a finished game's analysis


class PriorityGate:
    def __init__(self, slots: int) -> None:
        self._free = max(1, slots)
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    @contextlib.asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        if self._free > 0 and not self._waiting:
            self._free -= 1
        else:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (priority, next(self._order), fut))
            try:
                await fut
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled():  # handed the slot just as it was cancelled
                    self._release()
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        while self._waiting:
            _, _, fut = heapq.heappop(self._waiting)
            if not fut.done():
                fut.set_result(None)
                return
        self._free += 1

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, f in self._waiting if not f.done())
