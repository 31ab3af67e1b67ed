"""A task played step by step with the rules engines: the position a learner sees, and what an action does.

Nothing is kept between requests: the learner's accepted actions so far are replayed from the
task's start (they must be the accepted ones), so a course runs on any node of a cluster.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from halali.games.errors import IllegalAction
from halali.games.forest.notation import parse_position as forest_position
from halali.games.forest.position import Position
from halali.games.forest.rules import DEFAULT_RULES
from halali.games.hare.actions import action_str as hare_action_str
from halali.games.hare.notation import parse_position as hare_position
from halali.games.hare.state import HareState
from halali.learn.course import Step, Task

State = Position | HareState


class WrongMoves(ValueError):
    """The moves sent are not the task's accepted path."""


@dataclass
class Answer:
    correct: bool
    done: bool = False
    played: list[str] = field(default_factory=list)  # the learner's action, then what followed it
    position: str = ""
    legal: list[str] = field(default_factory=list)


def start(task: Task) -> State:
    if task.game == "forest":
        pos = forest_position(task.start, DEFAULT_RULES.with_options(list(task.rules)))
        for a in task.prelude:
            pos.play(a)
        return pos
    return hare_position(task.start)


def view(state: State) -> str:
    """What the learner sees: face-down tiles as ``?`` (the forest), seat 1's view (the hare hunt)."""
    return state.view().fen() if isinstance(state, Position) else state.view(0).fen()


def legal(state: State) -> list[str]:
    if isinstance(state, Position):
        v = state.view()
        return sorted(v.action_str(a) for a in v.legal_actions())
    return sorted(hare_action_str(a) for a in state.legal_actions())


def accepts(step: Step, action: str) -> bool:
    return any(action.startswith(a[:-1]) if a.endswith("*") else action == a for a in step.accept)


def _play(state: State, step: Step, action: str) -> list[str]:
    """The learner's accepted action with its dice, and the reply; what was played, in notation."""
    played = [step.outcome if step.outcome and action == "roll" else action]
    state.play(played[0])
    if step.reply is not None:
        state.play(step.reply)
        played.append(step.reply)
    return played


def replay(task: Task, moves: Any) -> State:
    """The task's position after the learner's accepted ``moves`` (WrongMoves if they are not)."""
    if not isinstance(moves, list) or len(moves) >= len(task.steps) or not all(isinstance(m, str) for m in moves):
        raise WrongMoves("moves")
    state = start(task)
    for step, action in zip(task.steps, moves, strict=False):
        if not accepts(step, action):
            raise WrongMoves(action)
        try:
            _play(state, step, action)
        except IllegalAction:
            raise WrongMoves(action) from None
    return state


def answer(task: Task, state: State, moves: list[str], action: str) -> Answer:
    """``action`` is legal in ``state`` (the caller checked it): is it what the step asks for?"""
    step = task.steps[len(moves)]
    if not accepts(step, action):
        return Answer(False)
    played = _play(state, step, action)
    return Answer(True, len(moves) + 1 == len(task.steps), played, view(state), legal(state))


def stars(mistakes: int) -> int:
    """Three without a mistake, two with one, one with more."""
    return 3 if mistakes <= 0 else 2 if mistakes == 1 else 1
