"""The course over HTTP: every task of every lesson played through its accepted answers, a wrong
answer and an illegal one explained, and the stars kept (the best of a player's tries)."""

from __future__ import annotations

from halali.learn.course import LESSONS
from halali.learn.tasks import accepts

ORIGIN = {"origin": "http://testserver"}


def move(client, lesson: str, task: str, moves: list, action: str, mistakes: int = 0):
    return client.post(f"/api/learn/{lesson}/{task}/move", json={"moves": moves, "action": action,
                                                                 "mistakes": mistakes}, headers=ORIGIN)


def test_every_task_can_be_done_with_its_accepted_answers(client):
    course = {lesson["id"]: lesson for lesson in client.get("/api/learn").json()["lessons"]}
    assert list(course) == [lesson.id for lesson in LESSONS]
    for lesson in LESSONS:
        for i, task in enumerate(lesson.tasks):
            shown = course[lesson.id]["tasks"][i]
            assert shown["id"] == task.id and shown["stars"] == 0
            legal, moves = shown["legal"], []
            for step in task.steps:
                action = next(a for a in legal if accepts(step, a))
                got = move(client, lesson.id, task.id, moves, action).json()
                assert got["correct"], (lesson.id, task.id, got)
                moves.append(action)
                legal = got["legal"]
            assert got["done"] and got["stars"] == 3
    course = client.get("/api/learn").json()["lessons"]
    assert all(t["stars"] == 3 for lesson in course for t in lesson["tasks"])


def test_face_down_tiles_stay_hidden_in_a_lesson():
    from halali.learn.tasks import start, view

    for lesson in LESSONS:
        for task in lesson.tasks:
            if task.game == "forest":
                board = view(start(task)).split()[0]
                assert not any(ch.islower() for ch in board), task.id


def test_a_wrong_answer_is_explained_and_an_illegal_one_names_the_rule(client):
    wrong = move(client, "tiles", "hunter", [], "b3-b2").json()
    assert wrong["correct"] is False and not wrong["done"]
    rifle = move(client, "tiles", "hunter", [], "b3xb5")
    assert rifle.status_code == 400 and rifle.json()["error"]["params"]["rule"] == "rule.rifle"
    lock = move(client, "reveal", "lock", [], "c3-c4")
    assert lock.json()["error"]["params"]["rule"] == "rule.green_lock"
    hare = move(client, "hare", "bush", [], "bush=f7")
    assert hare.json()["error"]["params"]["rule"] == "rule.hare.bush_distance"
    assert move(client, "tiles", "nope", [], "a1-a2").status_code == 404
    assert move(client, "final", "turns", ["d7-d6"], "b4-W").status_code == 400


def test_stars_keep_the_best_try(client):
    got = move(client, "tiles", "fox", [], "d2xd6", mistakes=2).json()
    assert got["stars"] == 1 and got["best"] == 1
    got = move(client, "tiles", "fox", [], "d2xd6", mistakes=1).json()
    assert got["stars"] == 2 and got["best"] == 2
    got = move(client, "tiles", "fox", [], "d2xd6", mistakes=3).json()
    assert got["stars"] == 1 and got["best"] == 2
    tiles = client.get("/api/learn").json()["lessons"][0]
    assert tiles["tasks"][0]["stars"] == 2


def test_every_lesson_task_and_theme_has_its_words():
    import json
    from pathlib import Path

    from halali.puzzles.themes import THEMES

    english = json.loads((Path(__file__).parents[2] / "src/halali/web/i18n/en.json").read_text(encoding="utf-8"))
    needed = {f"puzzle.theme.{t}" for t in THEMES}
    for lesson in LESSONS:
        needed |= {f"learn.{lesson.id}.title", f"learn.{lesson.id}.intro"}
        for task in lesson.tasks:
            needed |= {f"learn.{lesson.id}.{task.id}.{part}" for part in ("title", "goal", "done", "wrong")}
    assert sorted(needed - set(english)) == []
