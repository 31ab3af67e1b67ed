"""Bots decide from the public view only: two deals that look the same get the same decision.

A twin of a game position keeps every face-up tile, pile and counter but shuffles the identities of
the face-down tiles (rifles redrawn). Both are handed to each level, as views and also as full
positions that know the deal (a bot must strip those itself); with the same seed and the same node
budget every level must choose the same action for both.
"""

from __future__ import annotations

import random

import pytest

from halali.ai.registry import LEVELS, make_bot
from halali.ai.search_bots import SearchBot
from halali.games.forest.position import Position
from halali.games.forest.tiles import HIDDEN, HUNTERS

NODES = 20_000


def _game_position(seed: int, plies: int) -> Position:
    rng = random.Random(seed)
    pos = Position.deal(seed=seed)
    for _ in range(plies):
        acts = pos.legal_actions()
        if not acts or len(pos.hidden) < 6:
            break
        captures = [a for a in acts if a >> 12 & 7 == 2]
        pos.push(rng.choice(captures or acts))
    return pos


def _twin(pos: Position, seed: int) -> Position:
    """The same public position over a different deal."""
    rng = random.Random(seed)
    twin = pos.copy()
    squares = sorted(twin.hidden)
    codes = [twin.board[s] - HIDDEN for s in squares]
    for _ in range(100):
        rng.shuffle(codes)
        codes = [HUNTERS[rng.randrange(4)] if c in HUNTERS else c for c in codes]
        if any(twin.board[s] - HIDDEN != c for s, c in zip(squares, codes, strict=True)):
            break
    for s, c in zip(squares, codes, strict=True):
        twin.board[s] = c + HIDDEN
    return twin


def _decide(level: int, pos: Position, seed: int) -> str:
    bot = make_bot(level, seed)
    if isinstance(bot, SearchBot):
        return pos.action_str(bot.think(pos, nodes=NODES).action)
    return pos.action_str(bot.choose(pos))


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_public_view_same_decision_whatever_the_deal(level: int) -> None:
    for case, plies in enumerate((0, 12, 40)):
        pos = _game_position(100 + case, plies)
        twin = _twin(pos, case)
        assert twin.fen() != pos.fen()  # really another deal
        assert twin.public_fen() == pos.public_fen()  # that looks the same
        for seed in (1, 2):
            from_view = _decide(level, pos.view(), seed)
            assert _decide(level, twin.view(), seed) == from_view
            # Handed the secret by mistake, a bot still must not use it.
            assert _decide(level, pos, seed) == from_view
            assert _decide(level, twin, seed) == from_view
