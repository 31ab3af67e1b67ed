"""Bot turns, hints and chunks of game analyses as jobs on a Redis Stream, pulled by ``halali worker`` processes.

The model is lichess's fishnet: a node does not choose a worker, it puts the job where any worker may
take it (the stream ``halali:jobs``, read by the consumer group ``halali:workers``) and waits for the
answer on a reply stream of its own. So workers can be added, killed or moved to other machines
without a node knowing. What a job runs is named from ``KINDS``, an explicit allowlist, and its
arguments and result are JSON: nothing is unpickled from the network, and a worker refuses any other
kind. Every job has a deadline; a node that has no answer by then raises, so the server's fallback
applies (a random legal action for a computer's turn, an error for an analysis). An answer that comes
after its job was given up is dropped, as the table has moved on. docs/deploy.md "Workers".
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import redis
import redis.asyncio as aioredis

from halali.ai.hare.registry import choose_action as choose_hare_action
from halali.ai.registry import choose_action
from halali.server.bots import analyse_plies_job, analyse_view

T = TypeVar("T")
log = logging.getLogger("halali.cluster")

JOBS = "halali:jobs"  # the stream every node adds its jobs to
GROUP = "halali:workers"  # the consumer group every worker reads it in
REPLIES = "halali:replies:"  # + a node's name: the stream its answers come back on
JOBS_MAXLEN = 10_000  # jobs kept in the stream (approximately); a job trimmed unanswered times out
REPLIES_MAXLEN = 1_000
ANALYSIS_AT_ONCE = 2  # chunks of game analyses one node has on the stream at a time
REPLY_TTL = 3600  # seconds a node's reply stream outlives its last answer (a node that is gone)

# The allowlist: what a job may run, by name. The pool maps the functions the server passes to
# ``Bots.run`` to these names; a worker runs only these (the forest turn through the engine protocol).
KINDS: dict[str, Callable[..., Any]] = {
    "forest.turn": choose_action,
    "hare.turn": choose_hare_action,
    "analyse": analyse_view,
    "analysis.plies": analyse_plies_job,
}
KIND_OF: dict[Callable[..., Any], str] = {fn: kind for kind, fn in KINDS.items()}

Entry = tuple[bytes, dict[bytes, bytes]]
Streams = list[tuple[bytes, list[Entry]]]  # what XREAD and XREADGROUP answer (redis-py types it loosely)


class JobError(RuntimeError):
    """A job failed: the worker refused it or its function raised (the message says which)."""


class JobTimeout(JobError, TimeoutError):
    """No worker answered a job by its deadline."""


class BadJob(ValueError):
    """A stream entry that is not a job (a worker acknowledges and skips it)."""


@dataclass(frozen=True)
class Job:
    """One stream entry: what to run (``kind``, ``args``), whom to answer (``reply``), and until when
    the asker waits (``deadline``, seconds since the epoch: workers on other machines compare it)."""

    id: str
    kind: str
    args: list[Any]
    deadline: float
    reply: str

    def fields(self) -> dict[str, str]:
        return {"id": self.id, "kind": self.kind, "args": json.dumps(self.args), "deadline": repr(self.deadline),
                "reply": self.reply}

    @classmethod
    def from_fields(cls, fields: dict[bytes, bytes]) -> Job:
        try:
            f = {k.decode(): v.decode() for k, v in fields.items()}
            args = json.loads(f["args"])
            job = cls(f["id"], f["kind"], args, float(f["deadline"]), f["reply"])
        except (KeyError, ValueError, UnicodeDecodeError) as exc:
            raise BadJob(f"not a job: {exc}") from exc
        if not isinstance(args, list) or not job.reply.startswith(REPLIES):
            raise BadJob("not a job: args must be a list and reply a reply stream")
        return job


def answer_fields(job_id: str, worker: str, result: Any = None, error: str | None = None) -> dict[str, str]:
    """A reply stream entry: the job's id, the worker that ran it, and its JSON result or an error."""
    if error is not None:
        return {"id": job_id, "worker": worker, "ok": "0", "error": error}
    return {"id": job_id, "worker": worker, "ok": "1", "result": json.dumps(result)}


def ensure_group(r: redis.Redis) -> None:
    """The jobs stream and its group, made if missing (a Redis restart loses both). From id 0, so that
    jobs added before the group came back are still handed out."""
    try:
        r.xgroup_create(JOBS, GROUP, id="0", mkstream=True)
    except redis.ResponseError as exc:
        if "BUSYGROUP" not in str(exc):
            raise


class RedisBotPool:
    """The server's ``Bots`` on a cluster: each call is a job for the workers, its answer awaited here.

    ``wait`` is how long a job may take on top of its own thinking time (the queue, a worker dying and
    its job being claimed by another); a chunk of a game analysis gets ``luck_wait`` in all. One asyncio task
    reads this node's reply stream; it reconnects by itself (with backoff) when Redis goes away.
    """

    def __init__(self, url: str, movetime: float = 0.5, node: str | None = None, wait: float = 15.0,
                 luck_wait: float = 300.0) -> None:
        self.url = url
        self.movetime = movetime
        self.node = node or uuid.uuid4().hex[:12]
        self.reply_stream = REPLIES + self.node
        self.wait = wait
        self.luck_wait = luck_wait
        self._analysing = asyncio.Semaphore(ANALYSIS_AT_ONCE)
        self.dropped = 0  # answers that came after their job was given up
        self._redis = aioredis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=None)  # see _read_replies
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._entries: dict[str, tuple[Job, str]] = {}  # job id -> the job and its entry in the stream
        self._reader: asyncio.Task[None] | None = None
        self._dropped_event: asyncio.Event | None = None
        self._closing: asyncio.Task[None] | None = None

    # ---- the Bots interface ----------------------------------------------------------------------
    def warm(self) -> None:
        """Start reading replies now when on the event loop (the workers warm up by themselves)."""
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop()
            self._start_reader()

    async def choose(self, level: int, view_fen: str, rules: dict[str, str]) -> str:
        return cast(str, await self.run(choose_action, level, view_fen, rules, self.movetime, secrets.randbits(32)))

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn`` must be one of ``KINDS`` (TypeError otherwise: nothing else may go to a worker)."""
        kind = KIND_OF.get(fn)
        if kind is None:
            name = getattr(fn, "__qualname__", fn)
            raise TypeError(f"{name!r} is not a worker job (halali.server.cluster.jobs.KINDS)")
        return cast(T, await self.submit(kind, list(args), self._timeout(kind, args)))

    async def analyse(self, view_fen: str, rules: dict[str, str], movetime: float) -> dict[str, object]:
        return cast(dict[str, object], await self.run(analyse_view, view_fen, rules, movetime))

    async def analyse_plies(self, deal_fen: str, rules: dict[str, str], actions: list[str], first: int, end: int,
                            budget: list[int]) -> list[dict[str, Any]]:
        """A chunk of a game analysis; at most ``ANALYSIS_AT_ONCE`` of this node's chunks are on the stream
        at a time, so a computer player's turn added to it waits behind a few chunks, not a game's worth."""
        async with self._analysing:
            return cast(list[dict[str, Any]], await self.run(analyse_plies_job, deal_fen, rules, actions, first,
                                                             end, budget))

    def shutdown(self) -> None:
        """Stop reading replies; whoever still waits gets an error at once rather than at the deadline."""
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None
        for fut in self._waiting.values():
            if not fut.done():
                fut.set_exception(JobError("the server is shutting down"))
        self._waiting.clear()
        with contextlib.suppress(RuntimeError):  # on the event loop: close the jobs connection too
            self._closing = asyncio.get_running_loop().create_task(self._redis.aclose())

    # ---- jobs ------------------------------------------------------------------------------------
    def _timeout(self, kind: str, args: tuple[Any, ...]) -> float:
        if kind == "analysis.plies":
            return self.luck_wait
        thinking = {"forest.turn": 3, "hare.turn": 2, "analyse": 2}[kind]
        movetime = args[thinking] if len(args) > thinking and isinstance(args[thinking], int | float) else 1.0
        return float(movetime) + self.wait

    async def submit(self, kind: str, args: list[Any], timeout: float) -> Any:
        """Put one job on the stream and await its answer: JobTimeout after ``timeout`` seconds, JobError
        when the worker refused or failed it, a Redis error when Redis cannot be reached."""
        self._start_reader()
        job = Job(uuid.uuid4().hex, kind, args, time.time() + timeout, self.reply_stream)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[job.id] = fut
        try:
            self._entries[job.id] = (job, await self._add(job))
            async with asyncio.timeout(timeout):
                return await fut
        except TimeoutError as exc:
            raise JobTimeout(f"no worker answered the {kind} job within {timeout:.1f} s") from exc
        finally:
            self._waiting.pop(job.id, None)
            self._entries.pop(job.id, None)

    async def _add(self, job: Job) -> str:
        """XADD, once more on a fresh connection when the first try finds a connection Redis dropped;
        the entry's id."""
        for attempt in (1, 2):
            try:
                async with asyncio.timeout(5):
                    found = await self._redis.xadd(JOBS, job.fields(), maxlen=JOBS_MAXLEN, approximate=True)  # type: ignore[arg-type]
                return found.decode() if isinstance(found, bytes) else str(found)
            except (redis.ConnectionError, redis.TimeoutError, TimeoutError):
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _add_lost(self, conn: aioredis.Redis) -> None:
        """After the reply stream's connection came back: the jobs still awaited whose entries Redis
        lost (it restarted) are added again, so a computer's turn is not left to its deadline's stand-in.
        A job Redis kept is left alone; an answer that comes twice is dropped as late."""
        now = time.time()
        for job_id, (job, entry) in list(self._entries.items()):
            if job.deadline <= now or job_id not in self._waiting:
                continue
            if await conn.xrange(JOBS, entry, entry):
                continue
            found = await conn.xadd(JOBS, job.fields(), maxlen=JOBS_MAXLEN, approximate=True)  # type: ignore[arg-type]
            self._entries[job_id] = (job, found.decode() if isinstance(found, bytes) else str(found))
            log.info("added job %s again: Redis had lost it", job_id)

    async def wait_dropped(self, count: int) -> None:
        """Wait until ``count`` late answers in all have been dropped (tests wait for this event)."""
        while self.dropped < count:
            self._dropped_event = self._dropped_event or asyncio.Event()
            await self._dropped_event.wait()

    # ---- the replies -----------------------------------------------------------------------------
    def _start_reader(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read_replies(), name="halali-replies")

    async def _read_replies(self) -> None:
        """The reply stream, read for ever: a supervised loop that reconnects with backoff, since a
        blocked read on a connection Redis dropped would otherwise wait in vain. The stream is this
        node's alone, so it is read from its start; ids grow with time, so they go on growing after a
        restart of Redis."""
        last = "0-0"
        delay = 0.1
        while True:
            # No socket timeout of redis-py's: it wraps each write in asyncio.wait_for, which on Python
            # 3.11 can swallow a cancellation, and this task would then never end. Instead a read that
            # outlasts its block by 5 s is taken for a connection Redis dropped without a word.
            conn = aioredis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=None)
            try:
                async with asyncio.timeout(5):
                    await conn.ping()
                    await self._add_lost(conn)  # (each time: a reconnect may follow a restart of Redis)
                delay = 0.1
                while True:
                    async with asyncio.timeout(6):
                        found = cast(Streams, await conn.xread({self.reply_stream: last}, count=100, block=1000))
                    for _stream, entries in found or []:
                        for entry_id, fields in entries:
                            last = entry_id.decode() if isinstance(entry_id, bytes) else str(entry_id)
                            self._answer(fields)
            except (redis.ConnectionError, redis.TimeoutError, OSError, TimeoutError) as exc:
                log.warning("reply stream %s: %s; reconnecting in %.1f s", self.reply_stream, exc, delay)
            finally:
                with contextlib.suppress(Exception):
                    await conn.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _answer(self, fields: dict[bytes, bytes]) -> None:
        f = {k.decode(): v.decode() for k, v in fields.items()}
        fut = self._waiting.get(f.get("id", ""))
        if fut is None or fut.done():
            self.dropped += 1
            log.info("dropped a late answer from worker %s for job %s", f.get("worker"), f.get("id"))
            if self._dropped_event is not None:
                self._dropped_event.set()
                self._dropped_event = None  # the next wait gets a fresh event
            return
        if f.get("ok") == "1":
            fut.set_result(json.loads(f.get("result", "null")))
        else:
            fut.set_exception(JobError(f"worker {f.get('worker')}: {f.get('error')}"))
