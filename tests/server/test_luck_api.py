"""The luck and the mistakes of a finished game over the API: computed once per game in the worker
pool, counted against the fresh-analysis allowance only when computed, refused while a game runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from forest_helpers import random_record
from halali.ai.luck import BLUNDER, INACCURACY, MISTAKE
from halali.server.testing import FakeClock, person_against_computer, running, settings_for_tests

ORIGIN = {"origin": "http://testserver"}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A server allowing one fresh analysis per address, with one finished (imported, seeded) game."""
    settings = settings_for_tests(tmp_path_factory.mktemp("luck"), clock=FakeClock(), analyses_per_address=1,
                                  analysis_window=600.0)
    with running(settings) as client:
        imported = client.post("/api/games/import", json={"record": random_record(11)}, headers=ORIGIN)
        assert imported.status_code == 200
        yield client, imported.json()["game"]


def _expected_mark(loss: float) -> str | None:
    return ("blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE
            else "inaccuracy" if loss >= INACCURACY else None)


def test_the_luck_of_a_finished_game_adds_up_and_is_computed_once(served):
    client, game_id = served
    first = client.get(f"/api/games/{game_id}/luck")
    assert first.status_code == 200
    luck = first.json()
    game = client.get(f"/api/games/{game_id}").json()
    actions = game["actions"]
    assert luck["id"] == game_id and luck["reveals"] and luck["decisions"]
    for r in luck["reveals"]:
        assert actions[r["ply"]] == r["action"] and r["action"].startswith("?")
        assert r["luck"] == pytest.approx(r["value"] - r["expected"], abs=2e-3)
    for d in luck["decisions"]:
        assert d["loss"] >= 0 and d["mark"] == _expected_mark(d["loss"])
    assert {d["mark"] for d in luck["decisions"]} - {None} <= {"inaccuracy", "mistake", "blunder"}
    sides = luck["sides"]
    for colour in ("blue", "brown"):
        side = sides[colour]
        assert side["luck"] == pytest.approx(sum(r["luck"] for r in luck["reveals"] if r["player"] == colour),
                                             abs=0.05)
        assert side["skill_loss"] == pytest.approx(
            sum(d["loss"] for d in luck["decisions"] if d["player"] == colour), abs=0.05)
        assert side["score"] == game["scores"][-1][colour]
    other = {"blue": "brown", "brown": "blue"}
    for colour in ("blue", "brown"):
        difference = sides[colour]["score"] - sides[other[colour]]["score"]
        assert sides[colour]["adjusted"] == pytest.approx(
            difference - (sides[colour]["luck"] - sides[other[colour]]["luck"]), abs=0.01)
    by_ply = {r["ply"]: r["luck"] for r in luck["reveals"]}
    assert by_ply[luck["luckiest"]] == max(by_ply.values())
    assert by_ply[luck["unluckiest"]] == min(by_ply.values())
    keys = [s["key"] for s in luck["summary"]]
    assert keys[0] in ("luck.luckier", "luck.even") and keys[1] in ("skill.better", "skill.even")
    for s in luck["summary"]:
        if s["params"]:
            assert s["params"]["player"] in ("blue", "brown") and s["params"]["points"] >= 1
    # The limit is one fresh analysis per address: the cache still answers, a fresh one is refused.
    again = client.get(f"/api/games/{game_id}/luck")
    assert again.status_code == 200 and again.json() == luck
    assert client.get(f"/api/games/{game_id}/analysis?ply=0").status_code == 429


def test_an_unknown_game_has_no_luck(served):
    client, _ = served
    assert client.get("/api/games/999999/luck").status_code == 404
    assert client.get("/api/games/abc/luck").json()["error"]["key"] == "error.no_game"


def test_a_running_game_is_not_analysed(tmp_path: Path):
    with running(settings_for_tests(tmp_path)) as client:
        _, _, game = person_against_computer(client)
        refused = client.get(f"/api/games/{game['id']}/luck")
        assert refused.status_code == 409 and refused.json()["error"]["key"] == "error.not_over"
