"""Tournaments through the real server: a small Swiss with people and a computer level, late entry,
withdrawal, the refusals, a hunt tournament, a correspondence deadline, and a restart mid-round."""

from __future__ import annotations

from pathlib import Path

from halali.server.testing import FakeClock, Peer, call, running, server_of
from halali.server.testing import account_peer as account
from halali.store.tournaments import NewPairing
from tournament_site_helpers import create, hunt_begun, resign_my_table, settings, state


def test_a_small_swiss_with_people_and_a_computer_level(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock)) as client:
        ann, bob, cat = account(client, "Ann"), account(client, "Bob"), account(client, "Cat")
        tid = create(ann)
        ann.send({"type": "tournament_level", "id": tid, "level": 1})
        for p in (ann, bob, cat):
            p.send({"type": "tournament_join", "id": tid})
        t = state(ann, lambda t: len(t["players"]) == 4)
        assert t["state"] == "upcoming" and t["next_in"] == 600 and t["you"]["entered"]
        level = next(p["id"] for p in t["players"] if p["level"] == 1)
        ann.send({"type": "tournament_start", "id": tid})
        t = state(ann, lambda t: t["state"] == "running" and t["round"] == 1 and len(t["pairings"]) == 2)
        tables = {p["table"] for p in t["pairings"]}
        players = {x for p in t["pairings"] for x in p["players"]}
        assert None not in tables and players == {ann.id, bob.id, cat.id, level}
        for p in (ann, bob, cat):  # each person hears that their game is ready, at their table
            (ready,) = p.collect("tournament_game")
            assert ready["tournament"] == tid and ready["round"] == 1 and ready["table"] in tables
        bob_table = next(p["table"] for p in t["pairings"] if bob.id in p["players"])
        assert bob.error({"type": "abort", "table": bob_table})["key"] == "error.tournament_no_abort"
        assert bob.error({"type": "bot", "table": bob_table, "level": 1})["key"] == "error.tournament_table"
        for pairing in t["pairings"]:  # in every pairing a person concedes; against the level, the person
            loser = next(p for p in (ann, bob, cat) if p.id in pairing["players"])
            resign_my_table(loser, pairing["table"])
        t = state(ann, lambda t: all(p["points"] is not None for p in t["pairings"]) and t["next_in"] is not None)
        # Started 10 minutes early, "a round every 30 minutes" counts from the real start.
        assert t["round"] == 1 and t["state"] == "running" and t["next_in"] == 30 * 60
        scores = {s["id"]: s["score"] for s in t["standings"]}
        assert sorted(scores.values()) == [0.0, 0.0, 1.0, 1.0] and scores[level] == 1.0
        clock.advance(3600)
        t = state(ann, lambda t: t["round"] == 2 and len(t["pairings"]) == 4)
        second = [p for p in t["pairings"] if p["round"] == 2]
        met = {frozenset(p["players"]) for p in t["pairings"] if p["round"] == 1}
        assert not {frozenset(p["players"]) for p in second} & met  # no rematch
        winners = {pid for pid, s in scores.items() if s == 1.0}
        assert any(set(p["players"]) == winners for p in second)  # the two winners meet
        for pairing in second:
            loser = next(p for p in (ann, bob, cat) if p.id in pairing["players"])
            resign_my_table(loser, pairing["table"])
        t = state(ann, lambda t: t["state"] == "finished")
        assert t["next_in"] is None and t["standings"][0]["id"] == level and t["standings"][0]["score"] == 2.0
        assert [row["id"] for row in t["crosstable"]] == [s["id"] for s in t["standings"]]
        listed = client.get("/api/tournaments").json()["tournaments"]
        assert [c["state"] for c in listed if c["id"] == tid] == ["finished"]


def test_entry_rules_late_entry_and_withdrawal(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock)) as client:
        ann, bob, cat = account(client, "Ann"), account(client, "Bob"), account(client, "Cat")
        guest = Peer(client)
        assert guest.error({"type": "tournament_create", "name": "x"})["key"] == "error.account_needed"
        assert ann.error({"type": "tournament_create", "name": "x", "rounds": 99})["key"] == "error.bad_request"
        assert ann.error({"type": "tournament_create", "name": "", "rounds": 3})["params"]["field"] == "name"
        tid = create(ann, rounds=3, entry={"max": 3})
        server_of(client).ctx.settings.tournaments_per_account = 1
        assert ann.error({"type": "tournament_create", "name": "y"})["key"] == "error.too_many_tournaments"
        assert guest.error({"type": "tournament_join", "id": tid})["key"] == "error.account_needed"
        assert ann.error({"type": "tournament_join", "id": "nope"})["key"] == "error.no_tournament"
        assert bob.error({"type": "tournament_start", "id": tid})["key"] == "error.not_owner"
        assert ann.error({"type": "tournament_start", "id": tid})["key"] == "error.tournament_too_few"
        ann.send({"type": "tournament_join", "id": tid})
        bob.send({"type": "tournament_join", "id": tid})
        state(ann, lambda t: len(t["players"]) == 2)
        assert bob.error({"type": "tournament_join", "id": tid})["key"] == "error.tournament_entered"
        clock.advance(600)  # the start time: it begins by itself
        t = state(ann, lambda t: t["round"] == 1 and t["pairings"])
        (table,) = [p["table"] for p in t["pairings"]]
        cat.send({"type": "tournament_join", "id": tid})  # late: round 1 missed, scored ½
        t = state(ann, lambda t: len(t["players"]) == 3)
        absent = [p for p in t["pairings"] if p["players"] == [cat.id]]
        assert [(p["round"], p["kind"], p["points"]) for p in absent] == [(1, "absent", [0.5])]
        resign_my_table(bob, table)
        t = state(ann, lambda t: t["next_in"] is not None and all(p["points"] for p in t["pairings"]))
        ann.send({"type": "tournament_withdraw", "id": tid})
        t = state(ann, lambda t: any(p["withdrawn"] for p in t["players"]))
        clock.advance(3600)
        t = state(ann, lambda t: t["round"] == 2)
        second = [p for p in t["pairings"] if p["round"] == 2]
        assert [sorted(p["players"]) for p in second] == [sorted([bob.id, cat.id])]  # Ann withdrawn: not paired
        assert {s["id"]: s["score"] for s in t["standings"]}[ann.id] == 1.0  # her result stays


def test_a_hunt_tournament_seats_tables_of_three(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock)) as client:
        ann = account(client, "Ann")
        _, pairing = hunt_begun(ann, rounds=1)
        assert len(pairing["players"]) == 3
        ann.send({"type": "open", "table": pairing["table"]})
        ann.expect("hare", lambda m: m["table"]["id"] == pairing["table"])
        ann.send({"type": "resign", "table": pairing["table"], "confirm": True})
        t = state(ann, lambda t: t["state"] == "finished")
        points = dict(zip(t["pairings"][0]["players"], t["pairings"][0]["points"], strict=True))
        assert points[ann.id] == 0.0 and sorted(points.values()) == [0.0, 0.75, 0.75]


def test_a_correspondence_round_ends_at_its_deadline(tmp_path: Path):
    clock = FakeClock()
    with running(settings(tmp_path, clock)) as client:
        ann, bob = account(client, "Ann"), account(client, "Bob")
        tid = create(ann, pace="correspondence", round_days=2, rounds=1)
        for p in (ann, bob):
            p.send({"type": "tournament_join", "id": tid})
        state(ann, lambda t: len(t["players"]) == 2)
        ann.send({"type": "tournament_start", "id": tid})
        t = state(ann, lambda t: t["round"] == 1 and t["pairings"])
        assert t["next_in"] == 2 * 86400  # the round's deadline
        clock.advance(2 * 86400 + 1)
        t = state(ann, lambda t: t["state"] == "finished")
        assert t["pairings"][0]["points"] == [0.5, 0.5]
        over = Peer(client)
        over.send({"type": "open", "table": t["pairings"][0]["table"]})
        assert over.expect("table")["games"][0]["termination"] == "deadline"


def test_a_restart_mid_round_and_a_round_written_before_its_tables(tmp_path: Path):
    clock = FakeClock()
    st = settings(tmp_path, clock)
    with running(st) as client:
        ann, bob = account(client, "Ann"), account(client, "Bob")
        ann_token, bob_token = ann.token, bob.token
        tid = create(ann, rounds=2)
        for p in (ann, bob):
            p.send({"type": "tournament_join", "id": tid})
        state(ann, lambda t: len(t["players"]) == 2)
        ann.send({"type": "tournament_start", "id": tid})
        t = state(ann, lambda t: t["round"] == 1 and t["pairings"])
        (table,) = [p["table"] for p in t["pairings"]]
    with running(st) as client:  # the match goes on after the restart, and its result counts
        bob = Peer(client, bob_token)
        resign_my_table(bob, table)
        ann = Peer(client, ann_token)
        ann.send({"type": "tournament_watch", "id": tid})
        t = state(ann, lambda t: t["pairings"][0]["points"] is not None)
        assert {s["id"]: s["score"] for s in t["standings"]} == {ann.id: 1.0, bob.id: 0.0}
        store = server_of(client).ctx.store
        # a crash between writing round 2 and seating its table: the next start seats it
        call(client, server_of(client).ctx.db, store.start_round, tid, 2,
             [NewPairing(1, (bob.id, ann.id), "t_crashed", "played")], None)
    with running(st) as client:
        # The start's own step may seat it before anyone is connected (nobody hears `tournament_game`
        # then): a step of our own waits for that one (the director's lock) and seats it otherwise.
        call(client, server_of(client).tournaments.director.step)
        ann = Peer(client, ann_token)
        ann.send({"type": "tournament_watch", "id": tid})
        assert state(ann, lambda t: t["round"] == 2)["you"]["table"] == "t_crashed"  # the page's link
        ann.send({"type": "open", "table": "t_crashed"})
        seated = ann.expect("table", lambda m: m["table"]["id"] == "t_crashed")
        assert seated["table"]["state"] == "playing" and seated["table"]["tournament"] == tid


def test_bot_accounts_enter_only_where_the_creator_allows(tmp_path: Path):
    with running(settings(tmp_path, FakeClock())) as client:
        ann, robo = account(client, "Ann"), account(client, "Robo")
        r = client.post("/api/bot-account", json={}, headers={"origin": "http://testserver",
                                                               "cookie": f"halali_session={robo.token}"})
        assert r.status_code == 200 and r.json()["bot_account"] is True
        client.cookies.clear()
        robo = Peer(client, robo.token)  # connected again: now known as a bot account
        closed = create(ann, entry={"bots": False})
        assert robo.error({"type": "tournament_join", "id": closed})["key"] == "error.tournament_no_bots"
        hunt = create(ann, game="hare")
        assert robo.error({"type": "tournament_join", "id": hunt})["key"] == "error.tournament_no_bots"
        open_ = create(ann)
        robo.send({"type": "tournament_join", "id": open_})
        t = state(ann, lambda t: t["id"] == open_ and len(t["players"]) == 1)
        assert t["players"][0]["bot"] is True
