"""The bot pool answers at once: a searching level plays while its worker has not loaded the search.

The test holds the compile lock of an empty kernel cache, as a process compiling the search would:
the worker can neither load nor compile it, so whatever it answers it answered without it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from halali.ai import kernel
from halali.ai.registry import STAND_IN, choose_action
from halali.ai.search_bots import loaded
from halali.games.forest.position import Position
from halali.server import kernel_process
from halali.server.bots import BotPool


async def _ask(pool: BotPool, fen: str, level: int, seed: int) -> tuple[str, bool]:
    answer = await pool.run(choose_action, level, fen, {}, 0.2, seed, None)
    return answer, await pool.run(loaded)


def test_a_searching_level_answers_before_its_worker_has_the_search(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "kernel"
    monkeypatch.setenv("HALALI_KERNEL_CACHE", str(folder))  # the workers and the compiler inherit it
    view = Position.deal(seed=3).view()
    fen = view.fen()
    with kernel.compiling(folder):
        pool = BotPool(1, 0.2)
        try:
            answers = [asyncio.run(_ask(pool, fen, level, 7)) for level in (3, 6)]
            assert kernel_process.running(), "the pool started the compilation"
        finally:
            pool.shutdown()
    assert not kernel_process.running()
    for answer, had_search in answers:
        assert not had_search
        # What the stand-in level chooses with the same seed: played at once, never waiting for the search.
        assert answer == choose_action(STAND_IN, fen, {}, 0.2, 7)
        assert answer in {view.action_str(a) for a in view.legal_actions()}
