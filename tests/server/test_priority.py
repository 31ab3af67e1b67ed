"""The bot pool's gate: a computer player's turn that arrives while every process is busy goes before
the chunks of game analyses already waiting; within a priority, first come first served; a waiter
that gives up leaves no slot taken."""

from __future__ import annotations

import asyncio

from halali.server.priority import ANALYSIS, TURN, PriorityGate


def test_turns_go_before_waiting_analyses():
    async def scenario() -> list[str]:
        gate = PriorityGate(1)
        order: list[str] = []
        busy = asyncio.Event()
        release = asyncio.Event()

        async def one(name: str, priority: int) -> None:
            async with gate.slot(priority):
                order.append(name)
                if name == "first":
                    busy.set()
                    await release.wait()

        first = asyncio.create_task(one("first", ANALYSIS))
        await busy.wait()
        waiting = [asyncio.create_task(one(f"chunk {i}", ANALYSIS)) for i in range(3)]
        await asyncio.sleep(0)
        gone = asyncio.create_task(one("gone", TURN))
        await asyncio.sleep(0)
        gone.cancel()  # a turn whose table closed: it must not hold a slot
        turn = asyncio.create_task(one("turn", TURN))
        await asyncio.sleep(0)
        assert gate.waiting == 4
        release.set()
        await asyncio.gather(first, *waiting, turn)
        assert gate.waiting == 0
        async with gate.slot(ANALYSIS):  # the slot came back
            order.append("after")
        return order

    assert asyncio.run(scenario()) == ["first", "turn", "chunk 0", "chunk 1", "chunk 2", "after"]
