"""The fields of a forest position, declared once.

``Position`` (``position.py``) calls the rules modules (``movegen.py``, ``pushpop.py``,
``chance.py``), so they cannot import it back; yet they read and change its fields and their type
hints have to name them. :class:`PositionFields` is where those fields and their types are written:
``Position`` subclasses it, and the rules modules type their argument with it, importing this module
instead of ``position.py``. It has no behaviour of its own; its ``__slots__`` are what keep a
position free of an instance ``__dict__``.
"""

from __future__ import annotations

from halali.games.forest.actions import Action
from halali.games.forest.rules import Rules


class PositionFields:
    """What a forest position holds, all but ``Position``'s stack of what ``pop`` needs.

    ``Position.__init__`` gives every field its starting value; this class sets none.
    """

    __slots__ = (
        "board", "captured", "exited", "final", "hidden", "last_action", "last_move", "lock",
        "ntiles", "own", "rules", "score", "stall", "turn", "up",
    )

    board: list[int]
    turn: int
    last_move: list[int]
    lock: int
    final: int
    stall: int
    captured: list[list[int]]
    exited: list[list[int]]
    score: list[int]
    ntiles: list[int]
    hidden: set[int]
    up: set[int]
    own: list[int]
    rules: Rules
    last_action: Action | None
