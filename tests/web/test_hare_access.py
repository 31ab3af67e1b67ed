"""The hare hunt at the forest's standard: every hex in sight (top and bottom rows too), the tray's
buttons under the board within the first screen, drawn hunters (hat in the club's colour, the rifle along
the facing), the hare and the bush; a hunt played from the keyboard alone with labelled cells and a
live region (the chat, which tells every action once); plural words for the dice; axe-core
mid-hunt; the replay in words with the site's dates."""

from __future__ import annotations

import json
import random
from collections import deque
from typing import Any

import pytest
from hare_driver import HUNTER_ACTION, choose
from test_hare_table import SEED
from test_keyboard import press_button as press

pytestmark = pytest.mark.browser

FILES = "abcdefghijk"
STEPS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (1, 1), "ArrowDown": (-1, -1)}


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


def focused(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement?.dataset?.key || ''"))


def walk(page: Any, to: str, cells: set[str]) -> None:
    """The arrow keys from the focused cell to ``to``, on a shortest path inside the hexagon."""
    start = focused(page)
    prev: dict[str, tuple[str, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        c = queue.popleft()
        if c == to:
            break
        f, r = FILES.index(c[0]), int(c[1:])
        for key, (df, dr) in STEPS.items():
            if not 0 <= f + df < len(FILES):
                continue
            n = f"{FILES[f + df]}{r + dr}"
            if n in cells and n not in prev:
                prev[n] = (c, key)
                queue.append(n)
    keys = []
    c = to
    while prev[c] is not None:
        c, key = prev[c]  # type: ignore[misc]
        keys.append(key)
    for key in reversed(keys):
        page.keyboard.press(key)
    assert focused(page) == to


def tab_to_board(page: Any) -> None:
    for _ in range(80):
        if focused(page):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the board")


def in_view(page: Any, testid: str) -> bool:
    box = by_id(page, testid).bounding_box()
    size = page.viewport_size
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_hare_hunt_from_the_keyboard(server: Any, open_page: Any, axe_check: Any, shot: Any, phone: bool) -> None:
    table = server.create_table(seed=SEED, game="hare", seats=2)
    page = open_page(f"/table/{table}", phone=phone)
    page.set_viewport_size({"width": 390, "height": 844} if phone else {"width": 1366, "height": 800})
    size = "phone" if phone else "desktop"
    press(page, "btn-join")
    by_id(page, "hare-seat-0").filter(has=page.locator(".you-tag")).wait_for()
    page.locator('[data-testid="bot-level"]').focus()
    page.keyboard.press("Home")
    press(page, "btn-bot")
    by_id(page, "hare-seat-1").filter(has_text="random").wait_for()
    press(page, "btn-start")
    by_id(page, "hare-own-club").wait_for()

    # Every hex lies inside the drawing: the top and bottom rows are not cut off.
    svg = by_id(page, "hare-svg").bounding_box()
    for cell in ("a1", "f1", "f11", "k11", "a6", "k6"):
        box = by_id(page, f"cell-{cell}").bounding_box()
        assert box and svg
        assert svg["y"] - 0.5 <= box["y"] and box["y"] + box["height"] <= svg["y"] + svg["height"] + 0.5, cell
        assert svg["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"] + 0.5, cell
    # Hunters are drawn: a hat in the club's colour, the rifle turned along the facing.
    hunter = page.locator('[data-testid^="hunter-"]').first
    club, facing = hunter.get_attribute("data-club"), hunter.get_attribute("data-dir")
    colours = {"R": "#c62828", "Y": "#f2c200", "G": "#2e7d32", "B": "#1565c0", "W": "#fafafa", "K": "#212121"}
    assert hunter.locator(f'path[fill="{colours[club]}"]').count() == 1  # the hat's crown
    angle = {"E": 0, "NE": -60, "NW": -120, "W": 180, "SW": 120, "SE": 60}[facing]
    assert (hunter.locator(".rifle").get_attribute("transform") or "").startswith(f"rotate({angle} ")
    assert by_id(page, "hare").locator("ellipse").count() >= 3

    cells = set(page.eval_on_selector_all('[data-testid^="key-"]', "els => els.map(e => e.dataset.key)"))
    assert len(cells) == 91
    tab_to_board(page)
    assert page.evaluate("() => document.activeElement.getAttribute('aria-label')").startswith(focused(page))

    rng = random.Random(SEED)
    played = 0
    checked = roll_seen = False
    host = by_id(page, "board-host")
    while played < 14:
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="hare-result"]').hidden
                  || document.querySelector('[data-testid="board-host"]').dataset.legal !== '[]'""")
        if by_id(page, "hare-result").is_visible():
            break
        legal = json.loads(host.get_attribute("data-legal") or "[]")
        ply = host.get_attribute("data-ply")
        for a in legal:  # the dice choices speak English plurals: "1 hunter × 2 points"
            if "x" in a and a[0].isdigit():
                n, p = int(a[0]), int(a[2])
                text = by_id(page, f"act-{a}").inner_text()
                assert text == f"{n} hunter{'s' * (n != 1)} × {p} point{'s' * (p != 1)}", text
        if "roll" in legal:
            roll_seen = True
            assert in_view(page, "act-roll"), "the Roll button is out of sight"
        action = choose(legal, rng)
        m = HUNTER_ACTION.match(action)
        if m:
            hunter_cell = m.group(1)
            walk(page, hunter_cell, cells)
            if page.evaluate("() => document.activeElement.getAttribute('aria-selected')") != "true":
                page.keyboard.press("Enter")  # (the hunter just moved stays chosen)
                by_id(page, "announce").filter(has_text=f"Hunter on {hunter_cell} chosen").wait_for()
            if "-" in action:
                target = action.split("-")[1]
                walk(page, target, cells)
                assert "can go here" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
                page.keyboard.press("Space")
            else:
                assert in_view(page, f"act-{action}")
                press(page, f"act-{action}")
        elif action.startswith(("bush=", "x")):
            walk(page, action.split("=")[-1] if "=" in action else action[1:], cells)
            page.keyboard.press("Enter")
        else:
            assert in_view(page, f"act-{action}")
            press(page, f"act-{action}")
        played += 1
        page.wait_for_function(
            f"""() => document.querySelector('[data-testid="board-host"]').dataset.ply !== '{ply}'""")
        if played == 4 and not checked:
            shot(page, f"hare-keyboard-{size}")
            axe_check(page, f"the hare table mid-hunt ({size})")
            checked = True
        tab_to_board(page)  # after a button, back to the board as a keyboard user does
    assert played >= 4 and roll_seen and checked
    assert by_id(page, "announce").inner_text()
    # A reader hears every action once, as it comes: the chat is the live region that tells them in
    # words (the dice, the moves, shots and eliminations); the board's own region only answers keys.
    log = by_id(page, "chat-log")
    assert log.get_attribute("role") == "log"  # a live log: new lines are read out
    told = log.locator("li.action .words").all_inner_texts()
    assert any(" rolls " in w for w in told) and any(" the hunter on " in w for w in told)
    assert all(w not in by_id(page, "announce").inner_text() for w in told)
    assert log.locator("li.action .notation").first.get_attribute("aria-hidden") == "true"
