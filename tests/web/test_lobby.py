"""The lobby in the browser: a name, a new table with its rule options, the table as others see it
(without the owner's computer controls), a computer player added from the lobby by the table's owner,
and a match against it started from the table page."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def card(page: Any, table: str) -> Any:
    return page.locator(f'[data-testid="table-{table}"]')


def test_create_a_table_and_play_a_computer(server: Any, open_page: Any, shot: Any) -> None:
    ann = open_page("/")
    ann.locator('[data-testid="me-name"]', has_text=re.compile("Guest")).wait_for()
    ann.fill('[data-testid="name-input"]', "Ann")
    ann.click('[data-testid="name-save"]')
    ann.locator('[data-testid="me-name"]', has_text="Ann").wait_for()

    # A name with a control character is refused and changes nothing.
    ann.fill('[data-testid="name-input"]', "A\u0007b")
    ann.click('[data-testid="name-save"]')
    ann.locator('[data-testid="name-error"]').wait_for()
    assert ann.locator('[data-testid="me-name"]').inner_text() == "Ann"

    bob = open_page("/")
    bob.locator('[data-testid="online"] li', has_text="Ann").wait_for()

    ann.click('[data-testid="more-forest"] > summary')  # the rule options wait under "More options"
    ann.select_option('[data-testid="opt-match"]', "single")
    ann.select_option('[data-testid="opt-green-lock"]', "revealed_only")
    ann.fill('[data-testid="opt-stall-limit"]', "12")
    ann.check('[data-testid="opt-no-return-neutrals"]')
    shot(ann, "lobby-create")
    ann.click('[data-testid="create-table"]')
    ann.wait_for_url(re.compile(r"/table/t_\w+$"))
    table = ann.url.rsplit("/", 1)[1]
    rules = ann.locator('[data-testid="rules-info"]')
    rules.locator(".chip", has_text="Single game").wait_for()
    assert "after a reveal only" in rules.inner_text()
    assert "Stall limit: 12" in rules.inner_text()
    assert "No return for ducks and pheasants too" in rules.inner_text()
    ann.locator('[data-testid="seat-0"].me').wait_for()

    # Bob sees the table in the lobby, with its rules, seats and state, but no computer to add: that
    # is for Ann, the table's owner, who adds one from her own card in the lobby.
    entry = card(bob, table)
    entry.wait_for()
    assert entry.locator('[data-testid="table-state"]').inner_text() == "waiting"
    assert "Ann" in entry.inner_text() and "free seat" in entry.inner_text()
    assert "after a reveal only" in entry.inner_text()
    assert entry.locator('[data-testid="lobby-add-bot"]').count() == 0
    shot(bob, "lobby-tables")
    ann.click('[data-testid="link-lobby"]')
    own = card(ann, table)
    own.locator('[data-testid="lobby-bot-level"]').select_option("1")
    own.locator('[data-testid="lobby-add-bot"]').click()
    own.locator(".seat.bot", has_text="Computer").wait_for()
    entry.locator(".seat.bot", has_text="Computer").wait_for()

    # Ann's table page shows the computer and who seated it; she starts, the computer answers her moves.
    own.locator('[data-testid="open-table"]').click()
    ann.wait_for_url(re.compile(f"/table/{table}$"))
    ann.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    added = '[data-testid="chat-log"] li[data-key="chat.bot_added"]'
    ann.locator(added, has_text="Ann seats Computer (random)").wait_for()
    ann.click('[data-testid="btn-start"]')
    entry.locator('[data-testid="table-state"]', has_text="playing").wait_for()
    board = ann.locator('[data-testid="board"]')
    # Ann plays brown in game 1: the computer (blue) moves first, then it is her turn.
    ann.locator('[data-testid="status"]', has_text="Your turn").wait_for()
    assert int(board.get_attribute("data-ply") or 0) == 1
    hidden = ann.locator('[data-testid="board"] .tile.revealable').first
    square = hidden.get_attribute("data-square")
    hidden.click()
    ann.locator(f'[data-testid="tile-{square}"].face-up').wait_for()
    ann.locator('[data-testid="status"]', has_text="Your turn").wait_for()
    assert int(board.get_attribute("data-ply") or 0) == 3
    shot(ann, "table-vs-computer")

    # Bob watches from the lobby's link: a spectator, listed as such, with no actions to play.
    entry.locator('[data-testid="open-table"]').click()
    bob.wait_for_url(re.compile(f"/table/{table}$"))
    bob.locator('[data-testid="board"][data-ply]').wait_for(state="attached")
    ann.locator('[data-testid="spectators"] .chip', has_text="Guest").wait_for()
    assert bob.locator('[data-testid="board"]').get_attribute("data-legal") == ""
    assert bob.locator('[data-testid="btn-join"]').is_hidden()


def test_take_a_seat_from_the_lobby(server: Any, open_page: Any) -> None:
    table = server.create_table({"match": "single"})
    page = open_page("/")
    entry = card(page, table)
    entry.locator('[data-testid="join-table"]').click()
    page.wait_for_url(re.compile(f"/table/{table}$"))
    page.locator('[data-testid="seat-0"].me').wait_for()
    assert page.locator('[data-testid="btn-join"]').is_hidden()
    assert page.locator('[data-testid="btn-watch"]').is_visible()
    # Giving the seat up again leaves a spectator who can take it back.
    page.click('[data-testid="btn-watch"]')
    page.locator('[data-testid="chat-log"] li[data-key="chat.watching"]').wait_for()
    page.locator('[data-testid="btn-join"]').wait_for()
    assert page.locator('[data-testid="seat-0"].me').count() == 0
    page.click('[data-testid="btn-leave"]')
    page.wait_for_url(re.compile(r"/$"))


def held_connection(page: Any, close: bool = False) -> Callable[[], None]:
    """The page's socket waits to be opened until the returned ``release``: the page asks /api/me
    (which shows the name), then asks it again before it opens its socket, and that second answer is
    held back. With ``close``, the first socket is then closed before the server's welcome."""
    asked: list[Any] = []
    sockets = 0

    def me(route: Any) -> None:
        asked.append(route)
        if len(asked) != 2:
            route.continue_()

    def socket(ws: Any) -> None:
        nonlocal sockets
        sockets += 1
        if close and sockets == 1:
            ws.close()
        else:
            ws.connect_to_server()

    def release() -> None:
        deadline = time.monotonic() + 30  # a bound: the page asks at once
        while len(asked) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(20)  # Playwright serves the page's requests while it waits
        assert len(asked) >= 2, "the page never asked /api/me before opening its socket"
        asked[1].continue_()

    page.route(re.compile(r"/api/me$"), me)
    page.route_web_socket(re.compile(r"/ws$"), socket)
    return release


@pytest.mark.parametrize("arrives", [True, False])
def test_a_name_saved_before_the_welcome(server: Any, browser: Any, arrives: bool) -> None:
    """The name shows (from /api/me) before the socket's welcome; a name saved in between is sent
    once the welcome comes, or, when that first connection closes instead, answered as offline."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(json.loads(f)["type"])))
        release = held_connection(page, close=not arrives)
        page.goto(f"{server.url}/")
        page.locator('[data-testid="me-name"]', has_text=re.compile("Guest")).wait_for()
        page.fill('[data-testid="name-input"]', "Ann")
        page.click('[data-testid="name-save"]')
        assert page.locator('[data-testid="name-error"]').is_hidden() and sent == []
        release()
        if arrives:
            page.locator('[data-testid="me-name"]', has_text="Ann").wait_for()
            assert sent[:2] == ["lobby", "name"]
            assert page.locator('[data-testid="name-saved"]').inner_text() == "You are now called Ann."
        else:
            error = page.locator('[data-testid="name-error"]')
            error.wait_for()
            assert error.inner_text() == "Connection lost – reconnecting…"
            assert "name" not in sent
    finally:
        ctx.close()
