"""The bot accounts' part of the store on SQLite and PostgreSQL: who may become a bot, tokens as hashes
(found, touched, revoked), the matches a bot began lately, and the two ladders kept apart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from halali.store import NotEligible, RatingRequest, Store, hash_token
from halali.store import schema as s


def account(store: Store, pid: str, name: str) -> None:
    store.create_player(pid, f"session-{pid}", name)
    store.register(pid, name.lower(), name, "hash", f"session-{pid}", f"new-{pid}")


def rated_match(store: Store, table: str, a: str, b: str, winner: int = 0) -> int:
    store.create_table(table, "forest", {}, a)
    match = store.start_match(table, 1, ["deal"], players=(a, b), rated=True)
    store.end_match(table, match.games[0].id, {"winner_seat": winner}, match.id, winner,
                    RatingRequest("forest", match.id, (a, b), winner_seat=winner), "resign")
    return match.id


def test_who_may_become_a_bot_and_its_tokens(store: Store):
    store.create_player("p_guest", "g", "Guest 1")
    with pytest.raises(NotEligible) as guest:
        store.make_bot_account("p_guest")
    assert guest.value.reason == "account"
    account(store, "p_ann", "Ann")
    account(store, "p_bob", "Bob")
    rated_match(store, "t_1", "p_ann", "p_bob")
    with pytest.raises(NotEligible) as rated:
        store.make_bot_account("p_ann")
    assert rated.value.reason == "rated"
    account(store, "p_robo", "Robo")
    rec = store.make_bot_account("p_robo")
    assert rec.bot_account and rec.account
    assert store.make_bot_account("p_robo").bot_account  # again: nothing changes
    assert store.players(["p_robo"])["p_robo"].bot_account and not store.players(["p_ann"])["p_ann"].bot_account

    first = store.add_api_token("p_robo", "hal_one", "laptop", limit=2)
    assert first is not None and store.add_api_token("p_robo", "hal_two", "server", limit=2) is not None
    assert store.add_api_token("p_robo", "hal_three", "more", limit=2) is None
    with store.engine.connect() as conn:
        assert set(conn.execute(select(s.api_tokens.c.token_hash)).scalars()) == {hash_token("hal_one"),
                                                                                  hash_token("hal_two")}
    assert store.player_by_api_token("hal_one").id == "p_robo"
    assert store.api_tokens("p_robo")[0].last_used_at is not None
    assert store.player_by_api_token("hal_nope") is None
    assert store.revoke_api_token("p_ann", first.id) is None  # not Ann's to revoke
    assert store.revoke_api_token("p_robo", first.id) == hash_token("hal_one")
    assert store.player_by_api_token("hal_one") is None
    assert [t.label for t in store.api_tokens("p_robo")] == ["server"]


def test_a_bots_matches_and_the_two_ladders(store: Store):
    for pid, name in (("p_ann", "Ann"), ("p_robo", "Robo"), ("p_tin", "Tin")):
        account(store, pid, name)
    store.make_bot_account("p_robo")
    store.make_bot_account("p_tin")
    since = datetime.now(UTC) - timedelta(days=1)
    assert store.matches_begun_since("p_robo", since) == 0
    rated_match(store, "t_1", "p_robo", "p_ann", winner=0)
    rated_match(store, "t_2", "p_robo", "p_tin", winner=0)
    store.create_table("t_3", "forest", {}, "p_robo")
    aborted = store.start_match("t_3", 1, ["deal"], players=("p_robo", "p_tin"))
    store.abort_match("t_3", aborted.id, aborted.games[0].id)
    assert store.matches_begun_since("p_robo", since) == 2
    assert store.matches_begun_since("p_robo", datetime.now(UTC) + timedelta(seconds=5)) == 0
    total, people = store.leaderboard("forest")
    assert total == 1 and [p.id for _, p in people] == ["p_ann"]
    total, bots = store.leaderboard("forest", bots=True)
    assert total == 2 and [p.id for _, p in bots] == ["p_robo", "p_tin"]
    robo = next(r for r, p in bots if p.id == "p_robo")
    assert store.rank("forest", robo.rating, bots=True) == 1
    ann = people[0][0]
    assert store.rank("forest", ann.rating) == 1  # the bots above her are on their own ladder
