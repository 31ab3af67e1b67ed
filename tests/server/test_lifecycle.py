"""How tables end, for both games: resign with a confirmation, abort, abandonment claims (live and
correspondence), owner-only computer seats, the open-table limit, and the sweep of abandoned matches."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from halali.server.testing import FakeClock, Peer, call, running, server_of, settings_for_tests

Message = dict[str, Any]


def forest_table(client: Any, **create: Any) -> tuple[str, Peer, Peer]:
    """Ann (the owner, seat 0) and Bob (seat 1) at a started forest match."""
    ann, bob = Peer(client), Peer(client)
    ann.send({"type": "create", "join": True, **create})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    ann.expect("table", lambda m: m["table"]["state"] == "playing")
    return table, ann, bob


def hare_table(client: Any, seats: int = 3) -> tuple[str, Peer]:
    """Ann and computer players at a started hunt."""
    ann = Peer(client)
    ann.send({"type": "create", "game": "hare", "join": True, "seats": seats, "seed": 4})
    table = ann.expect("created")["table"]
    for _ in range(seats - 1):
        ann.send({"type": "bot", "level": 1})
    ann.expect("hare", lambda m: all(s is not None for s in m["table"]["seats"]))
    ann.send({"type": "start"})
    ann.expect("hare", lambda m: m["table"]["state"] == "playing")
    return table, ann


def test_resigning_asks_first_then_concedes_the_match_and_survives_a_restart(tmp_path: Path):
    settings = settings_for_tests(tmp_path)
    with running(settings) as client:
        table, ann, bob = forest_table(client)  # not seeded: rated
        bob.sync()
        seen = len(bob.received)
        ann.send({"type": "resign"})
        assert ann.expect("confirm") == {"type": "confirm", "table": table, "request": "resign", "seconds": 30.0}
        ann.sync()
        bob.sync()
        assert [m["type"] for m in bob.received[seen:]] == ["pong"]  # nothing changed before the confirmation
        ann.send({"type": "resign", "confirm": True})
        over = bob.expect("table", lambda m: m["table"]["state"] == "finished")
        assert over["match"]["over"] and over["match"]["winner"] == 1
        assert over["games"][-1]["termination"] == "resign" and over["games"][-1]["result"]["winner_seat"] == 1
        keys = [line.get("key") for line in over["table"]["chat"]]
        assert "chat.resigned" in keys and keys.count("chat.rating") == 2  # a rated match is rated
        assert ann.error({"type": "resign", "confirm": True})["key"] == "error.game_over"
    with running(settings) as client:
        again = Peer(client)
        again.send({"type": "open", "table": table})
        back = again.expect("table")
        assert back["table"]["state"] == "finished" and back["games"][-1]["termination"] == "resign"


def test_a_hunt_resigned_puts_the_resigner_last(client):
    table, ann = hare_table(client)
    (card,) = [t for t in client.get("/api/lobby").json()["tables"] if t["id"] == table]
    assert card["state"] == "playing" and (card["game_number"], card["number_of_games"]) == (1, 1)  # "game 1 of 1"
    ann.send({"type": "chat", "text": "/resign"})
    ann.expect("confirm")
    ann.send({"type": "chat", "text": "/resign"})  # typed again: confirmed
    over = ann.expect("hare", lambda m: m["table"]["state"] == "finished")["hunt"]
    assert over["over"] and over["termination"] == "resign"
    assert over["result"][0] == 0.0 and over["placings"][0] == 3.0 and over["placings"][1:] == [1.0, 1.0]


def test_abort_before_everyone_acted_leaves_no_result(client):
    table, ann, bob = forest_table(client)
    bob.send({"type": "abort"})
    back = ann.expect("table", lambda m: m["table"]["state"] == "waiting")
    assert back["games"] == [] and back["table"]["lifecycle"]["abortable"] is False
    assert client.get(f"/api/tables/{table}/games").json()["games"] == []
    assert any(line.get("key") == "chat.aborted" for line in back["table"]["chat"])
    assert bob.error({"type": "abort"})["key"] == "error.not_started"


def test_abort_is_refused_once_both_have_acted(client):
    _table, ann, bob = forest_table(client, seed=5)
    for ply in range(2):  # each side's first action
        for peer in (ann, bob):
            peer.sync()
        mover = next(p for p in (ann, bob) if [m for m in p.received if m["type"] == "game"][-1]["game"]["legal"])
        legal = [m for m in mover.received if m["type"] == "game"][-1]["game"]["legal"]
        mover.send({"type": "action", "action": legal[0], "ply": ply})
        for peer in (ann, bob):
            peer.expect("game", lambda m, p=ply: m["game"]["ply"] == p + 1)
        if ply == 0:
            ann.sync()
            assert [m for m in ann.received if m["type"] == "table"][-1]["table"]["lifecycle"]["abortable"]
    assert ann.error({"type": "abort"})["key"] == "error.cannot_abort"


def test_an_opponent_away_past_the_grace_period_can_be_claimed_against(tmp_path: Path):
    clock = FakeClock()
    with running(settings_for_tests(tmp_path, clock=clock, abandon_grace=60.0, clock_poll=3600.0)) as client:
        _table, ann, bob = forest_table(client)
        bob.close()
        away = ann.expect("table", lambda m: m["table"]["lifecycle"]["claims"] != [])
        assert away["table"]["lifecycle"]["claims"] == [{"seat": 1, "in": 60}]
        assert ann.error({"type": "claim", "result": "win"})["key"] == "error.cannot_claim"
        assert ann.error({"type": "claim", "result": "lots"})["key"] == "error.bad_request"
        clock.advance(61)
        ann.send({"type": "chat", "text": "/claim win"})
        over = ann.expect("table", lambda m: m["table"]["state"] == "finished")
        assert over["match"]["winner"] == 0 and over["games"][-1]["termination"] == "abandon"


def test_a_correspondence_mover_past_the_deadline_can_be_claimed_against(tmp_path: Path):
    clock = FakeClock()
    with running(settings_for_tests(tmp_path, clock=clock, correspondence_days=3.0, clock_poll=3600.0)) as client:
        _table, ann, bob = forest_table(client, mode="correspondence", seed=2)
        first = [m for m in ann.received if m["type"] == "table"][-1]
        (claim,) = first["table"]["lifecycle"]["claims"]
        assert claim["in"] == 3 * 86400
        stayer = bob if claim["seat"] == 0 else ann
        assert stayer.error({"type": "claim", "result": "draw"})["key"] == "error.cannot_claim"
        clock.advance(3 * 86400 + 1)
        stayer.send({"type": "claim", "result": "draw"})
        over = stayer.expect("table", lambda m: m["table"]["state"] == "finished")
        assert over["match"]["winner"] is None and over["games"][-1]["termination"] == "abandon"


def test_only_the_owner_seats_computers_and_the_chat_says_who(client):
    ann, bob = Peer(client), Peer(client)
    ann.send({"type": "create", "game": "hare", "seats": 3})
    table = ann.expect("created")["table"]
    bob.send({"type": "open", "table": table})
    bob.expect("hare")
    assert bob.error({"type": "bot", "level": 1})["key"] == "error.not_owner"
    ann.send({"type": "open", "table": table})
    ann.send({"type": "bot", "level": 1})
    line = bob.expect("chat", lambda m: m["line"].get("key") == "chat.bot_added")["line"]
    assert line["params"]["by"] == ann.welcome["you"]["name"]
    assert bob.error({"type": "unbot", "seat": 0})["key"] == "error.not_owner"


def test_open_tables_are_limited_per_guest_with_a_clear_error(tmp_path: Path):
    with running(settings_for_tests(tmp_path, tables_per_guest=2)) as client:
        ann = Peer(client)
        for game in ("forest", "hare"):
            ann.send({"type": "create", "game": game})
            ann.expect("created")
        error = ann.error({"type": "create"})
        assert error["key"] == "error.too_many_tables" and error["params"] == {"max": 2}
        assert "at most 2" in error["message"]
        assert len(client.get("/api/lobby").json()["tables"]) == 2


def test_a_live_match_everyone_left_long_ago_ends_by_itself(tmp_path: Path):
    clock = FakeClock()
    with running(settings_for_tests(tmp_path, clock=clock, abandoned_minutes=30.0, clock_poll=3600.0)) as client:
        table, ann = hare_table(client, seats=2)
        ann.close()
        server = server_of(client)
        clock.advance(31 * 60)
        call(client, server.tables.sweep)
        assert server.tables.tables[table].state in ("finished", "waiting")


def test_an_abandoned_match_ends_while_a_computer_is_moving(tmp_path: Path):
    """The sweep waits for a computer's move in progress (it holds the table's lock) instead of
    passing the match by: computers alone would hold it often."""
    clock = FakeClock()
    with running(settings_for_tests(tmp_path, clock=clock, abandoned_minutes=30.0, clock_poll=3600.0)) as client:
        table, ann = hare_table(client, seats=2)
        ann.close()
        server = server_of(client)
        held = server.tables.tables[table]
        clock.advance(31 * 60)

        async def sweep_during_a_move() -> bool:
            async with held.lock:  # as a computer's move in progress
                sweep = asyncio.create_task(server.tables.sweep())
                await asyncio.sleep(0)  # the sweep runs up to the lock
                waited = not sweep.done()
            await sweep
            return waited

        assert call(client, sweep_during_a_move)
        assert held.state in ("finished", "waiting")


def test_a_resigned_game_keeps_its_ending_in_its_record_and_an_import_of_it(client):
    _table, ann, bob = forest_table(client, rules={"match": "single"}, seed=3)
    bob.send({"type": "resign", "confirm": True})
    over = ann.expect("table", lambda m: m["table"]["state"] == "finished")["games"][-1]
    text = client.get(f"/api/games/{over['id']}/record").text
    assert "Termination" in text and "resign" in text
    imported = client.post("/api/games/import", json={"record": text}, headers={"origin": "http://testserver"})
    game = client.get(f"/api/games/{imported.json()['game']}").json()
    assert game["result"]["termination"] == "resign" and game["result"]["winner_seat"] == 0
