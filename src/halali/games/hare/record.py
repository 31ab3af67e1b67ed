"""Whole hunts: one played out at random, and the positions a record passes through.

These work on a record or a whole game rather than on one position, so they sit beside the state
instead of in it: ``replay`` and ``open_positions`` read a record through ``notation.py``, which is
built on the state, and ``random_game`` is the tests' and benchmarks' source of complete hunts.
"""

from __future__ import annotations

import random

from halali.games.errors import IllegalAction
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


def open_positions(record: str) -> list[str]:
    """Every position of a hunt's record, the start first, with every club shown and the dice secret
    removed: what a replay may show once the hunt is over (and only then: the caller checks)."""
    start, actions = parse_record(record)
    st = start
    out = []
    for text in [None, *actions]:
        if text is not None:
            st.play(text)
        shown = st.copy()
        shown.secret = None
        shown.start = None
        out.append(shown.fen())
    return out
