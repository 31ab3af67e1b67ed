"""What every sub-service of the server may use, and nothing more: no sub-service holds the server.

The table service, the accounts, the histories and the rate limits each get this one narrow object:
the settings, the store (read and written only through the writer thread), the hub of connections,
the directory of players, the computer players (a process pool, or a cluster's workers), and the
clock. So a part can be built and tested with a context of its own, and no module needs to import the
whole server to reach a neighbour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from halali.server.bots import BotPool, Bots
from halali.server.hub import Hub
from halali.server.limits import RateLimiter
from halali.server.people import People
from halali.server.settings import Settings
from halali.server.writer import StoreWriter
from halali.store import Store

T = TypeVar("T")


@dataclass
class Context:
    settings: Settings
    store: Store
    writer: StoreWriter
    hub: Hub
    people: People
    bots: Bots

    def now(self) -> float:
        """The server's clock in seconds (game clocks, deadlines, limits); tests inject their own."""
        return self.settings.clock()

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A store call on the writer thread, in order with every other write."""
        return await self.writer.call(fn, *args, **kwargs)

    def limiter(self, kind: str, limit: int, window: float) -> RateLimiter:
        return RateLimiter(self.store, self.writer, self.now, kind, limit, window)

    @classmethod
    def build(cls, settings: Settings, store: Store, bots: Bots | None = None) -> Context:
        """``bots``: the computer players' pool; by default a process pool of this server (a cluster
        node gets the workers' pool from ``services.py``)."""
        writer = StoreWriter(store)
        pool = bots if bots is not None else BotPool(settings.bot_workers, settings.bot_movetime)
        return cls(settings, store, writer, Hub(), People(store, writer), pool)
