"""One thread that writes to the store, so the event loop never waits on the disk.

Calls run in the order they were made. Actions waiting together are committed in one transaction
(a group commit): under load a commit serves many tables, and each caller still resumes only after
its own action is on disk.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from halali.store import ActionWrite, Store

T = TypeVar("T")
BATCH = 256


@dataclass
class _Job:
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    call: Callable[[], Any] | None = None
    action: ActionWrite | None = None


_STOP = _Job(None, None)  # type: ignore[arg-type]


def _settle(results: list[tuple[asyncio.Future[Any], Any, BaseException | None]]) -> None:
    for future, value, exc in results:
        if future.done():
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(value)


class StoreWriter:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="halali-store", daemon=True)
        self._thread.start()

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        job = _Job(loop, loop.create_future(), call=partial(fn, *args, **kwargs))
        self._queue.put(job)
        return await job.future

    async def record(self, write: ActionWrite) -> None:
        loop = asyncio.get_running_loop()
        job = _Job(loop, loop.create_future(), action=write)
        self._queue.put(job)
        await job.future

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(10)

    def _run(self) -> None:
        held: _Job | None = None
        while True:
            job = held if held is not None else self._queue.get()
            held = None
            if job is _STOP:
                return
            if job.call is not None:
                self._finish([job], job.call)
                continue
            batch = [job]
            while len(batch) < BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is not _STOP and nxt.action is not None:
                    batch.append(nxt)
                else:
                    held = nxt
                    break
            self._commit(batch)

    def _commit(self, batch: list[_Job]) -> None:
        writes = [j.action for j in batch if j.action is not None]
        if len(batch) == 1:
            self._finish(batch, partial(self.store.record_actions, writes))
            return
        try:
            self.store.record_actions(writes)
        except Exception:  # one bad write must not fail the others: retry them one by one
            for j in batch:
                self._finish([j], partial(self.store.record_actions, [j.action] if j.action is not None else []))
            return
        self._resolve(batch, None, None)

    def _finish(self, jobs: list[_Job], fn: Callable[[], Any]) -> None:
        try:
            value, exc = fn(), None
        except Exception as e:  # handed to the waiting coroutine
            value, exc = None, e
        self._resolve(jobs, value, exc)

    @staticmethod
    def _resolve(jobs: list[_Job], value: Any, exc: BaseException | None) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any, BaseException | None]]] = {}
        for j in jobs:
            by_loop.setdefault(j.loop, []).append((j.future, value, exc))
        for loop, results in by_loop.items():
            if not loop.is_closed():
                loop.call_soon_threadsafe(_settle, results)

