"""A whole two-game match against the computer by the keyboard alone, as a person who uses no mouse
and hears the page through a screen reader: Tab to the seat, the computer's level and Start; the board
takes the focus when the game begins; every action by the arrow keys and Enter or Space. Both
end-of-game dialogs take the focus, keep it inside (Tab goes round) and give it back to the board
when they close; the board takes no key while one is open. The live region says each action once,
the final phase as it begins, the turns left in it and the stall warning; the status line is not
read out a second time. A reader finds the board as a grid of named rows and the piles as sentences."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from board_driver import Player
from keyboard_driver import focused, focused_testid, play_on_board, tab_to, tab_to_board

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

# A stall limit of 2 warns from the first quiet turn and keeps the games short.
RULES = {"match": "match", "stall_limit": 2}
SEED = 5

# Every text the live region and the status line take, in order, with the ply the board showed then.
RECORD = """
window.__said = [];
new MutationObserver(() => {}).observe(document, {childList: true});
document.addEventListener('DOMContentLoaded', () => {
  for (const id of ['announce', 'status']) {
    const box = document.querySelector(`[data-testid="${id}"]`);
    new MutationObserver(() => window.__said.push([id, box.textContent,
      document.querySelector('[data-testid="board"]')?.dataset.ply]))
      .observe(box, {childList: true, characterData: true, subtree: true});
  }
});
"""


def choose(legal: list[str], quiet_done: bool) -> str:
    """Reveal first (the final phase comes soon), one quiet move per game (the stall warning), and in
    the final phase out of the forest, captures, moves."""
    exits = [a for a in legal if a[-1] in "NESW" and "-" in a]
    captures = [a for a in legal if "x" in a]
    moves = [a for a in legal if "-" in a and a not in exits]
    reveals = [a for a in legal if a.startswith("?")]
    if exits:
        return exits[0]
    if moves and not quiet_done and not captures:
        return moves[0]
    for group in (reveals, captures, moves):
        if group:
            return group[0]
    return legal[0]


def inside_dialog(page: Any) -> bool:
    return bool(page.evaluate(
        "() => document.querySelector('[data-testid=\"summary\"]').contains(document.activeElement)"))


def test_a_whole_match_by_the_keyboard_alone(server: Any, open_page: Any, axe_check: Any, shot: Any) -> None:
    table = server.create_table(RULES, seed=SEED)
    page = open_page(f"/table/{table}")
    page.context.add_init_script(RECORD)
    page.reload()
    page.wait_for_function("() => document.body.classList.contains('ready')")
    me = Player(page)

    # The first Tab is the skip link, past the top bar.
    page.keyboard.press("Tab")
    assert focused_testid(page) == "skip-link"
    assert page.locator('[data-testid="skip-link"]').inner_text() == "Skip to the board"
    tab_to(page, "btn-join")
    page.keyboard.press("Enter")
    page.locator('[data-testid="seat-0"].me').wait_for()
    tab_to(page, "bot-level")
    assert page.get_attribute('[data-testid="bot-level"]', "aria-label") == "Computer level"
    page.keyboard.press("Home")  # level 1, the random computer
    tab_to(page, "btn-bot")
    page.keyboard.press("Enter")
    page.locator('[data-testid="seat-1-name"]', has_text="Computer").wait_for()
    tab_to(page, "btn-start")
    page.keyboard.press("Enter")
    # The game begins and the board has the focus: the first key plays.
    page.wait_for_function("() => document.activeElement?.dataset?.key")
    assert page.get_attribute('[data-testid="status"]', "aria-live") is None  # said by the live region

    # The focused square is framed unlike the last action's yellow frames.
    ring = page.evaluate("() => getComputedStyle(document.activeElement).stroke")
    assert ring == "rgb(255, 255, 255)", ring

    dialogs: list[str] = []
    played = 0
    quiet_done = False
    while True:
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="summary"]').hidden
                  || document.querySelector('[data-testid="board"]').dataset.legal !== ''""")
        if page.locator('[data-testid="summary"]').is_visible():
            title = page.locator('[data-testid="summary-title"]').inner_text()
            dialogs.append(title)
            # The dialog has the focus, on its title, and Tab goes round inside it.
            assert inside_dialog(page) and focused_testid(page) == "summary-title"
            for _ in range(6):
                page.keyboard.press("Tab")
                assert inside_dialog(page), f"Tab left the dialog for {focused_testid(page)!r}"
            page.keyboard.press("Shift+Tab")
            assert inside_dialog(page)
            # Behind it the page is inert: no key reaches the board, no click, no reader's cursor.
            assert page.evaluate("() => !!document.querySelector('[data-testid=\"board\"]').closest('[inert]')")
            if len(dialogs) == 1:
                assert title == "Game 1 is over"
                axe_check(page, "the end-of-game dialog, by keyboard")
                page.keyboard.press("Escape")
            else:
                assert title == "The match is over"
                shot(page, "keyboard-match-over")
                axe_check(page, "the end-of-match dialog, by keyboard")
                tab_to(page, "summary-close")
                page.keyboard.press("Enter")
            page.locator('[data-testid="summary"]').wait_for(state="hidden")
            # Back on the board: the square that had the focus before, nothing played meanwhile.
            assert focused(page), f"the focus is on {focused_testid(page)!r}, not on the board"
            if len(dialogs) == 2:
                break
            quiet_done = False
            continue
        if not focused(page):
            tab_to_board(page, back=True)
        ply = me.ply()
        legal = me.legal()
        action = choose(legal, quiet_done)
        quiet_done = quiet_done or ("-" in action and action[-1] not in "NESW" and "x" not in action)
        if action == "pass":
            tab_to(page, "btn-pass", back=True)
            page.keyboard.press("Enter")
        else:
            play_on_board(page, action, played)
        played += 1
        me.wait_ply(ply + 1)

    assert dialogs == ["Game 1 is over", "The match is over"]
    # After the match: the status says the match's result, and the exits are no longer lit.
    assert page.locator('[data-testid="status"]').inner_text().startswith("The match is over")
    assert "final-phase" not in (page.get_attribute('[data-testid="board"]', "class") or "")

    # What a reader finds: a grid of named rows and labelled cells, and nothing else of the drawing (no
    # value badges, no arrows); the piles as sentences, not as "⇥".
    tree = page.locator('[data-testid="board"]').aria_snapshot()
    assert '- row "rank 7":' in tree and '- row "exit to the north":' in tree
    stray = [line for line in tree.splitlines() if not line.strip().startswith(("- grid ", "- row ", "- gridcell "))]
    assert not stray, stray
    seats = "".join(page.locator(f'[data-testid="seat-{seat}"]').aria_snapshot() for seat in (0, 1))
    assert "⇥" not in seats and ("Captured: " in seats or "Out of the forest: " in seats), seats

    said: list[list[str]] = page.evaluate("() => window.__said")
    announced = [text for region, text, _ in said if region == "announce" and text]
    spoken = " | ".join(announced)
    assert any(t.startswith("Blue turns over") or t.startswith("Brown turns over") for t in announced)
    assert any("The final phase begins: blue has" in t for t in announced), spoken
    assert any("Turns left: blue" in t for t in announced), spoken
    assert any("Stall warning:" in t and "the player to move must turn a tile over" in t for t in announced), spoken
    assert any(t.endswith("Your turn.") for t in announced)
    # Nothing said twice: no text twice in a row, in the live region or in the status line.
    repeats = [a for a, b in pairwise(announced) if a == b]
    assert not repeats, repeats
    statuses = [text for region, text, _ in said if region == "status"]
    assert not [a for a, b in pairwise(statuses) if a == b], statuses
