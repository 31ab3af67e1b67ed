"""A table's owner serving another node's browser: a request may reach an owner that has not yet
heard (from the other node's beat) that the browser is at the table, as when a request is retried to
the node that just took the table over from a dead owner. It must still be played."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import redis

from cluster_helpers import start_table
from halali.server.cluster.bus import inbox
from halali.server.cluster.redis_server import RedisServer
from halali.server.testing import Peer, fresh_database, running, server_of, settings_for_tests


def test_an_action_without_table_from_a_connection_the_owner_never_saw_is_played(tmp_path: Path) -> None:
    """Bob's page is on node x (here: forged entries in Redis, as node x would write them), at the
    table of node a, which took the table over a moment ago: x's retried action reaches a before
    x's next beat. Sent without ``table``, as the page sends it."""
    server = RedisServer(tmp_path / "redis").start()
    try:
        with fresh_database("postgresql", tmp_path) as db, running(settings_for_tests(
                tmp_path / "a", db_url=db, redis_url=server.url, node_id="a", lease_ttl=3.0)) as a:
            ann, bob = Peer(a), Peer(a)
            table = start_table(ann, bob, 21)
            game = bob.expect("game", lambda m: bool(m["game"]["legal"]))["game"]  # blue begins: Bob
            action = game["legal"][0]
            bob.close()  # his page is on node x from now on
            r = redis.Redis.from_url(server.url, decode_responses=True)
            text = json.dumps({"type": "action", "action": action, "ply": game["ply"]})
            r.xadd(inbox("a"), {"k": "req", "from": "x", "c": "cx.1", "r": "rx.1", "p": bob.id, "n": "?",
                                "acc": "", "a": "", "t": text, "tb": table, "hold": "", "at": "1"})
            ann.expect("game", lambda m: m["game"]["ply"] == game["ply"] + 1, timeout=20)  # played
            answers: Any = r.xrange(inbox("x"))
            texts = [f.get("t", "") for _, f in answers]
            assert not [t for t in texts if '"error"' in t], texts
    finally:
        server.stop()


def test_a_table_taken_over_by_two_askers_at_once_is_rebuilt_once(tmp_path: Path) -> None:
    """A node takes an orphaned table over from several places at once (its lease check, a browser's
    request, the beat): they must all get the one table. Two copies would each play the computer's
    turn, the one the store refuses would stop for good, and its people would hear
    ``error.not_your_turn`` for ever."""
    server = RedisServer(tmp_path / "redis").start()
    try:
        with fresh_database("postgresql", tmp_path) as db:
            with running(settings_for_tests(tmp_path / "a", db_url=db, redis_url=server.url, node_id="a")) as a:
                ann = Peer(a)
                ann.send({"type": "create", "join": True, "seed": 22})
                table = ann.expect("created")["table"]
                ann.send({"type": "bot", "level": 1})
                ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
            # Node a stopped cleanly and gave its leases up: node b may take the table at once.
            with running(settings_for_tests(tmp_path / "b", db_url=db, redis_url=server.url, node_id="b")) as b:
                tables = server_of(b).tables

                async def twice() -> list[Any]:
                    return list(await asyncio.gather(tables.load(table), tables.load(table), tables.load(table)))

                loaded = b.portal.call(twice)  # type: ignore[union-attr]
                assert loaded[0] is not None and all(t is loaded[0] for t in loaded)
                assert tables.tables[table] is loaded[0]
    finally:
        server.stop()
