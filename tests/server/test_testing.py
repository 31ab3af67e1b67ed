"""The test apps' bot workers serve the next test app, but only when nothing of the last test still
runs in them (``halali.server.testing.ReusedBotPool``)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

from halali.server.testing import ReusedBotPool, running, settings_for_tests


def pool_of(client: object) -> ReusedBotPool:
    bots = client.app.state.server.ctx.bots  # type: ignore[attr-defined]
    assert isinstance(bots, ReusedBotPool)
    return bots


def worker_pid(client: object) -> int:
    return int(client.portal.call(pool_of(client).run, os.getpid))  # type: ignore[attr-defined]


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_an_idle_pool_serves_the_next_app_and_a_busy_one_is_ended(tmp_path: Path) -> None:
    settings = settings_for_tests(tmp_path / "data")
    with running(settings) as first:
        pid = worker_pid(first)
    assert not gone(pid)
    with running(settings) as second:
        assert worker_pid(second) == pid, "the idle worker serves the next app"
        # A job the test does not wait for is still in the worker when the app stops.
        second.portal.start_task_soon(pool_of(second).run, time.sleep, 60)
        pool = pool_of(second)._pool
        deadline = time.monotonic() + 30  # a bound: the app's loop submits it at its next turn
        while pool is not None and not pool._pending_work_items and time.monotonic() < deadline:
            second.portal.call(asyncio.sleep, 0.01)
        assert pool is not None and pool._pending_work_items
    assert gone(pid), "the busy worker was ended with its app"
    with running(settings) as third:
        assert worker_pid(third) != pid
