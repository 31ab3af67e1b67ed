"""Clocks: time per player with an increment, enforced by the server, kept across a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.server.clock import GameClock, clock_spec
from halali.server.errors import ClientError
from halali.server.testing import FakeClock, Peer, call, running, server_of, settings_for_tests


def test_a_game_clock_runs_for_the_player_to_move_only():
    c = GameClock.start({"initial": 60, "increment": 5}, 1, now=100.0)
    assert c.left(1, 110.0) == 50_000 and c.left(0, 110.0) == 60_000
    assert c.after_action(1, 110.0) == 55_000
    c.apply(1, 55_000, 0, 110.0)
    assert c.json(112.5) == {"initial": 60, "increment": 5, "remaining": [57_500, 55_000], "running": 0}
    assert c.deadline() == 170.0 and not c.expired(169.9) and c.expired(170.0)
    assert c.left(0, 1000.0) == 0


@pytest.mark.parametrize(("mode", "clock", "field"), [
    ("blitz", None, "mode"),
    ("correspondence", {"initial": 60}, "clock"),
    ("live", {"initial": 5}, "clock"),
    ("live", {"initial": 60, "increment": 601}, "clock"),
    ("live", {"initial": "60"}, "clock"),
    ("live", {"initial": 60, "bonus": 1}, "clock"),
])
def test_bad_clocks_are_refused(mode, clock, field):
    with pytest.raises(ClientError) as info:
        clock_spec(mode, clock)
    assert info.value.key == "error.bad_request" and info.value.params == {"field": field}


def two_players(client, **create) -> tuple[dict[int, Peer], str, dict]:
    ann, bob = Peer(client), Peer(client)
    ann.send({"type": "create", "join": True, "seed": 11, **create})
    table = ann.expect("created")["table"]
    for p in (ann, bob):
        p.send({"type": "open", "table": table})
        p.expect("table")
    bob.send({"type": "join"})
    ann.expect("table", lambda m: m["table"]["seats"][1] is not None)
    ann.send({"type": "start"})
    game = bob.expect("game")
    ann.expect("game")
    return {0: ann, 1: bob}, table, game


def play(seats: dict[int, Peer], game: dict) -> dict:
    """The player to move plays its first legal action; returns the game message the other one gets."""
    g = game["game"]
    mover, other = seats[g["seat_to_move"]], seats[1 - g["seat_to_move"]]
    own = game if g["legal"] else mover.expect("game", lambda m: m["game"]["ply"] == g["ply"] and m["game"]["legal"])
    mover.send({"type": "action", "action": own["game"]["legal"][0], "ply": g["ply"]})
    return other.expect("game", lambda m: m["game"]["ply"] == g["ply"] + 1)


def test_the_clock_counts_down_adds_the_increment_and_a_flag_loses_the_match(tmp_path: Path, clock: FakeClock):
    settings = settings_for_tests(tmp_path, clock=clock, clock_poll=3600.0)
    with running(settings) as client:
        seats, table, game = two_players(client, clock={"initial": 60, "increment": 5})
        g = game["game"]
        assert g["clock"] == {"initial": 60, "increment": 5, "remaining": [60_000, 60_000], "running": 1}
        assert g["commitment"] and g["salt"] is None and g["deal"] is None
        clock.advance(10)
        game = play(seats, game)
        assert game["game"]["clock"]["remaining"] == [60_000, 55_000] and game["game"]["clock"]["running"] == 0
        clock.advance(59.9)
        call(client, server_of(client).tables.check_clocks)
        game = play(seats, game)  # still in time: 0.1 s left, then 5 s more
        assert game["game"]["clock"]["remaining"][0] == 5_100
        clock.advance(55.0)  # seat 1 (blue) has 55 s: gone
        call(client, server_of(client).tables.check_clocks)
        over = seats[0].expect("game", lambda m: m["game"]["over"])["game"]
        assert over["termination"] == "time" and over["result"]["winner_seat"] == 0
        assert over["result"]["winner"] == "brown" and over["clock"]["running"] is None
        assert over["clock"]["remaining"] == [5_100, 0]
        assert over["deal"] and over["salt"]  # the game is over: the deal and salt are published
        match = seats[0].expect("table")
        assert match["match"]["over"] and match["match"]["winner"] == 0 and match["table"]["state"] == "finished"
        seats[1].sync()  # the notices of the flag, sent before check_clocks returned, are in
        notices = [m["line"] for m in seats[1].received if m["type"] == "chat" and "key" in m["line"]]
        assert [n["params"] for n in notices if n["key"] == "chat.time_out"] == [
            {"name": seats[1].welcome["you"]["name"]}]
        assert seats[1].error({"type": "action", "action": "pass"})["key"] == "error.game_over"
        game_id = over["id"]
        listed = client.get(f"/api/games/{game_id}").json()
        assert listed["result"]["termination"] == "time" and listed["over"] is True
        record = client.get(f"/api/games/{game_id}/record").text
        assert '[Termination "time"]' in record and '[Result "brown"]' in record
    with running(settings) as client:  # the end on time is stored
        peer = Peer(client)
        peer.send({"type": "open", "table": table})
        msg = peer.expect("table")
        assert msg["table"]["state"] == "finished" and msg["match"]["winner"] == 0
        assert msg["games"][0]["termination"] == "time"


def test_an_action_after_the_flag_fell_ends_the_game_instead(tmp_path: Path, clock: FakeClock):
    with running(settings_for_tests(tmp_path, clock=clock, clock_poll=3600.0)) as client:
        seats, _, game = two_players(client, clock={"initial": 30, "increment": 0}, rules={"match": "single"})
        clock.advance(31)
        mover = seats[game["game"]["seat_to_move"]]
        own = mover.expect("game", lambda m: bool(m["game"]["legal"])) if not game["game"]["legal"] else game
        error = mover.error({"type": "action", "action": own["game"]["legal"][0], "ply": 0})
        assert error["key"] == "error.game_over"
        over = [m["game"] for m in mover.received if m["type"] == "game" and m["game"]["over"]]
        assert len(over) == 1 and over[0]["termination"] == "time" and over[0]["history"] == []


def test_the_server_flags_with_nobody_connected(tmp_path: Path, clock: FakeClock):
    with running(settings_for_tests(tmp_path, clock=clock, clock_poll=0.02)) as client:
        seats, table, _ = two_players(client, clock={"initial": 20, "increment": 1})
        for p in seats.values():
            p.close()
        clock.advance(21)
        for _ in range(200):  # the watcher looks every 0.02 s
            if server_of(client).tables.tables[table].state == "finished":
                break
            call(client, _sleep)
        assert server_of(client).tables.tables[table].state == "finished"
        games = client.get(f"/api/tables/{table}/games").json()["games"]
        assert games[0]["result"]["termination"] == "time" and games[0]["result"]["winner_seat"] == 0


async def _sleep() -> None:
    import asyncio

    await asyncio.sleep(0.02)


def test_clocks_come_back_after_a_restart_as_the_players_last_saw_them(tmp_path: Path, clock: FakeClock):
    settings = settings_for_tests(tmp_path, clock=clock, clock_poll=3600.0)
    with running(settings) as client:
        seats, table, game = two_players(client, clock={"initial": 100, "increment": 2})
        for step in range(5):
            clock.advance(3 + step)
            game = play(seats, game)
        seen = game["game"]["clock"]
    clock.advance(500)  # the server was down: that costs nobody time
    with running(settings) as client:
        peer = Peer(client, seats[0].token)
        peer.send({"type": "open", "table": table})
        again = peer.expect("table")["games"][0]
        assert again["clock"] == seen and again["ply"] == 5
        clock.advance(4)
        call(client, server_of(client).tables.check_clocks)
        assert server_of(client).tables.tables[table].state == "playing"
        left = server_of(client).tables.tables[table].play.clock.left(seen["running"], clock())
        assert left == seen["remaining"][seen["running"]] - 4000


def test_correspondence_tables_list_the_games_where_it_is_your_turn(client):
    seats, table, game = two_players(client, mode="correspondence")
    assert game["game"]["clock"] is None
    summary = client.get("/api/lobby").json()["tables"][0]
    # A test seed makes the match unrated, and the summary shows the match's own flag.
    assert (summary["mode"], summary["clock"], summary["rated"]) == ("correspondence", None, False)
    mover = game["game"]["seat_to_move"]
    watcher = Peer(client, seats[mover].token)
    watcher.send({"type": "lobby"})
    mine = watcher.expect("my_turn")["tables"]
    assert [t["id"] for t in mine] == [table] and mine[0]["mode"] == "correspondence"
    other = Peer(client, seats[1 - mover].token)
    other.send({"type": "lobby"})
    assert other.expect("my_turn")["tables"] == []
    play(seats, game)
    assert watcher.expect("my_turn")["tables"] == []
    assert [t["id"] for t in other.expect("my_turn")["tables"]] == [table]
    r = client.get("/api/my-turn", headers={"cookie": f"halali_session={seats[1 - mover].token}"})
    assert [t["id"] for t in r.json()["tables"]] == [table]


def test_a_computer_player_on_the_clock_is_told_the_time_it_has(tmp_path: Path, clock: FakeClock):
    with running(settings_for_tests(tmp_path, clock=clock, clock_poll=3600.0)) as client:
        _, table_id, game = two_players(client, clock={"initial": 60, "increment": 5})
        clock.advance(12)
        services = server_of(client)
        table = services.tables.tables[table_id]
        asked: list[tuple[object, ...]] = []

        async def run(fn: object, *args: object) -> str:  # the worker pool, as the computer turn calls it
            asked.append(args)
            return "pass"

        seat = game["game"]["seat_to_move"]
        call(client, services.tables.game_of(table).bot_answer, run, table, seat, 6, 1.0, 7, clock())
        level, fen, _rules, movetime, seed, told = asked[-1]
        assert (level, movetime, seed) == (6, 1.0, 7) and told == (48.0, 5.0)
        assert "?" in str(fen)  # the view, never the deal
