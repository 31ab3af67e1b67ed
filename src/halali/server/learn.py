"""The course's side of the server (/learn): the lessons with the player's stars, and a task's step
checked by the rules engines (docs/web.md, "Learn").

An illegal action is refused with the rule it breaks, as at a table; a legal one that the task does
not ask for is answered with the task's own explanation (the page has it as ``learn.<lesson>.<task>.wrong``).
A finished task keeps its stars for the player, guest or account, the best of his tries.
"""

from __future__ import annotations

from typing import Any

from halali.games.errors import IllegalAction, NotationError
from halali.games.forest.position import Position
from halali.learn import tasks as T
from halali.learn.course import BY_ID, LESSONS, Task
from halali.server.context import Context
from halali.server.errors import ClientError
from halali.server.games.forest_check import read_action


def _task(lesson_id: Any, task_id: Any) -> Task:
    lesson = BY_ID.get(lesson_id) if isinstance(lesson_id, str) else None
    task = next((t for t in lesson.tasks if t.id == task_id), None) if lesson else None
    if task is None:
        raise ClientError("error.no_lesson")
    return task


def _read(state: T.State, action: Any) -> str:
    """The action in notation if it is legal; ClientError naming the broken rule otherwise."""
    if isinstance(state, Position):
        view = state.view()
        return view.action_str(read_action(view, action))
    if not isinstance(action, str):
        raise ClientError("error.bad_request", field="action")
    if action in T.legal(state):
        return action
    try:
        state.copy().play(action)  # not legal here: the engine says which rule it breaks
    except IllegalAction as exc:
        raise ClientError("error.illegal", reason=str(exc), rule=exc.key, rule_params=exc.params) from exc
    except NotationError as exc:
        raise ClientError("error.bad_action", reason=str(exc)) from exc
    raise ClientError("error.bad_action", reason=action)


class Course:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    async def lessons(self, player_id: str) -> dict[str, Any]:
        stars = await self.ctx.db(self.ctx.store.learn_stars, player_id)
        out = []
        for lesson in LESSONS:
            items = []
            for task in lesson.tasks:
                state = T.start(task)
                items.append({"id": task.id, "position": T.view(state), "legal": T.legal(state),
                              "steps": len(task.steps), "stars": stars.get((lesson.id, _index(task)), 0)})
            out.append({"id": lesson.id, "game": lesson.game, "tasks": items})
        return {"lessons": out}

    async def move(self, player_id: str, lesson_id: Any, task_id: Any, moves: Any, action: Any,
                   mistakes: Any) -> dict[str, Any]:
        task = _task(lesson_id, task_id)
        try:
            state = T.replay(task, moves)
        except T.WrongMoves:
            raise ClientError("error.bad_request", field="moves") from None
        played = _read(state, action)
        got = T.answer(task, state, moves, played)
        out: dict[str, Any] = {"correct": got.correct, "done": got.done, "played": got.played,
                               "position": got.position, "legal": got.legal}
        if got.done:
            if not isinstance(mistakes, int) or mistakes < 0:
                raise ClientError("error.bad_request", field="mistakes")
            earned = T.stars(mistakes)
            out["stars"] = earned
            out["best"] = await self.ctx.db(self.ctx.store.save_stars, player_id, str(lesson_id), _index(task), earned)
        return out


def _index(task: Task) -> int:
    for lesson in LESSONS:
        if task in lesson.tasks:
            return lesson.tasks.index(task)
    raise KeyError(task.id)
