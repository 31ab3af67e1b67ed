"""Open challenges in the store on SQLite and PostgreSQL: found until they run out, listed for both
players, counted for the challenger, and taken (answered, called off, expired) by one caller only."""

from __future__ import annotations

from pathlib import Path

import pytest

from halali.server.testing import fresh_database
from halali.store import ChallengeRecord, Store


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path: Path):
    with fresh_database(request.param, tmp_path) as url:
        st = Store(url)
        try:
            for pid in ("p_ann", "p_bob", "p_cy"):
                st.create_player(pid, f"session-{pid}", pid)
            yield st
        finally:
            st.close()


def test_a_challenge_is_found_until_it_runs_out_and_is_taken_once(store: Store):
    c = ChallengeRecord("c_1", "p_ann", "p_bob", {"match": "single"}, False, "live",
                        {"initial": 300, "increment": 2}, 1060.0)
    store.add_challenge(c)
    store.add_challenge(ChallengeRecord("c_2", "p_cy", "p_ann", {}, True, "correspondence", None, 2000.0))
    assert store.challenge("c_1", 1000.0) == c
    assert [x.id for x in store.challenges_of("p_ann", 1000.0)] == ["c_1", "c_2"]
    assert [x.id for x in store.challenges_of("p_bob", 1000.0)] == ["c_1"]
    assert store.open_challenges_by("p_ann", 1000.0) == 1 and store.open_challenges_by("p_bob", 1000.0) == 0
    assert store.challenge("c_1", 1060.0) is None  # run out, even before its expiry is told
    assert store.take_challenge("c_2") and not store.take_challenge("c_2")  # one answer only
    assert store.challenges_of("p_cy", 1000.0) == []


def test_expired_challenges_are_taken_by_one_caller(store: Store):
    store.add_challenge(ChallengeRecord("c_1", "p_ann", "p_bob", {}, True, "live", None, 1060.0))
    store.add_challenge(ChallengeRecord("c_2", "p_ann", "p_cy", {}, True, "live", None, 1100.0))
    assert store.take_expired_challenges(1059.0) == []
    assert [c.id for c in store.take_expired_challenges(1060.0)] == ["c_1"]
    assert store.take_expired_challenges(1060.0) == []  # a second node finds nothing left to tell
    assert [c.id for c in store.challenges_of("p_ann", 1000.0)] == ["c_2"]
