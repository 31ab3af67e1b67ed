"""The ``cluster`` fixture: a fresh PostgreSQL database and redis-server, nodes started on demand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cluster_helpers import Cluster
from halali.server.cluster.redis_server import RedisServer
from halali.server.testing import fresh_database


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with fresh_database("postgresql", tmp_path) as db:
        redis = RedisServer(tmp_path / "redis").start()
        c = Cluster(db, redis, tmp_path)
        try:
            yield c
        finally:
            c.stop()
            redis.stop()
