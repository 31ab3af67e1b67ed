"""The hare hunt's dice: what a roll may show, with what probability, and which roll comes next.

The dice come from the state itself: a game holds a 128-bit secret, and its n-th roll is derived
from that secret and n. So a state is a plain value (its full text restores it exactly, a replay
needs no random source), while nobody without the secret can predict a roll.
"""

from __future__ import annotations

import hashlib

from halali.games.hare.actions import FACES

_FACE_P = {0: 1 / 6, 1: 1 / 6, 2: 2 / 6, 3: 1 / 6, 4: 1 / 6}
ROLL_OUTCOMES: tuple[tuple[tuple[int, int], float], ...] = tuple(
    ((a, b), _FACE_P[a] * _FACE_P[b] * (1 if a == b else 2)) for a in range(5) for b in range(a, 5)
)
"""Every roll of two dice (smaller face first) with its probability."""


def dice_from_secret(secret: int, n: int) -> tuple[int, int]:
    """The n-th roll of a game whose dice secret is ``secret`` (smaller face first)."""
    h = hashlib.sha256(f"halali-hare:{secret:032x}:{n}".encode()).digest()
    a = FACES[int.from_bytes(h[:8], "big") % 6]
    b = FACES[int.from_bytes(h[8:16], "big") % 6]
    return (a, b) if a <= b else (b, a)
