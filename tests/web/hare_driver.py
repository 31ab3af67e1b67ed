"""Driving the hare board like a person: every action made on the board or its tray (a click, a tap
on a phone, now and then a drag), and the checks that the board holds still while it is played.

``HareHand`` plays the seat of the page it drives: it reads the page's legal actions, picks one,
makes it on the board and waits for the server's answer, and keeps the board's box from the first
decision of a turn to its end, failing when the board moves, leaves the window or loses a hunter
out of sight.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

HUNTER_ACTION = re.compile(r"^([a-k](?:1[01]|[1-9]))[->]")
BOARD_OR_OVER = """() => !document.querySelector('[data-testid="hare-result"]').hidden
    || document.querySelector('[data-testid="board-host"]').dataset.legal !== '[]'"""


def choose(legal: list[str], rng: random.Random) -> str:
    """Mostly forward: steps before turns, `end` only when nothing else is left (short hunts)."""
    steps = [a for a in legal if "-" in a and not a.startswith("x")]
    if steps and rng.random() < 0.8:
        return rng.choice(steps)
    others = [a for a in legal if a != "end"] or legal
    return rng.choice(others)


def by_id(page: Any, testid: str) -> Any:
    return page.locator(f'[data-testid="{testid}"]')


class HareHand:
    def __init__(self, page: Any, rng: random.Random, touch: bool = False, drag_every: int = 0) -> None:
        self.page = page
        self.rng = rng
        self.touch = touch
        self.drag_every = drag_every  # every n-th step by a mouse drag (0: never)
        self.actions = self.steps = self.dragged = self.turns = 0
        self.kinds: set[str] = set()
        self.box: dict[str, float] | None = None  # the board's box since the turn began

    # What the page shows -------------------------------------------------------------------
    def legal(self) -> list[str]:
        return list(json.loads(by_id(self.page, "board-host").get_attribute("data-legal") or "[]"))

    def ply(self) -> str:
        return str(by_id(self.page, "board-host").get_attribute("data-ply"))

    def over(self) -> bool:
        return bool(by_id(self.page, "hare-result").is_visible())

    def board_box(self) -> dict[str, Any]:
        """The board's box and its hunters' boxes, read at one moment (the board redraws at every message)."""
        return dict(self.page.evaluate("""() => {
            const box = (e) => {
                const r = e.getBoundingClientRect();
                return {x: r.x, y: r.y, width: r.width, height: r.height};
            };
            const svg = document.querySelector('[data-testid="hare-svg"]');
            return {...box(svg), hunters: [...svg.querySelectorAll('[data-testid^="hunter-"]')].map(box)};
        }"""))

    # The checks ----------------------------------------------------------------------------
    def check_still(self, when: str) -> None:
        """The board has not moved since the turn began, and it and every hunter are in the window."""
        box = self.board_box()
        size = self.page.viewport_size
        if self.box is None:
            self.box = box
        for k in ("x", "y", "width", "height"):
            assert abs(box[k] - self.box[k]) < 0.5, f"the board moved {when}: {self.box} -> {box}"
        assert box["x"] >= -0.5 and box["y"] >= -0.5, f"the board leaves the window {when}: {box}"
        assert box["x"] + box["width"] <= size["width"] + 0.5, f"the board is wider than the window {when}: {box}"
        assert box["y"] + box["height"] <= size["height"] + 0.5, f"the board's bottom is below the fold {when}: {box}"
        assert box["hunters"], "no hunter drawn"
        for h in box["hunters"]:
            assert h["x"] >= 0 and h["y"] >= 0 and h["x"] + h["width"] <= size["width"] \
                and h["y"] + h["height"] <= size["height"], f"a hunter out of sight {when}: {h}"

    def on_board(self, locator: Any) -> Any:
        """``locator``, checked to lie on the board or its tray (the board's frame), before it is used."""
        locator.wait_for()
        frame = by_id(self.page, "board-frame").bounding_box()
        box = locator.bounding_box()
        assert frame and box
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert frame["x"] <= cx <= frame["x"] + frame["width"] and frame["y"] <= cy <= frame["y"] + frame["height"], \
            "an action was made off the board"
        return locator

    def press(self, locator: Any) -> None:
        target = self.on_board(locator)
        if self.touch:
            target.tap()
        else:
            target.click()

    # Playing -------------------------------------------------------------------------------
    def choose_hunter(self, cell: str) -> None:
        hunter = by_id(self.page, f"hunter-{cell}")
        if "selected" not in (hunter.get_attribute("class") or ""):
            self.press(hunter)
            self.page.locator(f'[data-testid="hunter-{cell}"].selected').wait_for()

    def act(self, action: str) -> None:
        """Make ``action`` on the board as a person would."""
        page = self.page
        m = HUNTER_ACTION.match(action)
        if action.startswith("bush="):
            self.kinds.add("bush")
            self.press(by_id(page, f"cell-{action[5:]}"))
        elif action.startswith("x"):
            self.kinds.add("remove")
            self.press(page.locator(f'[data-testid="hunter-{action[1:]}"].removable'))
        elif m and "-" in action:
            self.kinds.add("step")
            self.choose_hunter(m.group(1))
            target = page.locator(f'[data-testid="cell-{action.split("-")[1]}"].target')
            self.steps += 1
            if self.drag_every and not self.touch and self.steps % self.drag_every == 0:
                self.on_board(target)
                self.on_board(by_id(page, f"hunter-{m.group(1)}")).drag_to(target)
                self.dragged += 1
            else:
                self.press(target)
        elif m:
            self.kinds.add("turn")
            self.choose_hunter(m.group(1))
            self.press(by_id(page, f"turn-{m.group(1)}-{action.split('>')[1]}"))
        else:
            self.kinds.add("assign" if action[0].isdigit() else action)
            self.press(by_id(page, f"act-{action}"))

    def play_until_over(self, timeout: float = 60_000, every: Any = None) -> None:
        """Decide whenever it is this page's turn until the hunt is over; ``every(hand)`` after each action.
        ``timeout`` bounds the wait for the other seats' turns (up to four computers, on a busy machine)."""
        while True:
            self.page.wait_for_function(BOARD_OR_OVER, timeout=timeout)
            if self.over():
                return
            legal = self.legal()
            ply = self.ply()
            self.check_still(f"before {legal}")
            action = choose(legal, self.rng)
            self.act(action)
            self.actions += 1
            self.page.wait_for_function(
                f"""() => document.querySelector('[data-testid="board-host"]').dataset.ply !== '{ply}'""")
            self.check_still(f"after {action}")
            if self.legal() == [] or self.over():
                self.box = None  # the turn is over: the next one begins afresh
                self.turns += 1
            if every is not None:
                every(self)
