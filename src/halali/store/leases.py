"""Table leases with fencing tokens: which server node owns a table, checked inside every write.

Why the lease lives here, in PostgreSQL, and not in Redis: PostgreSQL holds the truth, and a fence is
only a fence where the write happens. Every write of a table's rows runs ``_fence`` in its own
transaction: it locks the table's lease row (``SELECT ... FOR UPDATE``) and refuses the write unless
this node still holds the token it was given. A node that took the table over changed the token
under the same row lock, so a paused or partitioned old owner can never write again, however late
it wakes up. A lease in Redis could not be checked atomically with a PostgreSQL commit.

A lease runs out at ``expires_at`` unless its holder renews it; an expired lease may be taken by any
node, which gets the next token. Times are the holders' clocks (kept in step by NTP between machines;
the expiry is seconds, far above any drift).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, func, insert, select, text, tuple_, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from halali.store import schema as s

# The parameters travel as one JSON text each: psycopg dumps a Python list element by element, which
# cost more CPU than the rest of a group commit; PostgreSQL reads the JSON in C.
_INSERT = """
INSERT INTO actions (game_id, ply, action, seat, created_at, clock_ms)
SELECT g, p, a, st, :at, c FROM json_to_recordset(CAST(:rows AS json)) AS u(g int, p int, a varchar, st int, c int)
"""
_PLAIN_INSERT = text(_INSERT)
_FENCED_INSERT = text("""
WITH fence AS (
    SELECT l.table_id FROM table_leases l
    JOIN json_to_recordset(CAST(:fence AS json)) AS f(t varchar, k int) ON l.table_id = f.t AND l.token = f.k
    WHERE l.node = :node ORDER BY l.table_id FOR UPDATE OF l)""" + _INSERT + """WHERE (SELECT count(*) FROM fence) = :n
""")
_RENEW = text("""
WITH locked AS (
    SELECT l.table_id FROM table_leases l
    JOIN json_to_recordset(CAST(:leases AS json)) AS f(t varchar, k int) ON l.table_id = f.t AND l.token = f.k
    WHERE l.node = :node ORDER BY l.table_id FOR UPDATE OF l)
UPDATE table_leases SET expires_at = :expires WHERE table_id IN (SELECT table_id FROM locked)
RETURNING table_id
""")


class LeaseLost(Exception):
    """This node no longer holds the table's lease: another node owns it now."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id}: this node no longer holds its lease")
        self.table_id = table_id


@dataclass(frozen=True, slots=True)
class Lease:
    table_id: str
    node: str
    token: int
    expires_at: float


class LeaseStore:
    """Mixed into the Store. ``fences`` is None on a single server (nothing is checked); in a cluster
    it maps each table this node owns to its token, and every table write checks it."""

    engine: Engine
    fences: dict[str, int] | None = None
    node: str = ""
    lease_ttl: float = 5.0

    def enable_fencing(self, node: str, ttl: float) -> None:
        self.node, self.fences, self.lease_ttl = node, {}, ttl

    def lease(self, table_id: str) -> Lease | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(s.table_leases).where(s.table_leases.c.table_id == table_id)).first()
        return None if r is None else Lease(r.table_id, r.node, r.token, r.expires_at)

    def leases(self, table_ids: list[str]) -> dict[str, Lease]:
        """The leases of these tables, in one query (a node refreshing whom its browsers' tables belong to)."""
        found: dict[str, Lease] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(table_ids), 500):
                rows = conn.execute(select(s.table_leases).where(s.table_leases.c.table_id.in_(table_ids[i:i + 500])))
                found.update({r.table_id: Lease(r.table_id, r.node, r.token, r.expires_at) for r in rows})
        return found

    def acquire_lease(self, table_id: str, node: str, now: float, ttl: float) -> Lease | None:
        """Take (or renew) the table for ``node`` if nobody else holds a live lease; None otherwise.
        A change of holder gets the next token; the holder renewing keeps its token."""
        try:
            token = self._acquire(table_id, node, now, ttl)
        except IntegrityError:  # another node inserted the first lease of this table at the same moment
            return None
        if token is None:
            return None
        if self.fences is not None and node == self.node:
            self.fences[table_id] = token
        return Lease(table_id, node, token, now + ttl)

    def _acquire(self, table_id: str, node: str, now: float, ttl: float) -> int | None:
        with self.engine.begin() as conn:
            r = conn.execute(select(s.table_leases).where(s.table_leases.c.table_id == table_id)
                             .with_for_update()).first()
            if r is None:
                conn.execute(insert(s.table_leases).values(table_id=table_id, node=node, token=1,
                                                           expires_at=now + ttl))
                token = 1
            elif r.node == node and r.token == (self.fences or {}).get(table_id, r.token):
                token = r.token
                conn.execute(update(s.table_leases).where(s.table_leases.c.table_id == table_id)
                             .values(expires_at=now + ttl))
            elif r.expires_at <= now or r.node == node:
                token = r.token + 1
                conn.execute(update(s.table_leases).where(s.table_leases.c.table_id == table_id)
                             .values(node=node, token=token, expires_at=now + ttl))
            else:
                return None
        return token

    def renew_leases(self, node: str, tokens: dict[str, int], now: float, ttl: float) -> set[str]:
        """Renew every lease this node holds with these tokens (one statement for all of them); the
        tables whose lease was lost."""
        if not tokens:
            return set()
        pairs = sorted(tokens.items())
        renewed: set[str] = set()
        # The rows are locked in the fence's order first (by table id): a renewal and a group commit's
        # fence then wait for each other, never deadlock.
        with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":  # one statement, its parameters one JSON text
                done = conn.execute(_RENEW, {"node": node, "expires": now + ttl,
                                             "leases": json.dumps([{"t": t, "k": k} for t, k in pairs])})
                renewed.update(r.table_id for r in done)
            else:
                for i in range(0, len(pairs), 500):
                    chunk = tuple_(s.table_leases.c.table_id, s.table_leases.c.token).in_(pairs[i:i + 500])
                    conn.execute(select(s.table_leases.c.table_id).where(s.table_leases.c.node == node, chunk)
                                 .order_by(s.table_leases.c.table_id).with_for_update())
                    done = conn.execute(update(s.table_leases).where(s.table_leases.c.node == node, chunk)
                                        .values(expires_at=now + ttl).returning(s.table_leases.c.table_id))
                    renewed.update(r.table_id for r in done)
        lost = set(tokens) - renewed
        if self.fences is not None:
            for table_id in lost:
                self.fences.pop(table_id, None)
        return lost

    def release_lease(self, table_id: str, node: str, token: int) -> None:
        """Give a table up (a clean shutdown): the next node need not wait for the expiry."""
        with self.engine.begin() as conn:
            conn.execute(update(s.table_leases).where(
                s.table_leases.c.table_id == table_id, s.table_leases.c.node == node,
                s.table_leases.c.token == token).values(expires_at=0.0))
        if self.fences is not None:
            self.fences.pop(table_id, None)

    def orphaned_tables(self, states: tuple[str, ...], now: float, limit: int = 50) -> list[str]:
        """Waiting or playing tables whose lease ran out (or that never had one): to be taken over."""
        q = (select(s.game_tables.c.id).select_from(s.game_tables.outerjoin(
            s.table_leases, s.table_leases.c.table_id == s.game_tables.c.id))
             .where(s.game_tables.c.state.in_(list(states)))
             .where((s.table_leases.c.expires_at.is_(None)) | (s.table_leases.c.expires_at <= now))
             .order_by(s.game_tables.c.updated_at).limit(limit))
        with self.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def open_tables_by(self, player_id: str) -> int:
        """Waiting or playing tables this player created, on every node (the limit per player)."""
        q = select(func.count()).select_from(s.game_tables).where(
            s.game_tables.c.created_by == player_id, s.game_tables.c.state.in_(["waiting", "playing"]))
        with self.engine.connect() as conn:
            return int(conn.execute(q).scalar_one())

    def _insert_actions(self, conn: Connection, rows: list[dict[str, Any]], table_ids: Iterable[str]) -> None:
        """The actions of a group commit. On PostgreSQL one statement, fenced in a cluster (the lease
        rows locked in the fence's order, the rows inserted only if every lease is this node's): being
        one statement, it needs no transaction around it, which makes a group commit one round trip."""
        if self.engine.dialect.name != "postgresql":
            self._fence(conn, *table_ids)
            conn.execute(insert(s.actions), rows)
            return
        found = json.dumps([{"g": r["game_id"], "p": r["ply"], "a": r["action"], "st": r["seat"], "c": r["clock_ms"]}
                            for r in rows])
        if self.fences is None:
            conn.execute(_PLAIN_INSERT, {"at": rows[0]["created_at"], "rows": found})
            return
        ids = sorted(set(table_ids))
        tokens = [self.fences.get(t) for t in ids]
        if None in tokens:
            raise LeaseLost(ids[tokens.index(None)])
        done = conn.execute(_FENCED_INSERT, {
            "fence": json.dumps([{"t": t, "k": k} for t, k in zip(ids, tokens, strict=True)]),
            "node": self.node, "n": len(ids), "at": rows[0]["created_at"], "rows": found})
        if done.rowcount != len(rows):
            raise LeaseLost(ids[0] if len(ids) == 1 else ",".join(ids))

    def _fence(self, conn: Connection, *table_ids: str) -> None:
        """Inside a write's transaction: refuse it unless this node still holds every one of these
        tables' tokens (one locking read for all the tables of a group commit)."""
        if self.fences is None:
            return
        ids = sorted(set(table_ids))
        rows = {r.table_id: r for r in conn.execute(
            select(s.table_leases.c.table_id, s.table_leases.c.node, s.table_leases.c.token)
            .where(s.table_leases.c.table_id.in_(ids)).order_by(s.table_leases.c.table_id).with_for_update())}
        for table_id in ids:
            token, r = self.fences.get(table_id), rows.get(table_id)
            if token is None or r is None or r.node != self.node or r.token != token:
                raise LeaseLost(table_id)
