"""Whole hunts: one played out at random, and the positions a record passes through.

These work on a record or a whole game rather than on one position, so they sit beside the state
instead of in it: ``replay`` and ``open_positions`` read a record through ``notation.py``, which is
built on the state, and ``random_game`` is the tests' and benchmarks' source of complete hunts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from halali.games.errors import IllegalAction
from halali.games.hare.events import consequences
from halali.games.hare.notation import parse_record
from halali.games.hare.rules import DEFAULT_RULES, HareRules
from halali.games.hare.state import HareState


def random_game(players: int = 2, rules: HareRules = DEFAULT_RULES, seed: int = 0,
                max_actions: int = 1_000_000) -> HareState:
    """A whole hunt with uniformly random choices (for tests and benchmarks)."""
    rng = random.Random(seed)
    st = HareState.new(players, rules, rng)
    n = 0
    while not st.is_over() and n < max_actions:
        st.push(rng.choice(st.legal_actions()))
        n += 1
    return st


def replay(record: str) -> HareState:
    """The state at the end of a record (``START ; ACTIONS``), every action checked."""
    start, actions = parse_record(record)
    st = start
    st.start = start.fen()
    for i, text in enumerate(actions, 1):
        try:
            st.play(text)
        except IllegalAction as exc:
            raise IllegalAction(f"action {i} of the record ({text}): {exc}", exc.key, exc.params) from exc
    return st


@dataclass
class Retold:
    """A record played again: the state at its end, who played each action, what each brought about
    (``events.consequences``, by index, only where there is something), and with ``positions`` every
    position the start first, all clubs shown and no dice secret."""

    state: HareState
    movers: list[int] = field(default_factory=list)
    events: dict[int, dict[str, Any]] = field(default_factory=dict)
    positions: list[str] = field(default_factory=list)


def retell(record: str, positions: bool = False) -> Retold:
    """``replay`` with the movers and the events, every action checked; ``positions`` also gives the
    open positions, which a replay may show once the hunt is over (and only then: the caller checks)."""
    start, actions = parse_record(record)
    st = start
    st.start = start.fen()
    told = Retold(st)
    if positions:
        told.positions.append(_open(st))
    for i, text in enumerate(actions, 1):
        before = st.copy(history=False)
        try:
            st.play(text)
        except IllegalAction as exc:
            raise IllegalAction(f"action {i} of the record ({text}): {exc}", exc.key, exc.params) from exc
        told.movers.append(before.to_move)
        event = consequences(before, st, st.history[-1])
        if event:
            told.events[i - 1] = event
        if positions:
            told.positions.append(_open(st))
    return told


def _open(st: HareState) -> str:
    shown = st.copy(history=False)
    shown.secret = None
    return shown.fen()


def open_positions(record: str) -> list[str]:
    """Every position of a hunt's record, the start first, with every club shown and the dice secret
    removed: what a replay may show once the hunt is over (and only then: the caller checks)."""
    return retell(record, positions=True).positions
