"""A finished game's analysis on the server: begun while the game is played, and the same, ply for
ply, as the analysis of the same game computed at once elsewhere; waiting games taken in turn per
asker."""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from pathlib import Path
from typing import Any

import pytest

from forest_helpers import random_record
from halali.server.games.forest_analysis import _take
from halali.server.testing import computer_match, running, server_of, settings_for_tests

pytestmark = pytest.mark.heavy

ORIGIN = {"origin": "http://testserver"}


def test_a_game_is_analysed_as_it_is_played_and_the_same_as_at_once(tmp_path: Path):
    with running(settings_for_tests(tmp_path / "a", analysis_nodes=3000, background_analysis=True)) as client:
        _, _, last = computer_match(client, rules={"match": "single", "stall_limit": 1})
        game_id = last["game"]["id"]
        assert len(last["game"]["history"]) >= 8
        first = client.get(f"/api/games/{game_id}/luck")  # waits for the job the game's end queued
        assert first.status_code == 200
        analyses = client.app.state.server.analyses
        assert analyses.early_chunks >= 1 and analyses.computed == 1
        played = client.get(f"/api/games/{game_id}/analysis").json()
        record = client.get(f"/api/games/{game_id}/record").text
    with running(settings_for_tests(tmp_path / "b", analysis_nodes=3000, background_analysis=True)) as other:
        imported = other.post("/api/games/import", json={"record": record}, headers=ORIGIN).json()["game"]
        assert other.get(f"/api/games/{imported}/luck").status_code == 200
        assert other.app.state.server.analyses.early_chunks == 0
        at_once = other.get(f"/api/games/{imported}/analysis").json()
    assert at_once["plies"] == played["plies"] and at_once["sides"] == played["sides"]
    assert at_once["total"] == len(last["game"]["history"])


def test_a_game_whose_job_ended_while_another_was_being_started_is_analysed_once(tmp_path: Path):
    """The end of a game queues its analysis for the site, after a look that it has none; a page may
    have asked meanwhile, and that job may even have ended before the site's is started (a short game,
    its chunks analysed as it was played). The start sees it and computes nothing again."""
    with running(settings_for_tests(tmp_path, analysis_nodes=3000, background_analysis=False)) as client:
        game_id = client.post("/api/games/import", json={"record": random_record(3)}, headers=ORIGIN).json()["game"]
        assert client.get(f"/api/games/{game_id}/luck").status_code == 200  # the page's job, done
        analyses = client.app.state.server.analyses
        assert analyses.computed == 1
        again = client.portal.call(analyses._start, game_id, "site")  # the site's, its look made before
        assert isinstance(again, dict) and again["status"] == "done"
        assert analyses.computed == 1 and not analyses._jobs


def test_without_background_analysis_only_the_games_asked_for_are_analysed(tmp_path: Path):
    with running(settings_for_tests(tmp_path, analysis_nodes=3000, background_analysis=False)) as client:
        _, _, last = computer_match(client, rules={"match": "single", "stall_limit": 1})
        analyses = client.app.state.server.analyses
        assert analyses.early_chunks == 0 and analyses.computed == 0 and not analyses._jobs  # none begun
        assert client.get(f"/api/games/{last['game']['id']}/luck").status_code == 200  # asked: analysed
        assert analyses.early_chunks == 0 and analyses.computed == 1


def test_waiting_games_are_taken_in_turn_per_asker():
    queues = OrderedDict([("ann", deque([1, 2, 3])), ("bob", deque([4])), ("cat", deque([5, 6]))])
    taken = []
    while (job := _take(queues)) is not None:
        taken.append(job)
    assert taken == [1, 4, 5, 2, 6, 3]


def test_the_queue_is_bounded_per_asker_and_says_how_many_go_first(tmp_path: Path):
    with running(settings_for_tests(tmp_path)) as client:
        games = [client.post("/api/games/import", json={"record": random_record(s)}, headers=ORIGIN).json()["game"]
                 for s in range(30, 35)]
        url = "/api/games/{}/analysis"
        first = client.get(url.format(games[0])).json()
        deadline = time.monotonic() + 60
        while first["status"] == "queued":  # the runner takes it at once; wait for that, not for a time
            assert time.monotonic() < deadline
            first = client.get(url.format(games[0])).json()
        assert first["status"] == "running"
        waiting = [client.get(url.format(g)).json() for g in games[1:4]]
        assert [(w["status"], w["ahead"]) for w in waiting] == [("queued", 1), ("queued", 2), ("queued", 3)]
        refused = client.get(url.format(games[4]))
        assert refused.status_code == 429 and refused.json()["error"]["key"] == "error.analysis_queue_full"
        assert refused.json()["error"]["params"] == {"most": 3}


def test_an_analysis_this_server_computed_says_so_even_when_asked_for_as_it_is_saved(tmp_path: Path):
    # The page stops asking once it gets "done", and shows where the answer came from. A request that came
    # just as the job saved its result found the row in the store before the job had said it was done,
    # and the page then said "store" for an analysis this server had just computed.
    with running(settings_for_tests(tmp_path, analysis_nodes=1000)) as client:
        game = client.post("/api/games/import", json={"record": random_record(3)}, headers=ORIGIN).json()["game"]
        analyses = server_of(client).analyses
        ctx = analyses.ctx
        real_db = ctx.db
        asked_as_saved: list[dict[str, Any]] = []

        async def db(fn: Any, *args: Any, **kwargs: Any) -> Any:
            result = await real_db(fn, *args, **kwargs)
            if getattr(fn, "__name__", "") == "save_game_analysis":  # saved; the job goes on after this
                asked_as_saved.append(await analyses.state(game, "someone"))
            return result

        ctx.db = db
        try:
            done = client.get(f"/api/games/{game}/luck")  # waits for the job
        finally:
            ctx.db = real_db
        assert done.status_code == 200 and len(asked_as_saved) == 1
        assert asked_as_saved[0]["status"] == "running" and asked_as_saved[0]["done"] == asked_as_saved[0]["total"]
        answer = client.get(f"/api/games/{game}/analysis").json()
        assert answer["status"] == "done" and answer["source"] == "job"
