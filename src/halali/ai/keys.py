"""The Zobrist table that both kernels key positions with: the array search (``search_parts.zobrist``)
and the bitboard kernel (``bits.tables.ZT``, kept incrementally). One table, so that a search on
either kernel finds the same transpositions and the two can be compared key for key.
"""

from __future__ import annotations

import numpy as np

Z = np.random.default_rng(20240611).integers(1, 2**63 - 1, size=49 * 33 + 2 + 2 * 4097 + 50 + 12 + 64 + 2 * 200
                                              + 7 * 16, dtype=np.int64)
Z_TURN = 49 * 33
Z_LM = Z_TURN + 2
Z_LOCK = Z_LM + 2 * 4097
Z_FINAL = Z_LOCK + 50
Z_STALL = Z_FINAL + 12
Z_SCORE = Z_STALL + 64
Z_POOL = Z_SCORE + 2 * 200
