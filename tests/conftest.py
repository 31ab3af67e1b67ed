"""Shared test setup.

Hypothesis runs without a per-example deadline: the machines that run the suite are shared, and a
slow example is not a failure of the rules.

The fixtures for the server tests live here, once: ``client`` is the app running in-process on the
settings of ``server_settings``, which a test file overrides when its server needs other settings;
``clock`` is a :class:`~halali.server.testing.FakeClock` to pass in those settings. The server is
imported only when a test asks for them, so the rules tests do not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from starlette.testclient import TestClient

    from cluster_helpers import Cluster
    from halali.server.settings import Settings
    from halali.server.testing import FakeClock

settings.register_profile("halali", deadline=None)
settings.load_profile("halali")


@pytest.fixture
def clock() -> FakeClock:
    from halali.server.testing import FakeClock

    return FakeClock()


@pytest.fixture
def server_settings(tmp_path: Path) -> Settings:
    from halali.server.testing import settings_for_tests

    return settings_for_tests(tmp_path / "data")


@pytest.fixture
def client(server_settings: Settings) -> Iterator[TestClient]:
    from halali.server.testing import running

    with running(server_settings) as c:
        yield c


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    """A real redis-server of this test's own (Debian's package), stopped after it."""
    from halali.server.cluster.redis_server import running_redis

    with running_redis(tmp_path / "redis") as server:
        yield server.url


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A fresh PostgreSQL database and redis-server; ``cluster.start_node(name)`` starts a node."""
    from cluster_helpers import Cluster
    from halali.server.cluster.redis_server import RedisServer
    from halali.server.testing import fresh_database

    with fresh_database("postgresql", tmp_path) as db:
        redis = RedisServer(tmp_path / "redis").start()
        c = Cluster(db, redis, tmp_path)
        try:
            yield c
        finally:
            c.stop()
            redis.stop()
            c.print_logs()
