"""Computer players in a process pool: a bot's thinking never runs on the event loop.

A bot gets only the public view as text (`choose_action` parses it in the worker), so it sees exactly
what a person in its seat would see. A worker ends when the server does, even after a kill -9 of the
server (`exit_with_parent`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import secrets
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from halali.ai.base import LevelTable
from halali.ai.registry import TABLE as FOREST_LEVELS
from halali.ai.registry import choose_action, play_while_loading
from halali.engine.lifeline import exit_with_parent
from halali.games.forest.notation import parse_position
from halali.games.forest.rules import DEFAULT_RULES
from halali.server import kernel_process
from halali.server.errors import ClientError

T = TypeVar("T")

def level_names(levels: LevelTable[Any] = FOREST_LEVELS) -> dict[int, str]:
    return levels.names_by_level()


def parse_level(value: object, levels: LevelTable[Any] = FOREST_LEVELS) -> int:
    """A seat's level from a message: a number or a name (``2``, ``"2"``, ``"greedy"``); ClientError
    (listing the levels) otherwise. Stricter than ``LevelTable.level_of``: no booleans, no floats."""
    if isinstance(value, str):
        text = value.strip().lower()
        value = int(text) if text.isdecimal() else levels.names.get(text)
    if isinstance(value, bool) or not isinstance(value, int) or value not in levels.factories:
        listed = ", ".join(f"{lv} {name}" for lv, name in level_names(levels).items())
        raise ClientError("error.bad_level", levels=listed)
    return value


def analyse_view(view_fen: str, rules: dict[str, str], movetime: float) -> dict[str, object]:
    """The engine's analysis of a public position given as text; runs in a worker process."""
    from halali.ai.analysis import analyse_position

    view = parse_position(view_fen, DEFAULT_RULES.with_options(rules))
    result = analyse_position(view, movetime)
    return {"score": round(result.score, 3), "actions": [[a, round(v, 3)] for a, v in result.actions],
            "depth": result.depth}


def luck_view(deal_fen: str, rules: dict[str, str], actions: list[str], depth: int) -> dict[str, object]:
    """The luck and the mistakes of a finished game from its deal and recorded actions, as the API
    shows them (``History.luck``); runs in a worker process."""
    from halali.ai.luck import luck_of_game, mark, record_notes

    start = parse_position(deal_fen, DEFAULT_RULES.with_options(rules))
    g = luck_of_game(start, actions, depth)
    colour = ("blue", "brown")
    luckiest, unluckiest = g.luckiest(), g.unluckiest()
    headers, comments = record_notes(g)
    return {
        "depth": depth,
        "reveals": [{"ply": r.ply, "player": colour[r.player], "action": r.action, "value": round(r.value, 3),
                     "expected": round(r.expected, 3), "luck": round(r.luck, 3)} for r in g.reveals],
        "decisions": [{"ply": d.ply, "player": colour[d.player], "action": d.action, "best": d.best,
                       "loss": round(d.loss, 3), "mark": mark(d.loss)} for d in g.decisions],
        "sides": {colour[p]: {"score": g.score[p], "luck": round(g.luck(p), 3),
                              "skill_loss": round(g.skill_loss(p), 3), "adjusted": round(g.adjusted(p), 3)}
                  for p in (0, 1)},
        "luckiest": luckiest.ply if luckiest is not None else None,
        "unluckiest": unluckiest.ply if unluckiest is not None else None,
        "summary": [{"key": key, "params": {k: colour[v] if k == "player" else v for k, v in params.items()}}
                    for key, params in g.summary().keys],
        "record": {"headers": headers, "comments": {str(ply): text for ply, text in comments.items()}},
    }


class Bots(Protocol):
    """Where the server sends its computer players' turns, hints, analyses and luck: its own process
    pool (:class:`BotPool`) or, with ``--redis``, the cluster's workers
    (``halali.server.cluster.jobs.RedisBotPool``). The server calls only these, so either serves it."""

    def warm(self) -> None: ...

    async def choose(self, level: int, view_fen: str, rules: dict[str, str]) -> str: ...

    async def run(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def analyse(self, view_fen: str, rules: dict[str, str], movetime: float) -> dict[str, object]: ...

    async def luck(self, deal_fen: str, rules: dict[str, str], actions: list[str],
                   depth: int) -> dict[str, object]: ...

    def shutdown(self) -> None: ...


class BotPool:
    """A lazily started pool of worker processes (spawned: safe beside the server's threads)."""

    def __init__(self, workers: int = 1, movetime: float = 0.5) -> None:
        self.workers = max(1, workers)
        self.movetime = movetime
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            kernel_process.start()  # compiles the search unless it is compiled (says so, once per server)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=start_worker, initargs=(os.getpid(),))
        return self._pool

    def warm(self) -> None:
        """Start the workers now (they import the bots, and load the compiled search in the background)
        so the first move is quick."""
        self._executor().submit(level_names)

    async def choose(self, level: int, view_fen: str, rules: dict[str, str]) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), choose_action, level, view_fen, rules,
                                          self.movetime, secrets.randbits(32))

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Any picklable function in the pool (the hare hunt's bots use this)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), fn, *args)

    async def analyse(self, view_fen: str, rules: dict[str, str], movetime: float) -> dict[str, object]:
        await kernel_process.finished()  # an analysis needs the search: it must not hold a worker meanwhile
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), analyse_view, view_fen, rules, movetime)

    async def luck(self, deal_fen: str, rules: dict[str, str], actions: list[str], depth: int) -> dict[str, object]:
        await kernel_process.finished()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor(), luck_view, deal_fen, rules, actions, depth)

    def shutdown(self) -> None:
        """Stop the workers and wait for them, so that the pool's queues and semaphores are released
        before the server exits (else multiprocessing's tracker reports them as leaked); a worker still
        thinking is ended, not waited for."""
        kernel_process.stop()
        pool, self._pool = self._pool, None
        if pool is not None:
            for proc in list(getattr(pool, "_processes", {}).values()):
                proc.terminate()
            pool.shutdown(wait=True, cancel_futures=True)


def start_worker(parent: int) -> None:
    """A worker's start: it ends with the server, and loads the compiled search in the background
    while it already answers (a searching level plays as the greedy one until then). Ctrl-C reaches
    the whole process group: the server stops its workers itself, so a worker does not take it as its
    own interruption (and print a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
    play_while_loading()
