"""What the table tells at a glance: a spectator's tap is answered, the note on a refused action
leaves the board's bottom row and the south exit in sight, and on a phone the top bar is short and
both players' names (the computer's level too) are shown whole."""

from __future__ import annotations

from typing import Any

import pytest
from board_driver import Player

pytestmark = pytest.mark.browser

RULES = {"match": "single", "stall_limit": 1}


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def seat_against_computer(page: Any) -> None:
    by_id(page, "btn-join").click()
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.select_option('[data-testid="bot-level"]', "1")
    by_id(page, "btn-bot").click()
    by_id(page, "seat-1-name").filter(has_text="Computer").wait_for()
    by_id(page, "btn-start").click()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_refusals_and_spectators_are_answered_beside_the_board(server: Any, open_page: Any, shot: Any,
                                                               phone: bool) -> None:
    table = server.create_table(RULES, seed=3)
    page = open_page(f"/table/{table}", phone=phone)
    page.set_viewport_size({"width": 390, "height": 844} if phone else {"width": 1366, "height": 800})
    seat_against_computer(page)
    me = Player(page, touch=phone)
    me.wait_ply(1)
    page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]').dataset.legal !== ''")
    # An action the rules refuse (a face-down tile cannot move): the server's reason, beside the board.
    by_id(page, "notation-input").fill("a1-a2")
    by_id(page, "notation-input").press("Enter")
    explain = by_id(page, "explain")
    explain.wait_for()
    assert explain.get_attribute("data-key") not in ("", "kb.not_notation")
    note = explain.bounding_box()
    for testid in ("exit-S", "tile-a1", "tile-d1", "tile-g1", "exit-E", "exit-W"):
        box = page.locator(f'[data-testid="{testid}"]').bounding_box()
        assert note and box and not overlaps(note, box), f"the note covers {testid}"
    shot(page, f"refusal-note-{'phone' if phone else 'desktop'}")

    watcher = open_page(f"/table/{table}", phone=phone)
    watcher_board = Player(watcher, touch=phone)
    watcher_board.wait_ply(1)
    face_down = next(sq for sq, letter in position_tiles(watcher_board.position()).items() if letter == "?")
    watcher_board.tap(face_down)
    told = by_id(watcher, "explain")
    told.wait_for()
    assert told.get_attribute("data-key") == "explain.spectator"
    assert told.inner_text() == "You are watching; take a seat to play."


def position_tiles(fen: str) -> dict[str, str]:
    board = fen.split()[0]
    out: dict[str, str] = {}
    for i, row in enumerate(board.split("/")):
        rank, file = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                out[f"{'abcdefg'[file]}{rank}"] = ch
                file += 1
    return out


def test_a_phone_shows_who_plays_under_a_short_top_bar(server: Any, open_page: Any, shot: Any) -> None:
    table = server.create_table(RULES, seed=3)
    page = open_page(f"/table/{table}", phone=True)
    page.evaluate("() => fetch('/api/name', {method: 'POST', headers: {'content-type': 'application/json'},"
                  " body: JSON.stringify({name: 'Guest with a long name'})})")
    page.reload()
    seat_against_computer(page)
    Player(page, touch=True).wait_ply(1)
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "phone-header")
    bar = page.locator("header.topbar").bounding_box()
    assert bar and bar["height"] <= 80, bar
    for seat, name in ((0, "Guest with a long name"), (1, "Computer (random)")):
        cell = by_id(page, f"seat-{seat}-name")
        assert name in cell.inner_text()
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), f"seat {seat}'s name is cut"
    shot(page, "phone-seats")
