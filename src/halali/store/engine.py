"""The SQLAlchemy engine for a database URL, with what each kind of database needs.

SQLite gets its pragmas on every connection. A server database gets a liveness check before a
connection leaves the pool, but only after the connection sat unused for a while: a busy writer
uses its connection many times a second, and a check before each commit would add a round trip to
every action (the pool's own ``pool_pre_ping`` checks every time). A connection that broke while in
use fails its statement, is dropped by the pool, and the next checkout opens a new one.

The pool hands out the connection used last (LIFO). A cluster node's lookups run beside its writer
and grow the pool to several connections; handed out in turn, they sent the writer's commits to a
different PostgreSQL process each time, each with cold caches (about a tenth more of PostgreSQL's
CPU per action in the cluster benchmark). Now the surplus connections sit unused.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import DisconnectionError

IDLE_BEFORE_CHECK = 5.0  # seconds unused after which a connection is checked before it is used


def make_engine(url: str) -> Engine:
    engine = create_engine(url, pool_use_lifo=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        event.listen(engine, "checkout", _check_if_idle(engine))
    return engine


def _check_if_idle(engine: Engine) -> Any:
    def check(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        now = time.monotonic()
        idle = now - record.info.get("used", 0.0)
        record.info["used"] = now
        if idle > IDLE_BEFORE_CHECK:
            try:
                engine.dialect.do_ping(dbapi_connection)
            except Exception as exc:
                raise DisconnectionError() from exc  # the pool opens a new connection and tries again
    return check


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: a commit is in the log before it returns, so it survives kill -9 of the server; NORMAL sync
    # skips the fsync per commit (only a power loss can lose the last commits).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    # The server checkpoints from its own thread (Store.checkpoint), so a commit never waits for the
    # copy back into the database file; this larger automatic limit is only a backstop.
    cursor.execute("PRAGMA wal_autocheckpoint=20000")
    cursor.close()
