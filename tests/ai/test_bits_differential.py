"""The bitboard kernel plays exactly the engine's rules: against the array kernel in bulk, against the
pure engine directly on a sample.

The bulk runs in compiled code (``halali.ai.bits.check.walk``): uniformly random games (and games
that prefer captures, so that a side is wiped out now and then) under all twelve combinations of
the rule options that change legality (both green-lock options, no-return for neutrals on and off,
stall limits 30, 3 and off), on known deals and on players' views, from full deals and from deals
with fewer tiles. At each of more than 100,000 positions the two compiled kernels must agree on
every state field; the bitboards and the incremental key must equal those built from scratch
(``key_of``); the legal-action sets must be equal (each class of actions in the array kernel's
relative order, captures first, the captures-only list a prefix of it); and the random playout's
draw must reach exactly the legal actions. The action played, and every action of every third
position, is made, compared field by field, unmade (which must restore every word) and played
without key; at the end of each game every action is unmade back to the deal. The array kernel
itself is held to the engine by ``test_kernel_differential.py``.

The sample compares the bitboard kernel with ``Position`` itself, with no kernel in between: legal
actions, the captures-only list, and the state after an action equal to the state built from the
engine's position after it, its key equal to the search's ``zobrist``.
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from halali.ai import bits as B
from halali.ai import kernel as K
from halali.ai import search_parts
from halali.ai.bits import check as C
from halali.ai.bits import tables as T
from halali.games.forest.actions import CAPTURE, EXIT, OUTCOME_SHIFT, PASS_ACTION, REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import HIDDEN, UNKNOWN

RULE_SETS = [
    Rules(green_lock=g, no_return_neutrals=n, stall_limit=s)
    for g, n, s in itertools.product(("revealed_or_moved", "revealed_only"), (False, True), (30, 3, 0))
]
NAMES = ("positions", "children", "final", "lock", "forced", "no_return", "exits", "pass", "wiped",
         "unknown reveals", "captures", "unwound")


def test_bitboard_kernel_agrees_with_the_array_kernel_on_100000_positions() -> None:
    rnd = random.Random(20260611)
    stats = np.zeros(C.N_STATS, dtype=np.int64)
    fail = np.zeros(3, dtype=np.int64)
    game = 0
    while stats[C.S_POSITIONS] < 100_000:
        rules = RULE_SETS[game % len(RULE_SETS)]
        pos = Position.deal(rules, seed=rnd.randrange(1 << 30))
        if game % 4 == 1:  # fewer tiles: long slides, exits, and sides wiped out
            for sq in rnd.sample(range(49), rnd.randint(15, 40)):
                pos.board[sq] = 0
            pos._recount()
        if game // len(RULE_SETS) % 2:
            pos = pos.view()
        bb, s = B.from_position(pos)
        ok = C.walk(bb, s, B.new_rng(game), 3, game % 3 == 2, stats, fail)
        assert ok, (int(fail[0]), int(fail[1]), pos.action_str(int(fail[2])) if fail[2] >= 0 else None,
                    B.to_position(s, rules).fen(), rules)
        game += 1
    seen = dict(zip(NAMES, (int(v) for v in stats), strict=True))
    print(game, "games", seen)
    assert seen["children"] > 500_000 and seen["unwound"] > 90_000
    assert all(v >= 10 for v in seen.values()), seen


def _with_outcome(truth: Position, pos: Position, a: int) -> int:
    """In a view a reveal needs its outcome: take it from the true deal."""
    if a >> TYPE_SHIFT & 7 == REVEAL and pos.board[a & 63] == UNKNOWN:
        return a | (truth.board[a & 63] - HIDDEN) << OUTCOME_SHIFT
    return a


def _assert_state(bb: np.ndarray, s: np.ndarray, pos: Position) -> None:
    want_bb, want_s = B.from_position(pos)
    assert np.array_equal(s, want_s), (pos.fen(), np.nonzero(s != want_s))
    assert np.array_equal(bb, want_bb), (pos.fen(), np.nonzero(bb != want_bb))
    assert np.int64(bb[T.B_KEY]) == search_parts.zobrist(K.from_position(pos))


def _check_child(pos: Position, bb: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, u: np.ndarray) -> None:
    before = bb.copy(), s.copy()
    pos.push(a)
    B.make(bb, s, a, rng, u)
    _assert_state(bb, s, pos)
    pos.pop()
    B.unmake(bb, s, u)
    assert np.array_equal(bb, before[0]) and np.array_equal(s, before[1]), pos.fen()


def test_bitboard_kernel_agrees_with_the_engine_on_a_sample() -> None:
    rnd = random.Random(611)
    rng = B.new_rng(7)
    u = B.new_undo(1)[0]
    out = np.empty(T.MAX_ACTIONS, dtype=np.int32)
    positions = children = game = 0
    while positions < 4_000:
        rules = RULE_SETS[game % len(RULE_SETS)]
        truth = Position.deal(rules, seed=rnd.randrange(1 << 30))
        pos = truth.view() if game % 2 else truth.copy()
        game += 1
        bb, s = B.from_position(pos)
        step = 0
        while True:
            _assert_state(bb, s, pos)
            legal = pos.legal_actions()
            n = B.gen_actions(bb, s, out)
            assert sorted(int(a) for a in out[:n]) == sorted(legal), pos.fen()
            m = B.gen_captures(bb, s, out)
            assert sorted(int(a) for a in out[:m]) == sorted(a for a in legal if a >> TYPE_SHIFT & 7 in (CAPTURE, EXIT))
            assert B.is_over(s) == pos.is_over()
            positions += 1
            if not legal:
                break
            if step % 3 == 0:
                for a in legal:
                    _check_child(pos, bb, s, _with_outcome(truth, pos, a), rng, u)
                    children += 1
            a = _with_outcome(truth, pos, rnd.choice(legal))
            truth.push(a & ((1 << OUTCOME_SHIFT) - 1))
            pos.push(a)
            B.make(bb, s, a, rng, u)
            step += 1
    assert children > 20_000


def test_passes_ends_and_long_stalls_match_the_engine() -> None:
    rng = B.new_rng(3)
    u = B.new_undo(1)[0]
    out = np.empty(T.MAX_ACTIONS, dtype=np.int32)
    passes = ends = 0
    no_stall = Rules(stall_limit=0)
    for text, rules in (
        ("7/7/7/7/L6/T6/BT5 blue - - - 6 0 - -", Rules()),  # the bear is walled in by trees: pass
        ("7/7/7/7/L6/T6/BT5 brown - - - 5 0 - -", Rules()),  # brown can move the lumberjack
        ("7/7/7/7/7/D6/BT4L blue - - a2 5 0 - -", Rules()),  # the duck is locked: pass
        ("7/7/7/7/7/F6/N6 brown - - - 5 0 - -", Rules()),  # capturing the last fox ends the game at once
        ("7/7/7/7/7/7/Ft5 blue - - - - 0 - -", Rules()),  # the last reveal leaves brown nothing: over
        ("3B3/7/7/B6/7/7/3L3 blue - - - 3 70 - -", Rules()),  # bears step out at the exits
        ("7/7/3D3/7/7/2t4/F6 blue - - - - 63 - -", no_stall),  # the key's stall count stops at 63
        ("7/7/3D3/7/7/2t4/F6 brown - - - - 62 - -", no_stall),
    ):
        pos = Position.from_fen(text, rules)
        bb, s = B.from_position(pos)
        n = B.gen_actions(bb, s, out)
        assert sorted(int(a) for a in out[:n]) == sorted(pos.legal_actions()), text
        passes += pos.legal_actions() == [PASS_ACTION]
        for a in pos.legal_actions():
            _check_child(pos, bb, s, a, rng, u)
            pos.push(a)
            ends += pos.is_over() and pos.final != 0
            pos.pop()
    assert passes == 2 and ends >= 2


def test_the_key_table_is_the_search_table() -> None:
    """The same keys as ``search_parts.zobrist``: a search on this kernel finds the same transpositions."""
    assert np.array_equal(T.ZT.view(np.int64), search_parts.Z)
