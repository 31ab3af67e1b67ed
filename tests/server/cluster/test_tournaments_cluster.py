"""A tournament in a cluster of two nodes: one node directs it; players and watchers on the other
node enter it, are seated by it, and see every change."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from halali.server.cluster.redis_server import RedisServer
from halali.server.testing import account_peer, fresh_database, running, settings_for_tests


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    redis = RedisServer(tmp_path / "redis").start()
    try:
        with fresh_database("postgresql", tmp_path) as db, ExitStack() as stack:
            clients = [stack.enter_context(running(settings_for_tests(
                tmp_path / name, db_url=db, redis_url=redis.url, node_id=name, lease_ttl=3.0,
                tournament_director=name == "a", tournament_poll=0.05))) for name in ("a", "b")]
            yield clients[0], clients[1]
    finally:
        redis.stop()


def test_a_tournament_directed_by_one_node_is_played_and_watched_from_the_other(nodes: tuple[Any, Any]):
    a, b = nodes
    ann, bob = account_peer(a, "Ann"), account_peer(b, "Bob")
    bob.send({"type": "tournament_create", "name": "Two nodes", "rounds": 1, "starts_in": 600})
    tid = bob.expect("tournament_created")["id"]
    bob.send({"type": "tournament_watch", "id": tid})
    bob.expect("tournament")
    for p in (ann, bob):
        p.send({"type": "tournament_join", "id": tid})
    bob.expect("tournament", lambda m: len(m["tournament"]["players"]) == 2)
    bob.send({"type": "tournament_start", "id": tid})  # on node b; node a's director begins it
    t = bob.expect("tournament", lambda m: m["tournament"]["round"] == 1 and m["tournament"]["pairings"],
                   timeout=30)["tournament"]
    (table,) = [p["table"] for p in t["pairings"]]
    assert bob.collect("tournament_game", lambda m: m["table"] == table, timeout=30)  # relayed to node b
    bob.send({"type": "open", "table": table})  # the table is node a's: forwarded
    bob.expect("table", lambda m: m["table"]["id"] == table and m["table"]["tournament"] == tid)
    bob.send({"type": "resign", "table": table, "confirm": True})
    t = bob.expect("tournament", lambda m: m["tournament"]["state"] == "finished", timeout=30)["tournament"]
    assert {s["id"]: s["score"] for s in t["standings"]} == {ann.id: 1.0, bob.id: 0.0}
