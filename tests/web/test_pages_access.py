"""The replay's board can be walked from the keyboard without stepping the game; an unknown table or
address is the site's own page, translated, with the way back; the header's name link waits for a
name. (axe-core on every page, at both sizes, in every language: test_everyone.py.)"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


def ready(page: Any) -> None:
    page.wait_for_function("() => document.body.classList.contains('ready')")


@pytest.fixture(scope="module")
def finished_game(server: Any) -> dict[str, Any]:
    return server.computer_match({"match": "single", "stall_limit": 1}, levels=(1, 2))


def test_the_replay_board_is_walked_from_the_keyboard(server: Any, open_page: Any,
                                                      finished_game: dict[str, Any]) -> None:
    page = open_page(f"/replay/{finished_game['game']['id']}#3")
    page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]').dataset.ply === '3'")
    board = by_id(page, "board")
    assert board.get_attribute("role") == "grid" and board.get_attribute("aria-label") == "Forest board"
    by_id(page, "cell-d4").focus()  # the board's one tab stop; Tab reaches it as on the table
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.startswith("d4, ")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.key") == "c5"
    # Walking the board does not step through the game; outside the board the arrows do.
    assert board.get_attribute("data-ply") == "3"
    by_id(page, "btn-next").focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]').dataset.ply === '4'")
    # Each square says what lies there: a face-up tile by name, the rest face down or empty.
    labels = page.eval_on_selector_all('[data-testid^="cell-"]', "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(labels) == 53  # 49 squares and 4 exits
    assert all(re.match(r"^([a-g][1-7], .+|exit to the (north|east|south|west).*)$", x) for x in labels), labels


@pytest.mark.parametrize("path", ["/table/t_nosuchtab", "/no/such/page"])
def test_an_unknown_address_is_the_sites_own_page(open_page: Any, path: str) -> None:
    page = open_page(path, locale="de-DE")
    ready(page)
    assert by_id(page, "not-found").locator("h1").inner_text() == "Hier ist nichts"
    assert by_id(page, "brand").is_visible() and by_id(page, "link-lobby").inner_text() == "Lobby"
    back = by_id(page, "not-found-back")
    assert back.inner_text() == "Zurück zur Lobby"
    back.click()
    page.wait_for_url(re.compile(r"/$"))
    by_id(page, "quick-computer").wait_for()


def test_the_name_link_waits_for_a_name(server: Any, browser: Any, axe_check: Any) -> None:
    """Who the visitor is comes with /api/me or the socket's welcome. Until then the header's name link
    is empty, and an empty link is nothing to read out or to click: it stays hidden and axe finds
    nothing. Here neither answer ever comes."""
    table = server.create_table({"match": "single"})
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.route_web_socket(re.compile(r"/ws$"), lambda ws: None)  # opened, never answered
        page.route(re.compile(r"/api/me$"), lambda route: None)  # asked, never answered
        with page.expect_request(re.compile(r"/api/me$")):
            page.goto(f"{server.url}/table/{table}")
        ready(page)
        name = by_id(page, "me-name")
        assert name.inner_text() == "" and not name.is_visible()
        axe_check(page, "table before the welcome (phone)")
    finally:
        ctx.close()
