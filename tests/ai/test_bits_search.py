"""The search's forward pruning and its root: ``FRONTIER`` and the Star2 margin against the search
without them, the bounds a chance node answers with, the quiet reveals that ``MERGE`` merges and the
order of the root list (``test_ai_search.py`` holds the exact flags to a plain expectimax).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import plain_search
from halali.ai import bits as B
from halali.ai.bits import root as BR
from halali.ai.bits import search as BS
from halali.ai.bits import search_parts as S
from halali.ai.bits.weights import WEIGHTS
from halali.ai.search_positions import load_positions
from halali.games.forest.position import Position

EVERYTHING = S.PRUNE | S.QSEARCH | S.STAR2 | S.HISTORY | S.MERGE | S.TT


def _random_positions(count: int) -> list[Position]:
    rnd = random.Random(3)
    out = []
    for seed in range(count):
        pos = Position.deal(seed=seed).view()
        for _ in range(rnd.randrange(60)):
            acts = pos.legal_actions()
            if not acts:
                break
            a = rnd.choice(acts)
            if pos.board[a & 63] >= 32 and a >> 12 & 7 == 0:
                a = pos.reveal_outcomes(a & 63)[0][0]
            pos.push(a)
        out.append(pos)
    return out


def test_quiet_reveals_from_bitboards_are_the_face_down_tiles_among_face_down_tiles() -> None:
    seen = 0
    for pos in _random_positions(40):
        bb, _ = B.from_position(pos)
        quiet = int(S.quiet_reveals(bb))
        assert {sq for sq in range(49) if quiet >> sq & 1} == plain_search.quiet_reveals(pos), pos.fen()
        seen += quiet != 0
    assert seen > 10


def test_the_root_list_comes_in_a_fixed_order() -> None:
    """The bots shuffle the root list with their seed: the same list makes the same choice."""
    for pos in _random_positions(60) + [p for _, p in load_positions()]:
        bb, s = B.from_position(pos)
        assert BR.legal_root(bb, s) == plain_search.root_order(pos), pos.fen()


@pytest.mark.parametrize("exact", [False, True])
def test_the_horizon_kept_by_its_probes_changes_no_decision_and_saves_nodes(exact: bool) -> None:
    """FRONTIER (level 6): at the horizon a reveal's outcomes with no capture for the side to move keep
    the value their Star2 probe found (what quiescence would find), and the probes, exact bounds there,
    bound the outcomes not yet searched. In analysis (full windows) every root value stays the same at
    every depth; in play the best action and its value do (the others are bounds, now tighter)."""
    saved = []
    for label, pos in load_positions():
        bb, s = B.from_position(pos)
        root = sorted(BR.legal_root(bb, s), key=lambda a: -S.order_key(s, a))
        nodes = []
        found = []
        for flags in (EVERYTHING, EVERYTHING | S.FRONTIER):
            ws = BR.Workspace().with_table(1 << 16)
            got, n = [], 0
            for d in range(1, 4):
                ctx = S.new_ctx()
                got.append(BR.search_root(bb, s, root, d, exact, ctx, WEIGHTS, flags, ws))
                n += int(ctx[S.C_NODES])
                assert np.array_equal(ws.s, s) and np.array_equal(ws.bb, bb), (label, flags, d)
            found.append(got)
            nodes.append(n)
        if exact:
            assert found[1] == found[0], label
        else:
            assert [(best, values[best]) for values, best in found[1]] == \
                [(best, values[best]) for values, best in found[0]], label
        assert nodes[1] <= nodes[0], label
        saved.append(nodes[0] - nodes[1])
    assert sum(saved) > 0


def test_a_reveal_at_the_horizon_answers_with_sound_bounds_whatever_the_window() -> None:
    """The chance node at the horizon under FRONTIER, alone: in any window its value is the exact one
    when it lies inside, and otherwise a bound on the right side of the exact value (Star1's promise,
    which the tighter bounds from the probes must keep)."""
    from halali.ai.bits.tables import T_REVEAL

    flags = EVERYTHING | S.FRONTIER
    checked = 0
    for pos in _random_positions(30) + [p for _, p in load_positions()]:
        bb, s = B.from_position(pos)
        reveals = [a for a in BR.legal_root(bb, s) if a >> 12 & 7 == T_REVEAL][:6]
        for a in reveals:
            ws = BR.Workspace()
            ws.bb[:], ws.s[:] = bb, s

            def value(alpha: float, beta: float, a: int = a, ws: BR.Workspace = ws) -> float:
                return float(BS.action_value(ws.bb, ws.s, a, 1, alpha, beta, ws.undo, ws.acts, ws.keys, S.new_ctx(),
                                             WEIGHTS, flags, ws.rng, ws.hist, ws.ttk, ws.ttv))

            exact = value(-250.0, 250.0)
            for lo, hi in ((-0.5, 0.5), (0.2, 3.0), (-3.0, -0.2), (1.0, 10.0), (-10.0, -1.0), (-0.05, 0.05)):
                alpha, beta = exact + lo, exact + hi
                v = value(alpha, beta)
                if v <= alpha:
                    assert exact <= v + 1e-9, (pos.fen(), a, alpha, beta, v, exact)
                elif v >= beta:
                    assert exact >= v - 1e-9, (pos.fen(), a, alpha, beta, v, exact)
                else:
                    assert abs(v - exact) < 1e-9, (pos.fen(), a, alpha, beta, v, exact)
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("depth, first", [(2, 0), (3, 6), pytest.param(3, 0, marks=pytest.mark.slow)])
def test_a_star2_margin_too_wide_to_reach_cuts_nothing_by_the_probes(depth: int, first: int) -> None:
    """The Star2 margin (``star2_margin``, a knob for the duels): a reveal is cut only when its probes
    miss alpha by more than the margin. With one wider than any value, no probe cuts above the horizon,
    and play finds the best action and value of the search without Star2; with none, Star2's forward
    pruning does change some of them, so the margin is what the search reads. Depth 2 on every test
    position, depth 3 on the quicker half of them (on all of them in the long version)."""
    no_star2 = EVERYTHING & ~S.STAR2
    differ = 0
    for label, pos in load_positions()[first:]:
        bb, s = B.from_position(pos)
        root = sorted(BR.legal_root(bb, s), key=lambda a: -S.order_key(s, a))
        found = {}
        for name, flags, margin in (("wide", EVERYTHING, 1000.0), ("none", EVERYTHING, 0.0), ("off", no_star2, 0.0)):
            ws = BR.Workspace().with_table(1 << 16)
            values, best = BR.search_root(bb, s, root, depth, False, S.new_ctx(star2_margin=margin), WEIGHTS, flags,
                                          ws)
            found[name] = (best, round(values[best], 9))
        assert found["wide"] == found["off"], label
        differ += found["none"] != found["off"]
    assert differ > 0
