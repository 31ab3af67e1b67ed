"""Computer players in a process pool: a bot's thinking never runs on the event loop.

A bot gets only the public view as text (`choose_action` parses it in the worker), so it sees exactly
what a person in its seat would see. A worker ends when the server does, even after a kill -9 of the
server (`exit_with_parent`).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any, Protocol, TypeVar

from halali.ai.base import LevelTable
from halali.ai.registry import TABLE as FOREST_LEVELS
from halali.ai.registry import choose_action, play_while_loading
from halali.engine.lifeline import exit_with_parent
from halali.games.forest.notation import parse_position
from halali.games.forest.rules import DEFAULT_RULES
from halali.server import kernel_process
from halali.server.errors import ClientError
from halali.server.priority import ANALYSIS, TURN, PriorityGate

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


def analyse_plies_job(deal_fen: str, rules: dict[str, str], actions: list[str], first: int, end: int,
                      budget: list[int]) -> list[dict[str, Any]]:
    """One chunk of a finished game's analysis (``halali.ai.game_analysis``); runs in a worker process."""
    from halali.ai.game_analysis import Budget, analyse_plies

    return analyse_plies(deal_fen, rules, actions, first, end, Budget(*budget))


class _QuietProcess(SpawnProcess):
    def start(self) -> None:
        """Started with Ctrl-C ignored, which a spawned child inherits: a Ctrl-C (to the whole process
        group) while it still imports would otherwise end it with a traceback. The server stops its
        workers itself; ``start_worker`` keeps ignoring it once the worker runs."""
        if threading.current_thread() is not threading.main_thread():
            super().start()  # signal handlers can only be changed in the main thread
            return
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            super().start()
        finally:
            signal.signal(signal.SIGINT, previous)


class QuietSpawn(SpawnContext):
    """The spawn start method (safe beside the server's threads), its processes deaf to Ctrl-C."""

    Process = _QuietProcess


class Bots(Protocol):
    """Where the server sends its computer players' turns, hints and game analyses: its own process
    pool (:class:`BotPool`) or, with ``--redis``, the cluster's workers
    (``halali.server.cluster.jobs.RedisBotPool``). The server calls only these, so either serves it."""

    def warm(self) -> None: ...

    async def choose(self, level: int, view_fen: str, rules: dict[str, str]) -> str: ...

    async def run(self, fn: Callable[..., T], *args: Any) -> T: ...

    async def analyse(self, view_fen: str, rules: dict[str, str], movetime: float) -> dict[str, object]: ...

    async def analyse_plies(self, deal_fen: str, rules: dict[str, str], actions: list[str], first: int, end: int,
                            budget: list[int]) -> list[dict[str, Any]]: ...

    def shutdown(self) -> None: ...


class BotPool:
    """A lazily started pool of worker processes (spawned: safe beside the server's threads). Every call
    takes one of its slots (one per process) through a :class:`PriorityGate`: the computer players'
    turns and hints go before the chunks of game analyses."""

    def __init__(self, workers: int = 1, movetime: float = 0.5) -> None:
        self.workers = max(1, workers)
        self.movetime = movetime
        self._pool: ProcessPoolExecutor | None = None
        self._gate = PriorityGate(self.workers)
        # The workers load the search as they start (a server started by ``halali serve``), else when a
        # searching level first plays (the tests' servers, most of which never search).
        self.load_now = False

    async def _call(self, priority: int, fn: Callable[..., T], *args: Any) -> T:
        async with self._gate.slot(priority):
            return await asyncio.get_running_loop().run_in_executor(self._executor(), fn, *args)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            kernel_process.start()  # compiles the search unless it is compiled (says so, once per server)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=QuietSpawn(),
                                             initializer=start_worker, initargs=(os.getpid(), self.load_now))
        return self._pool

    def warm(self) -> None:
        """Start the workers now (they import the bots, and load the compiled search in the background)
        so the first move is quick."""
        self._executor().submit(level_names)

    async def choose(self, level: int, view_fen: str, rules: dict[str, str]) -> str:
        return await self._call(TURN, choose_action, level, view_fen, rules, self.movetime, secrets.randbits(32))

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Any picklable function in the pool (the hare hunt's bots use this)."""
        return await self._call(TURN, fn, *args)

    async def analyse(self, view_fen: str, rules: dict[str, str], movetime: float) -> dict[str, object]:
        await kernel_process.finished()  # an analysis needs the search: it must not hold a worker meanwhile
        return await self._call(TURN, analyse_view, view_fen, rules, movetime)

    async def analyse_plies(self, deal_fen: str, rules: dict[str, str], actions: list[str], first: int, end: int,
                            budget: list[int]) -> list[dict[str, Any]]:
        await kernel_process.finished()
        return await self._call(ANALYSIS, analyse_plies_job, deal_fen, rules, actions, first, end, budget)

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


def start_worker(parent: int, load_now: bool = True) -> None:
    """A worker's start: it ends with the server, and loads the compiled search in the background
    while it already answers (a searching level plays as the greedy one until then). Ctrl-C reaches
    the whole process group: the server stops its workers itself, so a worker does not take it as its
    own interruption (and print a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
    play_while_loading(load_now)
