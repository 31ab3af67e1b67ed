"""Driving the forest board like a person: clicks and mouse drags, or taps and finger drags.

Finger input goes through Chrome's DevTools touch events, so the page receives genuine touch
pointer events (pointerType "touch"), exactly as on a phone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BOARD = '[data-testid="board"]'


class Player:
    """One person at the board: ``touch`` picks finger input instead of the mouse."""

    def __init__(self, page: Any, touch: bool = False) -> None:
        self.page = page
        self.touch = touch
        self.cdp = page.context.new_cdp_session(page) if touch else None
        self.drags = 0

    # What the page shows ------------------------------------------------------------------
    def attr(self, name: str) -> str:
        return self.page.get_attribute(BOARD, f"data-{name}") or ""

    def ply(self) -> int:
        return int(self.attr("ply") or 0)

    def legal(self) -> list[str]:
        return self.attr("legal").split()

    def position(self) -> str:
        return self.attr("position")

    def wait_ply(self, ply: int) -> None:
        self.page.wait_for_function(
            "n => Number(document.querySelector('[data-testid=\"board\"]')?.dataset.ply) >= n", arg=ply)

    def tile(self, square: str) -> Any:
        return self.page.locator(f'{BOARD} [data-testid="tile-{square}"]')

    def centre(self, locator: Any) -> tuple[float, float]:
        locator.scroll_into_view_if_needed()
        box = locator.bounding_box()
        assert box, "element not on screen"
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def target_centre(self, to: str) -> tuple[float, float]:
        if len(to) == 1:  # an exit: N, E, S or W
            return self.centre(self.page.locator(f'[data-testid="exit-{to}"]'))
        return self.centre(self.page.locator(f'{BOARD} rect.cell[data-square="{to}"]'))

    # Input --------------------------------------------------------------------------------
    def tap(self, square: str) -> None:
        if self.touch:
            self.tile(square).tap()
        else:
            self.tile(square).click()

    def drag(self, square: str, to: str, check_targets: bool = False,
             during: Callable[[], None] | None = None) -> list[str]:
        """Drag the tile on ``square`` to a square or exit; returns the squares lit while dragging.
        ``during`` runs halfway, with the tile in the hand."""
        x0, y0 = self.centre(self.tile(square))
        x1, y1 = self.target_centre(to)
        lit: list[str] = []
        steps = 6
        self._down(x0, y0)
        for i in range(1, steps + 1):
            self._move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            if i == 2 and check_targets:
                lit = self.page.eval_on_selector_all(
                    f"{BOARD} .target[data-target]", "els => els.map(e => e.dataset.target)")
                lit += self.page.eval_on_selector_all(f"{BOARD} .exit.target", "els => els.map(e => e.dataset.exit)")
            if i == steps // 2 and during is not None:
                during()
        self._up(x1, y1)
        self.drags += 1
        return lit

    def long_press(self, square: str, ms: int = 800) -> None:
        x, y = self.centre(self.tile(square))
        self._down(x, y)
        self.page.wait_for_timeout(ms)

    def release(self) -> None:
        self._up(None, None)

    def _down(self, x: float, y: float) -> None:
        self._last = (x, y)
        if self.cdp:
            self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        else:
            self.page.mouse.move(x, y)
            self.page.mouse.down()

    def _move(self, x: float, y: float) -> None:
        self._last = (x, y)
        if self.cdp:
            self.cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
        else:
            self.page.mouse.move(x, y)

    def _up(self, x: float | None, y: float | None) -> None:
        if self.cdp:
            self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        else:
            self.page.mouse.up()

    # Chat ---------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        box = self.page.locator('[data-testid="chat-input"]')
        box.fill(text)
        box.press("Enter")


def pick(legal: list[str], prefer_drag: bool) -> str:
    """A deterministic choice that keeps a game short and varied: exits, captures, then reveals."""
    exits = [a for a in legal if a[-1] in "NESW" and "-" in a]
    captures = [a for a in legal if "x" in a]
    moves = [a for a in legal if "-" in a and a not in exits]
    reveals = [a for a in legal if a.startswith("?")]
    if exits:
        return exits[0]
    if captures:
        return captures[0]
    if prefer_drag and moves:
        return moves[0]
    if reveals:
        return reveals[0]
    return (moves or legal)[0]
