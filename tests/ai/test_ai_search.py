"""The compiled expectimax against a reference written on the pure engine, and its pruning exact.

The reference walks ``Position`` itself: chance nodes from ``Position.reveal_outcomes`` (the
engine's own distribution of what a face-down tile may be), the kernel's evaluation only at the
leaves. The compiled search must find the same root values; with alpha-beta and Star1 switched on
the values of a full-window root must not change at all (both prune only what cannot matter).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from halali.ai import kernel as K
from halali.ai import search as S
from halali.ai.evaluate import WEIGHTS, evaluate, terminal_value
from halali.ai.registry import LEVELS, choose_action
from halali.games.forest.actions import REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.tiles import UNKNOWN


def _leaf(pos: Position) -> float:
    s = K.from_position(pos)
    return terminal_value(s) if K.is_over(s) else evaluate(s, WEIGHTS)


def _value(pos: Position, depth: int) -> float:
    """Plain expectimax on the engine, negamax form."""
    if pos.is_over() or depth == 0:
        return _leaf(pos)
    return max(_action_value(pos, a, depth) for a in pos.legal_actions())


def _action_value(pos: Position, a: int, depth: int) -> float:
    if a >> TYPE_SHIFT & 7 == REVEAL and pos.board[a & 63] == UNKNOWN:
        total = 0.0
        for outcome, p in pos.reveal_outcomes(a & 63):
            pos.push(outcome)
            total -= p * _value(pos, depth - 1)
            pos.pop()
        return total
    pos.push(a)
    v = -_value(pos, depth - 1)
    pos.pop()
    return v


def _positions() -> list[Position]:
    out = []
    for seed, plies in ((1, 30), (2, 44), (3, 60)):
        rng = random.Random(seed)
        pos = Position.deal(seed=seed)
        for _ in range(plies):
            acts = pos.legal_actions()
            captures = [a for a in acts if a >> TYPE_SHIFT & 7 == 2]
            pos.push(rng.choice(captures or acts))
        out.append(pos.view())
    # Late: few tiles face down, so the reference stays cheap.
    rng = random.Random(9)
    pos = Position.deal(seed=9)
    while len(pos.hidden) > 3:
        pos.push(rng.choice(pos.legal_actions()))
    out.append(pos.view())
    return out


def _root_values(view: Position, depth: int, flags: int) -> dict[int, float]:
    s = K.from_position(view)
    root = [int(a) for a in K.legal_list(s)]
    values, best = S.search_root(s, root, depth, True, S.new_ctx(), WEIGHTS, flags, S.Workspace())
    assert best >= 0 and all(v is not None for v in values)
    return dict(zip(root, values, strict=True))


@pytest.mark.parametrize("index", range(4))
def test_compiled_expectimax_matches_the_reference_on_the_engine(index: int) -> None:
    view = _positions()[index]
    got = _root_values(view, 1, 0)
    want = {a: _action_value(view, a, 1) for a in view.legal_actions()}
    assert got.keys() == want.keys()
    for a in want:
        assert got[a] == pytest.approx(want[a], abs=1e-9), view.action_str(a)
    if index == 3:  # two plies through the reference only where it is cheap
        got = _root_values(view, 2, 0)
        for a in view.legal_actions():
            assert got[a] == pytest.approx(_action_value(view, a, 2), abs=1e-9), view.action_str(a)


@pytest.mark.parametrize("index", range(4))
def test_alpha_beta_and_star1_change_no_value(index: int) -> None:
    view = _positions()[index]
    depth = 3 if index == 3 else 2
    plain = _root_values(view, depth, 0)
    pruned = _root_values(view, depth, S.PRUNE)
    for a, v in plain.items():
        assert pruned[a] == pytest.approx(v, abs=1e-6), view.action_str(a)


def test_pruning_and_star2_save_nodes() -> None:
    view = _positions()[1]
    s = K.from_position(view)
    root = [int(a) for a in K.legal_list(s)]
    counts = {}
    for flags in (0, S.PRUNE, S.PRUNE | S.STAR2):
        ctx = S.new_ctx()
        S.search_root(s, root, 2, False, ctx, WEIGHTS, flags, S.Workspace())
        counts[flags] = ctx[S.C_NODES]
    assert counts[S.PRUNE] < counts[0] and counts[S.PRUNE | S.STAR2] < counts[S.PRUNE]


def test_node_limit_and_deadline_stop_the_search() -> None:
    view = Position.deal(seed=4).view()
    s = K.from_position(view)
    root = [int(a) for a in K.legal_list(s)]
    ctx = S.new_ctx(node_limit=5000)
    S.search_root(s, root, 3, False, ctx, WEIGHTS, S.PRUNE | S.QSEARCH, S.Workspace())
    assert ctx[S.C_ABORT] == 1.0 and ctx[S.C_NODES] <= 5001
    import time

    ctx = S.new_ctx(deadline=time.perf_counter() + 0.05)
    S.search_root(s, root, 4, False, ctx, WEIGHTS, S.PRUNE | S.QSEARCH, S.Workspace())
    assert ctx[S.C_ABORT] == 1.0


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_choose_action_entry_point_gives_legal_actions_for_every_level(level: int) -> None:
    pos = Position.deal(seed=21)
    rng = random.Random(level)
    for _ in range(25):
        pos.push(rng.choice(pos.legal_actions()))
    text = choose_action(level, pos.public_fen(), {"stall_limit": "30"}, 0.05, seed=3)
    pos.play(text)


def test_levels_are_registered_with_names() -> None:
    from halali.ai.registry import NAMES, make_bot

    assert sorted(LEVELS) == [1, 2, 3, 4, 5, 6]
    for name, level in NAMES.items():
        assert make_bot(name).name == make_bot(level).name
    assert np.all(WEIGHTS >= 0)
