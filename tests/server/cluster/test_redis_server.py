"""The test Redis is a real redis-server: streams work, and a restart on the same port comes back
empty (Redis carries events and jobs only; PostgreSQL keeps the truth)."""

from __future__ import annotations

from pathlib import Path

import redis

from halali.server.cluster.redis_server import RedisServer


def test_a_real_redis_server_with_streams_that_restarts_empty(tmp_path: Path) -> None:
    server = RedisServer(tmp_path).start()
    try:
        r = redis.Redis.from_url(server.url)
        first = r.xadd("s", {"v": "1"})
        assert r.xrange("s") == [(first, {b"v": b"1"})]
        server.stop()
        server.start()
        r = redis.Redis.from_url(server.url)
        assert r.xlen("s") == 0 and r.ping()
    finally:
        server.stop()
