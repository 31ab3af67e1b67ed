"""The bus's own connections to Redis: commands packed and replies parsed by hiredis, on a plain
asyncio stream.

Why not redis-py's connection for these two: under load each reply passed through half a dozen
layers of Python there (health checks, protocol checks, a parser wrapper over a stream reader),
which measured as the largest part of the bus's CPU. Here a batch of commands goes out in one write
and each reply is one call into hiredis's C parser. Everything else (the direct commands, the
workers) uses redis-py as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError


class Resp:
    """One connection: ``send`` packed commands, ``reply`` for each of them in order."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer
        self._parser = hiredis.Reader(encoding="utf-8")

    @classmethod
    async def open(cls, url: str, timeout: float = 2.0) -> Resp:
        """Connect, authenticate and select the database the URL names (``redis://``, ``rediss://``
        or ``unix://``)."""
        opts: dict[str, Any] = {**parse_url(url)}
        async with asyncio.timeout(timeout):
            if "path" in opts:
                reader, writer = await asyncio.open_unix_connection(opts["path"])
            else:
                reader, writer = await asyncio.open_connection(opts.get("host", "localhost"), opts.get("port", 6379),
                                                               ssl=True if url.startswith("rediss:") else None)
            conn = cls(reader, writer)
            try:
                if opts.get("password"):
                    auth = (opts["username"], opts["password"]) if opts.get("username") else (opts["password"],)
                    await conn.call("AUTH", *auth)
                if opts.get("db"):
                    await conn.call("SELECT", int(opts["db"]))
            except BaseException:
                conn.close()
                raise
        return conn

    def send(self, packed: list[bytes]) -> None:
        self._writer.writelines(packed)

    async def reply(self) -> Any:
        """The next reply; an error reply is returned as a ``ResponseError``, not raised (one refused
        command in a batch must not hide the replies after it)."""
        while (found := self._parser.gets()) is False:
            data = await self._reader.read(65536)
            if not data:
                raise RedisConnectionError("Redis closed the connection")
            self._parser.feed(data)
        if isinstance(found, hiredis.ReplyError):
            return ResponseError(str(found))
        return found

    async def replies(self, n: int) -> list[Any]:
        """The next ``n`` replies, as ``reply`` gives them, parsed as they come in."""
        out: list[Any] = []
        while len(out) < n:
            found = self._parser.gets()
            if found is False:
                data = await self._reader.read(65536)
                if not data:
                    raise RedisConnectionError("Redis closed the connection")
                self._parser.feed(data)
                continue
            out.append(ResponseError(str(found)) if isinstance(found, hiredis.ReplyError) else found)
        return out

    async def call(self, *args: str | int) -> Any:
        self.send([hiredis.pack_command(args)])  # type: ignore[arg-type]
        found = await self.reply()
        if isinstance(found, ResponseError):
            raise found
        return found

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._writer.close()
