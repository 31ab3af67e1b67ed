"""The replay page of a finished game with the engine's full view: every action's mark in the move
list as the analysis gives it, the better action, the luck chart with the luckiest and unluckiest
reveals, each side's luck, and the record with the luck to download."""

from __future__ import annotations

import re
from typing import Any

import pytest
from whole_words import cut_words

import loopback
from halali.games.forest.record import parse_record

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

# A stall limit of 1 makes the computers reveal after every quiet move: a short game.
RULES = {"match": "single", "stall_limit": 1}
SYMBOL = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def test_replay_shows_marks_and_luck(server_with: Any, open_page: Any, shot: Any) -> None:
    server = server_with()
    game_id = server.computer_match(RULES)["game"]["id"]
    page = open_page(f"{server.url}/replay/{game_id}")
    page.locator('[data-testid="move-1"]').wait_for()
    assert page.locator('[data-testid="luck-host"]').is_hidden()
    # The job's first answer that it is done comes to the page as a job still running with every
    # position counted, as a job's last chunk can be: the end is announced all the same, when it is.
    early_end: list[dict[str, Any]] = []

    def analysis(route: Any) -> None:
        response = route.fetch()
        job = response.json()
        if job.get("status") == "done" and not early_end:
            early_end.append(job)
            route.fulfill(response=response, json={**job, "status": "running", "done": job["total"]})
        else:
            route.fulfill(response=response)

    page.route(re.compile(rf"/api/games/{game_id}/analysis$"), analysis)
    page.check('[data-testid="analysis-toggle"]')

    # The luck: the server's numbers, worded and drawn.
    summary = page.locator('[data-testid="luck-summary"]')
    summary.wait_for(timeout=120_000)  # a bound: the whole game is analysed first, on a busy machine
    luck = loopback.get(f"{server.url}/api/games/{game_id}/luck").json()
    for colour in ("blue", "brown"):
        row = page.locator(f'[data-testid="luck-side-{colour}"]')
        assert float(row.get_attribute("data-luck")) == luck["sides"][colour]["luck"]
        assert float(row.get_attribute("data-adjusted")) == luck["sides"][colour]["adjusted"]
    # The table of both sides keeps its words and numbers whole ("Luck", "+5.5"), beside the board.
    assert cut_words(page, ".luck-sides") == []
    text = summary.inner_text()
    assert ("luckier by about" in text or "equally lucky" in text) and not re.search(r"\b1 points", text)
    bars = page.locator('[data-testid="luck-chart"] rect.chart-bar')
    assert bars.count() == len(luck["reveals"])
    luckiest = page.locator('[data-testid="luck-luckiest"]')
    assert int(luckiest.get_attribute("data-x")) == luck["luckiest"] + 1
    assert page.locator('[data-testid="luck-unluckiest"]').count() == 1
    page.click('[data-testid="goto-luckiest"]')  # to the position after that reveal
    page.locator(f'[data-testid="ply-label"][data-ply="{luck["luckiest"] + 1}"]').wait_for()
    assert page.locator('[data-testid="luck-here"]').get_attribute("data-ply") == str(luck["luckiest"])
    shot(page, "replay-luck")

    # Every position analysed: each action's mark in the move list is the one its analysis gives.
    total = len(loopback.get(f"{server.url}/api/games/{game_id}").json()["positions"])
    page.locator('[data-testid="analysis-progress"][data-status="done"]').wait_for(timeout=120_000)
    assert page.locator('[data-testid="analysis-progress"]').get_attribute("data-done") == str(total - 1)
    assert early_end and early_end[0]["total"] == total - 1
    said = page.locator('[data-testid="analysis-announce"]').inner_text()
    assert said == f"Analysis complete: {total - 1} positions."
    marked = []
    for ply in range(total - 1):
        played = loopback.get(f"{server.url}/api/games/{game_id}/analysis?ply={ply}").json()["played"]
        button = page.locator(f'[data-testid="move-{ply + 1}"]')
        assert (button.get_attribute("data-mark") or None) == (played and played["mark"]), ply
        if played and played["mark"]:
            assert button.locator('[data-testid="mark"]').inner_text() == SYMBOL[played["mark"]]
            marked.append((ply, played))
    assert marked  # level 1 plays at random: it gives points away
    ply, played = marked[0]
    page.click(f'[data-testid="move-{ply}"]')  # the position where that action was chosen
    line = page.locator('[data-testid="eval-mark"]')
    line.wait_for()
    assert line.get_attribute("data-mark") == played["mark"] and "points lost" in line.inner_text()
    best = page.locator('[data-testid="eval-best"]').get_attribute("data-best")
    assert best and best != played["action"].split("=")[0]
    shot(page, "replay-mark")

    # The record with the luck: its headers and a comment for every reveal.
    href = page.locator('[data-testid="export-record-luck"]').get_attribute("href")
    annotated = parse_record(loopback.get(f"{server.url}{href}").text)
    assert annotated.headers["BlueLuck"] and len(annotated.comments) >= len(luck["reveals"])
