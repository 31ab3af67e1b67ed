"""Legal-action generation for the forest game, the rules engine's hot path.

Perft and random games call it at every node (``halali bench`` times them), so it never scans the
whole board: it walks the face-up squares and adds the face-down ones, both kept up to date by
``Position.push`` and ``pop``, and binds what it reads to local names. ``explain.py`` is its slow
counterpart, which says why an action is not among these; the tests hold the two to each other,
and both to a reference written from the rule book (``tests/games/forest/test_perft.py``).

It reads a position as the :class:`PositionFields` it is built on (``fields.py``), so that this
module does not import ``position.py``, whose ``Position.legal_actions`` calls it.
"""

from __future__ import annotations

from halali.games.forest.actions import CAPTURE, EXIT, MOVE, PASS_ACTION, TYPE_SHIFT, Action
from halali.games.forest.fields import PositionFields
from halali.games.forest.tiles import CAPTURES, EXIT_PATHS, EXIT_SQUARE, MOVABLE, NEIGHBOURS, OWNER, RAYS, STEPS_ONE

_MOVE = MOVE << TYPE_SHIFT
_CAPTURE = CAPTURE << TYPE_SHIFT
_EXIT = EXIT << TYPE_SHIFT


def is_over(pos: PositionFields) -> bool:
    """The game has ended: the final turns are used up, or every tile is revealed and a side has none left."""
    return pos.final == 0 or (not pos.hidden and (pos.own[0] == 0 or pos.own[1] == 0))


def legal_actions(pos: PositionFields) -> list[Action]:
    """Every legal action, reveals without outcome (a chance node when the tile is unknown)."""
    hidden = pos.hidden
    final = pos.final
    if final == 0 or (not hidden and (pos.own[0] == 0 or pos.own[1] == 0)):
        return []
    acts: list[Action] = list(hidden)
    limit = pos.rules.stall_limit
    if hidden and limit and pos.stall >= limit:
        return acts
    b = pos.board
    p = pos.turn
    movable = MOVABLE[p]
    lock = pos.lock
    append = acts.append
    for sq in pos.up:
        c = b[sq]
        if not movable[c] or sq == lock:
            continue
        capt = CAPTURES[c]
        base = sq << 6
        if STEPS_ONE[c]:
            for d, t in NEIGHBOURS[sq]:
                tc = b[t]
                if tc == 0:
                    append(_MOVE | base | t)
                elif capt[d][tc]:
                    append(_CAPTURE | base | t)
        else:
            d = 0
            for ray in RAYS[sq]:
                cd = capt[d]
                for t in ray:
                    tc = b[t]
                    if tc == 0:
                        append(_MOVE | base | t)
                    else:
                        if cd[tc]:
                            append(_CAPTURE | base | t)
                        break
                d += 1
        if final > 0 and OWNER[c] == p:
            for d, path in EXIT_PATHS[sq]:
                if STEPS_ONE[c] and sq != EXIT_SQUARE[d]:
                    continue
                for t in path:
                    if b[t]:
                        break
                else:
                    append(_EXIT | base | d)
    forbid = pos.last_move[p]
    if forbid >= 0:
        back = (forbid & 63) << 6 | forbid >> 6
        if _MOVE | back in acts:
            acts.remove(_MOVE | back)
        elif _CAPTURE | back in acts:
            acts.remove(_CAPTURE | back)
    if not acts:
        acts.append(PASS_ACTION)
    return acts
