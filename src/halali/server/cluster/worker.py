"""``halali worker``'s loop: pull jobs from the cluster's stream, run them, answer, acknowledge.

A worker is one consumer of the group ``halali:workers`` and runs one job at a time on its main
thread; it serves nothing else, so a search never holds up a server. Forest turns go through the
engine protocol (an :class:`~halali.engine.client.EngineClient` per level, in process), as any other
engine would play; hints, chunks of game analyses and hare turns call the very functions the server's process
pool calls. While a job runs, a heartbeat thread keeps claiming it for this worker, so its idle time
stays near zero; when a worker dies, its job goes idle, and after ``claim_idle`` seconds the next
worker that looks (XAUTOCLAIM, before each read) takes it over. Redis going away ends nothing: the
loop reconnects with backoff and makes the group again if a restart lost it.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import redis

from halali.engine.client import EngineClient, EngineError, InProcessTransport
from halali.games.forest.notation import parse_position
from halali.games.forest.rules import DEFAULT_RULES
from halali.games.forest.tiles import BLUE
from halali.server.cluster.jobs import (
    GROUP,
    JOBS,
    KINDS,
    REPLIES_MAXLEN,
    REPLY_TTL,
    BadJob,
    Job,
    Streams,
    answer_fields,
)
from halali.server.cluster.jobs import ensure_group as make_group

log = logging.getLogger("halali.worker")

MAX_SEED = 2**31 - 1  # the engine protocol's seed option
BACKOFF_MAX = 2.0  # seconds between two attempts to reach Redis, at most


def say(line: str) -> None:
    """One line of the worker's output in one write: the children of ``--jobs N`` share one pipe, and
    with PYTHONUNBUFFERED print() writes the text and its newline apart, so lines would mix."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class EngineTurns:
    """Forest turns through the engine protocol: one started engine per level, kept for the next job."""

    def __init__(self) -> None:
        self.engines: dict[int, EngineClient] = {}

    def engine(self, level: int) -> EngineClient:
        if level not in self.engines:
            self.engines[level] = EngineClient(InProcessTransport(level)).start()
        return self.engines[level]

    def choose(self, level: int, view_fen: str, rules: dict[str, str] | None = None, movetime: float | None = None,
               seed: int | None = None, clock: list[float] | None = None) -> str:
        """What ``halali.ai.registry.choose_action`` answers, asked in the protocol: ``go movetime``,
        and with a game clock the mover's time and increment (``bluetime``/``blueinc`` or brown's)."""
        view = parse_position(view_fen, DEFAULT_RULES.with_options(rules or {}))
        engine = self.engine(int(level))
        engine.set_option("seed", (seed % MAX_SEED or 1) if seed is not None else 0)
        engine.set_rules(view.rules)
        go: list[str] = []
        if clock is not None:
            side = "blue" if view.turn == BLUE else "brown"
            go = [f"{side}time", str(max(0, round(clock[0] * 1000))), f"{side}inc", str(max(0, round(clock[1] * 1000)))]
        result = engine.go(view.fen(), movetime=movetime, extra=go)
        if not result.bestmove:
            engine.close()
            del self.engines[int(level)]
            raise EngineError(f"the level {level} engine gave no action in time")
        return result.bestmove

    def close(self) -> None:
        for engine in self.engines.values():
            engine.close()
        self.engines.clear()


class Heartbeat:
    """Keeps claiming the running job for this worker (XCLAIM with no idle time) from a thread of its
    own, so a long job is never taken over from a worker that is alive."""

    def __init__(self, r: redis.Redis, name: str, entry: str, every: float) -> None:
        self.r, self.name, self.entry, self.every = r, name, entry, every
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._beat, name="job-heartbeat", daemon=True)

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()

    def _beat(self) -> None:
        while not self.done.wait(self.every):
            try:
                self.r.xclaim(JOBS, GROUP, self.name, 0, [self.entry], justid=True)
            except redis.RedisError as exc:
                log.warning("heartbeat for job %s: %s", self.entry, exc)


class Worker:
    """One consumer. ``claim_idle``: seconds a job may go without a heartbeat before another worker
    takes it; ``give_up``: seconds without Redis after which ``run`` returns (None: never)."""

    def __init__(self, url: str, name: str, claim_idle: float = 10.0, give_up: float | None = None,
                 block: float = 1.0) -> None:
        self.url = url
        self.name = name
        self.claim_idle = claim_idle
        self.give_up = give_up
        self.block = block
        self.turns = EngineTurns()
        self.runners: dict[str, Callable[..., Any]] = {**KINDS, "forest.turn": self.turns.choose}
        self.stopping = threading.Event()
        self.done = 0  # jobs answered

    def run(self) -> int:
        """The supervised loop: serve until told to stop (0) or until Redis has been gone for
        ``give_up`` seconds (1)."""
        from halali.ai.registry import warm_up

        warm_up()
        delay = 0.1
        down_since: float | None = None
        try:
            while not self.stopping.is_set():
                r = redis.Redis.from_url(self.url, socket_connect_timeout=2, socket_timeout=self.block + 5)
                try:
                    make_group(r)
                    if down_since is not None:
                        log.warning("worker %s: Redis is back", self.name)
                    say(f"halali worker {self.name}: ready (pid {os.getpid()})")
                    delay, down_since = 0.1, None
                    self._serve(r)
                except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
                    down_since = down_since or time.monotonic()
                    if self.give_up is not None and time.monotonic() - down_since > self.give_up:
                        log.error("worker %s: Redis gone for %.0f s; giving up", self.name, self.give_up)
                        return 1
                    log.warning("worker %s: %s; reconnecting in %.1f s", self.name, exc, delay)
                finally:
                    r.close()
                self.stopping.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX)
            return 0
        finally:
            self.turns.close()

    def _serve(self, r: redis.Redis) -> None:
        while not self.stopping.is_set():
            entry = self._claim(r) or self._read(r)
            if entry is not None:
                self._handle(r, *entry)

    def _claim(self, r: redis.Redis) -> tuple[str, dict[bytes, bytes]] | None:
        """A job whose worker stopped beating for ``claim_idle`` seconds (it died), now this worker's."""
        try:
            found = r.xautoclaim(JOBS, GROUP, self.name, int(self.claim_idle * 1000), "0-0", count=1)
        except redis.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            make_group(r)
            return None
        claimed = cast(list[tuple[bytes, dict[bytes, bytes]]], found[1])
        if not claimed:
            return None
        entry_id, fields = claimed[0]
        log.warning("worker %s: took over job entry %s from a worker that went quiet", self.name, entry_id)
        return entry_id.decode(), fields

    def _read(self, r: redis.Redis) -> tuple[str, dict[bytes, bytes]] | None:
        try:
            found = cast(Streams, r.xreadgroup(GROUP, self.name, {JOBS: ">"}, count=1, block=int(self.block * 1000)))
        except redis.ResponseError as exc:  # the group is gone: Redis restarted empty
            if "NOGROUP" not in str(exc):
                raise
            make_group(r)
            return None
        for _stream, entries in found or []:
            for entry_id, fields in entries:
                return entry_id.decode(), fields
        return None

    def _handle(self, r: redis.Redis, entry: str, fields: dict[bytes, bytes]) -> None:
        """Run one job and answer it; then acknowledge it, so that only an answered job leaves the
        group's pending list (a worker dying before this point leaves it to be claimed)."""
        try:
            job = Job.from_fields(fields)
        except BadJob as exc:
            log.error("worker %s: entry %s: %s", self.name, entry, exc)
            r.xack(JOBS, GROUP, entry)
            return
        if time.time() > job.deadline:  # the asker has given up: no one would read the answer
            r.xack(JOBS, GROUP, entry)
            say(f"halali worker {self.name}: job {job.id} {job.kind} is past its deadline; skipped")
            return
        runner = self.runners.get(job.kind)
        say(f"halali worker {self.name}: job {job.id} {job.kind}")
        if runner is None:
            reply = answer_fields(job.id, self.name, error=f"unknown job kind {job.kind!r}")
        else:
            with Heartbeat(r, self.name, entry, max(0.05, self.claim_idle / 3)):
                try:
                    reply = answer_fields(job.id, self.name, runner(*job.args))
                except Exception as exc:  # a bad job must not end the worker
                    log.exception("worker %s: job %s (%s) failed", self.name, job.id, job.kind)
                    reply = answer_fields(job.id, self.name, error=f"{type(exc).__name__}: {exc}")
        pipe = r.pipeline()
        pipe.xadd(job.reply, reply, maxlen=REPLIES_MAXLEN, approximate=True)  # type: ignore[arg-type]
        pipe.expire(job.reply, REPLY_TTL)
        pipe.xack(JOBS, GROUP, entry)
        pipe.execute()
        self.done += 1


def _child(url: str, name: str, claim_idle: float, give_up: float | None, parent: int) -> None:
    """One of ``serve`` 's worker processes; it ends with its parent (``exit_with_parent``)."""
    import sys

    from halali.engine.lifeline import exit_with_parent

    exit_with_parent(parent)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    sys.exit(Worker(url, name, claim_idle, give_up).run())


def serve(url: str, name: str, jobs: int = 1, claim_idle: float = 10.0, give_up: float | None = None) -> int:
    """``jobs`` workers: this process itself for one, else that many child processes (one job each at a
    time: a search holds Python's lock), named ``NAME-1`` ...; a child that dies is started again."""
    if jobs <= 1:
        return Worker(url, name, claim_idle, give_up).run()
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")

    def start(i: int) -> multiprocessing.process.BaseProcess:
        p = ctx.Process(target=_child, args=(url, f"{name}-{i}", claim_idle, give_up, os.getpid()),
                        name=f"halali-worker-{i}")
        p.start()
        return p

    children = {i: start(i) for i in range(1, jobs + 1)}
    status = 0
    try:
        while children:
            for i, p in list(children.items()):
                p.join(0.5)
                if p.exitcode is None:
                    continue
                if p.exitcode in (0, 1):  # stopped, or gave up on Redis as told
                    status = max(status, p.exitcode)
                    del children[i]
                else:
                    log.error("worker %s-%d ended with %s; starting it again", name, i, p.exitcode)
                    time.sleep(1.0)
                    children[i] = start(i)
        return status
    finally:
        for p in children.values():
            p.kill()
