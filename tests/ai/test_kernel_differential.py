"""The compiled kernel against the pure engine, the reference, on many positions of random games.

Positions come from uniformly random games under every combination of the rule options that
change legality (both green-lock options, no-return for neutrals on and off, stall limits including
tiny ones so the forced reveal happens often), on deals that are known (face-down tiles carry their
identity) and on players' views (reveals carry their outcome). For every position the legal-action
sets must be equal; for every action played, and for all actions of every third position, the
kernel's state after the action must equal the engine's field by field.
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from halali.ai import kernel as K
from halali.games.forest.actions import OUTCOME_SHIFT, PASS_ACTION, REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import HIDDEN, UNKNOWN

RULE_SETS = [
    Rules(green_lock=g, no_return_neutrals=n, stall_limit=s)
    for g, n, s in itertools.product(("revealed_or_moved", "revealed_only"), (False, True), (30, 3, 0))
]


def _with_outcome(truth: Position, pos: Position, a: int) -> int:
    """In a view a reveal needs its outcome: take it from the true deal."""
    if a >> TYPE_SHIFT & 7 == REVEAL and pos.board[a & 63] == UNKNOWN:
        return a | (truth.board[a & 63] - HIDDEN) << OUTCOME_SHIFT
    return a


def _check_children(pos: Position, truth: Position, state: np.ndarray, actions: list[int], rng: np.ndarray) -> int:
    for a in actions:
        a = _with_outcome(truth, pos, a)
        pos.push(a)
        expected = K.from_position(pos)
        pos.pop()
        got = K.child(state, a, rng)
        assert np.array_equal(got, expected), (pos.fen(), pos.action_str(a), _diff(got, expected))
    return len(actions)


def _diff(got: np.ndarray, expected: np.ndarray) -> list[tuple[int, int, int]]:
    return [(i, int(got[i]), int(expected[i])) for i in np.nonzero(got != expected)[0]]


def test_kernel_agrees_with_the_engine_on_random_game_positions() -> None:
    rnd = random.Random(20240611)
    rng = K.new_rng(5)
    positions = applied = 0
    seen = {"final": 0, "lock": 0, "forced": 0, "no_return": 0, "exit": 0, "view": 0}
    game = 0
    while positions < 10_500:
        rules = RULE_SETS[game % len(RULE_SETS)]
        truth = Position.deal(rules, seed=rnd.randrange(1 << 30))
        as_view = game % 4 == 3
        pos = truth.view() if as_view else truth.copy()
        game += 1
        step = 0
        while True:
            state = K.from_position(pos)
            legal = sorted(pos.legal_actions())
            assert sorted(int(a) for a in K.legal_list(state)) == legal, pos.fen()
            assert K.is_over(state) == pos.is_over()
            positions += 1
            seen["view"] += as_view
            seen["final"] += pos.final >= 0
            seen["lock"] += pos.lock >= 0
            seen["no_return"] += pos.last_move[pos.turn] >= 0
            seen["forced"] += bool(pos.hidden) and 0 < rules.stall_limit <= pos.stall
            seen["exit"] += any(a >> TYPE_SHIFT & 7 == 3 for a in legal)
            if not legal:
                break
            if step % 3 == 0:
                applied += _check_children(pos, truth, state, legal, rng)
            captures = [a for a in legal if a >> TYPE_SHIFT & 7 == 2]
            if captures and game % 3 == 2:  # capture-happy games wipe a side out more often
                a = _with_outcome(truth, pos, rnd.choice(captures))
            else:
                a = _with_outcome(truth, pos, rnd.choice(legal))
            truth.push(a & ((1 << OUTCOME_SHIFT) - 1))
            pos.push(a)
            assert np.array_equal(K.child(state, a, rng), K.from_position(pos)), pos.fen()
            step += 1
    assert positions >= 10_000 and applied > 50_000
    # The positions really exercise the rules the kernel could get wrong.
    print(seen)
    assert all(count > 50 for count in seen.values()), seen


def test_kernel_passes_and_ends_exactly_when_the_engine_does() -> None:
    rng = K.new_rng(3)
    passes = ends = 0
    for text in (
        "7/7/7/7/L6/T6/BT5 blue - - - 6 0 - -",  # the bear is walled in by trees: pass
        "7/7/7/7/L6/T6/BT5 brown - - - 5 0 - -",  # brown can move the lumberjack
        "7/7/7/7/7/T6/BT4L brown - - - 5 0 - -",
        "7/7/7/7/7/D6/BT4L blue - - a2 5 0 - -",  # the duck is locked: pass
        "7/7/7/7/7/F6/N6 brown - - - 5 0 - -",  # capturing the last fox ends the game at once
        "7/7/7/7/7/7/Ft5 blue - - - - 0 - -",  # the last reveal leaves brown nothing: over, no final
    ):
        pos = Position.from_fen(text)
        state = K.from_position(pos)
        assert sorted(int(a) for a in K.legal_list(state)) == sorted(pos.legal_actions())
        passes += pos.legal_actions() == [PASS_ACTION]
        for a in pos.legal_actions():
            pos.push(a)
            after = K.child(state, a, rng)
            assert np.array_equal(after, K.from_position(pos))
            assert K.is_over(after) == pos.is_over()
            assert sorted(int(b) for b in K.legal_list(after)) == sorted(pos.legal_actions())
            ends += pos.is_over() and pos.final != 0
            pos.pop()
    assert passes == 2 and ends >= 2


def test_playouts_end_in_finished_positions_with_consistent_scores() -> None:
    rng = K.new_rng(9)
    state = K.from_position(Position.deal(seed=11).view())
    buf = np.empty(K.MAX_ACTIONS, dtype=np.int32)
    for _ in range(50):
        s = state.copy()
        n = K.playout(s, rng, buf)
        assert n > 48 and K.is_over(s) and s[K.NHID] == 0
        end = K.to_position(s, Rules())
        assert end.is_over()
        assert list(s[K.SCORE:K.SCORE + 2]) == end.score
