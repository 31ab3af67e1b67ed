"""The lobby across nodes: a node that starts (again, after a kill -9, or after Redis restarted) lists
every node's running tables as soon as it is healthy, not only the ones that change after it came up
(docs/deploy.md "Shared state")."""

from __future__ import annotations

import time

import pytest
import redis

import loopback
from cluster_helpers import Cluster, Player, running_tables, start_table
from halali.server.cluster.cards import CARDS

pytestmark = pytest.mark.heavy


def wait_listed(urls: list[str], tables: set[str], within: float = 30.0) -> None:
    """Until every node lists these tables (each hears of the others' cards as they change)."""
    deadline = time.monotonic() + within
    while not all(tables <= running_tables(u) for u in urls):
        assert time.monotonic() < deadline, {u: running_tables(u) for u in urls}
        time.sleep(0.1)


def tables_on(cluster: Cluster, names: list[str]) -> tuple[set[str], list[Player]]:
    """On each named node: a playing table (two players there) and a waiting one."""
    tables: set[str] = set()
    players: list[Player] = []
    for i, name in enumerate(names):
        ann, bob, cy = Player(cluster.url(name)), Player(cluster.url(name)), Player(cluster.url(name))
        playing = start_table(ann, bob, 30 + i)
        bob.expect("game")
        cy.send({"type": "create", "join": True})
        tables |= {playing, cy.expect("created")["table"]}
        players += [ann, bob, cy]
    return tables, players


def test_a_restarted_node_lists_every_node_s_tables_once_healthy(cluster: Cluster) -> None:
    cluster.start_nodes("a", "b", "c")
    tables, _players = tables_on(cluster, ["a", "b", "c"])
    urls = [cluster.url(n) for n in ("a", "b", "c")]
    wait_listed(urls, tables)
    cluster.kill("c")
    c = cluster.start_node("c")  # returns once it is healthy
    listed = running_tables(c)  # at once: no waiting for changes
    assert listed == running_tables(cluster.url("a")) == running_tables(cluster.url("b"))
    assert tables <= listed  # c's own earlier tables too: they wait for a node to take them over


def test_a_node_started_after_redis_restarted_lists_every_node_s_tables(cluster: Cluster) -> None:
    cluster.start_nodes("a", "b")
    tables, _players = tables_on(cluster, ["a", "b"])
    wait_listed([cluster.url("a"), cluster.url("b")], tables)
    cluster.redis.stop()  # every card in Redis gone with it
    cluster.redis.start()
    r = redis.Redis.from_url(cluster.redis.url, decode_responses=True)
    deadline = time.monotonic() + 30
    while not tables <= set(r.hkeys(CARDS)):  # the owners write their cards again as they reconnect
        assert time.monotonic() < deadline, r.hkeys(CARDS)
        time.sleep(0.1)
    c = cluster.start_node("c")
    assert tables <= running_tables(c)
    assert running_tables(c) == running_tables(cluster.url("a")) == running_tables(cluster.url("b"))


def test_a_finished_table_s_card_goes_with_its_node(cluster: Cluster) -> None:
    """Nobody takes a finished table over from a dead node, nor removes its card: the other nodes
    forget it once the node is gone, and a table still playing stays listed (its new owner's card)."""
    a, b = cluster.start_node("a"), cluster.start_node("b")
    ann, bob = Player(a), Player(a)
    finished = start_table(ann, bob, 40, {"match": "single"})
    bob.expect("game")
    ann.send({"type": "resign", "confirm": True})
    bob.expect("table", lambda m: m["table"]["state"] == "finished")
    playing, _players = tables_on(cluster, ["a"])

    def listed() -> set[str]:
        lobby = loopback.get(f"{b}/api/lobby", timeout=10).json()
        return {t["id"] for t in lobby["tables"]}

    deadline = time.monotonic() + 30
    while not {finished} | playing <= listed():
        assert time.monotonic() < deadline, listed()
        time.sleep(0.1)
    cluster.kill("a")
    deadline = time.monotonic() + 30
    while finished in listed():
        assert time.monotonic() < deadline, listed()
        time.sleep(0.1)
    assert playing <= running_tables(b)
