"""The server's parts put together once, for the HTTP routes and the WebSocket handler.

This is the one place that knows every part. No part holds it: each got only the context (and a
sibling it needs, like the lobby the table service), so the parts lean one way.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from halali.server.accounts import Accounts
from halali.server.analyst import Analyst
from halali.server.context import Context
from halali.server.games import default_games
from halali.server.games.base import TableGame
from halali.server.games.forest_history import History
from halali.server.games.forest_luck import Luck
from halali.server.games.hare_history import HareHistory
from halali.server.limits import RateLimiter
from halali.server.lobby import Lobby
from halali.server.settings import Settings
from halali.server.tables import TableService
from halali.store import Store


@dataclass
class Services:
    ctx: Context
    tables: TableService
    lobby: Lobby
    accounts: Accounts
    analyst: Analyst
    history: History
    luck: Luck
    hare_history: HareHistory
    hints: RateLimiter
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    def build(cls, settings: Settings, store: Store, games: dict[str, TableGame] | None = None) -> Services:
        ctx = Context.build(settings, store)
        tables = TableService(ctx, games or default_games())
        analyst = Analyst(ctx)
        history = History(ctx, analyst)
        return cls(ctx, tables, Lobby(ctx, tables), Accounts(ctx), analyst, history, Luck(ctx, history.analyses),
                   HareHistory(ctx), ctx.limiter("hint", settings.hints_per_player, settings.hint_window))

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    async def start(self) -> None:
        """Rebuild every waiting or running table from the store and let its computer players go on."""
        await self.tables.start_up()
        self.tasks.append(asyncio.create_task(self.tables.housekeeping()))

    async def stop(self) -> None:
        tasks = self.tables.stop() + self.tasks
        for task in tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                await task
        for conn in list(self.ctx.hub.connections):
            conn.close()
        self.ctx.bots.shutdown()
        self.ctx.writer.close()
        self.ctx.store.close()
