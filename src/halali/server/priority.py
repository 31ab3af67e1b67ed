"""A gate with a fixed number of slots where a waiting call of a higher priority goes first.

The bot pool has one slot per worker process and hands them out only as they come free, so the
executor never holds a queue of its own: a computer player's turn (priority ``TURN``) that arrives
while every worker is busy analysing waits for one chunk of plies, never behind a game's worth.
Within a priority, first come first served.

While people play the computer (a turn asked for in the last ``PLAYING`` seconds) and there are two
slots or more, the analyses may hold all but one of them: a turn then never waits for an analysis,
however long a chunk of plies takes on a busy machine (a chunk is not cut short). When nobody plays,
the analyses have every slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections.abc import AsyncIterator, Callable

TURN = 0  # a computer player's turn, a hint, a hare turn: someone is waiting for it
ANALYSIS = 1  # a chunk of a finished game's analysis
PLAYING = 60.0  # seconds after a turn during which one slot is kept for the turns


class PriorityGate:
    def __init__(self, slots: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._free = max(1, slots)
        self._slots = max(1, slots)
        self._clock = clock
        self._last_turn = float("-inf")
        self._analysing = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def _may_take(self, priority: int) -> bool:
        if self._free <= 0:
            return False
        if priority == TURN or self._clock() - self._last_turn > PLAYING:
            return True
        return self._analysing < max(1, self._slots - 1)  # people play: one slot kept for their turns

    @contextlib.asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        if priority == TURN:
            self._last_turn = self._clock()
        if self._may_take(priority) and not any(p <= priority for p, _, f in self._waiting if not f.done()):
            self._take(priority)
        else:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (priority, next(self._order), fut))
            try:
                await fut  # the slot was taken for this call when the future was set
            except asyncio.CancelledError:
                if fut.done() and not fut.cancelled():  # handed the slot just as it was cancelled
                    self._release(priority)
                raise
        try:
            yield
        finally:
            self._release(priority)

    def _take(self, priority: int) -> None:
        self._free -= 1
        self._analysing += priority == ANALYSIS

    def _release(self, priority: int) -> None:
        self._free += 1
        self._analysing -= priority == ANALYSIS
        self._hand_out()

    def _hand_out(self) -> None:
        """Give the free slots to the first waiters that may take them, highest priority first."""
        self._waiting = [w for w in self._waiting if not w[2].done()]
        heapq.heapify(self._waiting)
        held: list[tuple[int, int, asyncio.Future[None]]] = []
        while self._waiting and self._free > 0:
            entry = heapq.heappop(self._waiting)
            if self._may_take(entry[0]):
                self._take(entry[0])
                entry[2].set_result(None)
            else:
                held.append(entry)  # an analysis over its share: it waits for an analysis to end
        for entry in held:
            heapq.heappush(self._waiting, entry)

    @property
    def waiting(self) -> int:
        return sum(1 for _, _, f in self._waiting if not f.done())
