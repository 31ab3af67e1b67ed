"""One click to a game: the lobby's "Play the computer" (a friendly, unrated match with hints, already
running), "Play a friend" (a table with its link to send, which a second visitor opens to sit down),
the hare hunt with two computers, and the rule options folded under "More options", each explained."""

from __future__ import annotations

import re
from typing import Any

import pytest
from board_driver import Player

pytestmark = pytest.mark.browser


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_way_into_each_game_is_in_sight(server: Any, open_page: Any, shot: Any, axe_check: Any,
                                            phone: bool) -> None:
    for _ in range(8):  # a busy lobby: its long list of tables must not push the way in down
        server.create_table({"match": "single"})
    page = open_page("/", phone=phone)
    page.set_viewport_size({"width": 390, "height": 844} if phone else {"width": 1366, "height": 800})
    by_id(page, "conn").and_(page.locator('[data-state="online"]')).wait_for()
    by_id(page, "quick-level").locator("option").first.wait_for(state="attached")
    height = page.viewport_size["height"]
    for testid in ("quick-computer", "quick-friend"):
        box = by_id(page, testid).bounding_box()
        assert box and box["y"] + box["height"] <= height, f"{testid} is below the fold: {box}"
    assert by_id(page, "quick-friendly").is_visible()
    # The keyboard and a screen reader meet the way in right after the name, as the eye does: the
    # page's parts come in the order they are shown (one column on the phone).
    by_id(page, "name-save").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('[data-testid=\"play-panel\"]') !== null"), \
        page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
    if phone:
        tops = page.evaluate("() => [...document.querySelectorAll('main.lobby > :not([hidden])')]"
                             ".map((e) => e.getBoundingClientRect().top)")
        assert tops == sorted(tops), tops
    # The rule options wait folded; opened, every one says in a line what it does.
    assert by_id(page, "create-table").is_hidden()
    by_id(page, "more-forest").locator("summary").click()
    form = by_id(page, "create-form")
    for label in form.locator(":scope > label").all():
        assert label.locator(".opt-help").inner_text().strip(), label.inner_text()
    assert by_id(page, "create-table").is_visible()
    shot(page, f"lobby-{'phone' if phone else 'desktop'}")
    axe_check(page, "the lobby with its options open")


def test_play_the_computer_in_one_click(open_page: Any, shot: Any) -> None:
    page = open_page("/")
    by_id(page, "quick-level").locator("option").first.wait_for(state="attached")
    # From the keyboard, as everything in the lobby: the level box, Home for level 1, Tab, Enter.
    by_id(page, "quick-level").focus()
    page.keyboard.press("Home")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "quick-computer"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/table/t_\w+$"))
    by_id(page, "seat-1-name").filter(has_text="Computer").wait_for()
    by_id(page, "rules-info").locator(".chip", has_text="Unrated").wait_for()
    # Already running: the computer (blue) moves first, then it is this player's turn, with a hint.
    Player(page).wait_ply(1)
    by_id(page, "status").filter(has_text="Your turn").wait_for()
    by_id(page, "btn-hint").wait_for()
    by_id(page, "btn-hint").click()
    by_id(page, "hint-text").wait_for()
    assert by_id(page, "share").is_hidden()
    shot(page, "quick-computer-table")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_play_a_friend_with_a_link(open_page: Any, shot: Any, phone: bool) -> None:
    ann = open_page("/", phone=phone)
    by_id(ann, "conn").and_(ann.locator('[data-state="online"]')).wait_for()
    by_id(ann, "quick-friend").click()
    ann.wait_for_url(re.compile(r"/table/t_\w+$"))
    by_id(ann, "seat-0").and_(ann.locator(".me")).wait_for()
    share = by_id(ann, "share")
    share.wait_for()
    # The link to send is in sight, whole (on a phone it lies under the board: the page brings it up).
    ann.wait_for_function("""() => { const r = document.querySelector('[data-testid="share"]').getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight; }""")
    link = by_id(ann, "share-link").input_value()
    assert link == ann.url
    by_id(ann, "share-copy").click()
    # Copied, or (no clipboard for the page) how to copy the selected link, by the keys or a finger.
    fallback = "hold your finger on it" if phone else "copy it with Ctrl+C"
    toast = by_id(ann, "toast").filter(has_text=re.compile(f"Link copied|{re.escape(fallback)}"))
    toast.wait_for()
    shot(ann, f"quick-friend-share-{'phone' if phone else 'desktop'}")
    bob = open_page(link)
    by_id(bob, "btn-join").click()
    by_id(bob, "seat-1").and_(bob.locator(".me")).wait_for()
    share.wait_for(state="hidden")
    by_id(ann, "btn-start").wait_for()


def test_a_hare_hunt_with_two_computers_in_one_click(open_page: Any) -> None:
    page = open_page("/")
    by_id(page, "quick-hare-level").locator("option").first.wait_for(state="attached")
    page.select_option('[data-testid="quick-hare-level"]', "1")
    by_id(page, "quick-hare-computer").click()
    page.wait_for_url(re.compile(r"/table/t_\w+$"))
    page.locator("body[data-state='playing'], [data-testid='hare-seat-2']").first.wait_for()
    for seat in (1, 2):
        by_id(page, f"hare-seat-{seat}").filter(has_text=re.compile("Computer|random")).wait_for()
    by_id(page, "btn-start").wait_for(state="hidden")
    assert "unrated" in by_id(page, "rules-info").inner_text()
