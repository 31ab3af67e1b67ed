"""Time management with a real game clock: the budget of one action from the time left, the
increment and the actions the side still has to make before the game ends."""

from __future__ import annotations

import random

import pytest

from halali.ai.registry import choose_action
from halali.ai.timing import MAX_SHARE, MIN_MOVETIME, clock_movetime, moves_left
from halali.games.forest.position import Position
from halali.games.forest.pushpop import FINAL_TURNS


def _played(seed: int, plies: int) -> Position:
    pos = Position.deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if pos.is_over():
            break
        pos.push(rng.choice(pos.legal_actions()))
    return pos


def _final_phase(seed: int) -> Position:
    pos = Position.deal(seed=seed)
    rng = random.Random(seed)
    while pos.final < 0 and not pos.is_over():
        pos.push(rng.choice(pos.legal_actions()))
    return pos


def test_moves_left_follow_the_face_down_tiles_and_the_final_turns() -> None:
    start = Position.deal(seed=1).view()
    later = _played(1, 40).view()
    assert moves_left(start) > moves_left(later) >= (FINAL_TURNS + 1) // 2
    final = _final_phase(2)
    assert final.final >= 0 and moves_left(final) == (final.final + 1) // 2


def test_the_budget_spreads_the_time_and_never_spends_it_all() -> None:
    view = Position.deal(seed=3).view()
    budgets = [clock_movetime(view, left) for left in (1.0, 10.0, 60.0, 600.0)]
    assert budgets == sorted(budgets) and budgets[0] < budgets[-1]
    for left, b in zip((1.0, 10.0, 60.0, 600.0), budgets, strict=True):
        assert b <= MAX_SHARE * left and b < left / moves_left(view) * 1.01
    assert clock_movetime(view, 60.0, increment=5.0) > clock_movetime(view, 60.0)  # the increment is spent too
    assert clock_movetime(view, 600.0, cap=0.2) == 0.2  # a level's own movetime stays the limit
    assert clock_movetime(view, 0.0) == MIN_MOVETIME  # out of time: answer at once
    with pytest.raises(ValueError):
        clock_movetime(view, -1.0)


def test_the_final_phase_gets_more_of_the_time_left() -> None:
    early, late = Position.deal(seed=4).view(), _final_phase(4).view()
    assert clock_movetime(late, 30.0) > clock_movetime(early, 30.0)


def test_a_computer_player_on_the_clock_answers_a_legal_action() -> None:
    pos = _played(5, 10)
    fen = pos.view().fen()
    action = choose_action(4, fen, {}, None, 1, clock=(0.5, 0.0))
    pos.play(action)
