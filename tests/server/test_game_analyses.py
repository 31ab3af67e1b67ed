"""A finished game's analysis on the server: begun while the game is played, and the same, ply for
ply, as the analysis of the same game computed at once elsewhere; waiting games taken in turn per
asker."""

from __future__ import annotations

from collections import OrderedDict, deque
from pathlib import Path

from halali.server.games.forest_analysis import _take
from halali.server.testing import computer_match, running, settings_for_tests

ORIGIN = {"origin": "http://testserver"}


def test_a_game_is_analysed_as_it_is_played_and_the_same_as_at_once(tmp_path: Path):
    with running(settings_for_tests(tmp_path / "a", analysis_nodes=3000)) as client:
        _, _, last = computer_match(client, rules={"match": "single", "stall_limit": 1})
        game_id = last["game"]["id"]
        assert len(last["game"]["history"]) >= 8
        first = client.get(f"/api/games/{game_id}/luck")  # waits for the job the game's end queued
        assert first.status_code == 200
        analyses = client.app.state.server.analyses
        assert analyses.early_chunks >= 1 and analyses.computed == 1
        played = client.get(f"/api/games/{game_id}/analysis").json()
        record = client.get(f"/api/games/{game_id}/record").text
    with running(settings_for_tests(tmp_path / "b", analysis_nodes=3000)) as other:
        imported = other.post("/api/games/import", json={"record": record}, headers=ORIGIN).json()["game"]
        assert other.get(f"/api/games/{imported}/luck").status_code == 200
        assert other.app.state.server.analyses.early_chunks == 0
        at_once = other.get(f"/api/games/{imported}/analysis").json()
    assert at_once["plies"] == played["plies"] and at_once["sides"] == played["sides"]
    assert at_once["total"] == len(last["game"]["history"])


def test_waiting_games_are_taken_in_turn_per_asker():
    queues = OrderedDict([("ann", deque([1, 2, 3])), ("bob", deque([4])), ("cat", deque([5, 6]))])
    taken = []
    while (job := _take(queues)) is not None:
        taken.append(job)
    assert taken == [1, 4, 5, 2, 6, 3]
