"""The director's loop ends when the server stops, even when the stop comes with a wake-up.

``asyncio.wait_for`` in Python 3.11 loses a cancellation that arrives as the awaited event is set (it
returns the event's result instead); the director then went on waiting for its next poll, and the
server's shutdown, which waits for its tasks, waited for ever (a test client hung so in CI).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

from halali.server.tournaments.director import Director


def test_a_cancel_that_comes_with_a_wake_up_ends_the_loop() -> None:
    async def main() -> tuple[bool, int]:
        director = Director(cast(Any, None), cast(Any, SimpleNamespace(match_ended=[])), lambda t: None)
        steps = 0

        async def step() -> None:
            nonlocal steps
            steps += 1

        director.step = step  # type: ignore[method-assign]
        task = asyncio.create_task(director.run(poll=3600.0))
        while not director.wake._waiters:  # the loop is waiting for a wake-up
            await asyncio.sleep(0)
        director.wake.set()
        task.cancel()
        done, _ = await asyncio.wait([task], timeout=10.0)  # a bound only: it ends at once or never
        return task in done and task.cancelled(), steps

    stopped, steps = asyncio.run(main())
    assert stopped, "the director went on after it was cancelled"
    assert steps == 0
