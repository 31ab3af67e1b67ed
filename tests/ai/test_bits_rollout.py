"""Random playouts of the bitboard kernel: uniform legal actions, unknown tiles drawn from the pool,
games played to their end with the scores the engine gives."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from numba import njit

from halali.ai import bits as B
from halali.ai.bits import rollout as R
from halali.ai.bits.tables import HID, KIND_T, NHID, SCORE
from halali.games.forest.actions import REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import KIND_COUNT


@njit(cache=False)
def _select_all(x: np.uint64, out: np.ndarray) -> int:
    n = 0
    y = x
    while y:
        out[n] = R.select(x, n)
        n += 1
        y &= y - np.uint64(1)
    return n


def test_select_finds_every_set_bit_in_order() -> None:
    rnd = random.Random(5)
    out = np.empty(64, dtype=np.int64)
    for _ in range(300):
        x = rnd.getrandbits(rnd.choice((1, 8, 20, 53, 64)))
        n = _select_all(np.uint64(x), out)
        assert list(out[:n]) == [i for i in range(64) if x >> i & 1]


def test_playouts_end_in_finished_positions_with_the_engines_scores() -> None:
    rng = B.new_rng(9)
    work = np.zeros(R.WORK_SIZE, dtype=np.uint64)
    bb0, s0 = B.from_position(Position.deal(seed=11).view())
    for _ in range(50):
        bb, s = bb0.copy(), s0.copy()
        n = B.playout(bb, s, rng, work)
        assert n > 48 and B.is_over(s) and s[NHID] == 0
        end = B.to_position(s, Rules())
        assert end.is_over()
        assert list(s[SCORE:SCORE + 2]) == end.score
        # Every unknown tile was drawn from the pool: the board and the piles hold the whole set.
        counts = Counter(int(KIND_T[c]) for c in s[:49] if c)
        for p in (0, 1):
            for k in range(7):
                counts[k] += end.captured[p][k] + end.exited[p][k]
        assert [counts[k] for k in range(7)] == list(KIND_COUNT)


def test_a_known_deal_turns_up_its_own_tiles() -> None:
    deal = Position.deal(seed=4)
    bb, s = B.from_position(deal)
    rng = B.new_rng(1)
    work = np.zeros(R.WORK_SIZE, dtype=np.uint64)
    reveals = 0
    while (a := B.random_action(bb, s, rng, work)) >= 0:
        B.play(bb, s, a, rng)
        if a >> TYPE_SHIFT & 7 == REVEAL:
            assert s[a & 63] == deal.board[a & 63] - HID
            reveals += 1
    assert reveals == 48 and B.to_position(s, Rules()).is_over()


def test_the_draw_is_uniform_over_the_legal_actions() -> None:
    pos = Position.from_fen("7/1D5/7/3F3/7/5N1/??5 blue - - - - 0 - -")
    bb, s = B.from_position(pos)
    legal = sorted(pos.legal_actions())
    rng = B.new_rng(2)
    work = np.zeros(R.WORK_SIZE, dtype=np.uint64)
    draws = Counter(B.random_action(bb, s, rng, work) for _ in range(40 * len(legal) * 50))
    assert sorted(draws) == legal
    expected = 40 * 50
    assert all(abs(n - expected) < 0.12 * expected for n in draws.values()), draws
