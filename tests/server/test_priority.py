"""The bot pool's gate: a computer player's turn that arrives while every process is busy goes before
the chunks of game analyses already waiting; within a priority, first come first served; a waiter
that gives up leaves no slot taken."""

from __future__ import annotations

import asyncio

from halali.server.priority import ANALYSIS, PLAYING, TURN, PriorityGate


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



def test_while_people_play_one_of_two_slots_or_more_is_kept_for_the_turns():
    """Once a turn has been asked for, the analyses hold at most all but one slot: a turn arriving
    while chunks run and wait takes the kept slot at once, and the next chunk starts only as an
    analysis ends. A minute after the last turn the analyses may have every slot again."""

    async def scenario() -> list[str]:
        now = [1000.0]
        gate = PriorityGate(2, clock=lambda: now[0])
        order: list[str] = []
        names = ("chunk 0", "chunk 1", "turn", "chunk 2", "chunk 3")
        running = {name: asyncio.Event() for name in names}
        done = {name: asyncio.Event() for name in names}

        async def one(name: str, priority: int) -> None:
            async with gate.slot(priority):
                order.append(name)
                running[name].set()
                await done[name].wait()

        async with gate.slot(TURN):  # someone plays the computer
            pass
        chunks = [asyncio.create_task(one(f"chunk {i}", ANALYSIS)) for i in range(2)]
        await running["chunk 0"].wait()
        await asyncio.sleep(0)
        assert gate.waiting == 1 and order == ["chunk 0"]  # the second chunk waits, a slot stays free
        turn = asyncio.create_task(one("turn", TURN))
        await running["turn"].wait()  # taken at once, beside the running chunk
        assert order == ["chunk 0", "turn"] and gate.waiting == 1
        done["turn"].set()
        await turn
        await asyncio.sleep(0)
        assert order == ["chunk 0", "turn"]  # the turn's slot is not the analyses' to take
        done["chunk 0"].set()
        await running["chunk 1"].wait()
        done["chunk 1"].set()
        await asyncio.gather(*chunks)
        now[0] += PLAYING + 1  # nobody has played for a minute: both slots analyse
        later = [asyncio.create_task(one(f"chunk {i}", ANALYSIS)) for i in (2, 3)]
        await running["chunk 2"].wait()
        await running["chunk 3"].wait()
        done["chunk 2"].set()
        done["chunk 3"].set()
        await asyncio.gather(*later)
        return order

    assert asyncio.run(scenario()) == ["chunk 0", "turn", "chunk 1", "chunk 2", "chunk 3"]
