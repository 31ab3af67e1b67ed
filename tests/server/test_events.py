"""Numbered table events: every message about a table carries its number, and a client that comes back
with the last number it has receives exactly what it missed, or the whole table when too much was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from halali.server.testing import Peer, running, settings_for_tests


def started(client: Any) -> tuple[str, Peer]:
    """Ann against a computer player at a seeded forest match, waiting for nobody."""
    ann = Peer(client)
    ann.send({"type": "create", "join": True, "seed": 11, "rules": {"match": "single"}})
    table = ann.expect("created")["table"]
    ann.send({"type": "bot", "level": 1})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    return table, ann


def play_one(ann: Peer) -> None:
    """Ann's next action, and the computer's answer."""
    game = ann.expect("game", lambda m: bool(m["game"]["legal"]))["game"]
    ann.send({"type": "action", "action": game["legal"][0], "ply": game["ply"]})
    ann.expect("game", lambda m, p=game["ply"]: m["game"]["ply"] == p + 1)


def test_every_message_about_a_table_is_numbered_in_order(client):
    table, ann = started(client)
    ann.send({"type": "start"})
    play_one(ann)
    ann.sync()
    numbers = [m["v"] for m in ann.received if m.get("table") == table or m["type"] in ("table", "game")
               if "v" in m]
    assert len(numbers) > 5 and numbers == list(range(numbers[0], numbers[0] + len(numbers)))


def test_a_reconnecting_spectator_gets_only_the_events_it_missed(client):
    table, ann = started(client)
    cy = Peer(client)
    cy.send({"type": "open", "table": table})
    seen = cy.expect("table")["v"]
    token = cy.token
    cy.close()
    ann.send({"type": "start"})
    for _ in range(3):
        play_one(ann)
    ann.expect("game", lambda m: bool(m["game"]["legal"]))  # the computer has answered: the table is quiet
    now = max(m["v"] for m in ann.received if "v" in m)
    back = Peer(client, token)
    back.send({"type": "open", "table": table, "since": seen})
    resumed = back.expect("resumed")
    assert resumed["since"] == seen and resumed["v"] >= now
    missed = [back.receive() for _ in range(resumed["missed"])]
    assert [m["v"] for m in missed] == list(range(seen + 1, resumed["v"] + 1))
    assert {m["type"] for m in missed} <= {"table", "game", "chat"}
    assert not any(m["type"] == "game" and m["game"]["legal"] for m in missed)  # a spectator's view
    back.send({"type": "open", "table": table, "since": resumed["v"]})
    assert back.expect("resumed")["missed"] == 0


def test_a_client_too_far_behind_gets_the_whole_table(tmp_path: Path):
    with running(settings_for_tests(tmp_path, table_events=3)) as client:
        table, ann = started(client)
        ann.send({"type": "start"})
        for _ in range(3):
            play_one(ann)
        ann.send({"type": "open", "table": table, "since": 1})
        whole = ann.expect("table", lambda m: m.get("resync") is True)
        assert whole["games"][0]["ply"] >= 5 and whole["table"]["you"]["seat"] == 0  # the last answer may be on its way
        ann.send({"type": "open", "table": table, "since": 10**9})  # a number from the future: resync
        assert ann.expect("table", lambda m: m.get("resync") is True)["v"] >= whole["v"]


def test_the_second_game_of_a_match_begins_with_its_own_game_message(client):
    ann, bob = Peer(client), Peer(client)
    ann.send({"type": "create", "join": True, "seed": 9})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.send({"type": "join"})
    ann.send({"type": "open", "table": table})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    peers = {0: ann, 1: bob}
    while True:  # play game 1 through `game` messages alone, as a client that ignores `table` would
        game = ann.expect("game")["game"]
        if game["number"] == 2:
            break
        if game["over"]:
            continue
        mover = peers[game["seat_to_move"]]
        own = mover.expect("game", lambda m, g=game: m["game"]["ply"] == g["ply"] and m["game"]["number"] == 1
                           and bool(m["game"]["legal"]))["game"] if mover is not ann else game
        mover.send({"type": "action", "action": own["legal"][0], "ply": own["ply"]})
    assert game["ply"] == 0 and not game["over"]
