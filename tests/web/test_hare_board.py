"""A board that stays still: whole hare hunts of three and five seats (one person, the rest computer
players) at 1366×850 and at 390×844. From the first decision of each of the person's turns to its
end, the board's box does not move, the whole board and every hunter stay in the window, and every
action is made on the board or its tray (clicks, taps on the phone, drags on the desktop). The
status is true at each step, the result names the winners by seat, name and club with every seat's
score, and axe finds no violation on the table, mid-hunt and at the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hare_driver import HareHand, by_id

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

SIZES = {"desktop": {"width": 1366, "height": 850}, "phone": {"width": 390, "height": 844}}
SEEDS = {3: 11, 5: 7}


def strict_axe(page: Any, what: str) -> None:
    """axe-core on the page as it stands: no violation at all, whatever its impact."""
    from axe_runner import AxeOnce as Axe

    violations = Axe().run(page).response["violations"]
    report = "\n".join(f"{v['id']} ({v['impact']}): {v['help']} -> "
                       + "; ".join(n["target"][0] for n in v["nodes"][:6] if n["target"]) for v in violations)
    assert not violations, f"axe on {what}:\n{report}"


def seat_computers(page: Any, seats: int) -> None:
    by_id(page, "btn-join").click()
    by_id(page, "hare-seat-0").filter(has_text="you").wait_for()
    assert by_id(page, "status").inner_text() == f"Waiting for players: {seats - 1} seats are free."
    page.select_option('[data-testid="bot-level"]', "2")
    for seat in range(1, seats):
        by_id(page, "btn-bot").click()
        by_id(page, f"hare-seat-{seat}").filter(has_text=f"Computer {seat + 1} (heuristic)").wait_for()
    # Every seat taken: the status says what comes next, and only the controls this person may use show.
    page.wait_for_function("""() => document.querySelector('[data-testid="status"]').textContent
        === 'Every seat is taken: start the hunt.'""")
    assert by_id(page, "btn-start").is_visible() and not by_id(page, "btn-join").is_visible()
    assert not by_id(page, "btn-bot").is_visible()


@pytest.mark.parametrize("seats", [3, 5])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_whole_hunts_on_a_board_that_stays_still(server: Any, open_page: Any, shot: Any, seats: int, size: str) -> None:
    phone = size == "phone"
    table = server.create_table(seed=SEEDS[seats], game="hare", seats=seats)
    page = open_page(f"/table/{table}", phone=phone)
    page.set_viewport_size(SIZES[size])
    seat_computers(page, seats)
    # Scrolled down to Start, as on a phone: when the hunt begins the board comes into view whole
    # (the first turn's check below).
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    by_id(page, "btn-start").click()
    by_id(page, "hare-own-club").wait_for()
    assert not by_id(page, "btn-start").is_visible() and not by_id(page, "btn-leave").is_visible()
    # The coordinates are drawn: every rank beside the board, every file below it.
    for name in [f"rank-{r}" for r in range(1, 12)] + [f"file-{f}" for f in "abcdefghijk"]:
        assert by_id(page, name).count() == 1, name

    checked: list[str] = []

    def after(hand: HareHand) -> None:
        # Read at one moment: a computer's move may arrive between two separate reads.
        status, legal = page.evaluate("""() => [document.querySelector('[data-testid="status"]').innerText,
            document.querySelector('[data-testid="board-host"]').dataset.legal]""")
        if json.loads(legal or "[]"):
            assert status.startswith("Your turn"), status
        if hand.actions == 6 and not checked:
            shot(page, f"hare-still-{seats}-{size}")
            strict_axe(page, f"the hare table mid-hunt ({seats} seats, {size})")
            checked.append("axe")

    hand = HareHand(page, random.Random(seats), touch=phone, drag_every=0 if phone else 3)
    hand.play_until_over(every=after)
    assert hand.turns >= 2 and checked and {"roll", "step"} <= hand.kinds
    if not phone:
        assert hand.dragged > 0

    # The result: who won by seat, name and club, and every seat's place, club, hunters left and outcome.
    status = by_id(page, "status").inner_text()
    assert status.startswith("The hunt is over:"), status
    assert page.locator('[data-testid="hare-result-table"] tbody tr').count() == seats
    for seat in range(seats):
        row = by_id(page, f"hare-result-{seat}")
        cells = row.locator("td, th").all_inner_texts()
        assert cells[1].startswith(f"{seat + 1}. ")
        assert cells[2].strip() in {"red", "yellow", "green", "blue", "white", "black"}
        assert cells[3].isdigit() and cells[4], cells
    winners = page.locator('[data-testid="hare-result-table"] tr.winner th').all_inner_texts()
    assert winners and all(w.split(". ", 1)[1] in status for w in winners)
    if len(winners) == 1:
        assert "(seat " in status and "club: " in status
    # A finished table offers another hunt to the seated person, and nothing a visitor could not use.
    by_id(page, "btn-start").filter(has_text="Hunt again").wait_for()
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= SIZES[size]["width"]  # no sideways scrolling
    strict_axe(page, f"the finished hare table ({seats} seats, {size})")
    visitor = open_page(f"/table/{table}", phone=phone)
    visitor.set_viewport_size(SIZES[size])
    by_id(visitor, "hare-result").wait_for()
    for testid in ("btn-start", "btn-leave", "btn-join", "btn-watch", "btn-bot"):
        assert not by_id(visitor, testid).is_visible(), testid
