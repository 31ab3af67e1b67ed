"""The server's parts put together once, for the HTTP routes and the WebSocket handler.

This is the one place that knows every part. No part holds it: each got only the context (and a
sibling it needs, like the lobby the table service), so the parts lean one way.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from halali.ai.game_analysis import DEFAULT_BUDGET
from halali.server.accounts import Accounts
from halali.server.analyst import Analyst
from halali.server.arena import LevelArena
from halali.server.bot_accounts import BotAccounts
from halali.server.bots import BotPool, Bots
from halali.server.challenges import Challenges
from halali.server.context import Context
from halali.server.games import default_games
from halali.server.games.base import TableGame
from halali.server.games.forest_analysis import GameAnalyses
from halali.server.games.forest_history import History
from halali.server.games.forest_luck import Luck
from halali.server.games.hare_history import HareHistory
from halali.server.hub import Connection
from halali.server.learn import Course
from halali.server.limits import RateLimiter
from halali.server.lobby import Lobby
from halali.server.puzzles.service import PuzzleService
from halali.server.settings import Settings
from halali.server.tables import TableService
from halali.server.tournaments import TournamentService
from halali.store import Store

if TYPE_CHECKING:
    from halali.server.cluster.node import ClusterNode

log = logging.getLogger("halali.server")
STOP_GRACE = 10.0  # seconds the stop waits for the server's own tasks to end once cancelled


@dataclass
class Services:
    ctx: Context
    tables: TableService
    lobby: Lobby
    accounts: Accounts
    analyst: Analyst
    history: History
    analyses: GameAnalyses
    luck: Luck
    hare_history: HareHistory
    hints: RateLimiter
    tournaments: TournamentService
    arena: LevelArena
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    cluster: ClusterNode | None = None  # a node of a cluster (settings.redis_url), else None
    bot_accounts: BotAccounts = field(init=False)  # docs/bots.md
    challenges: Challenges = field(init=False)
    puzzles: PuzzleService = field(init=False)  # docs/puzzles.md
    course: Course = field(init=False)  # /learn

    def __post_init__(self) -> None:
        self.bot_accounts = BotAccounts(self.ctx)
        self.challenges = Challenges(self.ctx, self.tables)
        self.puzzles = PuzzleService(self.ctx)
        self.course = Course(self.ctx)

    @classmethod
    def build(cls, settings: Settings, store: Store, games: dict[str, TableGame] | None = None,
              bots: Bots | None = None) -> Services:
        """``bots``: the computer players' pool, by default a process pool of this server's own."""
        if settings.redis_url:  # a cluster: the workers pull the jobs (imported only then: redis)
            from halali.server.cluster.jobs import RedisBotPool

            bots = RedisBotPool(settings.redis_url, settings.bot_movetime)
        ctx = Context.build(settings, store, bots)
        tables = TableService(ctx, games or default_games())
        analyses = GameAnalyses(ctx, ctx.limiter("analysis", settings.analyses_per_address, settings.analysis_window),
                                replace(DEFAULT_BUDGET, soft_nodes=settings.analysis_nodes))
        if settings.background_analysis:
            tables.game_ended, tables.game_progressed = analyses.game_ended, analyses.game_progressed
        return cls(ctx, tables, Lobby(ctx, tables), Accounts(ctx), Analyst(ctx), History(ctx), analyses,
                   Luck(ctx, analyses),
                   HareHistory(ctx), ctx.limiter("hint", settings.hints_per_player, settings.hint_window),
                   TournamentService(ctx, tables), LevelArena(ctx, tables))

    def join_cluster(self, dispatch: Callable[[Connection, str], Awaitable[None]]) -> None:
        """Make this server a node of the cluster on ``settings.redis_url`` (docs/deploy.md); ``dispatch``
        runs a forwarded message as the WebSocket handler runs its own."""
        from halali.server.cluster.bus import Bus  # only a node of a cluster imports redis
        from halali.server.cluster.node import ClusterNode

        st = self.ctx.settings
        assert st.redis_url is not None
        node_id = st.node_id or f"{socket.gethostname()}-{os.getpid()}"
        bus = Bus(st.redis_url, node_id, st.table_events)
        node = ClusterNode(self.ctx, bus, dispatch, self.tables)
        node.install()
        self.tables.take_lease, self.tables.first_version = node.claim, node.first_version
        self.lobby.remote_cards = lambda: node.cards
        self.lobby.turns_of = node.lobby_opened
        node.online_elsewhere_changed = self.lobby.show_online
        self.tables.turns_relay = node.turns_changed
        node.tournament_changed = self.tournaments.changed_elsewhere
        node.sessions_ended = self.accounts.sessions_ended
        self.cluster = node

    @property
    def settings(self) -> Settings:
        return self.ctx.settings

    async def start(self) -> None:
        """Rebuild every waiting or running table from the store and let its computer players go on."""
        if self.cluster is not None:
            self.cluster.start()
        await self.tables.start_up()
        self.tasks.append(asyncio.create_task(self.tables.housekeeping()))
        if self.cluster is None or self.settings.tournament_director:  # one director per site (docs/deploy.md)
            self.tasks.append(asyncio.create_task(self.tournaments.director.run(self.settings.tournament_poll)))
            if self.settings.arena_every > 0:  # the levels' ladder: the same one node
                self.tasks.append(asyncio.create_task(self.arena.run(self.settings.arena_every)))
        self.tasks.append(asyncio.create_task(self.challenges.run()))
        if self.settings.stock_puzzles:
            self.tasks.append(asyncio.create_task(self.puzzles.stock()))
        if self.settings.start_bots and self.cluster is None:  # a cluster's workers play, not its nodes
            if isinstance(self.ctx.bots, BotPool):
                self.ctx.bots.load_now = True
            self.ctx.bots.warm()

    async def stop(self) -> None:
        tasks = self.tables.stop() + self.tasks + self.analyses.tasks()
        for task in tasks:
            task.cancel()
        running = self.tasks + self.analyses.tasks()
        if running:
            # Bounded, so that a task that would not end (none should) cannot hold the stop, and with
            # it the store's last writes, for ever.
            done, stuck = await asyncio.wait(running, timeout=STOP_GRACE)
            for task in done:
                if not task.cancelled():
                    task.exception()  # retrieved: a task that failed said so when it failed
            for task in stuck:
                log.error("a task did not stop within %s s of the server's stop: %s", STOP_GRACE, task.get_name())
        if self.cluster is not None:
            await self.cluster.stop()
        for conn in list(self.ctx.hub.connections):
            conn.close()
        self.ctx.bots.shutdown()
        self.ctx.writer.close()
        self.ctx.store.close()
