"""Two nodes of one cluster, in this process: the conftest's ``nodes``, and other settings for a module."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from halali.server.testing import fresh_database, running, settings_for_tests


@contextmanager
def two_nodes(tmp_path: Path, redis_url: str, **settings: Any) -> Iterator[tuple[Any, Any]]:
    """Nodes "a" and "b" (in-process test clients) of one cluster."""
    with fresh_database("postgresql", tmp_path) as db, ExitStack() as stack:
        a, b = (stack.enter_context(running(settings_for_tests(
            tmp_path / name, db_url=db, redis_url=redis_url, node_id=name, lease_ttl=3.0, **settings)))
            for name in ("a", "b"))
        yield a, b
