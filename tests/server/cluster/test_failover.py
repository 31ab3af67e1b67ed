"""A node killed (kill -9) in the middle of a game: another node takes its tables over from
PostgreSQL once their leases run out, the players reconnect to it and resync, and nothing they
were told is lost."""

from __future__ import annotations

from typing import Any

import pytest

from cluster_helpers import Cluster, Player, start_table

pytestmark = pytest.mark.heavy


def play(seats: dict[int, Player], game: dict[str, Any]) -> dict[str, Any]:
    """The player to move plays its first legal action; the other player's next game message."""
    g = game["game"]
    mover, other = seats[g["seat_to_move"]], seats[1 - g["seat_to_move"]]
    own = game if g["legal"] else mover.expect("game", lambda m: m["game"]["ply"] == g["ply"] and m["game"]["legal"])
    mover.send({"type": "action", "action": own["game"]["legal"][0], "ply": g["ply"]})
    return other.expect("game", lambda m: m["game"]["ply"] == g["ply"] + 1)


def test_a_killed_node_s_table_plays_on_through_the_other_node(cluster: Cluster) -> None:
    a, b = cluster.start_node("a"), cluster.start_node("b")
    ann, bob = Player(a), Player(b)
    ann.send({"type": "create", "join": True, "seed": 11})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    game = bob.expect("game")
    seats = {0: ann, 1: bob}
    for _ in range(5):
        game = play(seats, game)
    played = game["game"]["history"]
    assert len(played) == 5

    cluster.kill("a")  # the table's owner, with Ann's WebSocket
    ann.connect(b)  # the front sends her to the node that is left
    ann.send({"type": "open", "table": table, "since": ann.last_v()})
    back = ann.expect("table", lambda m: m["table"]["id"] == table, timeout=30)
    assert back["games"][-1]["history"] == played  # every acknowledged action is there
    assert back["table"]["you"]["seat"] == 0 and back["table"]["state"] == "playing"
    # Bob, whose page was on node b all along, hears the table as node b took it over; he is not
    # counted as away (no claim against his seat), as his page never left.
    heard = bob.expect("table", lambda m: bool(m.get("games")) and m["games"][-1]["ply"] == len(played), timeout=30)
    assert [c for c in heard["table"]["lifecycle"]["claims"] if c["seat"] == 1] == []
    game = {"game": back["games"][-1] if back["games"][-1]["legal"] else heard["games"][-1]}
    for _ in range(3):  # and play goes on, now on node b alone
        game = play(seats, game)
    assert len(game["game"]["history"]) == len(played) + 3


def test_a_node_restarted_under_its_name_never_passes_a_newcomer_off_as_an_old_connection(cluster: Cluster) -> None:
    """The table's owner b keeps, for a while, what it knew of node a's connections. When a comes back
    under the same name, its first connection must not be taken for the first one it had before: a
    spectator there must not get the seat of the player who sat through a's earlier run."""
    a, b = cluster.start_node("a"), cluster.start_node("b")
    bob = Player(b)
    bob.send({"type": "create", "join": True, "seed": 12})
    table = bob.expect("created")["table"]
    ann = Player(a)  # the first connection node a forwards to b
    ann.send({"type": "open", "table": table})
    ann.expect("table")
    ann.send({"type": "join"})
    bob.expect("table", lambda m: m["table"]["seats"][1] is not None)
    bob.send({"type": "start"})
    ann.expect("game")

    cluster.kill("a")
    a = cluster.start_node("a")
    eve = Player(a)  # the first connection of a's new run
    eve.send({"type": "open", "table": table})
    seen = eve.expect("table", lambda m: m["table"]["id"] == table)
    assert seen["table"]["you"]["seat"] is None  # a spectator, not Ann
    eve.send({"type": "resign"})
    refused = eve.expect("error")
    assert refused["key"] == "error.not_seated"
    bob.send({"type": "open", "table": table})
    assert bob.expect("table")["table"]["state"] == "playing"  # Ann's game was not resigned for her


def test_a_player_on_a_third_node_is_not_counted_away_once_his_node_reports_him(cluster: Cluster) -> None:
    """Node b takes over a killed node's table; Bob's page is on node c. The new owner learns of it
    from c's beat and stops counting Bob as away: no claim against his seat runs down."""
    a, b, c = cluster.start_node("a"), cluster.start_node("b"), cluster.start_node("c")
    ann, bob = Player(a), Player(c)
    ann.send({"type": "create", "join": True, "seed": 13})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    bob.expect("game")

    cluster.kill("a")
    ann.connect(b)
    ann.send({"type": "open", "table": table, "since": ann.last_v()})
    # Node b has it now. c's beat may reach b before or after Ann's page does, so the table that
    # counts Bob as present may be the first that Ann sees or a later one.
    ann.expect("table", lambda m: m["table"]["id"] == table
               and not any(c["seat"] == 1 for c in m["table"]["lifecycle"]["claims"]), timeout=45)


def test_events_go_on_numbering_after_redis_lost_the_table_s_stream_and_a_takeover(cluster: Cluster) -> None:
    """Redis restarts (the table's stream, its record of event numbers, is gone), then the owner dies.
    The node that takes the table over must not number its events from 1 again: a page (and a node
    forwarding to pages) takes an event numbered at or below the last it has for one it has seen."""
    a, b = cluster.start_node("a"), cluster.start_node("b")
    ann, bob = Player(a), Player(b)
    table = start_table(ann, bob, 14)
    game = bob.expect("game")
    seats = {0: ann, 1: bob}
    for _ in range(3):
        game = play(seats, game)
    before = bob.last_v()
    cluster.redis.stop()
    cluster.redis.start()
    cluster.kill("a")
    seen = len(bob.received)
    heard = bob.expect("table", lambda m: bool(m.get("games")) and m["table"]["id"] == table, timeout=30)
    ann.connect(b)
    ann.send({"type": "open", "table": table, "since": ann.last_v()})
    back = ann.expect("table", lambda m: m["table"]["id"] == table, timeout=30)
    game = {"game": back["games"][-1] if back["games"][-1]["legal"] else heard["games"][-1]}
    for _ in range(2):  # play goes on, on node b
        game = play(seats, game)
    assert len(game["game"]["history"]) == 5
    numbers = [m["v"] for m in bob.received[seen:] if isinstance(m.get("v"), int)]
    assert numbers == sorted(set(numbers)) and numbers[0] > before, (before, numbers)
