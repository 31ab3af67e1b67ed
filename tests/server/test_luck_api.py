"""The luck and the mistakes of a finished game over the API: part of its analysis, computed once per
game in the worker pool, counted against the allowance (in games) only when computed, refused while a
game runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forest_helpers import random_record
from halali.ai.luck import BLUNDER, INACCURACY, MISTAKE, verdict
from halali.games.forest.record import parse_record
from halali.server.testing import FakeClock, computer_match, person_against_computer, running, settings_for_tests

pytestmark = pytest.mark.heavy

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
    # The limit is one fresh game analysis per address: the stored one answers for the luck and for
    # every position of the game, another game is refused.
    again = client.get(f"/api/games/{game_id}/luck")
    assert again.status_code == 200 and again.json() == luck
    whole = client.get(f"/api/games/{game_id}/analysis").json()
    assert whole["status"] == "done" and whole["done"] == whole["total"] == len(actions)
    assert client.get(f"/api/games/{game_id}/analysis?ply=0").json() == whole["plies"][0]
    other = client.post("/api/games/import", json={"record": random_record(12)}, headers=ORIGIN).json()["game"]
    refused = client.get(f"/api/games/{other}/analysis")
    assert refused.status_code == 429 and refused.json()["error"]["key"] == "error.too_many_attempts"


def test_an_unknown_game_has_no_luck(served):
    client, _ = served
    assert client.get("/api/games/999999/luck").status_code == 404
    assert client.get("/api/games/abc/luck").json()["error"]["key"] == "error.no_game"


def test_a_running_game_is_not_analysed(tmp_path: Path):
    with running(settings_for_tests(tmp_path)) as client:
        _, _, game = person_against_computer(client)
        refused = client.get(f"/api/games/{game['id']}/luck")
        assert refused.status_code == 409 and refused.json()["error"]["key"] == "error.not_over"


def test_the_record_export_carries_the_luck(served):
    client, game_id = served
    luck = client.get(f"/api/games/{game_id}/luck").json()  # from the cache
    plain = parse_record(client.get(f"/api/games/{game_id}/record").text)
    annotated = parse_record(client.get(f"/api/games/{game_id}/record?luck=1").text)
    assert not plain.comments and "BlueLuck" not in plain.headers
    assert annotated.actions == plain.actions
    assert float(annotated.headers["BlueLuck"]) == pytest.approx(luck["sides"]["blue"]["luck"], abs=0.006)
    assert float(annotated.headers["BrownSkillLoss"]) == pytest.approx(luck["sides"]["brown"]["skill_loss"], abs=0.006)
    for r in luck["reveals"]:
        said = re.search(r"luck ([+-][\d.]+)", annotated.comments[r["ply"]])
        assert said and float(said.group(1)) == pytest.approx(r["luck"], abs=0.006)
    for d in luck["decisions"]:
        if d["mark"]:
            said = re.search(rf"{d['mark']} -([\d.]+), better ([^;\s]+)", annotated.comments[d["ply"]])
            assert said and float(said.group(1)) == pytest.approx(d["loss"], abs=0.006) and said.group(2) == d["best"]


def test_a_match_adds_its_games_by_seat(tmp_path: Path):
    with running(settings_for_tests(tmp_path)) as client:
        _, _, last = computer_match(client, rules={"match": "match", "stall_limit": 1})
        second_id = last["game"]["id"]
        found = client.get(f"/api/games/{second_id}/match-luck").json()
        assert len(found["games"]) == 2 and found["games"][1] == second_id
        games = [client.get(f"/api/games/{g}/luck").json() for g in found["games"]]
        details = [client.get(f"/api/games/{g}").json() for g in found["games"]]
        assert [d["number"] for d in details] == [1, 2]
        for seat, side in enumerate(found["seats"]):
            # seat 0 plays brown in game 1 and blue in game 2
            colours = ("brown", "blue") if seat == 0 else ("blue", "brown")
            sides = [g["sides"][c] for g, c in zip(games, colours, strict=True)]
            assert side["luck"] == pytest.approx(sum(s["luck"] for s in sides), abs=0.01)
            assert side["skill_loss"] == pytest.approx(sum(s["skill_loss"] for s in sides), abs=0.01)
            assert side["player"]["id"] == f"bot_{seat + 1}"
        assert found["seats"][0]["adjusted"] == pytest.approx(-found["seats"][1]["adjusted"], abs=0.01)
        assert sum(s["score_difference"] for s in found["seats"]) == 0
        expected = verdict([s["luck"] for s in found["seats"]], [s["skill_loss"] for s in found["seats"]], ["0", "1"])
        assert [(x["key"], x["params"]) for x in found["summary"]] == expected.keys
        # Asked from the first game, the match is the same.
        assert client.get(f"/api/games/{found['games'][0]}/match-luck").json() == found
