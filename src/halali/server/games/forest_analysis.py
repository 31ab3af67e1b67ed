"""Finished forest games analysed as one job each, kept with the game and shown as they fill in.

A job covers every position of a game (``halali.ai.game_analysis``): its chunks of plies go to the bot
pool together, which runs them on all its processes (or on the cluster's workers) after any computer
player's turn. Plies fill in as chunks come back, so the replay page shows the analysis as it grows;
the whole is stored with the game once, and from then on every viewer, on any node, after any
restart, gets it from the store. The analysis is deterministic, so it is the same whoever computed it.

Asking for a game's analysis counts one game against the asker's allowance (a game already analysed,
queued or running counts nothing). Waiting games are taken in turn per asker (round robin), so one
address with many games cannot hold up everyone else, and the queue is bounded per asker and in all.
A game played on a table is analysed while it goes on, a chunk each time its actions fill one (with
the bot pool's spare time: the players' turns go first), and queued by the site itself when it ends,
so only its last positions are left and its luck is ready when the match's summary asks for it.
Nothing of it is shown before the game is over.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any, TypeVar

from halali.ai.game_analysis import DEFAULT_BUDGET, Budget, chunks, summary
from halali.server import views
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest import rules_of
from halali.server.games.forest_history import game_detail, remember, replay
from halali.server.limits import RateLimiter, refuse_while_limited
from halali.store import GameDetail, StoredAnalysis

T = TypeVar("T")
log = logging.getLogger("halali.analysis")
SITE = "site"  # the asker of the games the site queues itself when they end
PER_ASKER = 3  # games one asker may have waiting (the site: half of MOST)
MOST = 200  # games waiting in all
WAIT = 120.0  # seconds a request for a whole analysis (the luck, a record) waits for it


@dataclass
class Job:
    game_id: int
    detail: GameDetail
    score: tuple[int, int]
    asker: str
    state: str = "queued"  # then "running"
    plies: dict[int, dict[str, Any]] = field(default_factory=dict)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    result: dict[str, Any] | None = None
    error: str | None = None


class GameAnalyses:
    def __init__(self, ctx: Context, allowance: RateLimiter, budget: Budget = DEFAULT_BUDGET) -> None:
        self.ctx, self.allowance, self.budget = ctx, allowance, budget
        self._jobs: dict[int, Job] = {}  # queued or running
        self._queues: OrderedDict[str, deque[Job]] = OrderedDict()  # per asker, in turn
        self._done: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._wake = asyncio.Event()
        self._runner: asyncio.Task[None] | None = None
        self._queuing: set[asyncio.Task[None]] = set()
        self._early: OrderedDict[int, dict[int, dict[str, Any]]] = OrderedDict()  # running games' plies (512)
        # One early chunk at a time: while games are played, the pool keeps a process free for their turns.
        self._early_slot = asyncio.Semaphore(1)
        self.computed = 0  # games this process analysed (not read from the store)
        self.early_chunks = 0  # chunks analysed while their game went on

    # ---- asking ----------------------------------------------------------------------------------
    async def state(self, game_id: Any, address: str) -> dict[str, Any]:
        """The whole analysis when it is done; else how far it is (queued or running, the plies done so
        far), the job being started if nobody had asked yet."""
        job = await self._answer_or_job(game_id, address)
        if isinstance(job, dict):
            return job
        if job.result is not None:
            return job.result
        return self._progress(job)

    async def whole(self, game_id: Any, address: str, wait: float = WAIT) -> dict[str, Any]:
        """The whole analysis, waiting for it (at most ``wait`` seconds)."""
        job = await self._answer_or_job(game_id, address)
        if isinstance(job, dict):
            return job
        try:
            async with asyncio.timeout(wait):
                await job.done.wait()
        except TimeoutError:
            raise ClientError("error.analysis_busy") from None
        if job.result is None:
            raise ClientError("error.analysis_failed")
        return job.result

    async def ply(self, game_id: Any, ply: Any, address: str) -> dict[str, Any]:
        """One position's part of the whole analysis (the position before action ``ply``), waiting for it."""
        found = await self.whole(game_id, address)
        if not isinstance(ply, int) or not 0 <= ply < found["total"]:
            raise ClientError("error.bad_request", field="ply")
        return found["plies"][ply]

    def game_ended(self, game: str, game_id: int) -> None:
        """A game just ended on a table (``TableService.game_ended``): a forest game is queued for the site."""
        if game == "forest":
            self._background(self._ended(game_id))

    def game_progressed(self, game: str, game_id: int, plies: int) -> None:
        """A game on a table has ``plies`` actions (``TableService.game_progressed``): each time they fill a
        chunk, that chunk is analysed now, kept in memory until the game's job takes it."""
        size = self.budget.chunk
        if game == "forest" and plies % size == 0:
            self._background(self._early_chunk(game_id, plies - size, plies))

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._queuing.add(task)
        task.add_done_callback(self._queuing.discard)

    async def _early_chunk(self, game_id: int, first: int, end: int) -> None:
        try:
            d = await game_detail(self.ctx, game_id)
            async with self._early_slot:
                entries = await self.ctx.bots.analyse_plies(d.deal, _rules(d), list(d.actions[:end]), first, end,
                                                            self.budget.to_list())
        except Exception as exc:  # the game's own job does it again
            log.info("chunk %s-%s of game %s not analysed early: %r", first, end, game_id, exc)
            return
        remember(self._early, game_id, {**self._early.get(game_id, {}), **{e["ply"]: e for e in entries}})
        self.early_chunks += 1

    async def _ended(self, game_id: int) -> None:
        """Queue a game that just ended, for the site (no allowance; a full queue skips it)."""
        try:
            if await self._stored(game_id) is None and game_id not in self._jobs:
                await self._start(game_id, SITE)
        except ClientError as exc:
            log.info("game %s not queued for analysis: %s", game_id, exc.key)

    def tasks(self) -> list[asyncio.Task[None]]:
        """What runs in the background (the queue's runner, early chunks): the server cancels them as it stops."""
        return [*self._queuing, *([self._runner] if self._runner is not None else [])]

    # ---- the store -------------------------------------------------------------------------------
    async def _stored(self, game_id: Any) -> dict[str, Any] | None:
        if isinstance(game_id, int) and game_id in self._done:
            return self._done[game_id]
        if not isinstance(game_id, int) or not 0 < game_id < 2**62:
            raise ClientError("error.no_game")
        found: StoredAnalysis | None = await self.ctx.db(self.ctx.store.game_analysis, game_id, self.budget.key())
        if game_id in self._done:  # this process's job ended while the store was read: its answer stands
            return self._done[game_id]
        return None if found is None else self._keep(found, "store")

    async def _answer_or_job(self, game_id: Any, address: str) -> dict[str, Any] | Job:
        """The finished analysis, or the job that makes it (started if nobody had asked yet). While this
        process's job runs, the answer is the job's, not the store's: the store has the row as soon as
        the job saved it, before the job has said it is done, and an answer read there would say
        ``store`` for an analysis this process computed."""
        job = self._jobs.get(game_id) if isinstance(game_id, int) else None
        if job is not None:
            return job
        found = await self._stored(game_id)
        if found is not None:
            return found
        return self._jobs.get(game_id) or await self._start(game_id, address)

    def _keep(self, found: StoredAnalysis, source: str) -> dict[str, Any]:
        """The answer for a finished analysis; ``source`` says where this process got it: ``job`` (it
        ran the job) or ``store`` (another process or an earlier run of this server computed it)."""
        answer = {**found.data, "status": "done", "done": found.data["total"],
                  "computed_at": views.iso(found.computed_at), "source": source}
        remember(self._done, found.game_id, answer)
        return answer

    # ---- the queue -------------------------------------------------------------------------------
    async def _start(self, game_id: int, asker: str) -> Job | dict[str, Any]:
        """The game's new job; or, when someone else's job started meanwhile, that one, and when it has
        even ended meanwhile (a short game's job, its chunks analysed as it was played), its answer:
        a game is analysed once."""
        detail = await game_detail(self.ctx, game_id)
        if not detail.over:
            raise ClientError("error.not_over")
        if game_id in self._jobs:  # asked by someone else meanwhile
            return self._jobs[game_id]
        if game_id in self._done:
            return self._done[game_id]
        waiting = self._queues.get(asker, ())
        most_mine = MOST // 2 if asker == SITE else PER_ASKER
        if len(waiting) >= most_mine or sum(len(q) for q in self._queues.values()) >= MOST:
            raise ClientError("error.analysis_queue_full", most=PER_ASKER)
        if asker != SITE:
            refuse_while_limited(await self.allowance.retry_after(asker))
            await self.allowance.hit(asker)
        _, positions = await asyncio.to_thread(replay, detail)
        final = positions[-1]
        if game_id in self._jobs:
            return self._jobs[game_id]
        if game_id in self._done:
            return self._done[game_id]
        job = Job(game_id, detail, (final.score[0], final.score[1]), asker)
        self._jobs[game_id] = job
        self._queues.setdefault(asker, deque()).append(job)
        self._wake.set()
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())
        return job

    def _next(self) -> Job | None:
        return _take(self._queues)

    def position(self, job: Job) -> int:
        """Games that go before ``job``: the one running, and those the round robin takes first."""
        if job.state != "queued":
            return 0
        queues = OrderedDict((asker, deque(q)) for asker, q in self._queues.items())
        ahead = 1 if any(j.state == "running" for j in self._jobs.values()) else 0
        while (found := _take(queues)) is not None and found is not job:
            ahead += 1
        return ahead

    async def _run(self) -> None:
        while True:
            job = self._next()
            if job is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            await self._compute(job)

    # ---- the work --------------------------------------------------------------------------------
    async def _compute(self, job: Job) -> None:
        job.state = "running"
        d = job.detail
        rules = _rules(d)
        actions = list(d.actions)
        job.plies.update(self._early.pop(job.game_id, {}))
        budget = self.budget.to_list()

        async def one(first: int, end: int) -> None:
            for entry in await self.ctx.bots.analyse_plies(d.deal, rules, actions, first, end, budget):
                job.plies[entry["ply"]] = entry

        try:
            async with asyncio.TaskGroup() as group:
                for first, end in chunks(len(actions), self.budget.chunk):
                    if any(p not in job.plies for p in range(first, end)):
                        group.create_task(one(first, end))
            plies = [job.plies[p] for p in range(len(actions))]
            data = {"game": job.game_id, "budget": self.budget.key(), "total": len(actions), "plies": plies,
                    **summary(plies, job.score, self.budget.luck_depth)}
            stored = await self.ctx.db(self.ctx.store.save_game_analysis, job.game_id, self.budget.key(), data)
            job.result = self._keep(stored, "job")
            self.computed += 1
        except Exception as exc:  # a worker failed or timed out: say so, let a later request try again
            log.warning("analysis of game %s failed: %r", job.game_id, exc)
            job.error = str(exc)
        finally:
            self._jobs.pop(job.game_id, None)
            job.done.set()

    def _progress(self, job: Job) -> dict[str, Any]:
        return {"game": job.game_id, "budget": self.budget.key(), "status": job.state, "done": len(job.plies),
                "total": len(job.detail.actions), "ahead": self.position(job),
                "plies": [job.plies[p] for p in sorted(job.plies)]}


def _rules(d: GameDetail) -> dict[str, str]:
    """The game's rule options as the workers read them (``KEY=VALUE`` strings split)."""
    return dict(r.split("=", 1) for r in rules_of(d.rules).to_strings())


def _take(queues: OrderedDict[str, deque[T]]) -> T | None:
    """The first asker's oldest waiting game; that asker goes to the back of the line."""
    if not queues:
        return None
    asker, waiting = next(iter(queues.items()))
    job = waiting.popleft()
    del queues[asker]
    if waiting:
        queues[asker] = waiting
    return job
