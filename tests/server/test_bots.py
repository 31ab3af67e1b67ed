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


def test_the_compiling_process_says_each_count_once() -> None:
    """What a person sees while the search compiles: why, then the count every few seconds and at its
    end; numba compiling more versions than it counts repeats no line."""
    said: list[str] = []
    now = [0.0]
    progress = kernel_process.Progress(said.append, lambda: now[0])
    total = 20
    for done in [0, 1, 2, 10, 18, 20, 20, 20, 20]:
        now[0] += kernel_process.EVERY / 2
        progress(done, total, "rec")
    assert said[0].startswith("compiling the computer's search, once after an install")
    counts = [line.rsplit(" ", 1)[1] for line in said[1:]]
    assert counts == ["2/20", "18/20", "20/20"]
