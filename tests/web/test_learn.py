"""A newcomer takes the course (/learn): the first lessons by mouse and by keyboard, a wrong try
explained in words (by the task, or by the rules engine for an illegal action), stars earned and kept
for the guest after a reload, and the hare hunt's lesson with its buttons. axe-core checks the page."""

from __future__ import annotations

from typing import Any

import pytest
from board_driver import Player
from keyboard_driver import focused, walk

pytestmark = pytest.mark.browser


def feedback(page: Any) -> Any:
    return page.locator('[data-testid="feedback"]')


def wait_done(page: Any) -> None:
    page.wait_for_function("() => document.body.dataset.state === 'done'")


def test_the_first_lessons_by_mouse(server: Any, open_page: Any, axe_check: Any, shot: Any) -> None:
    page = open_page("/")
    page.locator('[data-testid="lobby-learn"]').click()
    page.wait_for_url("**/learn")
    page.locator('[data-testid="learn-progress"]', has_text="Your stars: 0 of 48.").wait_for()
    axe_check(page, "the course's lessons")
    page.locator('[data-testid="task-tiles-fox"]').click()
    me = Player(page)
    assert "Take the duck" in page.locator('[data-testid="task-goal"]').inner_text()
    me.drag("d2", "d6")
    wait_done(page)
    assert page.locator('[data-testid="task-stars"]').get_attribute("data-stars") == "3"
    assert "2 points" in feedback(page).inner_text()
    shot(page, "learn-fox-done")

    page.locator('[data-testid="btn-next-task"]').click()
    page.wait_for_function("() => document.body.dataset.task === 'tiles/bear'")
    me.drag("d4", "d3")  # legal, but not the task: the task's own words
    feedback(page).locator("text=The lumberjack stands right next to the bear").wait_for()
    me.drag("d4", "d6")  # two squares: the rules engine says why not
    feedback(page).locator("text=one square").wait_for()
    assert feedback(page).get_attribute("data-rule") == "rule.one_square"
    me.tap("d4")
    me.tap("e4")
    wait_done(page)
    assert page.locator('[data-testid="task-stars"]').get_attribute("data-stars") == "1"
    axe_check(page, "a finished task")

    page.locator('[data-testid="btn-next-task"]').click()
    page.wait_for_function("() => document.body.dataset.task === 'tiles/hunter'")
    me.drag("b3", "b5")  # the fox to the north: not where the rifle points
    feedback(page).locator("text=rifle points").wait_for()
    me.drag("b3", "f3")
    wait_done(page)

    # The progress is the guest's own: after a reload, in the list of lessons.
    page.goto(server.url + "/learn")
    page.locator('[data-testid="task-tiles-fox"] .stars[data-stars="3"]').wait_for()
    assert page.locator('[data-testid="task-tiles-bear"] .stars').get_attribute("data-stars") == "1"
    page.locator('[data-testid="learn-progress"]', has_text="Your stars: 6 of 48.").wait_for()


def test_the_first_lessons_by_keyboard(server: Any, open_page: Any, axe_check: Any) -> None:
    page = open_page("/how-to-play")
    page.locator("body.ready").wait_for()  # the page shows itself once it speaks its language
    link = page.locator('[data-testid="howto-learn"]')
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/learn")
    button = page.locator('[data-testid="task-reveal-reveal"]')
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.task === 'reveal/reveal'")
    assert page.evaluate("() => document.activeElement.dataset.testid") == "task-title"
    for _ in range(40):  # Tab from the task's title to the board
        page.keyboard.press("Tab")
        if focused(page):
            break
    walk(page, "c5")
    assert "can be turned over" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    wait_done(page)
    assert "Every tile you turn over stays where it is" in feedback(page).inner_text()
    assert page.locator('[data-testid="board"]').get_attribute("data-position").startswith("7/7/2P")

    next_task = page.locator('[data-testid="btn-next-task"]')
    next_task.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.task === 'reveal/blocked'")
    box = page.locator('[data-testid="notation-input"]')
    box.focus()
    page.keyboard.type("a4-e4")  # over the face-down tile: the engine explains
    page.keyboard.press("Enter")
    feedback(page).locator("text=blocked at c4").wait_for()
    page.keyboard.press("Control+A")
    page.keyboard.type("a4xa7")
    page.keyboard.press("Enter")
    wait_done(page)

    next_task.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.task === 'reveal/lock'")
    for _ in range(40):
        page.keyboard.press("Tab")
        if focused(page):
            break
    walk(page, "c3")  # the duck brown just turned over: picking it up is refused with the rule
    page.keyboard.press("Enter")
    walk(page, "c1")
    page.keyboard.press("Enter")
    page.locator('[data-testid="announce"]', has_text="on c1").wait_for()
    walk(page, "c3")
    assert "can capture here" in page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    wait_done(page)
    assert "not capturing it" in feedback(page).inner_text()
    assert page.locator('[data-testid="task-stars"]').get_attribute("data-stars") == "3"
    axe_check(page, "the green lock's task, done by keyboard")


def test_the_hare_hunts_lesson_with_its_buttons(server: Any, open_page: Any) -> None:
    page = open_page("/learn#hare/dice")
    page.wait_for_function("() => document.body.dataset.task === 'hare/dice'")
    page.locator('[data-testid="act-roll"]').click()
    page.locator('[data-testid="act-1x3"]').wait_for()
    page.locator('[data-testid="act-3x1"]').click()
    wait_done(page)
    page.locator('[data-testid="btn-next-task"]').click()
    page.wait_for_function("() => document.body.dataset.task === 'hare/steps'")
    page.locator('[data-testid="act-end"]').click()  # legal, not the plan
    feedback(page).locator("text=Follow the plan").wait_for()
    page.locator('[data-testid="hare-host"] [data-testid="hunter-b5"]').click()
    page.locator('[data-testid="act-b5>NE"]').click()
    page.locator('[data-testid="act-b5-c6"]').wait_for()
    page.locator('[data-testid="act-b5-c6"]').click()
    page.locator('[data-testid="act-c6>E"]').click()
    wait_done(page)
    assert "aims at the hare" in feedback(page).inner_text()


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_bush_is_placed_on_a_board_in_sight(server: Any, open_page: Any, phone: bool) -> None:
    """The bush's task offers some thirty cells: they are marked on the board, which stays whole in
    the window (no button for each of them above it), and a click on one places the bush."""
    page = open_page("/learn#hare/bush", phone=phone)
    page.wait_for_function("() => document.body.dataset.task === 'hare/bush'")
    board = page.locator('[data-testid="hare-svg"]')
    marked = page.locator('[data-testid="hare-host"] polygon.cell.target')
    marked.first.wait_for(state="attached")
    assert marked.count() >= 20
    assert page.locator('[data-testid="hare-actions"] button').count() == 0
    box, height = board.bounding_box(), page.viewport_size["height"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)
    marked.first.click()
    wait_done(page)


def test_a_task_by_touch_on_a_phone(server: Any, open_page: Any) -> None:
    page = open_page("/learn#final/turns", phone=True)
    page.wait_for_function("() => document.body.dataset.task === 'final/turns'")
    me = Player(page, touch=True)
    me.drag("d7", "N")  # the bear out through the north exit; brown answers
    feedback(page).locator("text=The other side answers: a1-a2").wait_for()
    me.drag("b4", "W")
    wait_done(page)
    assert page.locator('[data-testid="task-stars"]').get_attribute("data-stars") == "3"
