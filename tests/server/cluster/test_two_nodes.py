"""Two server nodes on one PostgreSQL and one Redis, in this process: a table is owned by one node,
and players and spectators on the other node play and watch it through forwarding and the table's
event stream, each seeing only its own view."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import redis

from halali.server.cluster.bus import ALL, inbox, table_stream
from halali.server.cluster.redis_server import RedisServer
from halali.server.cluster.turns import TURN_KINDS
from halali.server.testing import Peer, fresh_database, running, server_of, settings_for_tests


def two_players(a: Any, b: Any) -> tuple[dict[int, Peer], str, dict[str, Any]]:
    """Ann on node a (which owns the table) and Bob on node b, in a started match."""
    ann, bob = Peer(a), Peer(b)
    ann.send({"type": "create", "join": True, "seed": 11})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    return {0: ann, 1: bob}, table, bob.expect("game")


def play(seats: dict[int, Peer], game: dict[str, Any]) -> dict[str, Any]:
    """The player to move plays its first legal action; the other player's next game message."""
    g = game["game"]
    mover, other = seats[g["seat_to_move"]], seats[1 - g["seat_to_move"]]
    own = game if g["legal"] else mover.expect("game", lambda m: m["game"]["ply"] == g["ply"] and m["game"]["legal"])
    mover.send({"type": "action", "action": own["game"]["legal"][0], "ply": g["ply"]})
    return other.expect("game", lambda m: m["game"]["ply"] == g["ply"] + 1)


def test_players_on_two_nodes_play_one_table_with_a_spectator(nodes: tuple[Any, Any]) -> None:
    a, b = nodes
    ann, bob, cy = Peer(a), Peer(b), Peer(b)
    ann.send({"type": "create", "join": True, "seed": 11})
    table = ann.expect("created")["table"]
    assert server_of(a).cluster.owns(table) and not server_of(b).cluster.owns(table)
    bob.send({"type": "open", "table": table})  # on node b: the open goes to node a, the answer comes back
    assert bob.expect("table")["table"]["id"] == table
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    cy.send({"type": "open", "table": table})
    watching = cy.expect("table")
    assert watching["table"]["you"]["seat"] is None
    ann.expect("table", lambda m: len(m["table"]["spectators"]) == 1)  # a spectator on another node counts
    ann.send({"type": "start"})
    game = bob.expect("game")
    seats = {0: ann, 1: bob}
    for _ in range(6):
        game = play(seats, game)
    bob.sync()
    cy_games = [m for m in cy.collect("game", count=7)]
    assert all(not m["game"]["legal"] for m in cy_games)  # the spectator's own view: no legal actions
    bob_turns = [m for m in bob.received if m["type"] == "game" and m["game"]["legal"]]
    assert bob_turns and all(m["game"]["seat_to_move"] == 1 for m in bob_turns)
    numbers = [m["v"] for m in bob.received if m.get("v") is not None and m["type"] in ("table", "game", "chat")]
    assert numbers == sorted(numbers) and len(numbers) == len(set(numbers))  # in order, nothing twice
    # A refusal from the owner reaches the player on the other node, translated by key.
    assert bob.error({"type": "action", "action": "a1-a9", "ply": game["game"]["ply"]})["key"] in (
        "error.not_your_turn", "error.illegal", "error.bad_action")


def test_a_node_is_sent_only_the_views_of_its_own_connections(nodes: tuple[Any, Any],
                                                               redis_server: RedisServer) -> None:
    seats, table, game = two_players(*nodes)
    for _ in range(4):
        game = play(seats, game)
    r = redis.Redis.from_url(redis_server.url, decode_responses=True)
    record: Any = r.xrange(table_stream(table))
    assert any("t:0" in f and "t:1" in f for _, f in record)  # the table's record holds every view
    box: Any = r.xrange(inbox("b"))
    copies = [f for _, f in box if f.get("ev") == table]
    # Node b has only Bob (seat 1): Ann's view, with her hidden tiles, never goes there.
    assert copies and all("t:0" not in f for f in copies)
    assert any("t:1" in f for f in copies)


def test_play_goes_on_after_redis_restarts(nodes: tuple[Any, Any], redis_server: RedisServer) -> None:
    seats, _, game = two_players(*nodes)
    for _ in range(3):
        game = play(seats, game)
    redis_server.stop()  # every stream and inbox gone; PostgreSQL keeps the game
    redis_server.start()
    for _ in range(3):  # the nodes reconnect by themselves: Bob's actions reach node a, its events reach him
        game = play(seats, game)
    assert len(game["game"]["history"]) == 6


def test_the_lobby_who_is_online_and_your_turn_span_the_nodes(nodes: tuple[Any, Any]) -> None:
    a, b = nodes
    lobby = Peer(a)  # Ann's lobby page, on node a
    lobby.send({"type": "lobby"})
    lobby.expect("lobby")
    bob = Peer(b)
    bob.send({"type": "create", "join": True, "seed": 11})
    table = bob.expect("created")["table"]  # node b owns it
    lobby.expect("online", lambda m: bob.id in {p["id"] for p in m["online"]})  # Bob is online on node b
    card = lobby.expect("lobby_table", lambda m: m["table"]["id"] == table)
    assert card["table"]["seats"][0]["name"] == bob.welcome["you"]["name"]
    ann = Peer(a, lobby.token)  # the same player's table page, also on node a
    ann.send({"type": "open", "table": table})
    ann.expect("table")
    ann.send({"type": "join"})
    bob.expect("table", lambda m: m["table"]["seats"][1] is not None)
    bob.send({"type": "start"})
    turns = lobby.expect("my_turn", lambda m: any(t["id"] == table for t in m["tables"]))
    assert [t["id"] for t in turns["tables"]] == [table]  # blue begins: Ann, seat 1
    again = Peer(a, lobby.token)  # a lobby page opened later gets the list from every node too
    again.send({"type": "lobby"})
    listed = again.expect("lobby")
    assert table in {t["id"] for t in listed["tables"]}
    assert [t["id"] for t in again.expect("my_turn")["tables"]] == [table]
    # Ann plays: the later page (on another node than the table's owner) hears that her turn is over.
    g = ann.expect("game", lambda m: m["game"]["legal"])["game"]
    ann.send({"type": "action", "action": g["legal"][0], "ply": g["ply"]})
    again.expect("my_turn", lambda m: table not in {t["id"] for t in m["tables"]})


def test_who_is_online_goes_to_other_nodes_only_for_their_lobby_pages(nodes: tuple[Any, Any],
                                                                       redis_server: RedisServer) -> None:
    """Comings and goings on a node are relayed as a list of everyone online only while a lobby page is
    open somewhere; a page on another node still hears of them (relayed, or from its own node's beat)."""
    a, b = nodes
    carl = Peer(b)  # no lobby page anywhere: his coming and going tell no one
    carl.close()
    lobby = Peer(a)
    lobby.send({"type": "lobby"})
    lobby.expect("lobby")
    dan = Peer(b)
    lobby.expect("online", lambda m: dan.id in {p["id"] for p in m["online"]})
    dan.close()
    lobby.expect("online", lambda m: dan.id not in {p["id"] for p in m["online"]})
    entries = redis.Redis.from_url(redis_server.url, decode_responses=True).xrange(ALL)
    kinds = [("online" if '"type":"online"' in f.get("text", "").replace(" ", "") else f["kind"]) for _, f in entries]
    assert "online" in kinds
    assert kinds.index("turns_wanted") < kinds.index("online")  # nothing before the page opened


def test_your_turn_goes_between_nodes_only_while_a_lobby_page_looks(nodes: tuple[Any, Any],
                                                                     redis_server: RedisServer) -> None:
    seats, table, game = two_players(*nodes)  # Ann on node a, which owns the table; Bob on node b
    for _ in range(2):
        game = play(seats, game)
    r = redis.Redis.from_url(redis_server.url, decode_responses=True)
    assert not TURN_KINDS & {f["kind"] for _, f in r.xrange(ALL)}  # nobody looks: nothing for the lists
    page = Peer(nodes[1], seats[0].token)  # Ann's lobby page, on the node without the table
    page.send({"type": "lobby"})
    page.expect("lobby")

    def listed(m: dict[str, Any]) -> bool:
        return table in {t["id"] for t in m["tables"]}

    ann_to_move = game["game"]["seat_to_move"] == 0
    page.expect("my_turn", lambda m: listed(m) == ann_to_move)  # the owner's answer
    game = play(seats, game)
    page.expect("my_turn", lambda m: listed(m) != ann_to_move)  # and each change after it
    game = play(seats, game)
    page.expect("my_turn", lambda m: listed(m) == ann_to_move)


def test_the_table_limit_cannot_be_dodged_by_switching_nodes(tmp_path: Path, redis_server: RedisServer) -> None:
    with fresh_database("postgresql", tmp_path) as db, ExitStack() as stack:
        a, b = (stack.enter_context(running(settings_for_tests(
            tmp_path / name, db_url=db, redis_url=redis_server.url, node_id=name, tables_per_guest=2)))
            for name in ("a", "b"))
        on_a = Peer(a)
        on_b = Peer(b, on_a.token)  # the same guest on the other node
        for peer in (on_a, on_b):
            peer.send({"type": "create"})
            peer.expect("created")
        for peer in (on_a, on_b):
            assert peer.error({"type": "create"})["key"] == "error.too_many_tables"


def test_a_node_is_healthy_only_once_it_reads_its_inbox(tmp_path: Path, redis_server: RedisServer) -> None:
    """A node started while Redis is away would miss the answers to what it forwards: the front's
    health check keeps browsers away from it until it follows its inbox."""
    redis_server.stop()
    with fresh_database("postgresql", tmp_path) as db, running(settings_for_tests(
            tmp_path / "a", db_url=db, redis_url=redis_server.url, node_id="a", lease_ttl=3.0)) as a:
        waiting = a.get("/api/health")
        assert waiting.status_code == 503 and waiting.json()["waiting"] == "redis"
        redis_server.start()
        node = a.app.state.server.cluster  # type: ignore[attr-defined]
        a.portal.call(node.bus.reading.wait)  # type: ignore[union-attr]
        assert a.get("/api/health").json() == {"ok": True}


def test_a_challenge_sent_on_one_node_is_answered_on_the_other(nodes: tuple[Any, Any]) -> None:
    a, b = nodes
    ann, bob = Peer(a), Peer(b)
    ann.send({"type": "challenge", "to": bob.id, "rated": False})
    sent = ann.expect("challenge")["challenge"]
    assert bob.expect("challenge")["challenge"] == sent  # told on his node
    late = Peer(b, bob.token)  # a page of his that opens later, on his node, sees it too
    assert late.expect("challenge")["challenge"]["id"] == sent["id"]
    bob.send({"type": "accept", "challenge": sent["id"]})
    accepted = bob.expect("challenge_accepted")
    assert ann.expect("challenge_accepted") == accepted
    assert late.error({"type": "accept", "challenge": sent["id"]})["key"] == "error.no_challenge"  # once only
    ann.send({"type": "open", "table": accepted["table"]})
    table = ann.expect("table", lambda m: m["table"]["id"] == accepted["table"])
    assert table["table"]["you"]["seat"] == 0 and table["table"]["state"] == "playing"
