"""The shared encoding: action ids that name every engine action exactly once, observations that
hide what they must, the incremental tracker equal to a fresh encoding, zero-sum returns."""

from __future__ import annotations

import random

import numpy as np
import pytest

from halali.games.forest.position import Position
from halali.games.hare.state import HareState
from halali.interop.encoding import forest as F
from halali.interop.encoding import hare as H
from halali.interop.encoding import zero_sum


def test_forest_ids_name_every_engine_action_once() -> None:
    assert F.NUM_ACTIONS == 1422 and F.PASS_ID == 1421
    assert len(set(F.ENCODE.values())) == 49 + 49 * 24 - sum(  # every geometric move of the 7x7 board
        1 for sq in range(49) for d in range(4) for k in range(1, 7)
        if not (0 <= sq % 7 + (d == 1) * k - (d == 3) * k < 7 and 0 <= sq // 7 + (d == 0) * k - (d == 2) * k < 7)
    ) + 28 + 1  # the exits from the middle lines, the pass
    rng = random.Random(1)
    seen = 0
    for _ in range(30):
        pos = Position.deal(rng=rng)
        while not pos.is_over():
            legal = pos.legal_actions()
            ids = F.legal_ids(pos)
            assert len(ids) == len(set(ids)) == len(legal) and ids == sorted(ids)
            assert sorted(F.engine_action(pos, i) for i in ids) == sorted(legal)
            assert all(F.id_to_string(pos, i) == pos.action_str(F.engine_action(pos, i)) for i in ids)
            seen += len(ids)
            pos.push(rng.choice(legal))
    assert seen > 10_000
    with pytest.raises(ValueError):
        F.engine_action(Position(), 7 * 49 + 6)  # a step east from g1: off the board


def test_forest_observation_is_the_same_with_or_without_the_deal() -> None:
    rng = random.Random(4)
    pos = Position.deal(rng=rng)
    for _ in range(40):
        pos.push(rng.choice(pos.legal_actions()))
        for p in (0, 1):
            assert np.array_equal(F.observation(pos, p), F.observation(pos.view(), p))
    board, globs = F.split(F.observation(pos, 0))
    assert board.shape == (17, 7, 7) and globs.shape == (32,)
    assert board[10].sum() == len(pos.hidden)


@pytest.mark.parametrize("options", [{}, {"stall_limit": 3}, {"stall_limit": 0, "green_lock": "revealed_only"}])
def test_the_forest_tracker_equals_a_fresh_encoding_at_every_step(options: dict[str, object]) -> None:
    from halali.interop.options import forest_rules

    rules = forest_rules(options)
    rng = random.Random(7)
    for _ in range(60):
        pos = Position.deal(rules, rng)
        tracker = F.Tracker(pos)
        while True:
            for p in (0, 1):
                assert np.array_equal(tracker.observation(p), F.observation(pos, p))
            if pos.is_over():
                break
            a = rng.choice(pos.legal_actions())
            pos.push(a)
            tracker.push(pos, a)


def test_hare_ids_name_every_decision_once() -> None:
    rng = random.Random(2)
    for players in (2, 4):
        st = HareState.new(players, rng=rng)
        while not st.is_over():
            legal = st.legal_actions()
            ids = H.legal_ids(st)
            if legal[0][0] == 1:  # a roll: a chance event, no id
                assert ids == []
            else:
                assert sorted(H.engine_action(st, i) for i in ids) == sorted(legal)
                assert all(H.action_id(st, H.engine_action(st, i)) == i for i in ids)
            st.push(rng.choice(legal))


def test_a_hare_seat_sees_its_own_club_and_no_other() -> None:
    st = HareState.setup(3, HareState.new(3, seed=1).rules, [0, 1, 2, 3, 4, 5], [2, 0, 1], 0)
    other = HareState.setup(3, st.rules, [0, 1, 2, 3, 4, 5], [2, 1, 0], 0)  # seats 2 and 3 swapped
    assert np.array_equal(H.observation(st, 0), H.observation(other, 0))
    assert not np.array_equal(H.observation(st, 1), H.observation(other, 1))
    board, globs = H.split(H.observation(st, 0))
    assert board[14].sum() == 3 and board[15].sum() == 0  # its own three hunters; no other club known
    assert board[2 + 2].sum() == 3 and globs[72 + 2] == 1  # they are green (club 2), and it knows it
    assert board[0].sum() == 91


def test_zero_sum_returns() -> None:
    assert zero_sum([1.0, 0.0]) == [1.0, -1.0]
    assert zero_sum([0.5, 0.5]) == [0.0, 0.0]
    assert zero_sum([0.0, 1.0, 0.0]) == [-0.5, 1.0, -0.5]
    assert zero_sum([0.5, 0.5, 0.0, 0.0]) == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])
    for result in ([1.0, 0, 0, 0, 0, 0], [0.5, 0.5, 0.5, 0, 0, 0]):
        assert sum(zero_sum(result)) == pytest.approx(0.0)
