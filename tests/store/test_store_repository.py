"""The store: migrations at startup, one transaction per call, tables rebuilt in order."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from halali.store import Store, sqlite_url

VERSIONS = Path(__file__).parents[2] / "src/halali/store/migrations/versions"
HEAD = sorted(p.name[:4] for p in VERSIONS.glob("0*.py"))[-1]


@pytest.fixture
def store(tmp_path: Path):
    s = Store(sqlite_url(tmp_path / "db.sqlite3"))
    yield s
    s.close()


def test_migrations_create_the_schema_and_run_again_harmlessly(tmp_path: Path):
    url = sqlite_url(tmp_path / "db.sqlite3")
    Store(url).close()
    Store(url).close()
    engine = create_engine(url)
    names = set(inspect(engine).get_table_names())
    assert {"players", "game_tables", "seats", "matches", "games", "actions", "chat", "alembic_version"} <= names
    with engine.connect() as conn:
        assert conn.execute(text("select version_num from alembic_version")).scalar() == HEAD
        assert conn.execute(text("pragma journal_mode")).scalar() in ("wal", "delete")
    engine.dispose()


def test_a_table_is_loaded_with_seats_match_actions_and_chat(store: Store):
    store.create_player("p_1", "t1", "Ann")
    store.create_table("t_1", "forest", {"match": "single"}, "p_1", test_seed=4)
    store.set_seat("t_1", 0, "p_1")
    store.set_seat("t_1", 1, bot_level=2)
    store.add_chat("t_1", "p_1", "hi")
    store.add_chat("t_1", key="chat.joined", params={"name": "Ann", "seat": 0})
    match = store.start_match("t_1", 1, ["deal-one"])
    gid = match.games[0].id
    for ply, action in enumerate(["?a1=P", "?b1=T", "a1-a2"]):
        store.record_action("t_1", gid, ply, action, ply % 2)
    store.record_action("t_1", gid, 3, "pass", 1, game_result={"winner": None}, match_id=match.id,
                        match_winner=None, match_over=True)
    snap = store.load_table("t_1")
    assert snap.table.state == "finished" and snap.table.rules == {"match": "single"} and snap.table.test_seed == 4
    assert [(s.player_id, s.bot_level) for s in snap.seats] == [("p_1", None), (None, 2)]
    assert snap.match.finished and snap.match.games[0].deal == "deal-one"
    assert [a.action for a in snap.match.games[0].actions] == ["?a1=P", "?b1=T", "a1-a2", "pass"]
    assert snap.match.games[0].result == {"winner": None}
    assert [c.text or c.key for c in snap.chat] == ["hi", "chat.joined"]
    assert snap.players["p_1"].name == "Ann"
    assert store.load_table("t_none") is None
    assert store.table_ids() == []
    assert store.table_ids(("finished",)) == ["t_1"]


def test_a_second_action_at_the_same_ply_is_refused(store: Store):
    store.create_table("t_1", "forest", {}, None)
    gid = store.start_match("t_1", 1, ["d1", "d2"]).games[0].id
    store.record_action("t_1", gid, 0, "?a1=P", 1)
    with pytest.raises(IntegrityError):
        store.record_action("t_1", gid, 0, "?b1=P", 1)
    assert [a.action for a in store.load_table("t_1").match.games[0].actions] == ["?a1=P"]


def test_finished_hunts_page_by_player_and_table_with_who_sat_where(store: Store):
    store.create_player("p_a", "token-a", "Ann")
    store.create_player("p_b", "token-b", "Bob")
    bots = store.ensure_bots({2: "heuristic"}, game="hare")
    store.create_table("t_h", "hare", {}, None, seats=3)
    ids = []
    for n, seats in enumerate([("p_a", bots[2], None), ("p_a", "p_b", bots[2]), ("p_b", bots[2], bots[2])], 1):
        m = store.start_match("t_h", n, [f"start {n}"], seat_players=seats)
        game = m.games[0].id
        ids.append(game)
        store.record_action("t_h", game, 0, "roll=1,2", 0)
        if n < 3:  # the third hunt is still running
            store.record_action("t_h", game, 1, "end", 0, game_result={"result": [0.5, 0.5, 0.0],
                                                                          "placings": [1.5, 1.5, 3.0]},
                                match_id=m.id, match_over=True)
    hunts, more = store.finished_hunts(table_id="t_h", limit=1)
    assert [h.id for h in hunts] == [ids[1]] and more
    assert [p.id if p else None for p in hunts[0].players] == ["p_a", "p_b", "hare_bot_2"]
    hunts, more = store.finished_hunts(table_id="t_h", before=ids[1], limit=1)
    assert [h.id for h in hunts] == [ids[0]] and not more and hunts[0].players[2] is None
    assert [h.id for h in store.finished_hunts(player_id="p_b")[0]] == [ids[1]]  # not the running one
    assert [h.id for h in store.finished_hunts(player_id="hare_bot_2")[0]] == [ids[1], ids[0]]
    assert store.finished_games(table_id="t_h")[0] == []  # hunts are not forest games
    assert sorted(store.hunt_results("p_a")) == [0.5, 0.5] and store.hunt_results("p_b") == [0.5]
    assert sorted(store.hunt_results("hare_bot_2")) == [0.0, 0.5]
    detail = store.hunt_detail(ids[2])
    assert detail is not None and not detail.over and detail.start == "start 3" and detail.actions == ("roll=1,2",)
    assert store.hunt_detail(ids[0]).over and store.hunt_detail(999999) is None
