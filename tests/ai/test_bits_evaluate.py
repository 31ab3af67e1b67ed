"""The compiled evaluation returns exactly the number of a plain one written tile by tile on the engine's
``Position`` (``plain_search.evaluate``), on positions of every phase."""

from __future__ import annotations

import itertools
import random

import numpy as np

import plain_search
from halali.ai import bits as B
from halali.ai.bits import evaluate as BE
from halali.ai.bits import weights as E
from halali.ai.search_positions import load_positions
from halali.games.forest.actions import REVEAL, TYPE_SHIFT
from halali.games.forest.position import Position
from halali.games.forest.rules import Rules
from halali.games.forest.tiles import UNKNOWN

RULE_SETS = [Rules(stall_limit=n) for n in (30, 3, 0)]


def _weights(rnd: random.Random) -> list[np.ndarray]:
    """The levels' weights, and random ones (every term switched on, the exit race included)."""
    out = [E.WEIGHTS, E.MATERIAL_ONLY]
    for _ in range(2):
        out.append(np.array([rnd.uniform(0.0, 1.5) for _ in range(E.N_WEIGHTS)], dtype=np.float64))
    return out


def test_same_value_as_the_plain_evaluation_on_random_game_positions() -> None:
    rnd = random.Random(17)
    weights = _weights(rnd)
    compared = final = prep = 0
    for game in itertools.count():
        if compared >= 6_000:
            break
        pos = Position.deal(RULE_SETS[game % 3], seed=rnd.randrange(1 << 30)).view()
        if game % 3 == 1:  # fewer tiles: long lines, threats, exits
            for sq in rnd.sample(range(49), rnd.randint(15, 40)):
                pos.board[sq] = 0
            pos._recount()
        while not pos.is_over():
            bb, s = B.from_position(pos)
            for w in weights:
                assert BE.evaluate(bb, s, w) == plain_search.evaluate(pos, w), (pos.fen(), list(w))
            compared += 1
            final += pos.final > 0
            prep += 0 < len(pos.hidden) <= E.PREP_HIDDEN and pos.final < 0
            acts = pos.legal_actions()
            captures = [a for a in acts if a >> TYPE_SHIFT & 7 == 2]
            a = rnd.choice(captures if captures and game % 2 else acts)
            if a >> TYPE_SHIFT & 7 == REVEAL and pos.board[a & 63] == UNKNOWN:
                outcomes = pos.reveal_outcomes(a & 63)
                a = rnd.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            pos.push(a)
    assert final > 500 and prep > 500


def test_same_value_on_the_bench_positions() -> None:
    for _, pos in load_positions():
        bb, s = B.from_position(pos)
        for w in (E.WEIGHTS, E.STRONGEST):
            assert BE.evaluate(bb, s, w) == plain_search.evaluate(pos, w), pos.fen()


def test_a_reveals_outcomes_valued_without_playing_them_are_the_values_after_playing_them() -> None:
    """``evaluate_revealed`` (the search's probes at the horizon): for every outcome of every unknown
    reveal, exactly the evaluation of the state after the reveal, with any weights, wherever
    ``revealed_by_value`` allows it (and it must allow it on most states before the final phase)."""
    from halali.ai.bits.convert import new_rng, new_undo
    from halali.ai.bits.step import make, unmake
    from halali.ai.bits.tables import KIND_CODE, OSHIFT, POOL, UNK

    rnd = random.Random(5)
    weights = _weights(rnd)
    u, rng = new_undo(1), new_rng(1)
    compared = skipped = 0
    for game in range(50):
        pos = Position.deal(RULE_SETS[game % 3], seed=rnd.randrange(1 << 30)).view()
        if game % 3 == 1:
            for sq in rnd.sample(range(49), rnd.randint(15, 40)):
                pos.board[sq] = 0
            pos._recount()
        while not pos.is_over() and pos.hidden:
            bb, s = B.from_position(pos)
            for w in weights:
                if not BE.revealed_by_value(bb, s, w):
                    skipped += 1
                    continue
                lines = BE._lines(bb)
                for sq in rnd.sample(sorted(pos.hidden), min(3, len(pos.hidden))):
                    assert s[sq] == UNK
                    for k in range(7):
                        if s[POOL + k] == 0:
                            continue
                        for h in range(4 if k == 3 else 1):
                            c = int(KIND_CODE[k]) + h
                            make(bb, s, sq | c << OSHIFT, rng, u)
                            played = BE.evaluate(bb, s, w)
                            unmake(bb, s, u)
                            assert BE.evaluate_revealed(bb, s, w, sq, c, *lines) == played, (pos.fen(), sq, c)
                            compared += 1
            acts = pos.legal_actions()
            a = rnd.choice(acts)
            if a >> TYPE_SHIFT & 7 == REVEAL and pos.board[a & 63] == UNKNOWN:
                outcomes = pos.reveal_outcomes(a & 63)
                a = rnd.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            pos.push(a)
    assert compared > 20_000 and skipped < compared / 20
