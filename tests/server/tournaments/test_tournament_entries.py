"""Entering a running tournament again after withdrawing: the rounds missed meanwhile score ½ each
under their own numbers, the player is paired from the next round, and the tournament stays readable."""

from __future__ import annotations

from pathlib import Path

from halali.server.testing import FakeClock, Peer, running, server_of
from halali.server.testing import account_peer as account
from halali.store.tournaments import NewPairing
from tournament_site_helpers import create, resign_my_table, settings, state


def results_by_round(t: dict, pid: str) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for p in t["pairings"]:
        if pid in p["players"]:
            out.setdefault(p["round"], []).append(p["kind"])
    return out


def test_entering_again_after_withdrawing_scores_the_rounds_missed_by_their_numbers(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock)) as client:
        ann, bob = account(client, "Ann"), account(client, "Bob")
        tid = create(ann, pace="correspondence", round_days=3, rounds=3)
        ann.send({"type": "tournament_level", "id": tid, "level": 1})
        for p in (ann, bob):
            p.send({"type": "tournament_join", "id": tid})
        state(ann, lambda t: len(t["players"]) == 3)
        ann.send({"type": "tournament_start", "id": tid})
        t = state(ann, lambda t: t["round"] == 1 and t["pairings"])
        ann.send({"type": "tournament_withdraw", "id": tid})
        state(ann, lambda t: any(p["withdrawn"] for p in t["players"]))
        for pairing in (p for p in t["pairings"] if p["table"]):  # round 1 ends: Ann resigns hers, if any
            resign_my_table(ann if ann.id in pairing["players"] else bob, pairing["table"])
        t = state(ann, lambda t: t["round"] == 2 and any(p["round"] == 2 for p in t["pairings"]))
        assert 2 not in results_by_round(t, ann.id)  # withdrawn: not paired in round 2
        ann.send({"type": "tournament_join", "id": tid})  # during round 2 (Bob has not moved)
        t = state(ann, lambda t: t["you"]["entered"])
        assert not [m for m in ann.sync() if m["type"] == "error"]
        rounds = results_by_round(t, ann.id)  # one result a round: round 1's as it was, ½ for round 2
        assert set(rounds) == {1, 2} and len(rounds[1]) == 1 and rounds[2] == ["absent"]
        assert [p["points"] for p in t["pairings"] if p["round"] == 2 and p["players"] == [ann.id]] == [[0.5]]
        r = client.get(f"/api/tournaments/{tid}")
        assert r.status_code == 200 and r.json()["round"] == 2
        (second,) = [p for p in t["pairings"] if p["round"] == 2 and p["table"]]
        resign_my_table(bob, second["table"])
        t = state(ann, lambda t: t["round"] == 3 and any(p["round"] == 3 for p in t["pairings"]))
        assert list(results_by_round(t, ann.id)) == [1, 2, 3]  # paired again from the next round
        assert client.get(f"/api/tournaments/{tid}").status_code == 200


def test_an_entry_the_store_refuses_changes_nothing(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock)) as client:
        ann, bob = account(client, "Ann"), account(client, "Bob")
        tid = create(ann, pace="correspondence", rounds=3)
        for p in (ann, bob):
            p.send({"type": "tournament_join", "id": tid})
        state(ann, lambda t: len(t["players"]) == 2)
        ann.send({"type": "tournament_start", "id": tid})
        state(ann, lambda t: t["round"] == 1 and t["pairings"])
        store = server_of(client).ctx.store
        cat = Peer(client)
        before = store.tournament(tid)
        absent = NewPairing(0, (cat.id,), None, "absent", (0.5,), (0.5,))
        try:  # round 1 twice: the second must refuse the whole entry
            store.add_entry(tid, cat.id, 2, None, [(1, absent), (1, absent)])
        except ValueError:
            pass
        else:
            raise AssertionError("an entry with two results in one round was taken")
        assert store.tournament(tid) == before
