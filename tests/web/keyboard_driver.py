"""Driving a page by the keyboard alone, as a person who uses no mouse: Tab to a control, arrow keys
across the forest board's grid, Enter and Space. Nothing here focuses an element from a script."""

from __future__ import annotations

from typing import Any

EXIT_AT = {"N": (3, 7), "S": (3, -1), "W": (-1, 3), "E": (7, 3)}
INSIDE = {"N": "ArrowDown", "S": "ArrowUp", "W": "ArrowRight", "E": "ArrowLeft"}
OUTSIDE = {"N": "ArrowUp", "S": "ArrowDown", "W": "ArrowLeft", "E": "ArrowRight"}


def focused(page: Any) -> str:
    """The board square (or exit) that has the focus, or ""."""
    return str(page.evaluate("() => document.activeElement?.dataset?.key || ''"))


def focused_testid(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement?.dataset?.testid || ''"))


def label(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement.getAttribute('aria-label')"))


def xy(key: str) -> tuple[int, int]:
    return "abcdefg".index(key[0]), int(key[1:]) - 1


def walk(page: Any, to: str) -> None:
    """Arrow keys from the focused cell to a square or an exit, the way a person would press them."""
    here = focused(page)
    if here in EXIT_AT:
        page.keyboard.press(INSIDE[here])
        here = focused(page)
    goal = to if to not in EXIT_AT else {"N": "d7", "S": "d1", "W": "a4", "E": "g4"}[to]
    (f0, r0), (f1, r1) = xy(here), xy(goal)
    for _ in range(abs(f1 - f0)):
        page.keyboard.press("ArrowRight" if f1 > f0 else "ArrowLeft")
    for _ in range(abs(r1 - r0)):
        page.keyboard.press("ArrowUp" if r1 > r0 else "ArrowDown")
    if to in EXIT_AT:
        page.keyboard.press(OUTSIDE[to])
    assert focused(page) == to


def tab_to(page: Any, testid: str, most: int = 80, back: bool = False) -> None:
    """Tab (or Shift+Tab) until the control with this test id has the focus."""
    for _ in range(most):
        if focused_testid(page) == testid:
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {testid}; the focus is on {focused_testid(page)!r}")


def tab_to_board(page: Any, most: int = 80, back: bool = False) -> None:
    for _ in range(most):
        if focused(page):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError("Tab never reached the board")


def play_on_board(page: Any, action: str, pressed: int = 0) -> None:
    """One action on the focused board: a reveal (Enter or Space), or pick up, walk and drop."""
    if action.startswith("?"):
        walk(page, action[1:3])
        assert "can be turned over" in label(page)
        page.keyboard.press("Space" if pressed % 2 else "Enter")
    elif action == "pass":
        raise AssertionError("a pass is played with its button, not on the board")
    else:
        src, dst = action[:2], action[3:]
        walk(page, src)
        page.keyboard.press("Enter")
        page.locator('[data-testid="announce"]', has_text=f"on {src}").wait_for()
        assert "picked up" in label(page)
        walk(page, dst)
        target = label(page)
        assert "can go here" in target or "can capture here" in target, target
        page.keyboard.press("Enter")
