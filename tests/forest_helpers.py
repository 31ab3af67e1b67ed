"""Hand-built forest positions for the rules tests: a position from its text, its legal actions,
actions played and refused; and for the server tests, the deals of a seeded table and the check that
a game message shows only what is public."""

from __future__ import annotations

import random
from typing import Any

import pytest

from halali.games.errors import IllegalAction
from halali.games.forest import DEFAULT_RULES, Position, parse_position
from halali.games.forest.rules import Rules


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


def deals_for(seed: int, rules: Rules = DEFAULT_RULES) -> list[Position]:
    """The deals a seeded table must use: drawn one after another from random.Random(seed)."""
    rng = random.Random(seed)
    return [Position.deal(rules, rng) for _ in range(1 if rules.match == "single" else 2)]


def all_games(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every game in these messages: a ``game`` message's, and each of a whole ``table``'s."""
    out = []
    for m in msgs:
        if m["type"] == "game":
            out.append(m["game"])
        elif m["type"] == "table":
            out.extend(m["games"])
    return out


def assert_public(g: dict[str, Any], deals: list[Position]) -> None:
    """A game as the server sent it shows the public view of the true position after its history, no
    face-down tile, no legal action that names one, and the deal only once the game is over."""
    truth = deals[g["number"] - 1].copy()
    for a in g["history"]:
        truth.play(a)
    assert g["position"] == truth.view().fen()
    assert not any(ch.islower() for ch in g["position"].split(" ")[0])
    assert all("=" not in a for a in g["legal"])
    assert g["deal"] == (deals[g["number"] - 1].fen() if g["over"] else None)
