"""The store: migrations at startup, one transaction per call, tables rebuilt in order."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from halali.store import Store, sqlite_url

VERSIONS = Path(__file__).parents[1] / "src/halali/store/migrations/versions"
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


def test_players_are_found_by_token_and_only_its_hash_is_kept(store: Store, tmp_path: Path):
    store.create_player("p_1", "secret-token", "Ann")
    assert store.player_by_token("secret-token").name == "Ann"
    assert store.player_by_token("other") is None
    store.rename_player("p_1", "Annie")
    assert store.players(["p_1", "p_2"]) == {"p_1": store.player_by_token("secret-token")}
    assert b"secret-token" not in (tmp_path / "db.sqlite3").read_bytes()


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
