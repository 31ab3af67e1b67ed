"""The lessons: each task a position, what the learner is asked to do, and the answers it accepts.

A task is a few steps. Each step accepts some actions (a trailing ``*`` accepts any legal action
that starts so: ``?*`` any reveal), may fix the dice of a roll (``outcome``), and may have the other
side answer (``reply``); ``prelude`` is played before the learner's first step, so that the position
remembers what just happened (the green lock needs to know the last action). A legal action that is
not accepted is explained by the task's own ``wrong`` text; an illegal one by the rules engine.
Forest positions may know their face-down tiles (lowercase), which the learner sees as ``?``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    accept: tuple[str, ...]
    reply: str | None = None  # the other side's answer
    outcome: str | None = None  # the dice a roll of this step shows (``roll=2,4``)


@dataclass(frozen=True)
class Task:
    id: str
    game: str  # "forest" or "hare"
    start: str
    steps: tuple[Step, ...]
    prelude: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Lesson:
    id: str
    game: str
    tasks: tuple[Task, ...]


def _f(task_id: str, start: str, *steps: Step, prelude: tuple[str, ...] = ()) -> Task:
    return Task(task_id, "forest", start, steps, prelude)


def _h(task_id: str, start: str, *steps: Step) -> Task:
    return Task(task_id, "hare", start, steps)


HARE_START = ("e10SE,d9SE,c8SE/a5E,a4E,a3E/i4NW,h3NW,g2NW/k9W,k8W,k7W/b1NE,c1NE,d1NE/h11SW,i11SW,j11SW "
              "{bush} R,Y 1 {phase} - 0 0 - -")

LESSONS: tuple[Lesson, ...] = (
    Lesson("tiles", "forest", (
        # A fox runs any distance: up the d file to the duck.
        _f("fox", "7/3D3/7/7/7/3F3/t6 blue - - - - 0 - -", Step(("d2xd6",))),
        # A bear steps one square and takes the lumberjack beside it.
        _f("bear", "7/7/7/3BL2/7/7/t6 blue - - - - 0 - -", Step(("d4xe4",))),
        # The hunter's rifle points east: the fox to the east, not the one to the north.
        _f("hunter", "7/7/1F5/7/1E3F1/7/t6 brown - - - - 0 - -", Step(("b3xf3",))),
        # A lumberjack steps one square and cuts a tree.
        _f("lumberjack", "7/7/7/2T4/2L4/7/t6 brown - - - - 0 - -", Step(("c3xc4",))),
    )),
    Lesson("reveal", "forest", (
        # Any face-down tile may be turned over.
        _f("reveal", "7/7/2ptf2/2d1n2/2bpl2/7/7 blue - - - - 0 - -", Step(("?*",))),
        # A face-down tile blocks the way and cannot be taken: the pheasant up the a file can.
        _f("blocked", "P6/7/7/F1t1P2/7/7/7 blue - - - - 0 - -", Step(("a4xa7",))),
        # Brown has just turned this duck over: blue may not move it, but the fox may take it.
        _f("lock", "7/7/7/7/2d4/7/2F3t brown - - - - 0 - -", Step(("c1xc3",)), prelude=("?c3",)),
    )),
    Lesson("final", "forest", (
        # The final phase: the bear leaves from the square next to the north exit.
        _f("exit", "3B3/7/7/7/7/7/L6 blue - - - 10 0 - -", Step(("d7-N",))),
        # A fox leaves from anywhere on the middle line when the way to the edge is clear.
        _f("fox_exit", "7/7/7/7/3F3/7/L6 blue - - - 9 0 - -", Step(("d3-S",))),
        # Two turns left: both tiles out, one each turn.
        _f("turns", "3B3/7/7/1F5/7/7/L6 blue - - - 3 0 - -",
           Step(("d7-N", "b4-W"), reply="a1-a2"), Step(("d7-N", "b4-W"))),
    )),
    Lesson("score", "forest", (
        # The bear is worth 10, the fox 5: the hunter facing east takes the bear.
        _f("value", "7/7/7/1F5/7/E3B2/1N4t brown - - - - 0 - -", Step(("a2xe2",))),
        # The last turn: the fox out (5 points) rather than the pheasant (3).
        _f("choice", "7/7/3F2P/7/7/7/L6 blue - - - 1 0 - -", Step(("d5-N",))),
    )),
    Lesson("hare", "hare", (
        # The first player places the bush, two or three cells from the hare.
        _h("bush", HARE_START.format(bush="-", phase="bush"), Step(("bush=*",))),
        # Roll, then say which die counts hunters and which points.
        _h("dice", HARE_START.format(bush="f9", phase="roll"), Step(("roll",), outcome="roll=1,3"),
           Step(("1x3", "3x1"))),
        # Three points: turn, step, turn, and the hunter aims at the hare along its row.
        _h("steps", "b5E/i6E/-/-/-/- f9 R,Y 1 move 1x3/1/-/- 0 3 - -", Step(("b5>NE",)), Step(("b5-c6",)),
           Step(("c6>E",))),
        # The shot: 2 + 4 = 6, the distance to the hunter behind the hare, which leaves the board.
        _h("shot", "c6E/i6E/-/-/-/- f9 R,Y 1 aim - 0 3 - -", Step(("roll",), outcome="roll=2,4")),
    )),
)

BY_ID = {lesson.id: lesson for lesson in LESSONS}
