"""Sliding-window rate limits kept in the store, for anything a visitor could repeat to wear us down.

Login guesses, registrations, record imports, fresh analyses and hints all cost the server real work
(a password hash, a replay, a search), so each is counted per key within a window.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from halali.server.errors import ClientError
from halali.server.writer import StoreWriter
from halali.store import Store


class RateLimiter:
    """At most ``limit`` counted attempts per key within ``window`` seconds (a sliding window).

    The attempts live in the store (hashed keys), not in memory: a restart of the server, or a second
    server process on the same database, does not give a guesser a fresh allowance.
    """

    def __init__(self, store: Store, writer: StoreWriter, now: Callable[[], float], kind: str, limit: int,
                 window: float) -> None:
        self.store, self.writer, self.now = store, writer, now
        self.kind, self.limit, self.window = kind, limit, window

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self.writer.call(fn, *args)

    async def retry_after(self, key: str) -> int:
        """Seconds until the next attempt is allowed (0: allowed now)."""
        now = self.now()
        hits = await self.db(self.store.attempt_times, self.kind, key, now - self.window)
        if len(hits) < self.limit:
            return 0
        return max(1, int(hits[len(hits) - self.limit] + self.window - now + 0.999))

    async def backoff(self, key: str, delay: float) -> int:
        """Seconds to wait before the next attempt for ``key`` when each attempt past ``limit`` within
        the window doubles the wait after the latest one, from ``delay`` up to the window (0: allowed)."""
        now = self.now()
        hits = await self.db(self.store.attempt_times, self.kind, key, now - self.window)
        excess = len(hits) - self.limit
        if excess < 0:
            return 0
        wait = min(self.window, delay * 2.0 ** min(excess, 30))
        return max(0, int(hits[-1] + wait - now + 0.999))

    async def hit(self, key: str) -> None:
        now = self.now()
        await self.db(self.store.record_attempt, self.kind, key, now, now - self.window)

    async def clear(self, key: str) -> None:
        await self.db(self.store.clear_attempts, self.kind, key)


def refuse_while_limited(*waits: int) -> None:
    """429 ``error.too_many_attempts`` (with ``retry_after``) if any of the limits says wait."""
    wait = max(waits)
    if wait > 0:
        raise ClientError("error.too_many_attempts", retry_after=wait)
