"""Accounts, history and replays in the browser: a guest registers (and keeps its games), logs out and
in again, plays a short game against the computer, finds it in the history, and replays it by buttons,
arrow keys and the move list, with the whole deal and the fair-deal check computed in the page.
Also: the messages for a wrong password, a taken name and too many attempts, the leaderboard and
profile, a clock on the table, and the German account page."""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest
from board_driver import Player, pick

pytestmark = pytest.mark.browser

# A stall limit of 1 makes the random computer reveal after every quiet move: a short game.
RULES = {"match": "single", "stall_limit": 1}
SEED = 5
PASSWORD = "forest floor 42"
WEB = Path(__file__).resolve().parents[2] / "src/halali/web"


def unique(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def register(page: Any, name: str, password: str = PASSWORD) -> None:
    page.fill('[data-testid="register-name"]', name)
    page.fill('[data-testid="register-password"]', password)
    page.fill('[data-testid="register-password2"]', password)
    page.click('[data-testid="register-submit"]')


def login(page: Any, name: str, password: str = PASSWORD) -> None:
    page.fill('[data-testid="login-name"]', name)
    page.fill('[data-testid="login-password"]', password)
    page.click('[data-testid="login-submit"]')


def api(page: Any, path: str) -> Any:
    """The server's answer with this page's cookie (what the page itself would get)."""
    return page.evaluate("p => fetch(p).then(r => r.json())", path)


def play_single_game(page: Any) -> None:
    """Sit down at the open table with a random computer and play until the summary shows."""
    me = Player(page)
    page.click('[data-testid="btn-join"]')
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    page.click('[data-testid="btn-start"]')
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
    """Over the server's analysis allowance (its 429 played back after three answers, so that this
    test does not use the address's real allowance up): the page stops walking the game, shows the
    wait, and fetches what is missing when the analysis is switched on again."""
    page.reload()
    asked: list[str] = []
    limited = {"error": {"key": "error.too_many_attempts", "params": {"retry_after": 600}, "message": "Too many."}}

    def allowance(route: Any) -> None:
        asked.append(route.request.url)
        if len(asked) <= 3:
            route.continue_()
        else:
            route.fulfill(status=429, content_type="application/json", body=json.dumps(limited))

    page.route("**/analysis?ply=*", allowance)
    toggle = page.locator('[data-testid="analysis-toggle"]')
    page.locator('[data-testid="move-2"]').wait_for()
    if toggle.is_checked():  # a reload may restore the box without telling the page
        toggle.uncheck()
    toggle.check()
    progress = page.locator('[data-testid="eval-progress"]')
    page.wait_for_function("() => Number(document.querySelector('[data-testid=\"eval-progress\"]')"
                           "?.dataset.done) === 3", timeout=30_000)
    page.wait_for_timeout(500)
    assert len(asked) <= 5 < last  # the walk stopped (the second walker may have had one request out)
    assert progress.get_attribute("data-done") == "3"
    page.click('[data-testid="move-4"]')  # not analysed: asked again, refused again, the wait shown
    info = page.locator('[data-testid="analysis-info"] .form-error')
    info.wait_for()
    assert info.inner_text() == "Too many attempts. Please wait 10 min and try again."
    page.unroute("**/analysis?ply=*")
    toggle.uncheck()
    toggle.check()
    page.wait_for_function(f"() => Number(document.querySelector('[data-testid=\"eval-progress\"]')"
                           f"?.dataset.done) === {last + 1}", timeout=60_000)
    page.locator('[data-testid="analysis-info"] [data-testid="eval-value"]').wait_for()


def test_account_errors(server: Any, open_page: Any, shot: Any) -> None:
    name = unique("Bea")
    first = open_page("/account")
    first.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    register(first, name)
    first.wait_for_url(re.compile(r"/player/"))

    other = open_page("/account")
    other.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    # A taken name (names are compared without case).
    register(other, name.upper())
    error = other.locator('[data-testid="register-error"]')
    error.wait_for()
    assert error.get_attribute("data-key") == "error.name_taken"
    assert error.inner_text() == f"The name {name.upper()} already belongs to an account. Please choose another one."
    # Two different passwords never reach the server.
    other.fill('[data-testid="register-name"]', unique("Cy"))
    other.fill('[data-testid="register-password"]', PASSWORD)
    other.fill('[data-testid="register-password2"]', PASSWORD + "x")
    other.click('[data-testid="register-submit"]')
    other.locator('[data-testid="register-error"][data-key="account.passwords_differ"]').wait_for()
    # A wrong password.
    login(other, name, "not the password")
    wrong = other.locator('[data-testid="login-error"]')
    wrong.wait_for()
    assert wrong.get_attribute("data-key") == "error.wrong_password"
    assert wrong.inner_text() == "Name or password is wrong."
    assert other.locator('[data-testid="me-kind"]').get_attribute("data-kind") == "guest"
    shot(other, "account-errors")

    # Too many attempts: the server's 429 answer (played back here so that this test does not lock
    # the test address out) reads as a wait in words.
    limited = {"error": {"key": "error.too_many_attempts", "params": {"retry_after": 125}, "message": "Too many."}}
    other.route("**/api/login", lambda route: route.fulfill(
        status=429, content_type="application/json", body=json.dumps(limited)))
    login(other, name, "again wrong")
    other.locator('[data-testid="login-error"][data-key="error.too_many_attempts"]').wait_for()
    assert wrong.inner_text() == "Too many attempts. Please wait 3 min and try again."


def test_german_account_page_and_wrong_password(server: Any, open_page: Any, shot: Any) -> None:
    de = json.loads((WEB / "i18n/de.json").read_text(encoding="utf-8"))
    page = open_page("/account", locale="de-DE")
    page.locator("h1", has_text=de["account.login_title"]).wait_for()
    assert page.locator('[data-testid="register-submit"]').inner_text() == "Konto anlegen"
    assert page.locator('[data-testid="link-leaderboard"]').inner_text() == "Rangliste"
    # Who you are comes from /api/me, a moment after the page is translated: wait for it.
    page.locator('[data-testid="me-kind"]', has_text="Gast").wait_for()
    assert page.locator('[data-testid="me-kind"]').text_content() == "Gast"
    page.locator('[data-testid="register-claim"]', has_text="dem Konto").wait_for()
    login(page, unique("Nobody"), "irgendein Passwort")
    page.locator('[data-testid="login-error"]', has_text="Name oder Passwort ist falsch.").wait_for()
    shot(page, "account-german")
    page.goto(f"{server.url}/leaderboard")
    page.locator("h1", has_text="Rangliste").wait_for()
    assert page.locator("th", has_text="Wertung").count() == 1


def test_leaderboard_and_profile(server: Any, open_page: Any, shot: Any) -> None:
    server.computer_match(RULES)
    page = open_page("/leaderboard")
    board = httpx.get(f"{server.url}/api/leaderboard", params={"game": "forest", "limit": 50}).json()
    assert {"bot_1", "bot_2"} <= {p["id"] for p in board["players"]}
    rows = page.locator('[data-testid="leaderboard"] tbody tr')
    rows.first.wait_for()
    assert rows.count() == len(board["players"])
    for p in board["players"][:8]:
        row = page.locator(f'[data-testid="lb-{p["id"]}"]')
        assert row.locator(".rank").inner_text() == str(p["rank"])
        rating = row.locator('[data-testid="lb-rating"]')
        assert rating.get_attribute("data-rating") == str(p["rating"])
        assert rating.inner_text().replace("\n", "") == f'{p["rating"]}{"?" if p["provisional"] else ""}'
        assert row.locator('[data-testid="lb-matches"]').inner_text() == str(p["matches"])
        assert (row.locator('[data-testid="bot-mark"]').count() == 1) == bool(p["bot"])
    bots = [p for p in board["players"] if p["bot"]]
    # One entry per computer level.
    assert len({p["bot"] for p in bots}) == len(bots)
    shot(page, "leaderboard")

    first = board["players"][0]
    page.locator(f'[data-testid="lb-{first["id"]}"] a.player-link').click()
    page.wait_for_url(re.compile(r"/player/"))
    profile = httpx.get(f"{server.url}/api/players/{first['id']}").json()
    page.locator('[data-testid="player-kind"]').wait_for()
    if profile["ratings"].get("forest"):
        r = profile["ratings"]["forest"]
        value = page.locator('[data-testid="rating-forest"] [data-testid="rating-value"]')
        assert value.get_attribute("data-rating") == str(r["rating"])
        assert page.locator('[data-testid="rating-chart-forest"] .chart-dot').count() == len(r["history"])
    results = profile["results"]
    assert page.locator('[data-testid="results-blue"] td').first.inner_text() == str(results["blue"]["games"])
    assert page.locator('[data-testid="results-brown"] td').first.inner_text() == str(results["brown"]["games"])
    shot(page, "profile")


def test_correspondence_turn_in_the_lobby(server: Any, open_page: Any) -> None:
    page = open_page("/")
    page.locator('[data-testid="conn"][data-state="online"]').wait_for()
    page.click('[data-testid="more-forest"] > summary')
    page.select_option('[data-testid="opt-mode"]', "correspondence")
    assert page.locator('[data-testid="mode-help"]').is_visible()
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"/table/t_\w+$"))
    table = page.url.rsplit("/", 1)[1]
    page.locator('[data-testid="rules-info"] .chip', has_text="Correspondence").wait_for()
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    page.click('[data-testid="btn-start"]')
    # The computer plays blue's first action; then it is this player's turn, and the lobby says so.
    Player(page).wait_ply(1)
    page.click('[data-testid="link-lobby"]')
    entry = page.locator(f'[data-testid="my-turn-{table}"]')
    entry.wait_for()
    assert "Computer" in entry.inner_text() or "random" in entry.inner_text()
    entry.locator("a").click()
    page.wait_for_url(re.compile(rf"/table/{table}$"))


def test_clock_and_table_options(server: Any, open_page: Any, shot: Any) -> None:
    page = open_page("/")
    page.locator('[data-testid="conn"][data-state="online"]').wait_for()
    page.click('[data-testid="more-forest"] > summary')
    page.select_option('[data-testid="opt-match"]', "single")
    page.select_option('[data-testid="opt-mode"]', "correspondence")
    assert page.locator('[data-testid="opt-clock"]').is_hidden()
    page.select_option('[data-testid="opt-mode"]', "live")
    page.select_option('[data-testid="opt-clock"]', label="3 min + 2 s")
    page.uncheck('[data-testid="opt-rated"]')
    shot(page, "lobby-create-clock")
    page.click('[data-testid="create-table"]')
    page.wait_for_url(re.compile(r"/table/t_\w+$"))
    chips = page.locator('[data-testid="rules-info"]')
    chips.locator(".chip", has_text="unrated").wait_for()
    assert "3 min + 2 s" in chips.inner_text() and "Live" in chips.inner_text()
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    page.click('[data-testid="btn-bot"]')
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    page.click('[data-testid="btn-start"]')
    # Seat 0 plays brown: the computer (blue) moves first, then my clock runs and ticks down here.
    Player(page).wait_ply(1)
    mine = page.locator('[data-testid="clock-0"]')
    page.locator('[data-testid="clock-0"].running').wait_for()
    first = int(mine.get_attribute("data-ms"))
    assert 170_000 < first <= 180_000
    page.wait_for_timeout(700)
    later = int(mine.get_attribute("data-ms"))
    assert first - later >= 400
    assert re.fullmatch(r"[23]:\d\d", mine.inner_text())
    other = page.locator('[data-testid="clock-1"]')
    assert "running" not in (other.get_attribute("class") or "")
    shot(page, "table-clock")
