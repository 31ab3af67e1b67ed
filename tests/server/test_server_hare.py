"""Hare tables over the WebSocket: a whole hunt with computer players, the store, refusals, and no
club card shown to anyone but its owner before it is public."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from halali.games.hare.record import replay
from halali.server.settings import Settings
from halali.server.testing import Peer, call, new_session, running, server_of, settings_for_tests
from halali.store import schema


def stored_game(store: Any, game_id: int) -> tuple[str, list[str]]:
    with store.engine.connect() as conn:
        deal = conn.execute(select(schema.games.c.deal).where(schema.games.c.id == game_id)).scalar_one()
        actions = conn.execute(select(schema.actions.c.action).where(schema.actions.c.game_id == game_id)
                               .order_by(schema.actions.c.ply)).scalars().all()
    return deal, list(actions)


def clubs_field(position: str) -> list[str]:
    return position.split()[2].split(",")


def hare_table(peer: Peer, seats: int = 3, **more: Any) -> str:
    peer.send({"type": "create", "game": "hare", "seats": seats, "join": True, **more})
    return peer.expect("created")["table"]


def play_to_end(ann: Peer, rng: random.Random, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play random legal actions for ann's seat until the hunt is over; the last `hare` message."""
    while True:
        msg, first = first or ann.expect("hare", lambda m: m["hunt"] is not None), None
        hunt = msg["hunt"]
        if hunt["over"]:
            return msg
        if hunt["legal"]:
            ann.send({"type": "action", "action": rng.choice(hunt["legal"]), "ply": hunt["ply"]})


@pytest.fixture
def server_settings(tmp_path: Path) -> Settings:
    """Hunts without a seed of their own (rated ones) are drawn from the server's own test seed, so
    every run plays the same hunts."""
    return settings_for_tests(tmp_path / "data", house_seed=13)


def test_a_person_hunts_with_two_computer_players_to_the_end(client):
    with Peer(client) as ann, Peer(client) as cy:
        table_id = hare_table(ann, seed=5)
        cy.send({"type": "open", "table": table_id})
        ann.send({"type": "chat", "text": "/bot 1"})
        ann.send({"type": "bot", "level": "heuristic"})
        ann.expect("hare", lambda m: all(s is not None for s in m["table"]["seats"]))
        ann.send({"type": "chat", "text": "/start"})
        last = play_to_end(ann, random.Random(5))
        over = cy.expect("hare", lambda m: m["hunt"] is not None and m["hunt"]["over"])
        assert over["hunt"]["position"] == last["hunt"]["position"]
        assert "?" not in clubs_field(last["hunt"]["position"])  # every club is public at the end
        assert sorted(last["hunt"]["placings"]) and max(last["hunt"]["result"]) > 0
        for peer, seat in ((ann, 0), (cy, None)):  # no club before it is public
            hare_msgs = [m for m in peer.received if m["type"] == "hare" and m["hunt"] is not None]
            assert len(hare_msgs) > 5
            for m in hare_msgs:
                if m["hunt"]["over"]:
                    continue
                for i, token in enumerate(clubs_field(m["hunt"]["position"])):
                    if i != seat and "@" not in token:
                        assert token == "?", (seat, m["hunt"]["position"])
                if seat is None or m["hunt"]["to_move"] != seat:
                    assert m["hunt"]["legal"] == []
        # the store holds the same hunt: its start and every action, rolls with their outcome
        server = server_of(client)
        table = server.tables.tables[table_id]
        snap = call(client, server.ctx.store.load_table, table_id)
        assert snap.table.game == "hare" and not snap.match.rated  # test-seeded dice are known in advance
        deal, actions = call(client, stored_game, server.ctx.store, table.play.game_id)
        assert len(actions) == len(table.play.hunt.history) and all(a != "roll" for a in actions)
        assert replay(f"{deal} ; {' '.join(actions)}").fen() == table.play.hunt.fen()


def test_a_rated_hunt_rates_every_seat_by_placing_and_startnosave_does_not(client):
    with Peer(client) as ann:
        hare_table(ann, seats=3)  # no test seed: the dice are the server's secret
        # The heuristic level: it shoots, so the hunts end in a few hundred actions (two random players
        # and a random person can go on for thousands, every message carrying the whole record).
        ann.send({"type": "bot", "level": 2})
        ann.send({"type": "bot", "level": 2})  # one level in two seats is one player, rated once
        ann.expect("hare", lambda m: all(s is not None for s in m["table"]["seats"]))
        ann.send({"type": "chat", "text": "/start"})
        last = play_to_end(ann, random.Random(7))
        ann.collect("chat", lambda m: m["line"].get("key") == "chat.rating", count=2)  # one per player
        ann.sync()  # and no more of them
        notices = [m["line"] for m in ann.received if m["type"] == "chat" and m["line"].get("key") == "chat.rating"]
        board = client.get("/api/leaderboard?game=hare").json()
        by_id = {p["id"]: p for p in board["players"]}
        me = last["table"]["you"]["id"]
        assert set(by_id) == {me, "hare_bot_2"} and all(p["matches"] == 1 for p in board["players"])
        mine, bot = by_id[me], by_id["hare_bot_2"]
        placings = last["hunt"]["placings"]
        if placings[0] < min(placings[1:]):
            assert mine["mu"] > bot["mu"]
        elif placings[0] > min(placings[1:]):
            assert mine["mu"] < bot["mu"]
        names = [n["params"]["name"] for n in notices]
        assert len(names) == 2 and {"bot": 2, "name": "heuristic"} in names  # a computer's rating is its level's
        assert client.get("/api/leaderboard").json()["total"] == 0  # the forest ladder is apart
        ann.send({"type": "chat", "text": "/startnosave"})
        play_to_end(ann, random.Random(8))
        board = client.get("/api/leaderboard?game=hare").json()
        assert all(p["matches"] == 1 for p in board["players"])  # the unrated hunt changed nothing
    assert client.get("/api/leaderboard?game=chess").status_code == 400


def test_hare_requests_are_checked_and_change_nothing(client):
    with Peer(client) as ann, Peer(client) as bob:
        assert ann.error({"type": "create", "game": "hare", "seats": 7})["params"]["field"] == "seats"
        assert ann.error({"type": "create", "game": "hare", "rules": {"bush": "maybe"}})["key"] == "error.bad_rules"
        assert ann.error({"type": "create", "game": "hare", "rules": {"green_lock": "x"}})["key"] == "error.bad_rules"
        assert ann.error({"type": "create", "game": "hare", "rated": "yes"})["params"]["field"] == "rated"
        assert ann.error({"type": "create", "game": "chess"})["params"]["field"] == "game"
        table_id = hare_table(ann, seats=2, seed=3, rules={"bush": "off"})
        assert ann.error({"type": "start"})["key"] == "error.cannot_start"
        assert ann.error({"type": "bot", "level": 9})["key"] == "error.bad_level"
        bob.send({"type": "join", "table": table_id})
        bob.expect("hare", lambda m: m["table"]["you"]["seat"] == 1)
        bob.send({"type": "start"})
        msg = bob.expect("hare", lambda m: m["hunt"] is not None)
        hunt = msg["hunt"]
        assert hunt["phase"] == "roll"  # no bush with bush=off
        mover, other = (ann, bob) if hunt["to_move"] == 0 else (bob, ann)
        assert other.error({"type": "action", "action": "roll"})["key"] == "error.not_your_turn"
        assert mover.error({"type": "action", "action": "roll=1,2"})["key"] == "error.bad_action"
        assert mover.error({"type": "action", "action": "roll", "ply": 5})["key"] == "error.stale"
        assert mover.error({"type": "action", "action": "a1-a2"})["key"] in ("error.illegal", "error.bad_action")
        ann.send({"type": "leave"})  # from a running hunt, leaving is resigning: first a confirmation
        assert ann.expect("confirm")["request"] == "leave"
        assert len(server_of(client).tables.tables[table_id].play.hunt.history) == 0
        mover.send({"type": "action", "action": "roll", "ply": 0})
        rolled = mover.expect("hare", lambda m: m["hunt"] is not None and m["hunt"]["ply"] == 1)
        assert rolled["hunt"]["actions"][0].startswith("roll=")


def test_an_illegal_hare_action_names_its_rule_for_the_page_to_translate(client):
    with Peer(client) as ann, Peer(client) as bob:
        table_id = hare_table(ann, seats=2, seed=3)  # with the bush: the hunt begins by placing it
        bob.send({"type": "join", "table": table_id})
        bob.expect("hare", lambda m: m["table"]["you"]["seat"] == 1)
        bob.send({"type": "start"})
        hunt = bob.expect("hare", lambda m: m["hunt"] is not None)["hunt"]
        assert hunt["phase"] == "bush"
        mover = ann if hunt["to_move"] == 0 else bob
        err = mover.error({"type": "action", "action": "bush=f7", "ply": 0})
        assert err["key"] == "error.illegal"
        assert err["params"]["rule"] == "rule.hare.bush_distance" and err["params"]["rule_params"] == {"cell": "f7"}
        assert "distance 2 or 3" in err["params"]["reason"] and "distance 2 or 3" in err["message"]
        err = mover.error({"type": "action", "action": "roll", "ply": 0})
        assert err["params"]["rule"] == "rule.hare.phase" and err["params"]["rule_params"] == {"phase": "bush"}
        assert len(server_of(client).tables.tables[table_id].play.hunt.history) == 0


def test_the_lobby_lists_hare_tables(client):
    with Peer(client) as ann, Peer(client) as bob:
        bob.send({"type": "lobby"})
        bob.expect("lobby")
        table_id = hare_table(ann, seats=4)  # rated unless asked otherwise
        got = bob.expect("lobby_table", lambda m: m["table"]["id"] == table_id)
        assert got["table"]["game"] == "hare" and len(got["table"]["seats"]) == 4 and got["table"]["rated"] is True
        bob.send({"type": "lobby"})
        assert table_id in [t["id"] for t in bob.expect("lobby")["tables"]]


def test_idle_hare_tables_are_swept_and_watchers_are_counted(client):
    server = server_of(client)
    with Peer(client) as ann, Peer(client) as bob:
        kept = hare_table(ann, seats=2)  # ann sits here: kept while she does
        ann.send({"type": "create", "game": "hare", "seats": 2})
        empty = ann.expect("created")["table"]
        bob.send({"type": "open", "table": kept})
        got = ann.expect("hare", lambda m: [p["id"] for p in m["table"]["spectators"]] != [])
        assert len(got["table"]["spectators"]) == 1
        bob.close()
        ann.expect("hare", lambda m: m["table"]["spectators"] == [])  # bob's leaving is seen
        ann.send({"type": "close"})
        ann.sync()  # the close is handled
        later = server.tables.tables[kept].updated_at + 10 * 3600
        call(client, server.tables.sweep, later)
        assert kept in server.tables.tables and empty not in server.tables.tables
        assert call(client, server.ctx.store.load_table, empty).table.state == "closed"


def test_a_new_name_reaches_the_hare_table(client):
    with Peer(client) as ann:
        hare_table(ann, seats=2)
        ann.expect("hare")
        ann.send({"type": "name", "name": "Diana"})
        got = ann.expect("hare", lambda m: (m["table"]["seats"][0] or {}).get("name") == "Diana")
        assert got["table"]["you"]["seat"] == 0


def test_a_restart_rebuilds_hare_tables_from_the_store(tmp_path: Path):
    settings = settings_for_tests(tmp_path / "data")
    with running(settings) as client:
        ann_token, bob_token = new_session(client), new_session(client)
        ann, bob = Peer(client, ann_token), Peer(client, bob_token)
        table_id = hare_table(ann, seats=2, seed=8)
        bob.send({"type": "join", "table": table_id})
        bob.expect("hare", lambda m: m["table"]["you"]["seat"] == 1)
        ann.send({"type": "start"})
        rng = random.Random(8)
        played = 0
        while played < 12:
            msg = ann.expect("hare", lambda m: m["hunt"] is not None)
            hunt = msg["hunt"]
            if hunt["ply"] != played:
                continue
            mover = ann if hunt["to_move"] == 0 else bob
            own = hunt if mover is ann else bob.expect(
                "hare", lambda m, p=played: m["hunt"] is not None and m["hunt"]["ply"] == p)["hunt"]
            mover.send({"type": "action", "action": rng.choice(own["legal"]), "ply": played})
            played += 1
        last = ann.expect("hare", lambda m: m["hunt"] is not None and m["hunt"]["ply"] == 12)["hunt"]
        full = server_of(client).tables.tables[table_id].play.hunt.fen()
    with running(settings) as client:
        table = server_of(client).tables.tables[table_id]
        assert table.play.hunt.fen() == full and table.state == "playing"
        again = Peer(client, ann_token)
        again.send({"type": "open", "table": table_id})
        back = again.expect("hare", lambda m: m["hunt"] is not None)
        assert back["table"]["you"]["seat"] == 0
        assert back["hunt"]["position"] == last["position"] and back["hunt"]["actions"] == last["actions"]


def test_a_finished_hare_table_is_opened_again_from_the_store(client):
    server = server_of(client)
    with Peer(client) as ann:
        table_id = hare_table(ann, seats=2, seed=4)
        ann.send({"type": "bot", "level": 2})
        ann.expect("hare", lambda m: m["table"]["seats"][1] is not None)
        ann.send({"type": "start"})
        last = play_to_end(ann, random.Random(4))
        ann.send({"type": "close"})
        ann.sync()  # the close is handled
        del server.tables.tables[table_id]  # as a sweep forgets it
        page = client.get(f"/table/{table_id}")
        assert page.status_code == 200 and "/static/js/hare.js" in page.text
        del server.tables.tables[table_id]
        ann.send({"type": "open", "table": table_id})
        back = ann.expect("hare", lambda m: m["hunt"] is not None)
        assert back["hunt"]["over"] and back["hunt"]["position"] == last["hunt"]["position"]
        assert back["table"]["state"] == "finished"


def test_finished_hunts_are_listed_and_replayed_with_every_club_but_never_the_dice_secret(client):
    with Peer(client) as ann:
        table_id = hare_table(ann, seats=2, seed=21)
        ann.send({"type": "bot", "level": 2})
        first = ann.expect("hare", lambda m: all(s is not None for s in m["table"]["seats"]))
        me = first["table"]["you"]["id"]
        ann.send({"type": "start"})
        running = ann.expect("hare", lambda m: m["hunt"] is not None)
        game_id = server_of(client).tables.tables[table_id].play.game_id
        answer = client.get(f"/api/hunts/{game_id}")
        assert answer.status_code == 409  # its clubs are still secret
        assert answer.json()["error"]["key"] == "error.hunt_not_over"
        assert client.get(f"/api/players/{me}/hunts").json() == {"hunts": [], "more": False}
        assert running["hunt"]["over"] is False
        last = play_to_end(ann, random.Random(21), running)
    listed = client.get(f"/api/players/{me}/hunts").json()["hunts"]
    assert [h["id"] for h in listed] == [game_id]
    assert client.get(f"/api/tables/{table_id}/hunts").json()["hunts"] == listed
    assert client.get("/api/players/hare_bot_2/hunts").json()["hunts"] == listed  # the bot's history too
    h = listed[0]
    assert [p["id"] for p in h["players"]] == [me, "hare_bot_2"] and h["placings"] == last["hunt"]["placings"]
    assert h["rated"] is False  # test-seeded dice
    replay_json = client.get(f"/api/hunts/{game_id}").json()
    assert replay_json["actions"] == last["hunt"]["actions"]
    positions = replay_json["positions"]
    assert len(positions) == len(replay_json["actions"]) + 1 and positions[-1] == last["hunt"]["position"]
    for fen in positions:
        fields = fen.split()
        assert fields[9] == "-" and "?" not in clubs_field(fen)  # every club, never the dice secret
    assert client.get(f"/api/games/{game_id}").status_code == 404  # a hunt is not a forest game
    assert client.get("/api/hunts/99999999").status_code == 404
    assert client.get("/api/players/nobody/hunts").status_code == 404
    results = client.get(f"/api/players/{me}").json()["results"]
    mine = last["hunt"]["result"][0]
    assert results["hunts"] == {"played": 1, "won": int(mine == 1.0), "drawn": int(0 < mine < 1),
                                "lost": int(mine == 0)}
    assert results["games"] == 0  # no forest game
    page = client.get(f"/hunt/{game_id}")
    assert page.status_code == 200 and "/static/js/hunt.js" in page.text


def test_a_hunt_waiting_for_a_person_is_in_their_lobby_turn_list(client):
    token = new_session(client)
    with Peer(client, token) as ann, Peer(client, token) as lobby:
        lobby.send({"type": "lobby"})
        assert lobby.expect("my_turn")["tables"] == []
        table_id = hare_table(ann, seed=5)
        ann.send({"type": "bot", "level": 1})
        ann.send({"type": "bot", "level": 1})
        ann.expect("hare", lambda m: all(s is not None for s in m["table"]["seats"]))
        ann.send({"type": "start"})
        mine = ann.expect("hare", lambda m: m["hunt"] is not None and m["hunt"]["to_move"] == 0 and m["hunt"]["legal"])
        listed = lobby.expect("my_turn", lambda m: any(t["id"] == table_id for t in m["tables"]))["tables"]
        entry = next(t for t in listed if t["id"] == table_id)
        assert entry["game"] == "hare" and entry["mode"] == "live"
        assert entry["opponent"] == "Computer 2 (random), Computer 3 (random)"
        assert entry["opponents"] == [{"bot": 1, "name": "random", "number": 2},
                                      {"bot": 1, "name": "random", "number": 3}]
        assert entry["since"].endswith("Z")
        rng = random.Random(1)
        hunt = mine["hunt"]
        while hunt["to_move"] == 0 and not hunt["over"]:  # ann's decisions until another seat is to move
            ann.send({"type": "action", "action": rng.choice(hunt["legal"]), "ply": hunt["ply"]})
            later = ann.expect("hare", lambda m, ply=hunt["ply"]: m["hunt"] is not None and m["hunt"]["ply"] > ply)
            hunt = later["hunt"]
        lobby.expect("my_turn", lambda m: all(t["id"] != table_id for t in m["tables"]))
