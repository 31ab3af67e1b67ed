"""The engine's pool: the connection used last is handed out first."""

from __future__ import annotations

from pathlib import Path

from halali.server.testing import fresh_database
from halali.store.engine import make_engine


def test_after_the_pool_grew_one_connection_serves_one_caller_after_another(tmp_path: Path) -> None:
    with fresh_database("sqlite", tmp_path) as url:
        engine = make_engine(url)
        try:
            held = [engine.connect() for _ in range(3)]  # side by side: three connections
            raw = [c.connection.dbapi_connection for c in held]
            for c in held:
                c.close()
            used = set()
            for _ in range(5):  # then one at a time, as a writer's commits: always the same one
                with engine.connect() as c:
                    used.add(id(c.connection.dbapi_connection))
            assert used == {id(raw[-1])} and len({id(r) for r in raw}) == 3
        finally:
            engine.dispose()
