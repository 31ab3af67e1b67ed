"""Redis Streams between the nodes of a cluster: each table's events, one inbox per node, and one
stream for the lobby and for messages to a player.

A node reads only two streams, its inbox and the stream for all: a table's owner appends each event
to the table's own stream (its record, trimmed, where a node taking the table over goes on numbering)
and a copy to the inbox of every node with a connection at the table. One XREAD over a few streams
costs the same however many tables a node's browsers watch.

Two connections: one for writes, one that blocks in XREAD. Both live in supervised loops: when Redis
goes away (a restart, a network cut) every loop waits with a growing backoff and reconnects by itself;
nothing relies on a client library noticing a dead connection (redis-py's pub/sub can stay silently
dead, which is why nothing here uses pub/sub). What was queued for writing while Redis was away is
written once it is back, in order; past ``MAX_PENDING`` the oldest are dropped, and clients that
miss them see a gap in the numbers and resync. Redis carries events only: PostgreSQL keeps every
acknowledged action, so losing Redis loses nothing a player was told.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

from halali.server.cluster.resp import Resp

log = logging.getLogger("halali.cluster")

PREFIX = "halali:"
ALL = PREFIX + "all"  # the lobby's cards and messages to players, for every node
MAX_PENDING = 10_000
BACKOFF = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)


def table_stream(table_id: str) -> str:
    return f"{PREFIX}t:{table_id}"


def inbox(node: str) -> str:
    return f"{PREFIX}node:{node}"


Fields = dict[str, str]
Reader = Callable[[str, str, Fields], None]  # (stream, entry id, fields), called in the reading loop


class Bus:
    def __init__(self, url: str, node: str, table_events: int = 64, block_ms: int = 500) -> None:
        self.url, self.node = url, node
        self.table_events = table_events
        self.block_ms = block_ms
        self._out: deque[bytes] = deque()  # packed commands waiting to be written
        self._wake = asyncio.Event()
        self.cursors: dict[str, str] = {}  # stream -> last id read
        self.on_entry: Reader | None = None
        # Called on the reading connection each time it (re)connects, after the streams' cursors are
        # set and before anything is read: what a node must load before it serves (the lobby's cards).
        self.on_connect: Callable[[aioredis.Redis], Awaitable[None]] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._writer: aioredis.Redis | None = None
        # Set once the inbox is followed: a request sent before that could be answered into the
        # part of the inbox that following "from now" skips, and its answer would never be read.
        self.reading = asyncio.Event()

    def client(self) -> aioredis.Redis:
        # No socket_timeout: on Python 3.11 redis-py wraps every read in asyncio.wait_for, which can
        # swallow a cancellation (the loop would never stop). The read loop bounds its reads itself.
        return aioredis.Redis.from_url(self.url, decode_responses=True, socket_connect_timeout=2,
                                       socket_timeout=None, health_check_interval=5)

    def start(self) -> None:
        self.cursors.setdefault(inbox(self.node), "$")
        self.cursors.setdefault(ALL, "$")
        self._tasks = [asyncio.create_task(self._write_loop()), asyncio.create_task(self._read_loop())]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t

    # ---- writing ---------------------------------------------------------------------------------
    def add(self, stream: str, fields: Fields, maxlen: int = 1000) -> None:
        """Queue an entry, written in order by the writer loop (never waits)."""
        self._queue(("XADD", stream, "MAXLEN", "~", maxlen, "*", *itertools.chain.from_iterable(fields.items())))

    def command(self, *args: str | int) -> None:
        """Queue any other write (a hash's field, say): in order with the entries, never waiting."""
        self._queue(args)

    def _queue(self, args: tuple[str | int, ...]) -> None:
        if len(self._out) >= MAX_PENDING:
            self._out.popleft()
        self._out.append(hiredis.pack_command(args))  # type: ignore[arg-type]
        self._wake.set()

    def send(self, node: str, msg: dict[str, Any]) -> None:
        """A message to a node's inbox: its text fields as the entry's own fields (a browser's text is
        not encoded a second time), anything else as JSON in ``m``."""
        flat = {k: v for k, v in msg.items() if isinstance(v, str)}
        rest = {k: v for k, v in msg.items() if not isinstance(v, str) and v is not None}
        if rest:
            flat["m"] = json.dumps(rest, separators=(",", ":"))
        self.add(inbox(node), flat, 5000)

    def broadcast(self, kind: str, player: str | None, text: str) -> None:
        self.add(ALL, {"kind": kind, "player": player or "", "text": text, "from": self.node}, 5000)

    def table_event(self, table_id: str, v: int, seats: list[str | None], texts: dict[Any, str],
                    shared: str | None, audiences: dict[str, set[str]] | None = None,
                    answered: tuple[str, str] | None = None) -> None:
        """The event to the table's stream (every audience's text), and a copy (naming the table) to
        each node of ``audiences`` with only the texts of the audiences (seats, or ``-``) that node has
        connections for; the copy to the ``answered`` node names the request of its own it answers."""
        # The commands are built flat, as they go out: this runs at every event of every table.
        head = ("v", str(v), "from", self.node, "seats", seats_text(tuple(seats)), "shared", shared or "")
        own = {"-" if k is None else str(k): t for k, t in texts.items()}
        record: list[str | int] = ["XADD", table_stream(table_id), "MAXLEN", "~", self.table_events, "*", *head]
        for k, t in own.items():
            record += ("t:" + k, t)
        self._queue(tuple(record))
        for node, wanted in (audiences or {}).items():
            copy: list[str | int] = ["XADD", inbox(node), "MAXLEN", "~", 5000, "*", *head, "ev", table_id]
            for k in wanted:
                if k in own:
                    copy += ("t:" + k, own[k])
            if answered is not None and answered[0] == node:
                copy += ("r", answered[1])
            self._queue(tuple(copy))

    async def _write_loop(self) -> None:
        attempt = 0
        while True:
            r: aioredis.Redis | None = None
            conn: Resp | None = None
            try:
                r = self.client()
                await r.ping()
                self._writer = r
                conn = await Resp.open(self.url)
                attempt = 0
                while True:
                    while not self._out:
                        self._wake.clear()
                        await self._wake.wait()
                    await asyncio.sleep(0)  # what the callbacks ready now add goes in the same round trip
                    batch = list(itertools.islice(self._out, 256))
                    async with asyncio.timeout(10):
                        conn.send(batch)
                        for found in await conn.replies(len(batch)):
                            if isinstance(found, ResponseError):
                                log.warning("redis refused a write: %s", found)  # the others still count
                    for _ in batch:
                        self._out.popleft()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, TimeoutError) as exc:
                log.warning("redis (writing) unavailable: %s; retrying", exc)
                await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                attempt += 1
            finally:
                if self._writer is r:
                    self._writer = None  # call() answers None until the loop has reconnected
                await _close(conn, r)

    async def call(self, fn: Callable[[aioredis.Redis], Awaitable[Any]]) -> Any:
        """One direct command on the writing connection (None while Redis is away)."""
        r = self._writer
        if r is None:
            return None
        try:
            async with asyncio.timeout(5):
                return await fn(r)
        except (RedisError, OSError, TimeoutError):
            return None

    # ---- reading ---------------------------------------------------------------------------------
    async def _read_loop(self) -> None:
        attempt = 0
        while True:
            r: aioredis.Redis | None = None
            conn: Resp | None = None
            try:
                r = self.client()
                await r.ping()
                conn = await Resp.open(self.url)
                attempt = 0
                await self._resolve_dollars(r)
                if self.on_connect is not None:
                    try:
                        async with asyncio.timeout(10):
                            await self.on_connect(r)
                    except (RedisError, OSError, TimeoutError):
                        raise  # connect again
                    except Exception:  # a bug there must not stop the node from reading
                        log.exception("while loading on connect")
                self.reading.set()
                while True:
                    streams = list(self.cursors)
                    async with asyncio.timeout(self.block_ms / 1000 + 5):  # no answer: a dropped connection
                        found = await conn.call("XREAD", "COUNT", 500, "BLOCK", self.block_ms, "STREAMS", *streams,
                                                *(self.cursors[s] for s in streams))
                    for stream, entries in _streams(found):
                        for entry_id, flat in entries:
                            if stream in self.cursors:
                                self.cursors[stream] = entry_id
                            if self.on_entry is not None:
                                try:
                                    self.on_entry(stream, entry_id, dict(zip(flat[::2], flat[1::2], strict=True)))
                                except Exception:
                                    log.exception("while handling %s %s", stream, entry_id)
                    await self._resolve_dollars(r)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, TimeoutError) as exc:
                log.warning("redis (reading) unavailable: %s; retrying", exc)
                await asyncio.sleep(BACKOFF[min(attempt, len(BACKOFF) - 1)])
                attempt += 1
            finally:
                await _close(conn, r)

    async def _resolve_dollars(self, r: aioredis.Redis) -> None:
        """A stream followed "from now" gets the id of its newest entry, so that several streams can be
        read together and nothing added after the follow is missed."""
        for stream, cursor in list(self.cursors.items()):
            if cursor == "$":
                last: Any = await r.xrevrange(stream, count=1)
                if stream in self.cursors:
                    self.cursors[stream] = last[0][0] if last else "0-0"

    async def last_entry(self, stream: str) -> tuple[str, Fields] | None:
        found = await self.call(lambda r: r.xrevrange(stream, count=1))
        return (found[0][0], found[0][1]) if found else None


@functools.lru_cache(maxsize=4096)
def seats_text(seats: tuple[str | None, ...]) -> str:
    """The seats of a table as its events carry them (the same few for every event of a table)."""
    return json.dumps(seats)


@functools.lru_cache(maxsize=4096)
def parse_seats(text: str) -> tuple[str | None, ...]:
    return tuple(json.loads(text))


async def _close(conn: Resp | None, r: aioredis.Redis | None) -> None:
    if conn is not None:
        conn.close()
    if r is not None:
        with contextlib.suppress(Exception):
            await r.aclose()


def _streams(found: Any) -> list[tuple[str, list[Any]]]:
    """XREAD's reply as (stream, entries): a map in RESP3, a list of pairs in RESP2, None for nothing."""
    if not found:
        return []
    return list(found.items()) if isinstance(found, dict) else [(k, v) for k, v in found]
