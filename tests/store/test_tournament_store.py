"""Tournaments in the store, on SQLite and on PostgreSQL: entries, a round written at once, each result
written once, withdrawal, and the arena's ladder of the levels."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from halali.store import Store, hash_token
from halali.store.schema import tournament_pairings
from halali.store.tournaments import NewPairing


def test_a_round_and_its_results(store: Store):
    for pid in ("p_a", "p_b", "p_c"):
        store.create_player(pid, hash_token(pid), pid.upper())
    t = store.create_tournament("s_1", "forest", "Cup", "p_a", {}, 3, "live", None, 1800.0, True,
                                {"accounts": False}, 2, 1000.0)
    assert (t.state, t.round, t.next_at, t.entries, t.pairings) == ("upcoming", 0, 1000.0, (), ())
    for pid in ("p_a", "p_b", "p_c"):
        store.add_entry("s_1", pid, 1)
    store.start_round("s_1", 1, [NewPairing(1, ("p_a", "p_b"), "t_1", "played"),
                                 NewPairing(2, ("p_c",), None, "bye", (1.0,), (1.0,))], None)
    t = store.tournament("s_1")
    assert t is not None and (t.state, t.round, t.next_at) == ("running", 1, None)
    played, bye = t.pairings
    assert not played.done and played.points is None and bye.done and bye.points == (1.0,) and bye.tiles == (0,)
    assert store.pairing_for_table("t_1") == ("s_1", played.id)
    assert store.record_pairing(played.id, "played", (1.0, 0.0), (2.0, 0.0), (40, 12))
    assert not store.record_pairing(played.id, "played", (0.0, 1.0), (0.0, 2.0), (0, 0))  # once only
    store.withdraw_entry("s_1", "p_b", remove=False)
    store.add_entry("s_1", "p_c", 1)  # already in: nothing doubles
    t = store.tournament("s_1")
    assert t is not None and t.pairings[0].points == (1.0, 0.0) and t.pairings[0].tiles == (40, 12)
    assert [(e.player_id, e.withdrawn) for e in t.entries] == [("p_a", False), ("p_b", True), ("p_c", False)]
    store.set_tournament("s_1", state="finished", next_at=None)
    assert store.tournament_ids(("upcoming", "running")) == [] and [x.id for x in store.tournament_list()] == ["s_1"]


def test_the_ladder_of_the_levels(store: Store):
    ids = store.ensure_bots({1: "One", 2: "Two"})
    rungs = store.level_ladder("forest")
    assert [(r.level, r.player_id, r.rating, r.below_score) for r in rungs] == [
        (1, ids[1], None, None), (2, ids[2], None, None)]


def test_an_entry_again_writes_the_rounds_missed_under_their_numbers_and_migration_0012_mends_old_ones(
        store: Store):
    for pid in ("p_a", "p_b", "p_c"):
        store.create_player(pid, hash_token(pid), pid.upper())
    store.create_tournament("s_1", "forest", "Cup", "p_a", {}, 3, "live", None, 1800.0, True, {}, 2, 1000.0)
    for pid in ("p_a", "p_b", "p_c"):
        store.add_entry("s_1", pid, 1)
    store.start_round("s_1", 1, [NewPairing(1, ("p_a", "p_b"), "t_1", "played"),
                                 NewPairing(2, ("p_c",), None, "bye", (1.0,), (1.0,))], None)
    store.withdraw_entry("s_1", "p_a", remove=False)
    store.start_round("s_1", 2, [NewPairing(1, ("p_b", "p_c"), "t_2", "played")], None)
    absent = NewPairing(0, ("p_a",), None, "absent", (0.5,), (0.5,))
    before = store.tournament("s_1")
    with pytest.raises(ValueError):  # round 1 holds p_a's match: the whole entry is refused
        store.add_entry("s_1", "p_a", 3, None, [(1, absent), (2, absent)])
    assert store.tournament("s_1") == before
    store.add_entry("s_1", "p_a", 3, None, [(2, absent)])
    t = store.tournament("s_1")
    assert t is not None and [(p.round, p.kind) for p in t.pairings if "p_a" in p.players] == [
        (1, "played"), (2, "absent")]
    assert not next(e for e in t.entries if e.player_id == "p_a").withdrawn
    # A tournament written before the fix: p_a's ½ for round 2 under round 1, and one more that fits nowhere.
    with store.engine.begin() as conn:
        conn.execute(update(tournament_pairings).where(tournament_pairings.c.kind == "absent").values(round=1))
        store._add_pairing(conn, "s_1", 1, absent)
    store.migrate("0011", down=True)
    store.migrate()
    t = store.tournament("s_1")
    assert t is not None and [(p.round, p.kind) for p in t.pairings if "p_a" in p.players] == [
        (1, "played"), (2, "absent")]
