"""The bitboard kernel: the forest rules on 49-bit words, compiled, for search and playouts.

The pure engine (``halali.games.forest``) is the reference and the array kernel
(``halali.ai.kernel``) its first compiled copy; this is the second, built for speed. A state is two
arrays: ``bb`` (uint64) holds one bitboard per face-up tile code (each kind belongs to one side,
hunters by rifle), the face-down squares, the empty squares and the Zobrist key; ``s`` (int32) is
the mailbox board and the counters in the array kernel's layout. Actions keep the engine's integer
coding, so nothing is translated at the boundary.

- ``tables``: layout, masks, rays and exits, Zobrist table, popcount and bit scans, raw pointers;
- ``rng``: the random numbers and the draw of an unknown tile from the pool;
- ``gen``: legal actions (captures first) and the captures alone, for quiescence;
- ``step``: make and unmake in place with an undo record and an incremental key; ``play``;
- ``rollout``: random playouts that draw a uniform action without listing them;
- ``convert``: from and to ``Position``;
- ``evaluate``, ``search``, ``root``: the search of ``halali.ai.search`` on this kernel (the
  evaluation on bitboards, the compiled tree, and its Python side), which the levels use;
- ``check``: the compiled cross-check against the array kernel, for the tests.

``tests/ai/test_bits_differential.py`` proves it plays the same rules as the engine, and
``test_bits_search.py`` that its search finds what the array kernel's does.
"""

from halali.ai.bits.convert import from_position, new_rng, new_undo, set_rules, to_position
from halali.ai.bits.gen import gen_actions, gen_captures, is_over
from halali.ai.bits.rollout import playout, playouts, random_action
from halali.ai.bits.step import key_of, make, play, rebuild, unmake

__all__ = [
    "from_position", "gen_actions", "gen_captures", "is_over", "key_of", "make", "new_rng", "new_undo",
    "play", "playout", "playouts", "random_action", "rebuild", "set_rules", "to_position", "unmake",
]
