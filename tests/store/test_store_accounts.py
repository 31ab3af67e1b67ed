"""Players, sessions and accounts in the store, on SQLite and on PostgreSQL: only hashes of tokens
are kept, a registration rotates the session, and a login name taken is refused without a change."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.server.testing import fresh_database
from halali.store import NameTaken, Store, sqlite_url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path: Path):
    with fresh_database(request.param, tmp_path) as u:
        yield u


def test_players_are_found_by_token_and_only_its_hash_is_kept(tmp_path: Path):
    store = Store(sqlite_url(tmp_path / "db.sqlite3"))
    try:
        store.create_player("p_1", "secret-token", "Ann")
        assert store.player_by_token("secret-token").name == "Ann"
        assert store.player_by_token("other") is None
        store.rename_player("p_1", "Annie")
        assert store.players(["p_1", "p_2"]) == {"p_1": store.player_by_token("secret-token")}
        assert b"secret-token" not in (tmp_path / "db.sqlite3").read_bytes()
    finally:
        store.close()


def test_sessions_accounts_and_names(url: str):
    store = Store(url)
    try:
        store.create_player("p_1", "guest-token", "Guest 1")
        rec = store.register("p_1", "ann", "Ann", "$argon2id$hash", "guest-token", "account-token")
        assert rec.account and store.player_by_token("guest-token") is None
        assert store.player_by_token("account-token").name == "Ann"
        account = store.account_by_login("ann")
        assert account.player.id == "p_1" and account.password_hash == "$argon2id$hash"
        store.create_player("p_2", "token-2", "Guest 2")
        with pytest.raises(NameTaken):
            store.register("p_2", "ann", "ANN", "$argon2id$other", "token-2", "token-3")
        assert store.player_by_token("token-2").id == "p_2"  # the failed registration changed nothing
        assert store.player_by_token("token-3") is None
        store.switch_session("token-2", "p_1", "token-4")
        assert store.player_by_token("token-4").id == "p_1" and store.player_by_token("token-2") is None
        store.end_session("token-4")
        assert store.player_by_token("token-4") is None
        assert store.ensure_bots({1: "random", 2: "greedy"}) == {1: "bot_1", 2: "bot_2"}
        assert store.ensure_bots({1: "random"}) == {1: "bot_1"}
        assert store.players(["bot_2"])["bot_2"].bot == 2
    finally:
        store.close()
