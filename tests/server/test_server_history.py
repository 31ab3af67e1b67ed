"""History, replays, records and analysis over the API; the fair-deal commitment end to end."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from forest_helpers import random_record
from halali.ai.luck import mark
from halali.games.forest.record import parse_record, verify
from halali.server.testing import FakeClock, computer_match, person_against_computer, running, settings_for_tests

pytestmark = pytest.mark.heavy

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A server with one finished single game between two computer levels, watched from start to end."""
    with running(settings_for_tests(tmp_path_factory.mktemp("history"), analysis_nodes=5000,
                                 background_analysis=True)) as client:
        peer, table, last = computer_match(client, rules={"match": "single"}, timeout=60)
        yield client, peer, table, last["game"]


def board(fen: str) -> str:
    return fen.split(" ")[0]


def test_the_commitment_is_published_at_the_start_and_opened_at_the_end(played):
    _, peer, _, last = played
    games = [m["game"] for m in peer.received if m["type"] == "game"]
    first = games[0]
    assert first["ply"] == 0 and re.fullmatch(r"[0-9a-f]{64}", first["commitment"])
    assert all(g["commitment"] == first["commitment"] for g in games)
    assert all(g["salt"] is None and g["deal"] is None for g in games if not g["over"])
    salt = last["salt"]
    before_end = [raw for raw in peer.raw if '"over":true' not in raw]
    assert not any(salt in raw for raw in before_end)  # never sent before the end
    assert hashlib.sha256(f"{last['deal']}\n{salt}".encode()).hexdigest() == first["commitment"]


def test_a_game_in_full_for_the_replay_page(played):
    client, _, table, last = played
    game = client.get(f"/api/games/{last['id']}").json()
    assert game["actions"] == last["history"] and len(game["positions"]) == len(game["actions"]) + 1
    assert game["positions"][-1] == last["position"] and game["scores"][-1] == last["score"]
    assert game["deal"] == last["deal"] and game["salt"] == last["salt"] and game["over"] is True
    # seat 1 plays blue in game 1; two computers at the table are numbered by their seats
    assert game["blue"] == {"id": "bot_2", "name": "greedy", "bot": 2, "number": 2}
    assert game["table"] == table and game["rated"] is True and game["archived"] is False
    assert all(not re.search(r"[a-z]", board(p).replace("x", "")) for p in game["positions"])  # public views
    assert client.get("/api/games/999999").status_code == 404
    assert client.get("/api/games/abc").json()["error"]["key"] == "error.no_game"


def test_history_lists_per_player_and_per_table_with_pages(played):
    client, _, table, last = played
    for path in ("/api/players/bot_1/games", f"/api/tables/{table}/games"):
        listed = client.get(path).json()
        assert [g["id"] for g in listed["games"]] == [last["id"]] and listed["more"] is False
        assert listed["games"][0]["result"]["winner_seat"] == last["result"]["winner_seat"]
    assert client.get(f"/api/players/bot_1/games?before={last['id']}").json() == {"games": [], "more": False}
    assert client.get("/api/players/nobody/games").status_code == 404
    assert client.get("/api/players/bot_1/games?limit=0").status_code == 400


def test_export_verifies_and_a_tampered_record_does_not(played):
    client, _, _, last = played
    text = client.get(f"/api/games/{last['id']}/record").text
    record = parse_record(text)
    assert verify(record) == []
    assert record.actions == last["history"] and record.headers["Blue"] == "greedy"
    assert record.headers["Commitment"] == last["commitment"]
    deal = record.headers["Deal"]
    i = next(i for i, ch in enumerate(deal) if ch in "dp" and i > 0)
    record.headers["Deal"] = deal[:i] + ("p" if deal[i] == "d" else "d") + deal[i + 1:]
    assert verify(record)  # a changed deal no longer matches the commitment


def test_import_round_trip_and_bad_records(played):
    client, _, _, last = played
    text = client.get(f"/api/games/{last['id']}/record").text
    r = client.post("/api/games/import", json={"record": text}, headers=ORIGIN)
    assert r.status_code == 200
    imported = client.get(f"/api/games/{r.json()['game']}").json()
    original = client.get(f"/api/games/{last['id']}").json()
    for key in ("actions", "positions", "scores", "result", "deal", "salt", "commitment"):
        assert imported[key] == original[key], key
    assert imported["archived"] is True and imported["rated"] is False
    assert imported["blue"] == {"id": None, "name": "greedy", "bot": None}
    assert client.get(f"/api/tables/{r.json()['table']}/games").json()["games"][0]["id"] == r.json()["game"]
    assert r.json()["table"] not in [t["id"] for t in client.get("/api/lobby").json()["tables"]]
    again = client.get(f"/api/games/{r.json()['game']}/record").text
    assert parse_record(again).actions == parse_record(text).actions and verify(parse_record(again)) == []

    def refused(body: str) -> str:
        answer = client.post("/api/games/import", json={"record": body}, headers=ORIGIN)
        assert answer.status_code == 400, answer.text
        return answer.json()["error"]["params"].get("reason", answer.json()["error"]["key"])

    lines = text.splitlines()
    assert "deal" in refused("\n".join(l for l in lines if not l.startswith(("[Deal", "[Salt", "[Commitment"))))
    assert "commitment" in refused(text.replace(last["salt"], "0" * 32))
    assert "action" in refused(text.replace(last["history"][0], "a1-a7", 1))
    assert refused("[Game \"chess\"]\n1. e4") and refused("") == "error.bad_request"
    assert client.post("/api/games/import", json={"record": text}).status_code == 403  # no Origin


def test_analysis_of_a_finished_game_is_one_job_stored_once(played):
    client, _, _, last = played
    analyses = client.app.state.server.analyses  # the game was queued for analysis as it ended
    first = client.get(f"/api/games/{last['id']}/analysis?ply=2")  # waits for the whole game's job
    assert first.status_code == 200
    a = first.json()
    game = client.get(f"/api/games/{last['id']}").json()
    assert a["ply"] == 2 and a["to_move"] == "blue" and isinstance(a["score"], float) and a["depth"] >= 1
    whole = client.get(f"/api/games/{last['id']}/analysis").json()
    n = len(last["history"])
    assert whole["status"] == "done" and whole["done"] == whole["total"] == n == len(whole["plies"])
    assert [p["ply"] for p in whole["plies"]] == list(range(n)) and whole["plies"][2] == a
    assert analyses.computed == 1  # one job for every position of the game
    # The action played there, valued by the same search: its loss against the best, and its mark.
    for p in whole["plies"]:
        played = p["played"]
        if played is None:
            continue  # a forced action
        assert played["action"] == game["actions"][p["ply"]].split("=")[0]
        assert played["value"] <= p["score"] + 1e-6
        assert played["loss"] == pytest.approx(p["score"] - played["value"], abs=2e-3)
        assert played["mark"] == mark(played["loss"])
        assert (played["action"] == p["best"]) <= (played["loss"] == 0)
    # Asked again, and by the luck: the stored analysis, not a second job.
    assert client.get(f"/api/games/{last['id']}/analysis").json() == whole
    luck = client.get(f"/api/games/{last['id']}/luck").json()
    assert luck["decisions"] == [{"ply": p["ply"], "player": p["to_move"], "action": p["played"]["action"],
                                  "best": p["best"], "loss": p["played"]["loss"], "mark": p["played"]["mark"]}
                                 for p in whole["plies"] if p["played"] is not None]
    assert analyses.computed == 1
    assert client.get(f"/api/games/{last['id']}/analysis?ply={n}").status_code == 400  # the game is over there
    assert client.get(f"/api/games/{last['id']}/analysis?ply={n + 1}").status_code == 400


def test_a_running_game_shows_nothing_secret_and_is_not_analysed(client):
    _, table, game = person_against_computer(client)
    detail = client.get(f"/api/games/{game['id']}").json()
    assert detail["over"] is False and detail["deal"] is None and detail["salt"] is None
    assert detail["positions"][-1] == game["position"] and detail["commitment"] == game["commitment"]
    assert client.get(f"/api/games/{game['id']}/analysis?ply=0").json()["error"]["key"] == "error.not_over"
    assert "[Deal" not in client.get(f"/api/games/{game['id']}/record").text
    assert client.get(f"/api/tables/{table}/games").json()["games"] == []


def test_imports_and_fresh_analyses_are_limited_per_address(tmp_path: Path):
    clock = FakeClock()
    settings = settings_for_tests(tmp_path, clock=clock, analysis_nodes=2000, imports_per_address=2,
                                  import_window=3600.0, analyses_per_address=2, analysis_window=600.0)
    with running(settings) as client:
        text = random_record(7)
        first = client.post("/api/games/import", json={"record": text}, headers=ORIGIN)
        assert first.status_code == 200
        assert client.post("/api/games/import", json={"record": text + "\n1. zz"}, headers=ORIGIN).status_code == 400
        refused = client.post("/api/games/import", json={"record": text}, headers=ORIGIN)  # the bad one counted
        assert refused.status_code == 429 and refused.json()["error"]["key"] == "error.too_many_attempts"
        assert 0 < int(refused.headers["retry-after"]) <= 3600
        clock.advance(3601)
        assert client.post("/api/games/import", json={"record": text}, headers=ORIGIN).status_code == 200

        # Analyses count games, not positions: a game asked again (stored) is not counted.
        clock.advance(3601)
        games = [first.json()["game"], *(client.post("/api/games/import", json={"record": random_record(s)},
                                                     headers=ORIGIN).json()["game"] for s in (8, 9))]
        assert client.get(f"/api/games/{games[0]}/analysis?ply=0").status_code == 200
        assert client.get(f"/api/games/{games[0]}/analysis?ply=1").status_code == 200
        assert client.get(f"/api/games/{games[0]}/analysis").json()["status"] == "done"
        assert client.get(f"/api/games/{games[1]}/luck").status_code == 200
        limited = client.get(f"/api/games/{games[2]}/analysis")
        assert limited.status_code == 429 and 0 < int(limited.headers["retry-after"]) <= 600
        clock.advance(601)
        assert client.get(f"/api/games/{games[2]}/luck").status_code == 200

