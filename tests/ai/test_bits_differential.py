"""The kernel plays exactly the engine's rules: against the pure engine directly, and against itself in bulk.

Against the engine (``Position``, the reference of the rules), with nothing in between: positions
of uniformly random games (and of games that prefer captures, so that a side is wiped out now and
then) under all twelve combinations of the rule options that change legality (both green-lock
options, no-return for neutrals on and off, stall limits 30, 3 and off, so that the forced reveal
happens often), on known deals and on players' views (reveals carry their outcome), from full deals
and from deals with fewer tiles. At every position the legal actions, the captures-only list and the
end of the game must be the engine's; for the action played, and for every action of every third
position, the state after ``make`` must equal the state built from the engine's position after it,
field by field, bitboards and key included, and ``unmake`` must restore every word.

In bulk, in compiled code (``halali.ai.bits.check.walk``), on more than 100,000 positions of such
games: what the kernel keeps incrementally against what it computes from scratch (the bitboards and
the key against ``rebuild``, the captures-only list and the random playout's draw against the full
list, ``unmake`` against the state before, ``play`` against ``make``), and at the end of each game
every action unmade back to the deal.
"""

from __future__ import annotations

import itertools
import random

import numpy as np

from halali.ai import bits as B
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


def test_the_kernel_keeps_its_state_consistent_on_100000_positions() -> None:
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
    # A forced pass is rare in random games (a handful in 100,000 positions); the positions built for it
    # are in test_passes_ends_and_long_stalls_match_the_engine.
    assert seen["pass"] >= 3 and all(v >= 10 for k, v in seen.items() if k != "pass"), seen


def _with_outcome(truth: Position, pos: Position, a: int) -> int:
    """In a view a reveal needs its outcome: take it from the true deal."""
    if a >> TYPE_SHIFT & 7 == REVEAL and pos.board[a & 63] == UNKNOWN:
        return a | (truth.board[a & 63] - HIDDEN) << OUTCOME_SHIFT
    return a


def _assert_state(bb: np.ndarray, s: np.ndarray, pos: Position) -> None:
    want_bb, want_s = B.from_position(pos)
    assert np.array_equal(s, want_s), (pos.fen(), np.nonzero(s != want_s))
    assert np.array_equal(bb, want_bb), (pos.fen(), np.nonzero(bb != want_bb))


def _check_child(pos: Position, bb: np.ndarray, s: np.ndarray, a: int, rng: np.ndarray, u: np.ndarray) -> None:
    before = bb.copy(), s.copy()
    pos.push(a)
    B.make(bb, s, a, rng, u)
    _assert_state(bb, s, pos)
    pos.pop()
    B.unmake(bb, s, u)
    assert np.array_equal(bb, before[0]) and np.array_equal(s, before[1]), pos.fen()


def _fewer_tiles(pos: Position, rnd: random.Random) -> Position:
    """The deal with 15 to 40 tiles taken off: long slides, exits, and sides wiped out."""
    for sq in rnd.sample(range(49), rnd.randint(15, 40)):
        pos.board[sq] = 0
    pos._recount()
    return pos


def test_the_kernel_agrees_with_the_engine_on_random_game_positions() -> None:
    rnd = random.Random(20240611)
    rng = B.new_rng(5)
    u = B.new_undo(1)[0]
    out = np.empty(T.MAX_ACTIONS, dtype=np.int32)
    positions = children = game = 0
    seen = {"final": 0, "lock": 0, "forced": 0, "no_return": 0, "exit": 0, "view": 0, "wiped": 0}
    while positions < 10_500:
        rules = RULE_SETS[game % len(RULE_SETS)]
        truth = Position.deal(rules, seed=rnd.randrange(1 << 30))
        as_view = game % 4 == 3
        if game % 2 == 1 and not as_view:  # (a view's pool of unknown tiles would count the tiles taken off)
            truth = _fewer_tiles(truth, rnd)
        pos = truth.view() if as_view else truth.copy()
        greedy = game % 3 == 2  # capture-happy games wipe a side out more often
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
            seen["view"] += as_view
            seen["final"] += pos.final >= 0
            seen["lock"] += pos.lock >= 0
            seen["no_return"] += pos.last_move[pos.turn] >= 0
            seen["forced"] += bool(pos.hidden) and 0 < rules.stall_limit <= pos.stall
            seen["exit"] += any(a >> TYPE_SHIFT & 7 == EXIT for a in legal)
            if not legal:
                seen["wiped"] += pos.final != 0
                break
            if step % 3 == 0:
                for a in legal:
                    _check_child(pos, bb, s, _with_outcome(truth, pos, a), rng, u)
                    children += 1
            captures = [a for a in legal if a >> TYPE_SHIFT & 7 == CAPTURE]
            a = _with_outcome(truth, pos, rnd.choice(captures if captures and greedy else legal))
            truth.push(a & ((1 << OUTCOME_SHIFT) - 1))
            pos.push(a)
            B.make(bb, s, a, rng, u)
            step += 1
    assert children > 50_000
    # The positions really exercise the rules the kernel could get wrong (games, not positions, end
    # with a side wiped out).
    assert seen["wiped"] >= 5 and all(count > 50 for key, count in seen.items() if key != "wiped"), seen


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
