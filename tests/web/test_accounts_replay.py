"""Accounts, history and replays in the browser: a guest registers (and keeps its games), logs out and
in again, plays a short game against the computer, finds it in the history, and replays it by buttons,
arrow keys and the move list, with the whole deal and the fair-deal check computed in the page.
The account pages' messages, the leaderboard and the table options are in test_account_pages.py."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from account_pages import RULES, api, login, register, start_against_the_computer, unique
from board_driver import Player, pick

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

SEED = 5


def play_single_game(page: Any) -> None:
    """Sit down at the open table with a random computer and play until the summary shows."""
    me = Player(page)
    page.click('[data-testid="btn-join"]')
    start_against_the_computer(page)
    ply = -1
    while True:
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="summary"]').hidden
                  || document.querySelector('[data-testid="board"]').dataset.legal !== ''""")
        if page.locator('[data-testid="summary"]').is_visible():
            return
        current = me.ply()
        assert current != ply
        ply = current
        action = pick(me.legal(), prefer_drag=False)
        if action == "pass":
            page.click('[data-testid="btn-pass"]')
        elif action.startswith("?"):
            me.tap(action[1:3])
        else:
            me.drag(action[:2], action[3:])
        me.wait_ply(ply + 1)


def test_register_play_and_replay(server: Any, open_page: Any, shot: Any) -> None:
    name = unique("Ann")
    page = open_page("/account")
    guest = page.locator('[data-testid="me-name"]')
    guest.wait_for()
    page.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    guest_name = guest.inner_text()
    guest_id = guest.get_attribute("data-id")
    # The form says that the guest's games go with the new account.
    claim = page.locator('[data-testid="register-claim"]').inner_text()
    assert guest_name in claim and "become the account's" in claim
    shot(page, "account-register")

    # A guest game first: it must belong to the account afterwards.
    table = server.create_table(RULES, seed=SEED)
    page.goto(f"{server.url}/table/{table}")
    play_single_game(page)
    summary_replay = page.locator('[data-testid="summary-replay"]')
    assert summary_replay.is_visible()
    game_id = summary_replay.get_attribute("href").rsplit("/", 1)[1]
    shot(page, "table-summary-replay")

    page.goto(f"{server.url}/account")
    register(page, name)
    page.wait_for_url(re.compile(r"/player/"))
    page.locator('[data-testid="me-kind"][data-kind="account"]').wait_for()
    assert page.locator('[data-testid="me-name"]').inner_text() == name
    # Same player: same id, and the guest's game is in the account's history.
    assert page.locator('[data-testid="me-name"]').get_attribute("data-id") == guest_id
    page.locator(f'[data-testid="game-{game_id}"]').wait_for()

    # Log out: a new guest. Log in again: the account, with its game.
    page.click('[data-testid="btn-logout"]')
    page.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    assert page.locator('[data-testid="me-name"]').get_attribute("data-id") != guest_id
    page.click('[data-testid="link-login"]')
    page.wait_for_url(re.compile(r"/account\?next="))
    login(page, name)
    page.wait_for_url(re.compile(r"/player/"))
    page.locator('[data-testid="me-kind"][data-kind="account"]').wait_for()
    assert page.locator('[data-testid="me-name"]').get_attribute("data-id") == guest_id

    # The history ("My games") lists the game, with a link to its replay.
    page.click('[data-testid="link-history"]')
    row = page.locator(f'[data-testid="game-{game_id}"]')
    row.wait_for()
    assert row.locator('[data-testid="outcome"]').inner_text() in ("won", "lost", "draw")
    shot(page, "history")
    row.locator('[data-testid="open-replay"]').click()
    page.wait_for_url(re.compile(rf"/replay/{game_id}"))
    replay_steps(page, game_id, shot)


def replay_steps(page: Any, game_id: str, shot: Any) -> None:
    game = api(page, f"/api/games/{game_id}")
    positions, actions = game["positions"], game["actions"]
    last = len(actions)
    assert game["over"] and last > 4
    board = page.locator('[data-testid="board"]')
    label = page.locator('[data-testid="ply-label"]')

    def at(ply: int) -> None:
        page.wait_for_function("n => document.querySelector('[data-testid=\"ply-label\"]').dataset.ply === String(n)",
                               arg=ply)
        assert board.get_attribute("data-position") == positions[ply]

    at(0)
    assert label.inner_text() == f"Action 0 of {last}"
    # Once the game is over the whole deal shows: every face-down tile drawn as dealt, marked.
    peeked = page.locator('[data-testid="board"] .tile.peek')
    assert peeked.count() == 48
    deal_board = game["deal"].split()[0].split("/")
    assert page.locator('[data-testid="tile-a7"]').get_attribute("data-peek") == deal_board[0][0].upper()
    assert page.locator('[data-testid="tile-a7"]').get_attribute("data-tile") == "?"
    shot(page, "replay-start")

    page.click('[data-testid="btn-next"]')
    at(1)
    page.click('[data-testid="btn-next"]')
    at(2)
    page.click('[data-testid="btn-prev"]')
    at(1)
    page.keyboard.press("ArrowRight")
    at(2)
    page.keyboard.press("ArrowRight")
    at(3)
    page.keyboard.press("ArrowLeft")
    at(2)
    page.keyboard.press("End")
    at(last)
    assert page.locator('[data-testid="btn-next"]').is_disabled()
    page.keyboard.press("Home")
    at(0)
    assert page.locator('[data-testid="btn-prev"]').is_disabled()
    page.click('[data-testid="btn-last"]')
    at(last)
    page.click('[data-testid="btn-first"]')
    at(0)
    page.click('[data-testid="move-4"]')
    at(4)
    assert page.locator('[data-testid="move-4"]').get_attribute("aria-current") == "step"
    # The last action is marked, and the score is the server's at that ply.
    assert page.locator('[data-testid="replay-score-blue"]').inner_text() == str(game["scores"][4]["blue"])
    # Switching the deal off shows the position exactly as the players saw it.
    page.uncheck('[data-testid="show-deal"]')
    page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]').dataset.peek === 'off'")
    hidden = positions[4].split()[0].count("?")
    assert peeked.count() == 0
    assert page.locator('[data-testid="board"] .tile.face-down').count() == hidden
    page.check('[data-testid="show-deal"]')
    assert peeked.count() == hidden

    # The fair-deal check: computed in the page, and the same as computed here.
    expected = hashlib.sha256(f"{game['deal']}\n{game['salt']}".encode()).hexdigest()
    assert expected == game["commitment"]
    verdict = page.locator('[data-testid="fair-state"]')
    page.locator('[data-testid="fair-state"][data-state="ok"]').wait_for()
    assert page.locator('[data-testid="fair-computed"]').inner_text() == expected
    assert page.locator('[data-testid="fair-commitment"]').inner_text() == game["commitment"]
    assert verdict.inner_text().startswith("✓")
    shot(page, "replay-deal")

    # The page's own SHA-256 (for plain-http pages, where crypto.subtle is missing) agrees too.
    plain = page.evaluate("""async ([d, s]) => {
        const m = await import('/static/js/fairdeal.js');
        return m.sha256Plain(new TextEncoder().encode(m.committedText(d, s)));
    }""", [game["deal"], game["salt"]])
    assert plain == expected

    # A forged salt is caught (the page is given the game with one changed character).
    forged = dict(game, salt=("0" if game["salt"][0] != "0" else "1") + game["salt"][1:])
    page.route(f"**/api/games/{game_id}", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(forged)))
    page.reload()
    page.locator('[data-testid="fair-state"][data-state="mismatch"]').wait_for()
    assert verdict.inner_text().startswith("✗")
    page.unroute(f"**/api/games/{game_id}")

    # The record to download is the server's record of this game.
    page.reload()
    page.locator('[data-testid="fair-state"][data-state="ok"]').wait_for()
    with page.expect_download() as download:
        page.click('[data-testid="export-record"]')
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert f'[Commitment "{game["commitment"]}"]' in text and f'[Salt "{game["salt"]}"]' in text

    # Importing it again: an unrated, archived copy with the same actions, replayed on its own page.
    page.goto(page.url.split("/replay/")[0] + "/replay")
    assert page.locator('[data-testid="import"]').get_attribute("open") is not None
    page.fill('[data-testid="import-text"]', "[Game \"forest\"]\n\n1. ?a1=Q\n")
    page.click('[data-testid="import-submit"]')
    refused = page.locator('[data-testid="import-error"]')
    refused.wait_for()
    assert refused.get_attribute("data-key") == "error.bad_record"
    assert refused.inner_text().startswith("This record cannot be imported: ")
    page.set_input_files('[data-testid="import-file"]', files=[
        {"name": "game.txt", "mimeType": "text/plain", "buffer": text.encode("utf-8")}])
    page.wait_for_function("() => document.querySelector('[data-testid=\"import-text\"]').value.includes('Commitment')")
    page.click('[data-testid="import-submit"]')
    page.wait_for_url(re.compile(r"/replay/\d+$"))
    copy = api(page, "/api/games/" + page.url.rsplit("/", 1)[1])
    assert copy["archived"] and not copy["rated"] and copy["actions"] == actions
    page.locator('[data-testid="fair-state"][data-state="ok"]').wait_for()
    page.goto(page.url.rsplit("/", 1)[0] + f"/{game_id}")
    page.locator('[data-testid="fair-state"][data-state="ok"]').wait_for()

    # The analysis: the engine's evaluation and best action at this ply, and the chart.
    page.click('[data-testid="move-2"]')
    page.check('[data-testid="analysis-toggle"]')
    value = page.locator('[data-testid="eval-value"]')
    value.wait_for(timeout=30_000)
    analysis = api(page, f"/api/games/{game_id}/analysis?ply=2")
    blue = analysis["score"] if analysis["to_move"] == "blue" else -analysis["score"]
    assert float(value.get_attribute("data-value")) == pytest.approx(blue)
    assert page.locator('[data-testid="eval-best"]').get_attribute("data-best") == analysis["best"]
    assert page.locator('[data-testid="best-layer"]').get_attribute("data-best") == analysis["best"]  # on the board too
    page.locator('[data-testid="eval-chart"] .chart-dot').first.wait_for()
    assert page.locator('[data-testid="eval-chart-marker"]').get_attribute("data-x") == "2"
    page.set_viewport_size({"width": 1280, "height": 1500})
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function("() => Number(document.querySelector('[data-testid=\"eval-progress\"]').dataset.done) >= 5",
                           timeout=30_000)
    shot(page, "replay-analysis")
    analysis_allowance(page, last)


def analysis_allowance(page: Any, last: int) -> None:
    """Over the server's analysis allowance (its 429 played back, so that this test does not use the
    address's real allowance up): the page shows the wait, and asks again when the analysis is switched
    on again; the game's analysis, stored by then, comes whole."""
    page.reload()
    limited = {"error": {"key": "error.too_many_attempts", "params": {"retry_after": 600}, "message": "Too many."}}
    page.route("**/analysis", lambda route: route.fulfill(status=429, content_type="application/json",
                                                          body=json.dumps(limited)))
    toggle = page.locator('[data-testid="analysis-toggle"]')
    page.locator('[data-testid="move-2"]').wait_for()
    if toggle.is_checked():  # a reload may restore the box without telling the page
        toggle.uncheck()
    toggle.check()
    info = page.locator('[data-testid="analysis-error"]')
    info.wait_for()
    assert info.inner_text() == "Too many attempts. Please wait 10 min and try again."
    page.unroute("**/analysis")
    toggle.uncheck()
    toggle.check()
    page.locator('[data-testid="analysis-progress"][data-status="done"]').wait_for(timeout=60_000)
    assert page.locator('[data-testid="analysis-progress"]').get_attribute("data-done") == str(last)
    page.locator('[data-testid="analysis-info"] [data-testid="eval-value"]').wait_for()
