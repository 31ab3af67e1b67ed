"""Hand-built forest positions for the rules tests: a position from its text, its legal actions,
actions played and refused."""

from __future__ import annotations

import pytest

from halali.games.errors import IllegalAction
from halali.games.forest import DEFAULT_RULES, Position, parse_position


def position(text: str, **options: str) -> Position:
    """A position from forest notation, under the default rules changed by ``options``."""
    return parse_position(text, DEFAULT_RULES.with_options(options))


def legal(pos: Position) -> list[str]:
    """The legal actions, written out and sorted."""
    return sorted(pos.action_str(a) for a in pos.legal_actions())


def play(pos: Position, *actions: str) -> Position:
    """Play the actions one after another; the same position, changed."""
    for action in actions:
        pos.play(action)
    return pos


def rejects(pos: Position, action: str, *words: str) -> str:
    """Play ``action``, expect IllegalAction naming ``words``, and check nothing changed; the message."""
    before = pos.fen()
    with pytest.raises(IllegalAction) as info:
        pos.play(action)
    assert pos.fen() == before
    message = str(info.value)
    for word in words:
        assert word in message, message
    return message


def random_record(seed: int) -> str:
    """The record (with its deal) of a whole game of random legal actions, reproducible by ``seed``."""
    import random

    from halali.games.forest.record import record_of

    pos = Position.deal(seed=seed)
    start, actions, rng = pos.copy(), [], random.Random(seed)
    while not pos.is_over():
        actions.append(rng.choice(pos.legal_actions()))
        pos.push(actions[-1])
    return record_of(start, actions, {"Deal": start.fen()}).format()
