"""Actions of the hare hunt: small tuples inside the engine, one canonical string outside.

An action is ``(kind, a, b)``; tuples are hashable and cheap, which keeps search code simple.

====== =============== ===================================================
kind   text            meaning
====== =============== ===================================================
BUSH   ``bush=e4``     the starting player puts the bush on e4
ROLL   ``roll``        roll both dice; ``roll=2,3`` with its outcome (faces
                       0..4, 0 for the blank, smaller first)
ASSIGN ``2x3``         2 hunters may move, 3 points each
STEP   ``c2-d3``       the hunter on c2 steps forward to d3
TURN   ``c2>NE``       the hunter on c2 turns 60 degrees to face NE
END    ``end``         no more movement this turn
REMOVE ``xc2``         the hunter on c2 is removed (a choice after a shot)
====== =============== ===================================================
"""

from __future__ import annotations

import re

from halali.games.errors import NotationError
from halali.games.hare.board import DIRECTION_NAMES, DIRECTION_OF_NAME, INDEX_OF_NAME, NAMES

Action = tuple[int, int, int]

BUSH, ROLL, ASSIGN, STEP, TURN, END, REMOVE = range(7)
KIND_NAMES = ("bush", "roll", "assign", "step", "turn", "end", "remove")
NO_OUTCOME = -1

END_ACTION: Action = (END, 0, 0)
ROLL_ACTION: Action = (ROLL, NO_OUTCOME, NO_OUTCOME)

FACES = (0, 1, 2, 2, 3, 4)
"""The six faces of each die; the blank counts 0."""

_CELL = r"([a-k](?:1[01]|[1-9]))"
_RE_BUSH = re.compile(rf"bush={_CELL}")
_RE_ROLL = re.compile(r"roll(?:=([0-4]),([0-4]))?")
_RE_ASSIGN = re.compile(r"([0-4])x([0-4])")
_RE_STEP = re.compile(rf"{_CELL}-{_CELL}")
_RE_TURN = re.compile(rf"{_CELL}>(NE|NW|SE|SW|E|W)")
_RE_REMOVE = re.compile(rf"x{_CELL}")


def roll(a: int = NO_OUTCOME, b: int = NO_OUTCOME) -> Action:
    """A roll, its two faces in canonical (ascending) order."""
    return (ROLL, a, b) if a <= b else (ROLL, b, a)


def action_str(a: Action) -> str:
    kind, x, y = a
    if kind == BUSH:
        return f"bush={NAMES[x]}"
    if kind == ROLL:
        return "roll" if x == NO_OUTCOME else f"roll={x},{y}"
    if kind == ASSIGN:
        return f"{x}x{y}"
    if kind == STEP:
        return f"{NAMES[x]}-{NAMES[y]}"
    if kind == TURN:
        return f"{NAMES[x]}>{DIRECTION_NAMES[y]}"
    if kind == END:
        return "end"
    if kind == REMOVE:
        return f"x{NAMES[x]}"
    raise ValueError(f"not an action: {a!r}")


def _cell(name: str, text: str) -> int:
    if name not in INDEX_OF_NAME:
        raise NotationError(f"{name!r} in action {text!r} is not a cell of the board (files a-k, ranks 1-11)")
    return INDEX_OF_NAME[name]


def parse_action_text(text: str) -> Action:
    """Syntax only: the action a string names, whether or not it is legal anywhere."""
    t = text.strip()
    if t == "end":
        return END_ACTION
    m = _RE_ROLL.fullmatch(t)
    if m:
        return roll(int(m[1]), int(m[2])) if m[1] is not None else ROLL_ACTION
    m = _RE_ASSIGN.fullmatch(t)
    if m:
        return (ASSIGN, int(m[1]), int(m[2]))
    m = _RE_BUSH.fullmatch(t)
    if m:
        return (BUSH, _cell(m[1], t), 0)
    m = _RE_STEP.fullmatch(t)
    if m:
        return (STEP, _cell(m[1], t), _cell(m[2], t))
    m = _RE_TURN.fullmatch(t)
    if m:
        return (TURN, _cell(m[1], t), DIRECTION_OF_NAME[m[2]])
    m = _RE_REMOVE.fullmatch(t)
    if m:
        return (REMOVE, _cell(m[1], t), 0)
    raise NotationError(
        f"cannot read action {t!r}: expected bush=CELL, roll, roll=A,B, NxP, CELL-CELL, CELL>DIR, end or xCELL"
    )
