"""Hare bots by level or name, and one picklable entry point for running a bot in another process."""

from __future__ import annotations

from collections.abc import Callable

from halali.ai.base import LevelTable
from halali.ai.hare.base import HareBot
from halali.ai.hare.heuristic import HeuristicBot
from halali.ai.hare.simple import RandomBot
from halali.ai.hare.strong import StrongBot
from halali.games.hare.actions import action_str
from halali.games.hare.record import replay

LEVELS: dict[int, Callable[[int | None], HareBot]] = {1: RandomBot, 2: HeuristicBot, 3: StrongBot}
NAMES: dict[str, int] = {"random": 1, "heuristic": 2, "strong": 3}


TABLE: LevelTable[HareBot] = LevelTable("hare bot", LEVELS, NAMES)


def strongest_level() -> int:
    return TABLE.strongest()


def level_of(level: int | str) -> int:
    return TABLE.level_of(level)


def make_bot(level: int | str, seed: int | None = None) -> HareBot:
    """A bot by level number or name (``random``, ``heuristic``, ``strong``)."""
    return TABLE.make(level, seed)


def choose_action(level: int | str, record: str, movetime: float | None = None, seed: int | None = None) -> str:
    """Pick an action for the seat to move, given that seat's record of the game
    (``HareGame.view_record``: its view of the start, ``;``, the actions). Safe in a process pool."""
    view = replay(record)
    return action_str(make_bot(level, seed).choose(view, movetime))
