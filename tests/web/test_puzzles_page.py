"""Puzzles in the browser, as a newcomer meets them: the lobby's puzzle of the day, a proven puzzle
solved move by move on the board, another failed, both ratings moving each time (the player's and
the puzzle's), the profile's history, and a puzzle played from the keyboard with the live region
saying what happens. The site stocks the puzzles shipped with the package on its first start."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from board_driver import Player
from keyboard_driver import focused, walk

import loopback
from halali.puzzles.model import Puzzle

pytestmark = pytest.mark.browser

BUNDLED = Path(__file__).resolve().parents[2] / "src/halali/puzzles/bundled.jsonl"
SHIPPED = [Puzzle.from_json(line) for line in BUNDLED.read_text().splitlines()]


def puzzle_ids(server: Any) -> dict[str, int]:
    """Position -> id of every stocked puzzle (the stock goes in beside the server's start)."""
    found: dict[str, int] = {}
    with loopback.client(base_url=server.url) as http:
        for i in range(1, len(SHIPPED) + 1):
            for _ in range(100):
                r = http.get(f"/api/puzzles/{i}")
                if r.status_code == 200:
                    found[r.json()["position"]] = i
                    break
                http.get("/api/health")
    assert len(found) == len(SHIPPED)
    return found


def pick(kind: Any) -> Puzzle:
    return next(p for p in SHIPPED if kind(p))


def change(page: Any, testid: str) -> int:
    page.locator(f'[data-testid="{testid}"][data-change]').wait_for()
    return int(page.get_attribute(f'[data-testid="{testid}"]', "data-change"))


def play(me: Player, action: str) -> None:
    if "x" in action or "-" in action:
        src, dst = action[:2], action[3:]
        me.drag(src, dst)
    else:
        raise AssertionError(action)


def test_solve_a_proven_puzzle_fail_another_and_see_both_ratings_change(server: Any, open_page: Any,
                                                                         shot: Any, axe_check: Any) -> None:
    ids = puzzle_ids(server)
    proven = pick(lambda p: p.proven and p.moves >= 2)
    page = open_page(f"/puzzles/{ids[proven.position]}")
    me = Player(page)
    page.locator('[data-testid="puzzle-task"]', has_text=f"{proven.moves} actions to find").wait_for()
    assert page.locator('[data-testid="puzzle-rating"]').inner_text() == "shown after your try"
    assert "searched to the very end" in page.locator('[data-testid="puzzle-proof"]').inner_text()
    axe_check(page, "a puzzle before the first move")
    for i in range(0, len(proven.solution), 2):
        play(me, proven.solution[i])
        if i + 2 < len(proven.solution):  # the opponent's reply comes back on the board
            me.wait_ply(i + 2)
            assert page.locator('[data-testid="puzzle-status"]').get_attribute("data-kind") == "correct"
    page.locator('[data-testid="puzzle-status"][data-kind="solved"]').wait_for()
    assert change(page, "my-rating") > 0 > change(page, "puzzle-rating")
    assert page.locator('[data-testid="puzzle-themes"]').inner_text()
    shot(page, "puzzle-solved")

    # The next one: a wrong first action, then the right one, which is no longer rated.
    other = pick(lambda p: p.position != proven.position and p.moves == 1 and not p.solution[0].startswith("?"))
    page.goto(f"{server.url}/puzzles/{ids[other.position]}")
    page.wait_for_function("n => document.body.dataset.puzzle === String(n)", arg=ids[other.position])
    wrong = next(a for a in me.legal() if a != other.solution[0] and not a.startswith("?") and a != "pass")
    box = page.locator('[data-testid="notation-input"]')
    box.fill(wrong)
    box.press("Enter")
    page.locator('[data-testid="puzzle-status"][data-kind="wrong"]').wait_for()
    assert change(page, "my-rating") < 0 < change(page, "puzzle-rating")
    missed = page.locator('[data-testid="my-rating"]').inner_text()
    box.fill(other.solution[0])
    box.press("Enter")
    page.locator('[data-testid="puzzle-status"][data-kind="solved"]').wait_for()
    assert page.locator('[data-testid="my-rating"]').inner_text() == missed  # a later try changes nothing
    axe_check(page, "a puzzle solved at the second try")

    # The profile lists both tries, each with its result.
    page.locator('[data-testid="me-name"]').click()
    page.locator('[data-testid="puzzle-try"]').nth(1).wait_for()
    assert [page.locator('[data-testid="puzzle-try"]').nth(i).get_attribute("data-solved") for i in range(2)] == \
        ["false", "true"]


def test_the_lobby_shows_the_puzzle_of_the_day(server: Any, open_page: Any) -> None:
    puzzle_ids(server)
    page = open_page("/")
    page.locator('[data-testid="daily"]').wait_for()
    assert "to play and win the most points" in page.locator('[data-testid="daily-task"]').inner_text()
    page.locator('[data-testid="daily-open"]').click()
    page.wait_for_url("**/puzzles/*")
    page.locator('[data-testid="puzzle-task"]', has_text="find the best action").wait_for()


def test_a_puzzle_by_keyboard_with_the_live_region(server: Any, open_page: Any, axe_check: Any) -> None:
    ids = puzzle_ids(server)
    puzzle = pick(lambda p: p.proven and p.moves == 1 and p.solution[0][2] == "x")
    page = open_page(f"/puzzles/{ids[puzzle.position]}")
    page.locator('[data-testid="puzzle-task"]', has_text="find the best action").wait_for()
    hint = page.locator('[data-testid="btn-hint"]')
    hint.focus()
    page.keyboard.press("Enter")  # a hint: the tile to play, said aloud; the rated try is lost
    page.locator('[data-testid="announce"]', has_text=f"Hint: play the tile on {puzzle.solution[0][:2]}").wait_for()
    assert change(page, "my-rating") < 0
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused(page):
            break
    src, dst = puzzle.solution[0][:2], puzzle.solution[0][3:]
    # The hint picked the tile up, and the board's tab stop is on it.
    assert focused(page) == src
    assert "picked up" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    walk(page, dst)
    assert "can capture here" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    page.locator('[data-testid="announce"]', has_text="Solved!").wait_for()
    axe_check(page, "a puzzle solved from the keyboard")


def test_a_hint_followed_by_the_mouse(server: Any, open_page: Any) -> None:
    """The hint picks the tile up; a click on that tile, as the hint says, keeps it up (it used to put
    it down again), and a click on its target plays the action."""
    ids = puzzle_ids(server)
    puzzle = pick(lambda p: p.moves == 1 and p.solution[0][2:3] in ("-", "x") and len(p.solution[0]) == 5)
    page = open_page(f"/puzzles/{ids[puzzle.position]}")
    page.locator('[data-testid="puzzle-task"]', has_text="find the best action").wait_for()
    src, dst = puzzle.solution[0][:2], puzzle.solution[0][3:]
    page.click('[data-testid="btn-hint"]')
    page.locator('[data-testid="puzzle-status"]', has_text=f"play the tile on {src}").wait_for()
    board = page.locator('[data-testid="board"]')
    target = board.locator(f'.target[data-target="{dst}"]')
    target.wait_for(state="attached")
    me = Player(page)
    me.tap(src)
    assert board.locator(".tile.selected").count() == 1 and target.count() == 1, "the hinted tile was put down"
    page.mouse.click(*me.target_centre(dst))
    page.locator('[data-testid="puzzle-status"][data-kind="solved"]').wait_for()
