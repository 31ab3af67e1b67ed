"""The account pages in the browser: the messages for a wrong password, a taken name, differing
passwords and too many attempts, the German account page, the leaderboard and a profile, "your turn"
in the lobby for a correspondence game, and a clock and the options on a table."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from account_pages import PASSWORD, RULES, WEB, login, register, start_against_the_computer, unique
from board_driver import Player

import loopback

pytestmark = pytest.mark.browser


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


def test_a_new_password_logs_out_the_other_devices(server: Any, open_page: Any, shot: Any, axe_check: Any) -> None:
    """The account page changes the password: the current one first (a wrong one is said so), then
    every other device logged in to the account is a guest again, and only the new password logs in."""
    name = unique("Dee")
    mine = open_page("/account")
    mine.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    register(mine, name)
    mine.wait_for_url(re.compile(r"/player/"))
    other = open_page("/account")
    other.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    login(other, name)
    other.wait_for_url(re.compile(r"/player/"))

    mine.goto(f"{server.url}/account")
    form = mine.locator('[data-testid="password-panel"]')
    form.wait_for()

    def change(current: str, new: str) -> None:
        mine.fill('[data-testid="password-current"]', current)
        mine.fill('[data-testid="password-new"]', new)
        mine.fill('[data-testid="password-new2"]', new)
        mine.click('[data-testid="password-submit"]')

    change("not my password", "a new forest path")
    mine.locator('[data-testid="password-error"]', has_text="The current password is wrong.").wait_for()
    change(PASSWORD, "a new forest path")
    mine.locator('[data-testid="password-changed"]', has_text="Every other device is logged out.").wait_for()
    assert mine.locator('[data-testid="password-error"]').is_hidden()
    shot(mine, "account-password-changed")
    axe_check(mine, "the account page, its password changed")
    mine.reload()  # this device goes on as the account, with its new cookie
    mine.locator('[data-testid="me-kind"][data-kind="account"]').wait_for()
    other.goto(f"{server.url}/account")  # the other device is a guest again
    other.locator('[data-testid="me-kind"][data-kind="guest"]').wait_for()
    login(other, name)
    other.locator('[data-testid="login-error"]', has_text="Name or password is wrong.").wait_for()
    login(other, name, "a new forest path")
    other.wait_for_url(re.compile(r"/player/"))


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
    # The error shown is said again in the language chosen after it, as the rest of the page is.
    page.select_option('[data-testid="lang-select"]', "en")
    page.locator('[data-testid="login-error"]', has_text="Name or password is wrong.").wait_for()
    page.select_option('[data-testid="lang-select"]', "de")
    page.locator('[data-testid="login-error"]', has_text="Name oder Passwort ist falsch.").wait_for()
    page.goto(f"{server.url}/leaderboard")
    page.locator("h1", has_text="Rangliste").wait_for()
    assert page.locator("th", has_text="Wertung").count() == 1


def test_leaderboard_and_profile(server: Any, open_page: Any, shot: Any) -> None:
    server.computer_match(RULES)
    page = open_page("/leaderboard")
    board = loopback.get(f"{server.url}/api/leaderboard", params={"game": "forest", "limit": 50}).json()
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
    profile = loopback.get(f"{server.url}/api/players/{first['id']}").json()
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
    start_against_the_computer(page)
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
    start_against_the_computer(page)
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
