"""Playing without a mouse: a whole game against the computer from the keyboard alone (Tab to the
board, arrow keys, Enter and Space, the notation box), the squares' spoken labels, the live region
that tells the opponent's actions, and axe-core's check in the middle of the game and at its end."""

from __future__ import annotations

from typing import Any

import pytest
from board_driver import Player, pick
from keyboard_driver import focused, tab_to_board, walk

pytestmark = pytest.mark.browser

RULES = {"match": "single", "stall_limit": 1}
SEED = 3
MY_TURN_OR_OVER = """() => !document.querySelector('[data-testid="summary"]').hidden
                        || document.querySelector('[data-testid="board"]').dataset.legal !== ''"""


def press_button(page: Any, testid: str) -> None:
    button = page.locator(f'[data-testid="{testid}"]')
    button.wait_for()
    button.focus()
    page.keyboard.press("Enter")


def test_a_whole_game_from_the_keyboard(server: Any, open_page: Any, axe_check: Any, shot: Any) -> None:
    table = server.create_table(RULES, seed=SEED)
    page = open_page(f"/table/{table}")
    me = Player(page)
    press_button(page, "btn-join")
    page.locator('[data-testid="seat-0"].me').wait_for()
    page.locator('[data-testid="bot-level"]').focus()
    page.keyboard.press("Home")  # level 1, the random computer
    press_button(page, "btn-bot")
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    press_button(page, "btn-start")

    # Brown moves second: the computer's first action is told in the live region.
    page.wait_for_function("() => document.querySelector('[data-testid=\"board\"]').dataset.legal !== ''")
    assert page.locator('[data-testid="announce"]').inner_text().startswith("Blue turns over")
    tab_to_board(page)
    assert page.get_attribute('[data-testid="board"]', "role") == "grid"
    label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    assert label.startswith(f"{focused(page)}, ")

    played = 0
    checked = False
    while True:
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator('[data-testid="summary"]').is_visible():
            break
        ply = me.ply()
        action = pick(me.legal(), prefer_drag=True)
        if played % 4 == 3:
            # Every fourth action typed in notation, as the move list writes it.
            box = page.locator('[data-testid="notation-input"]')
            box.focus()
            page.keyboard.type(action)
            page.keyboard.press("Enter")
            me.wait_ply(ply + 1)
            # Shift+Tab back from the notation box once the board has settled: this side's turn again, or
            # the end (whose summary takes the focus itself).
            page.wait_for_function(MY_TURN_OR_OVER)
            if page.locator('[data-testid="summary"]').is_hidden():
                tab_to_board(page, most=10, back=True)
        elif action.startswith("?"):
            walk(page, action[1:3])
            assert "can be turned over" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            page.keyboard.press("Space" if played % 2 else "Enter")
        else:
            src, dst = action[:2], action[3:]
            walk(page, src)
            page.keyboard.press("Enter")
            page.locator('[data-testid="announce"]', has_text=f"on {src}").wait_for()
            assert "picked up" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            walk(page, dst)
            target = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
            assert "can go here" in target or "can capture here" in target, target
            page.keyboard.press("Enter")
        played += 1
        me.wait_ply(ply + 1)
        if played == 3 and not checked:
            shot(page, "keyboard-mid-game")
            axe_check(page, "the table in the middle of a keyboard game")
            checked = True
    assert played >= 4
    assert page.locator('[data-testid="summary-title"]').inner_text() == "Game 1 is over"
    axe_check(page, "the end-of-game summary")
    page.keyboard.press("Escape")
    assert page.locator('[data-testid="summary"]').is_hidden()
