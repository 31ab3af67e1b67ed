"""Shared test setup.

Hypothesis runs without a per-example deadline: the machines that run the suite are shared, and a
slow example is not a failure of the rules.

The fixtures for the server tests live here, once: ``client`` is the app running in-process on the
settings of ``server_settings``, which a test file overrides when its server needs other settings;
``clock`` is a :class:`~halali.server.testing.FakeClock` to pass in those settings. The server is
imported only when a test asks for them, so the rules tests do not pay for it.

The server's log holds no traceback, whatever a test sends it: bad input is answered with an error and
logged (if at all) in one line, and a fault the server handles is logged in one line too. Every record
with a traceback that the server's loggers (and asyncio's, where an unawaited task's failure lands) emit
in this process fails the test during which it was logged, and one logged after the last test fails
the session.
"""

from __future__ import annotations

import logging
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

SERVER_LOGGERS = ("halali", "uvicorn", "starlette", "asyncio")


class TracebackRecords(logging.Handler):
    """Keeps every record that carries a traceback (``exc_info`` or ``stack_info``)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if (record.exc_info and record.exc_info[0] is not None) or record.stack_info:
            self.records.append(record)

    def take(self) -> str:
        """The tracebacks logged since the last call, formatted ("" if none)."""
        found, self.records = self.records, []
        return "\n".join(f"{r.name}: {logging.Formatter().format(r)}" for r in found)


TRACEBACKS = TracebackRecords()
for _name in SERVER_LOGGERS:
    logging.getLogger(_name).addHandler(TRACEBACKS)


@pytest.fixture(autouse=True)
def no_traceback_logged() -> Iterator[None]:
    """Fails the test if the server logged a traceback while it ran (or while the fixtures before it were
    torn down, e.g. a module's app stopping)."""
    earlier = TRACEBACKS.take()
    if earlier:
        pytest.fail(f"the server logged a traceback before this test:\n{earlier}", pytrace=False)
    yield
    logged = TRACEBACKS.take()
    if logged:
        pytest.fail(f"the server logged a traceback:\n{logged}", pytrace=False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked heavy (the longest, from a per-test duration report) go first, in their order:
    the workers take them up while the short ones fill in beside them, and none is left running alone
    at the end of a parallel run."""
    items.sort(key=lambda item: item.get_closest_marker("heavy") is None)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    late = TRACEBACKS.take()
    if late:
        print(f"\nthe server logged a traceback after the last test:\n{late}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


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
