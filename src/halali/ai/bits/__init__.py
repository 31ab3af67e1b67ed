"""The compiled kernel: the forest rules on 49-bit words, for search and random playouts.

The pure engine (``halali.games.forest``) is the reference of the rules; this is the one compiled
copy of them, because search needs millions of positions a second and the pure engine gives about
a hundred thousand. numba compiles it to machine code on first use and keeps the result on disk
(``jitcache``, which every compiled module runs first, keeps that cache in step with the sources). A
state is two arrays: ``bb`` (uint64) holds one bitboard per face-up tile code (each kind belongs
to one side, hunters by rifle), the face-down squares, the empty squares and the Zobrist key; ``s``
(int32) is the mailbox board and the counters. Actions keep the engine's integer coding, so nothing
is translated at the boundary.

- ``tables``: layout, masks, rays and exits, Zobrist table, popcount and bit scans, raw pointers;
- ``rng``: the random numbers and the draw of an unknown tile from the pool;
- ``gen``: legal actions (captures first) and the captures alone, for quiescence;
- ``step``: make and unmake in place with an undo record and an incremental key; ``play``;
- ``rollout``: random playouts that draw a uniform action without listing them;
- ``convert``: from and to ``Position``;
- ``weights``, ``evaluate``: the static evaluation and its weights;
- ``flags``, ``search_parts``, ``search``, ``root``: the expectimax search the levels use (its flags,
  clock and ordering, the compiled tree, and its Python side: buffers and the root loop);
- ``check``: the kernel's incremental state against its state from scratch, for the tests.

The entry points for the rest of the project are the names below, ``root.Workspace``,
``root.search_root``, ``root.legal_root``, ``evaluate.evaluate`` and ``flags`` and the ``new_ctx`` of
``search_parts``; ``halali.ai.search_bots`` is the bots' way in. ``tests/ai/test_bits_differential.py``
proves the kernel plays the engine's rules, ``test_bits_evaluate.py`` and ``test_ai_search.py`` hold
the evaluation and the search to plain versions written on the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# Where each name below lives. They are imported on first use, not with the package: its pure parts
# (``flags``, ``weights``) serve the levels' table, and a process that never searches (the server,
# the command line) then does not import numba (about half a second of CPU at every start).
_HOMES = {
    "from_position": "convert", "new_rng": "convert", "new_undo": "convert", "set_rules": "convert",
    "to_position": "convert", "gen_actions": "gen", "gen_captures": "gen", "is_over": "gen",
    "playout": "rollout", "playouts": "rollout", "random_action": "rollout", "key_of": "step",
    "make": "step", "play": "step", "rebuild": "step", "unmake": "step",
}
__all__ = [
    "from_position", "gen_actions", "gen_captures", "is_over", "key_of", "make", "new_rng", "new_undo",
    "play", "playout", "playouts", "random_action", "rebuild", "set_rules", "to_position", "unmake",
]

if TYPE_CHECKING:
    from halali.ai.bits.convert import from_position, new_rng, new_undo, set_rules, to_position
    from halali.ai.bits.gen import gen_actions, gen_captures, is_over
    from halali.ai.bits.rollout import playout, playouts, random_action
    from halali.ai.bits.step import key_of, make, play, rebuild, unmake


def __getattr__(name: str) -> Any:
    """``bits.make`` and the other names above, from their modules (each of which runs ``jitcache``
    before it compiles anything)."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value
