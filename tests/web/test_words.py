"""What a newcomer reads and types: a blank or too long name is answered in the form at once (a pasted
name is never cut short without a word), the old "You are now called …" goes when the next try is
refused, the protocol's wording never reaches a player (`/unbot 7`), the phone's top bar shows every
page, the skip link leads past it, and the replay speaks of arrow keys only where there are keys."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from keyboard_driver import focused_testid, tab_to

pytestmark = pytest.mark.browser

EN = json.loads((Path(__file__).resolve().parents[2] / "src/halali/web/i18n/en.json").read_text(encoding="utf-8"))
DE = json.loads((Path(__file__).resolve().parents[2] / "src/halali/web/i18n/de.json").read_text(encoding="utf-8"))


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


def ready(page: Any) -> None:
    page.wait_for_function("() => document.body.classList.contains('ready')")


def test_the_lobby_answers_every_name(open_page: Any) -> None:
    page = open_page("/")
    ready(page)
    by_id(page, "me-name").wait_for()
    box, error, saved = by_id(page, "name-input"), by_id(page, "name-error"), by_id(page, "name-saved")
    # Blank: answered in the form, nothing sent.
    box.fill("   ")
    by_id(page, "name-save").click()
    assert error.inner_text() == EN["name.empty"]
    # A pasted name is kept whole, and the form says at once that it is too long.
    long = "Waldmeisterschützenkönigin"  # 26 characters
    box.fill(long)
    assert box.input_value() == long
    assert error.inner_text() == EN["name.too_long"].format(max=24, n=26)
    assert box.get_attribute("aria-invalid") == "true"
    by_id(page, "name-save").click()
    assert by_id(page, "me-name").inner_text() != long
    # A good name is said beside the field; the next refusal takes its place.
    box.fill("Waldmeisterschützenkönig")
    assert error.is_hidden()
    by_id(page, "name-save").click()
    saved.filter(has_text="Waldmeisterschützenkönig").wait_for()
    assert saved.inner_text() == EN["lobby.name_saved"].format(name="Waldmeisterschützenkönig")
    box.fill("")
    by_id(page, "name-save").click()
    assert error.inner_text() == EN["name.empty"] and saved.inner_text() == ""
    assert by_id(page, "toast").is_hidden()


def test_the_register_form_says_a_name_is_too_long(open_page: Any) -> None:
    page = open_page("/account", locale="de-DE")
    ready(page)
    page.fill('[data-testid="register-name"]', "W" * 30)
    assert page.input_value('[data-testid="register-name"]') == "W" * 30
    assert by_id(page, "register-error").inner_text() == DE["name.too_long"].replace("{max}", "24").replace("{n}", "30")
    page.fill('[data-testid="register-password"]', "forest floor 42")
    page.fill('[data-testid="register-password2"]', "forest floor 42")
    page.click('[data-testid="register-submit"]')
    assert by_id(page, "register-error").inner_text() == DE["name.too_long"].replace("{max}", "24").replace("{n}", "30")
    assert by_id(page, "me-kind").get_attribute("data-kind") == "guest"


def test_a_chat_command_gone_wrong_is_a_sentence(server: Any, open_page: Any) -> None:
    table = server.create_table({"match": "single"})
    page = open_page(f"/table/{table}?do=join")
    page.locator('[data-testid="seat-0"].me').wait_for()
    for command, key in (("/unbot 7", "error.field.seat"), ("/claim maybe", "error.field.result")):
        page.fill('[data-testid="chat-input"]', command)
        page.press('[data-testid="chat-input"]', "Enter")
        by_id(page, "toast").filter(has_text=EN[key]).wait_for()
    assert "field" not in by_id(page, "toast").inner_text()


@pytest.mark.parametrize("locale", ["en-GB", "de-DE", "fr-FR", "it-IT", "cs-CZ"])
def test_the_phone_shows_every_page_in_the_top_bar(open_page: Any, locale: str) -> None:
    page = open_page("/leaderboard", phone=True, locale=locale)
    ready(page)
    width = page.viewport_size["width"]
    bar = page.locator("header.topbar").bounding_box()
    assert bar and bar["height"] <= 100, bar
    for link in ("lobby", "leaderboard", "tournaments", "history", "howto"):
        box = by_id(page, f"link-{link}").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (link, box)
        assert box["y"] + box["height"] <= bar["y"] + bar["height"], (link, box)


def test_the_skip_link_leads_past_the_top_bar(open_page: Any) -> None:
    page = open_page("/")
    ready(page)
    page.keyboard.press("Tab")
    assert focused_testid(page) == "skip-link" and by_id(page, "skip-link").is_visible()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert focused_testid(page) == "name-input"


def test_the_replay_speaks_of_arrow_keys_only_where_there_are_keys(server: Any, open_page: Any) -> None:
    game = server.computer_match({"match": "single", "stall_limit": 1}, levels=(1, 1))
    for phone in (False, True):
        page = open_page(f"/replay/{game['game']['id']}#3", phone=phone)
        page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]')?.dataset.ply === '3'")
        assert page.locator(".keys-help").is_visible() is not phone
        # Each step in words for a screen reader, the notation only on the screen.
        spoken = by_id(page, "announce").inner_text()
        assert spoken.startswith("Action 3 of ") and ("turns over" in spoken or ": " in spoken), spoken


def test_a_tournament_is_entered_and_left_from_the_keyboard(server: Any, open_page: Any) -> None:
    tid = server.create_tournament("Keyboard Cup", levels=(1,), entry={"accounts": False})
    page = open_page(f"/tournament/{tid}")
    ready(page)
    by_id(page, "t-join").wait_for()
    tab_to(page, "t-join")
    page.keyboard.press("Enter")
    # Enter gives way to Withdraw, which takes the focus; the live region says what happened.
    by_id(page, "t-announce").filter(has_text=EN["tournament.you_entered"]).wait_for()
    assert focused_testid(page) == "t-withdraw"
    page.keyboard.press("Enter")
    by_id(page, "t-announce").filter(has_text=EN["tournament.you_withdrew"]).wait_for()
    assert focused_testid(page) == "t-join"
