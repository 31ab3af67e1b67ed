"""Tables survive a restart: rebuilt from the stored actions, players come back by their cookie."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from test_server_game import Game, all_games, assert_no_secret, deals_for

from halali.games.forest.rules import DEFAULT_RULES
from halali.server.testing import Peer, new_session, running, settings_for_tests


def two_at_a_table(client: Any, seed: int) -> tuple[str, str, Peer, Peer, str]:
    """Ann (seat 0) and Bob (seat 1) at a seeded table, both on its page: their cookies, peers, table."""
    ann_token, bob_token = new_session(client), new_session(client)
    ann, bob = Peer(client, ann_token), Peer(client, bob_token)
    ann.send({"type": "create", "seed": seed, "join": True})
    table_id = ann.expect("created")["table"]
    bob.send({"type": "join", "table": table_id})
    bob.expect("table")
    ann.send({"type": "open", "table": table_id})
    return ann_token, bob_token, ann, bob, table_id


def test_a_reload_brings_the_player_back_to_the_table(client):
    _ann_token, bob_token, ann, bob, table_id = two_at_a_table(client, seed=17)
    ann.send({"type": "start"})
    Game({0: ann, 1: bob}, bob, random.Random(5)).play(stop_after=6)
    bob.close()  # bob (blue, to move) reloads the page: a new socket with the same cookie
    again = Peer(client, bob_token)
    assert again.id == bob.id
    again.send({"type": "open", "table": table_id})
    table = again.expect("table")
    assert table["table"]["you"] == {"id": bob.id, "seat": 1, "hints": False}  # two people: no hints
    game = table["games"][0]
    assert game["ply"] == 6 and game["seat_to_move"] == 1 and game["legal"]
    again.send({"type": "action", "action": game["legal"][0], "ply": 6})
    assert ann.expect("game", lambda m: m["game"]["ply"] == 7)["game"]["last_by"] == "blue"
    # another person with another cookie cannot act for that seat
    with Peer(client) as eve:
        eve.send({"type": "open", "table": table_id})
        assert eve.expect("table")["table"]["you"]["seat"] is None
        assert eve.error({"type": "action", "action": "pass", "ply": 7})["key"] == "error.not_seated"


def test_restart_rebuilds_tables_from_the_store(tmp_path: Path):
    with running(settings_for_tests(tmp_path)) as client:
        ann_token, bob_token, ann, bob, table_id = two_at_a_table(client, seed=23)
        ann.send({"type": "chat", "text": "good luck"})
        ann.send({"type": "start"})
        before = Game({0: ann, 1: bob}, ann, random.Random(6)).play(stop_after=30)["game"]
    with running(settings_for_tests(tmp_path)) as client:
        lobby = client.get("/api/lobby").json()["tables"]
        assert [(t["id"], t["state"]) for t in lobby] == [(table_id, "playing")]
        ann, bob = Peer(client, ann_token), Peer(client, bob_token)
        for p in (ann, bob):
            p.send({"type": "open", "table": table_id})
        table = ann.expect("table")
        after = table["games"][0]
        assert after["history"] == before["history"] and after["position"] == before["position"]
        assert any(line.get("text") == "good luck" for line in table["table"]["chat"])
        assert table["table"]["you"]["seat"] == 0
        last = Game({0: ann, 1: bob}, ann, random.Random(7)).play()
        assert last["match"]["over"]
        assert assert_no_secret([ann, bob], deals_for(23, DEFAULT_RULES)) > 100
        finished = [g for g in all_games(ann.received) if g["over"]]
        assert finished[0]["history"][:len(before["history"])] == before["history"]


def test_a_computer_player_to_move_goes_on_after_a_restart(tmp_path: Path):
    with running(settings_for_tests(tmp_path, bot_delay=60.0)) as client:
        token = new_session(client)
        ann = Peer(client, token)
        ann.send({"type": "create", "seed": 31, "rules": {"match": "single"}})
        table_id = ann.expect("created")["table"]
        ann.send({"type": "open", "table": table_id})
        ann.send({"type": "bot", "level": 1})  # seat 0: brown
        ann.send({"type": "join"})  # seat 1: blue, moves first
        ann.expect("table", lambda m: m["table"]["you"]["seat"] == 1)
        ann.send({"type": "start"})
        first = ann.expect("game", lambda m: bool(m["game"]["legal"]))
        ann.send({"type": "action", "action": first["game"]["legal"][0], "ply": 0})
        ann.expect("game", lambda m: m["game"]["ply"] == 1)  # the bot now waits 60 s: the server stops first
    with running(settings_for_tests(tmp_path)) as client:
        ann = Peer(client, token)
        ann.send({"type": "open", "table": table_id})
        # The computer may have moved before Ann opened the table (the table then shows that move)
        # or after (a `game` message brings it).
        opened = ann.expect("table")["games"][-1]
        moved = opened if opened["ply"] == 2 else ann.expect("game", lambda m: m["game"]["ply"] == 2)["game"]
        assert moved["last_by"] == "brown" and moved["legal"]
