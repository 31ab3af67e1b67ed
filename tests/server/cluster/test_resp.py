"""The bus's own connection to a real redis-server: a batch's replies in order (a refused command
among them returned, not raised), the URL's password and database, and a dead server noticed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import hiredis
import pytest
import redis
from redis.exceptions import RedisError, ResponseError

from halali.server.cluster.redis_server import running_redis
from halali.server.cluster.resp import Resp


def _packed(*commands: tuple[str | int, ...]) -> list[bytes]:
    return [hiredis.pack_command(c) for c in commands]  # type: ignore[arg-type]


def test_a_batch_is_answered_in_order_and_a_refused_command_does_not_hide_the_rest(tmp_path: Path) -> None:
    async def run(url: str) -> list[object]:
        conn = await Resp.open(url)
        try:
            conn.send(_packed(("SET", "k", "v"), ("INCR", "k"), ("XADD", "s", "*", "f", "é"), ("GET", "k")))
            return [*await conn.replies(3), await conn.reply()]  # a batch's replies at once, or one by one
        finally:
            conn.close()

    with running_redis(tmp_path) as server:
        ok, refused, entry, value = asyncio.run(run(server.url))
        assert ok == "OK" and isinstance(refused, ResponseError) and "not an integer" in str(refused)
        assert isinstance(entry, str) and value == "v"
        entries: Any = redis.Redis.from_url(server.url).xrange("s")
        assert entries[0][1] == {b"f": "é".encode()}


def test_the_url_s_password_and_database_are_used(tmp_path: Path) -> None:
    async def set_key(url: str) -> None:
        conn = await Resp.open(url)
        try:
            await conn.call("SET", "where", "here")
        finally:
            conn.close()

    with running_redis(tmp_path) as server:
        admin = redis.Redis(port=server.port)
        admin.config_set("requirepass", "s3cret")
        asyncio.run(set_key(f"redis://:s3cret@127.0.0.1:{server.port}/3"))
        admin = redis.Redis(port=server.port, password="s3cret", db=3)
        assert admin.get("where") == b"here"
        with pytest.raises(ResponseError):
            asyncio.run(set_key(f"redis://:wrong@127.0.0.1:{server.port}/3"))


def test_a_server_that_went_away_is_an_error_not_a_wait(tmp_path: Path) -> None:
    async def run() -> BaseException:
        conn = await Resp.open(server.url)
        try:
            assert await conn.call("PING") == "PONG"
            server.stop()
            try:
                async with asyncio.timeout(10):  # the loops' own bound; the error must come long before it
                    await conn.call("PING")
            except (RedisError, OSError) as exc:
                return exc
            raise AssertionError("a PING to a stopped server was answered")
        finally:
            conn.close()

    with running_redis(tmp_path) as server:
        error = asyncio.run(run())
        assert not isinstance(error, TimeoutError)
