"""The compiled expectimax against a plain one written on the engine (``plain_search``), and its pruning exact.

The reference walks ``Position`` itself: chance nodes from ``Position.reveal_outcomes`` (the engine's
own distribution of what a face-down tile may be), quiescence by captures and final-phase exits, the
compiled evaluation only at the leaves (``test_bits_evaluate.py`` holds that one to a plain
evaluation). The compiled search must find the same root values, with every flag that prunes only
what cannot change a value: alpha-beta and Star1, quiescence, history ordering, the transposition
table. Star2, ``MERGE`` and ``FRONTIER`` are forward pruning; ``test_bits_search.py`` holds them to
the search without them.
"""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import plain_search
from halali.ai import bits as B
from halali.ai.bits import root as BR
from halali.ai.bits import search_parts as S
from halali.ai.bits.evaluate import evaluate
from halali.ai.bits.weights import WEIGHTS
from halali.ai.registry import LEVELS, choose_action
from halali.games.forest.actions import CAPTURE, TYPE_SHIFT
from halali.games.forest.position import Position

EXACT = S.PRUNE | S.QSEARCH | S.HISTORY | S.TT  # every flag that keeps the values exact


def _leaf(pos: Position) -> float:
    bb, s = B.from_position(pos)
    return evaluate(bb, s, WEIGHTS)


def _positions() -> list[Position]:
    out = []
    for seed, plies in ((1, 30), (2, 44), (3, 60)):
        rng = random.Random(seed)
        pos = Position.deal(seed=seed)
        for _ in range(plies):
            acts = pos.legal_actions()
            captures = [a for a in acts if a >> TYPE_SHIFT & 7 == CAPTURE]
            pos.push(rng.choice(captures or acts))
        out.append(pos.view())
    # Late: few tiles face down, so the reference stays cheap two plies deep.
    rng = random.Random(9)
    pos = Position.deal(seed=9)
    while len(pos.hidden) > 3:
        pos.push(rng.choice(pos.legal_actions()))
    out.append(pos.view())
    return out


def _root_values(view: Position, depth: int, flags: int, exact: bool = True) -> dict[int, float]:
    bb, s = B.from_position(view)
    root = BR.legal_root(bb, s)
    ws = BR.Workspace().with_table(1 << 16) if flags & S.TT else BR.Workspace()
    for d in range(1, depth + 1):  # iterative deepening, as the bots search: history and table carried on
        values, best = BR.search_root(bb, s, root, d, exact, S.new_ctx(), WEIGHTS, flags, ws)
    assert best >= 0 and all(v is not None for v in values)
    # every make in the tree was unmade: the workspace holds the root state again
    assert np.array_equal(ws.s, s) and np.array_equal(ws.bb, bb)
    return dict(zip(root, values, strict=True))


@pytest.mark.parametrize("index", range(4))
def test_compiled_expectimax_matches_the_plain_one_on_the_engine(index: int) -> None:
    view = _positions()[index]
    got = _root_values(view, 1, 0)
    want = {a: plain_search.action_value(view, a, 1, _leaf) for a in view.legal_actions()}
    assert got.keys() == want.keys()
    for a in want:
        assert got[a] == pytest.approx(want[a], abs=1e-9), view.action_str(a)
    if index == 3:  # two plies through the reference only where it is cheap
        got = _root_values(view, 2, 0)
        for a in view.legal_actions():
            assert got[a] == pytest.approx(plain_search.action_value(view, a, 2, _leaf), abs=1e-9), view.action_str(a)


@pytest.mark.parametrize(("index", "depth"), [(0, 1), (1, 1), (2, 1), (3, 2)])
def test_the_exact_flags_find_the_plain_values_with_quiescence(index: int, depth: int) -> None:
    """Alpha-beta, Star1, quiescence, history and the table: in analysis (a full window for every
    root action) each root value is the plain expectimax's with quiescence; in play the best action's."""
    view = _positions()[index]
    want = {a: plain_search.action_value(view, a, depth, _leaf, quiet=True) for a in view.legal_actions()}
    for flags in (S.PRUNE | S.QSEARCH, EXACT):
        got = _root_values(view, depth, flags)
        assert got.keys() == want.keys()
        for a in want:
            assert got[a] == pytest.approx(want[a], abs=1e-6), (flags, view.action_str(a))
        played = _root_values(view, depth, flags, exact=False)
        best = max(played, key=lambda a: played[a])
        assert played[best] == pytest.approx(max(want.values()), abs=1e-6), flags


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
    bb, s = B.from_position(view)
    root = BR.legal_root(bb, s)
    counts = {}
    for flags in (0, S.PRUNE, S.PRUNE | S.STAR2):
        ctx = S.new_ctx()
        BR.search_root(bb, s, root, 2, False, ctx, WEIGHTS, flags, BR.Workspace())
        counts[flags] = ctx[S.C_NODES]
    assert counts[S.PRUNE] < counts[0] and counts[S.PRUNE | S.STAR2] < counts[S.PRUNE]


def test_node_limit_and_deadline_stop_the_search() -> None:
    view = Position.deal(seed=4).view()
    bb, s = B.from_position(view)
    root = BR.legal_root(bb, s)
    ctx = S.new_ctx(node_limit=5000)
    BR.search_root(bb, s, root, 3, False, ctx, WEIGHTS, S.PRUNE | S.QSEARCH, BR.Workspace())
    assert ctx[S.C_ABORT] == 1.0 and ctx[S.C_NODES] <= 5001
    ctx = S.new_ctx(deadline=time.perf_counter())  # a deadline already past: the search stops at its first check
    BR.search_root(bb, s, root, 20, False, ctx, WEIGHTS, S.PRUNE | S.QSEARCH, BR.Workspace())
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
