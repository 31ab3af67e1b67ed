"""A Redis server of its own for each test, and two nodes on it and on a fresh PostgreSQL database:
the pair most cluster tests play on (a module may ask for other settings with ``two_nodes.two_nodes``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from two_nodes import two_nodes

from halali.server.cluster.redis_server import RedisServer


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.stop()


@pytest.fixture
def nodes(tmp_path: Path, redis_server: RedisServer) -> Iterator[tuple[Any, Any]]:
    with two_nodes(tmp_path, redis_server.url) as pair:
        yield pair
