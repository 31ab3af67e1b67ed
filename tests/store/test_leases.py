"""Table leases with fencing tokens, on SQLite and PostgreSQL: one holder at a time, a new token at
every change of holder, and a node that lost its table refused at every write, however late."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from halali.server.testing import fresh_database
from halali.store import ActionWrite, LeaseLost, Store

TTL = 5.0


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path: Path):
    with fresh_database(request.param, tmp_path) as u:
        yield u


def node_store(url: str, node: str) -> Store:
    store = Store(url)
    store.enable_fencing(node, TTL)
    return store


def test_one_holder_at_a_time_and_a_new_token_at_every_change(url: str) -> None:
    a, b = node_store(url, "a"), node_store(url, "b")
    try:
        a.create_table("t_1", "forest", {}, None)  # the creating node holds it, token 1
        lease = a.lease("t_1")
        assert lease is not None and (lease.node, lease.token) == ("a", 1)
        t0 = lease.expires_at
        assert b.acquire_lease("t_1", "b", t0 - 1, TTL) is None  # still a's
        assert a.renew_leases("a", {"t_1": 1}, t0 - 1, TTL) == set()  # a keeps it, same token
        taken = b.acquire_lease("t_1", "b", t0 - 1 + TTL + 0.1, TTL)  # a stopped renewing: b takes it
        assert taken is not None and taken.token == 2 and b.fences == {"t_1": 2}
        assert a.renew_leases("a", {"t_1": 1}, t0 + TTL + 1, TTL) == {"t_1"} and a.fences == {}
        assert a.orphaned_tables(("waiting",), t0 + TTL + 1) == []  # b's lease is live
        assert b.orphaned_tables(("waiting",), taken.expires_at + 1) == ["t_1"]
        b.release_lease("t_1", "b", 2)
        again = a.acquire_lease("t_1", "a", taken.expires_at - 1, TTL)  # released: no wait
        assert again is not None and again.token == 3
    finally:
        a.close()
        b.close()


def test_a_node_that_lost_its_lease_can_never_write_again(url: str) -> None:
    a, b = node_store(url, "a"), node_store(url, "b")
    try:
        a.create_table("t_2", "forest", {}, None)
        match = a.start_match("t_2", 1, ["deal"])
        game = match.games[0].id
        a.record_actions([ActionWrite("t_2", game, 0, "?a1=N", 1, None, match.id)])
        lease = a.lease("t_2")
        assert lease is not None
        b.acquire_lease("t_2", "b", lease.expires_at + 1, TTL)  # a was paused past its expiry
        # a wakes up believing it still owns the table: every kind of write is refused, nothing changes
        for write in (lambda: a.record_actions([ActionWrite("t_2", game, 1, "?a2=T", 0, None, match.id)]),
                      lambda: a.add_chat("t_2", None, None, "chat.joined", {}),
                      lambda: a.set_seat("t_2", 0, None, 1),
                      lambda: a.set_state("t_2", "finished"),
                      lambda: a.end_match("t_2", game, {"winner_seat": 0}, match.id, 0)):
            with pytest.raises(LeaseLost):
                write()
        snap = b.load_table("t_2")
        assert snap is not None and snap.table.state == "playing" and not snap.chat
        assert [x.action for x in snap.match.games[0].actions] == ["?a1=N"]
        b.record_actions([ActionWrite("t_2", game, 1, "?a2=T", 0, None, match.id)])  # the new owner writes
        assert [x.action for x in b.load_table("t_2").match.games[0].actions] == ["?a1=N", "?a2=T"]
    finally:
        a.close()
        b.close()


def test_a_group_commit_with_one_lost_table_writes_nothing(url: str) -> None:
    """The fence of a group commit covers all its tables at once: one table taken over refuses the
    whole transaction (the writer then retries the actions one by one), and nothing of it is written."""
    a, b = node_store(url, "a"), node_store(url, "b")
    try:
        games = {}
        for t in ("t_4", "t_5"):
            a.create_table(t, "forest", {}, None)
            match = a.start_match(t, 1, ["deal"])
            games[t] = (match.games[0].id, match.id)
        lease = a.lease("t_5")
        assert lease is not None
        b.acquire_lease("t_5", "b", lease.expires_at + 1, TTL)
        both = [ActionWrite(t, games[t][0], 0, "?a1=N", 1, None, games[t][1]) for t in ("t_4", "t_5")]
        with pytest.raises(LeaseLost):
            a.record_actions(both)
        assert not b.load_table("t_4").match.games[0].actions
        a.record_actions(both[:1])  # t_4 is still a's
        assert [x.action for x in b.load_table("t_4").match.games[0].actions] == ["?a1=N"]
    finally:
        a.close()
        b.close()


def test_a_single_server_fences_nothing(tmp_path: Path) -> None:
    with fresh_database("sqlite", tmp_path) as u:
        store = Store(u)
        store.create_table("t_3", "forest", {}, None)
        store.add_chat("t_3", None, None, "chat.joined", {})
        assert store.lease("t_3") is None
        store.close()


@pytest.mark.parametrize("fenced", [True, False])
def test_a_group_commit_of_actions_is_one_statement_without_a_transaction_on_postgresql(tmp_path: Path,
                                                                                         fenced: bool) -> None:
    """On PostgreSQL the usual group commit (actions only) is one statement in autocommit mode, so one
    round trip, fenced or not; it is still all or nothing, and a game's end keeps its transaction."""
    from sqlalchemy import event

    with fresh_database("postgresql", tmp_path) as u:
        store = node_store(u, "a") if fenced else Store(u)
        try:
            ids = {}
            for t in ("t_6", "t_7"):
                store.create_table(t, "forest", {}, None)
                match = store.start_match(t, 1, ["deal", "deal"])
                ids[t] = (match.games[0].id, match.id)
            seen: list[tuple[str, bool]] = []

            def statement(conn, cursor, text, params, context, many) -> None:  # type: ignore[no-untyped-def]
                seen.append((text.split()[0], conn.connection.dbapi_connection.autocommit))

            event.listen(store.engine, "before_cursor_execute", statement)
            store.record_actions([ActionWrite(t, ids[t][0], 0, "?a1=N", 1, None, ids[t][1]) for t in ids])
            assert [autocommit for _, autocommit in seen] == [True]
            seen.clear()
            again = [ActionWrite("t_6", ids["t_6"][0], 1, "?a2=T", 0, None, ids["t_6"][1]),
                     ActionWrite("t_7", ids["t_7"][0], 0, "?a2=T", 0, None, ids["t_7"][1])]  # t_7's ply 0 again
            with pytest.raises(IntegrityError):
                store.record_actions(again)
            assert [a.action for a in store.load_table("t_6").match.games[0].actions] == ["?a1=N"]  # nothing
            seen.clear()
            store.record_actions([ActionWrite("t_6", ids["t_6"][0], 1, "?a2=T", 0, {"winner_seat": 0},
                                              ids["t_6"][1])])  # ends the game: the action and the result
            assert len(seen) == 2 and not any(autocommit for _, autocommit in seen)
            assert store.load_table("t_6").match.games[0].result == {"winner_seat": 0}
        finally:
            store.close()
