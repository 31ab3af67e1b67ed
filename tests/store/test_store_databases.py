"""The store on SQLite and on PostgreSQL: migrations up and down, sessions and accounts, imports."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from halali.server.testing import fresh_database
from halali.store import Store, hash_token

KINDS = ["sqlite", "postgresql"]
NEW_TABLES = {"table_leases", "sessions", "ratings", "rating_history", "attempts", "tournaments",
              "tournament_entries", "tournament_pairings", "api_tokens"}
# The newest revision: the migrations are numbered files.
HEAD = max(p.name[:4] for p in (Path(__file__).parents[2] / "src/halali/store/migrations/versions").glob("0*.py"))


@pytest.fixture(params=KINDS)
def url(request, tmp_path: Path):
    with fresh_database(request.param, tmp_path) as u:
        yield u


def tables(store: Store) -> set[str]:
    return set(inspect(store.engine).get_table_names())


def version(store: Store) -> str | None:
    with store.engine.connect() as conn:
        if "alembic_version" not in tables(store):
            return None
        return conn.execute(text("select version_num from alembic_version")).scalar()


def test_migrations_up_and_down_keep_the_sessions(url: str):
    store = Store(url, migrate=False)
    try:
        store.migrate("0001")
        assert version(store) == "0001" and not NEW_TABLES & tables(store)
        with store.engine.begin() as conn:  # a guest of the first schema
            conn.execute(text("insert into players (id, token_hash, name, created_at) values (:i, :t, :n, :c)"),
                         {"i": "p_old", "t": hash_token("old-token"), "n": "Old", "c": datetime.now(UTC)})
        store.migrate()
        assert version(store) == HEAD and tables(store) >= NEW_TABLES
        assert store.player_by_token("old-token").id == "p_old"
        store.add_session("p_old", "second-token")
        store.ensure_bots({1: "random"})
        store.migrate("0001", down=True)
        assert version(store) == "0001" and not NEW_TABLES & tables(store)
        columns = {c["name"] for c in inspect(store.engine).get_columns("players")}
        assert "token_hash" in columns and "login" not in columns
        store.migrate()
        found = store.player_by_token("second-token") or store.player_by_token("old-token")
        assert found is not None and found.id == "p_old"  # one session per player survives the round trip
        store.migrate("base", down=True)
        assert tables(store) <= {"alembic_version"}
        store.migrate()
        assert version(store) == HEAD and store.player_by_token("old-token") is None
    finally:
        store.close()


def test_the_migrations_build_exactly_the_schema_the_code_uses(url: str):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from halali.store import schema

    store = Store(url)
    try:
        with store.engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), schema.metadata) == []
    finally:
        store.close()


def test_bots_per_game_type_up_and_down(url: str):
    store = Store(url)
    try:
        forest = store.ensure_bots({1: "random", 2: "greedy"})
        hare = store.ensure_bots({1: "random", 3: "strong"}, game="hare")
        assert forest == {1: "bot_1", 2: "bot_2"} and hare == {1: "hare_bot_1", 3: "hare_bot_3"}
        assert store.ensure_bots({3: "strong"}, game="hare") == {3: "hare_bot_3"}  # found again, not doubled
        store.migrate("0002", down=True)
        assert version(store) == "0002"
        with store.engine.connect() as conn:
            ids = set(conn.execute(text("select id from players where bot_level is not null")).scalars())
        assert ids == {"bot_1", "bot_2"}  # the hare bots go, the forest bots stay
        store.migrate()
        assert store.ensure_bots({1: "random"}) == {1: "bot_1"}
        assert store.ensure_bots({1: "random"}, game="hare") == {1: "hare_bot_1"}
    finally:
        store.close()


def test_foreign_keys_stay_on_after_a_migration(tmp_path: Path):
    with fresh_database("sqlite", tmp_path) as u:
        store = Store(u)
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        store.close()


def test_a_match_with_fair_deal_and_clock_columns_round_trips(url: str):
    store = Store(url)
    try:
        store.create_player("p_1", "t1", "Ann")
        store.ensure_bots({2: "greedy"})
        store.create_table("t_1", "forest", {"match": "single"}, "p_1", rated=False, mode="live",
                           clock={"initial": 60, "increment": 2})
        match = store.start_match("t_1", 1, ["deal"], ["salt"], ["commit"], ("p_1", "bot_2"), rated=False)
        gid = match.games[0].id
        store.record_action("t_1", gid, 0, "?a1=P", 1, clock_ms=61_500)
        store.end_match("t_1", gid, {"winner_seat": 1, "winner": "blue"}, match.id, 1)
        snap = store.load_table("t_1")
        assert (snap.table.rated, snap.table.mode, snap.table.clock) == (False, "live", {"initial": 60,
                                                                                          "increment": 2})
        game = snap.match.games[0]
        assert (game.salt, game.commitment, game.termination) == ("salt", "commit", "time")
        assert game.actions[0].clock_ms == 61_500 and snap.match.players == ("p_1", "bot_2")
        assert snap.table.state == "finished" and snap.match.winner_seat == 1
        games, more = store.finished_games(player_id="p_1")
        assert [g.id for g in games] == [gid] and not more and games[0].players[1].bot == 2
        assert store.match_results("bot_2") == [(1, 1)]
        detail = store.game_detail(gid)
        assert detail.actions == ("?a1=P",) and detail.deal == "deal" and detail.over
        imported = store.import_game("t_2", "p_1", {}, "deal2", ["?a1=P"], None, {"Blue": "X"})
        assert store.game_detail(imported).summary.archived and store.table_ids() == []
    finally:
        store.close()


@pytest.fixture
def pg_store(tmp_path: Path):
    with fresh_database("postgresql", tmp_path) as u:
        s = Store(u)
        yield s
        s.close()


def test_the_repository_tests_on_postgresql(pg_store: Store):
    """The first store tests (written for SQLite) pass unchanged on PostgreSQL."""
    from test_store_repository import test_a_table_is_loaded_with_seats_match_actions_and_chat

    test_a_table_is_loaded_with_seats_match_actions_and_chat(pg_store)


def test_a_fork_is_refused_on_postgresql(pg_store: Store):
    from test_store_repository import test_a_second_action_at_the_same_ply_is_refused

    test_a_second_action_at_the_same_ply_is_refused(pg_store)
